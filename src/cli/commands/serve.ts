/**
 * `gomoku serve [--port 8080] [--host 127.0.0.1] [--book FILE] [--open]`: the web analysis
 * board. Prints one line with the address, then serves until Ctrl-C (or SIGTERM).
 */
import { spawn } from 'node:child_process';
import { relative } from 'node:path';
import type { CommandModule } from 'yargs';
import { CliError, fail } from '../common.js';
import { parseOwnArgs } from '../own-args.js';
import { BOOK_OPTION } from '../book-option.js';
import { defaultBookPath } from '../../book/paths.js';
import { BookStore } from '../../book/store.js';
import { startServer } from '../serve/server.js';
import { packageVersion } from '../version.js';

function intOption(name: string, v: unknown, lo: number, hi: number): number {
  const n = typeof v === 'number' ? v : /^\s*\d+\s*$/.test(String(v)) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < lo || n > hi) fail(`--${name} must be an integer in ${lo}..${hi}, got '${String(v)}'`);
  return n;
}

/** Open the page in the desktop's browser; a failure is a warning, the server goes on. */
function openBrowser(url: string): void {
  const [cmd, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args, { detached: true, stdio: 'ignore' });
    child.on('error', (e) => process.stderr.write(`gomoku: cannot open a browser (${cmd}: ${e.message}); open ${url} yourself\n`));
    child.unref();
  } catch (e) {
    process.stderr.write(`gomoku: cannot open a browser (${(e as Error).message}); open ${url} yourself\n`);
  }
}

/** The options of `serve`, read by the yargs builder (help) and by main.ts's fast path (own-args.ts). */
const SERVE_OPTIONS = {
  port: { type: 'number', default: 8080, requiresArg: true, describe: 'TCP port (0: any free port)' },
  host: { type: 'string', default: '127.0.0.1', requiresArg: true, describe: 'address to listen on (other than loopback: reachable from other machines)' },
  book: BOOK_OPTION,
  open: { type: 'boolean', default: false, describe: 'open the page in the default browser' },
  'max-searches': { type: 'number', default: 2, requiresArg: true, describe: 'searches at once, over all pages (each one a worker thread)' },
  'max-time': {
    type: 'number',
    default: 120_000,
    requiresArg: true,
    describe: 'the longest time in ms one search may ask for (analysis runs this long unless stopped)',
  },
  seed: { type: 'string', default: 'gomoku-tss', requiresArg: true, describe: 'seed for the engine and the Swap2 decisions' },
} as const;

export const command: CommandModule = {
  command: 'serve',
  describe: 'the web analysis board: play, analyse, solve and browse the book in a browser',
  builder: (y) =>
    Object.entries(SERVE_OPTIONS)
      .reduce((yy, [name, o]) => yy.option(name, o), y)
      .example('$0 serve', 'then open http://127.0.0.1:8080/')
      .example('$0 serve --port 9000 --book my-book.db --open', 'another port, your own book, open the browser'),
  handler: (argv) => serveMain(argv as Record<string, unknown>),
};

/** main.ts's fast path for `gomoku serve ...` (args after the word `serve`). */
export async function runServeCommand(args: string[]): Promise<void> {
  const r = parseOwnArgs(args, SERVE_OPTIONS, 0);
  if (!r.ok) throw new CliError(r.error);
  await serveMain(r.value.values);
}

async function serveMain(a: Record<string, unknown>): Promise<void> {
  const port = intOption('port', a.port, 0, 65535);
  const maxSearches = intOption('max-searches', a.maxSearches, 1, 64);
  const maxTimeMs = intOption('max-time', a.maxTime, 100, 24 * 3600 * 1000);
  const host = String(a.host);
  if (host.trim() === '') fail('--host must name an address');
  let book: string | undefined = a.book === undefined ? defaultBookPath() : String(a.book);
  if (book === 'none' || book === '') book = undefined;
  let bookStore: BookStore | undefined;
  if (book !== undefined) {
    const opened = BookStore.open(book, { readonly: true, busyTimeoutMs: 100 });
    if (opened.ok) bookStore = opened.value;
    else {
      process.stderr.write(`gomoku: no opening book: ${opened.error}\n`);
      book = undefined;
    }
  }
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({ host, port, book, bookStore, maxSearches, maxTimeMs, seed: String(a.seed), version: packageVersion(), updatesPerSecond: 8 });
  } catch (e) {
    bookStore?.close();
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE') throw new CliError(`cannot listen on ${host}:${port}: the port is in use (choose another with --port)`);
    if (err.code === 'EACCES') throw new CliError(`cannot listen on ${host}:${port}: permission denied (choose a port above 1023)`);
    if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') throw new CliError(`cannot listen on ${host}: no such address on this machine`);
    throw new CliError(err.message);
  }
  const shownBook = book === undefined ? 'none' : relative(process.cwd(), book).startsWith('..') ? book : relative(process.cwd(), book);
  process.stdout.write(
    `gomoku serve: ${server.url}  (book: ${shownBook}; at most ${maxSearches} search${maxSearches === 1 ? '' : 'es'} at once, ${maxTimeMs} ms each; Ctrl-C stops)\n`,
  );
  if (!['127.0.0.1', 'localhost', '::1'].includes(host.toLowerCase()))
    process.stderr.write(`gomoku: listening on ${host}: other machines that reach this one can use the page and its searches\n`);
  if (a.open === true) openBrowser(server.url);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void server.close().finally(() => {
        bookStore?.close();
        resolve();
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
