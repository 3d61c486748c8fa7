#!/usr/bin/env node
/**
 * The `gomoku` command line: the registry of commands and the one place that turns every
 * failure into ONE line on stderr (`gomoku: <message>`) with the exit status of common.ts.
 *
 * To add a command: write src/cli/commands/<name>.ts exporting `command`, import it below
 * and put it in COMMANDS.
 */
import type { CommandModule } from 'yargs';
import { CliError, EXIT_INTERNAL, EXIT_USAGE } from './common.js';
import { useSavedTables } from '../workers/tables.js';
import { packageVersion } from './version.js';
type Loader = () => Promise<{ command: CommandModule }>;

/**
 * The commands, loaded on demand: a run of one command imports only that command's module
 * (the bot's first answer does not wait for the book builder, the match runner, ...);
 * `--help` and unknown words load them all.
 */
const LOADERS: Record<string, Loader> = {
  show: () => import('./commands/show.js'),
  move: () => import('./commands/move.js'),
  analyze: () => import('./commands/analyze.js'),
  play: () => import('./commands/play.js'),
  match: () => import('./commands/match.js'),
  book: () => import('./commands/book.js'),
  solve: () => import('./commands/solve.js'),
  verify: () => import('./commands/verify.js'),
  serve: () => import('./commands/serve.js'),
};

let COMMANDS: CommandModule[] = [];

/** Print one line for any failure and set the exit status; never a stack trace (unless GOMOKU_DEBUG). */
function report(e: unknown): void {
  const oneLine = (s: string) =>
    s
      .replace(/:\s*\n\s*/g, ': ')
      .replace(/\s*\n\s*/g, '; ')
      .trim();
  if (e instanceof CliError) {
    process.stderr.write(`gomoku: ${oneLine(e.message)}\n`);
    process.exitCode = e.exitCode;
    return;
  }
  const msg = e instanceof Error ? e.message : String(e);
  process.stderr.write(`gomoku: internal error: ${oneLine(msg)}\n`);
  if (process.env.GOMOKU_DEBUG && e instanceof Error && e.stack) process.stderr.write(e.stack + '\n');
  process.exitCode = EXIT_INTERNAL;
}

/** yargs names an unknown `--foo-bar` twice (`foo-bar, fooBar`); keep the spelling that was typed. */
function tidy(msg: string): string {
  const m = /^(Unknown arguments?): (.*)$/.exec(msg);
  if (!m) return msg;
  const names = m[2]!.split(', ');
  const camel = (s: string) => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  const kept = names.filter((n) => !names.some((o) => o !== n && o.includes('-') && camel(o) === n));
  return `${kept.length === 1 ? 'Unknown argument' : 'Unknown arguments'}: ${kept.join(', ')}`;
}

/** The command names, for a friendlier message than yargs' "Unknown argument". */
function commandNames(): string[] {
  return Object.keys(LOADERS);
}

export async function main(args: string[]): Promise<void> {
  useSavedTables();
  const first = args[0];
  // The contest bot starts a process per game and its first answer counts Node start-up,
  // and `serve` has its page up within a second: they parse their own options without
  // loading yargs (own-args.ts), except for help.
  const fast = first === 'play' || first === 'serve';
  if (fast && !args.some((a) => a === '--help' || a === '-h' || a === '--version')) {
    if (first === 'play') {
      const { runPlayCommand } = await import('./commands/play.js');
      return runPlayCommand(args.slice(1));
    }
    const { runServeCommand } = await import('./commands/serve.js');
    try {
      return await runServeCommand(args.slice(1));
    } catch (e) {
      return report(e);
    }
  }
  const { default: yargs } = await import('yargs');
  const one = first !== undefined ? LOADERS[first] : undefined;
  COMMANDS = (await Promise.all(one ? [one()] : Object.values(LOADERS).map((l) => l()))).map((m) => m.command);
  if (first !== undefined && !first.startsWith('-') && !commandNames().includes(first)) {
    report(new CliError(`unknown command '${first}' (commands: ${commandNames().join(', ')}; see gomoku --help)`));
    return;
  }
  const parser = yargs(args)
    .scriptName('gomoku')
    .usage('$0 <command> [options]\n\nFreestyle Gomoku: solver, opening book and contest bot.')
    .command(COMMANDS)
    .demandCommand(1, 'no command given (see gomoku --help)')
    .strict()
    .help()
    .alias('help', 'h')
    .version(packageVersion())
    .locale('en')
    .wrap(Math.min(100, process.stdout.columns || 100))
    .fail((msg, e) => {
      // yargs' own complaints (unknown option, missing argument) come as msg; errors thrown
      // by coerce functions and handlers as e. Both become one line.
      throw e ?? new CliError(tidy(msg || 'bad arguments'), EXIT_USAGE);
    });
  try {
    await parser.parseAsync();
  } catch (e) {
    // errors thrown by coerce functions arrive wrapped as plain Errors with our message
    if (!(e instanceof CliError) && e instanceof Error && e.name === 'YError') report(new CliError(e.message));
    else report(e);
  }
}

// Quiet exit when the reader goes away (`gomoku show ... | head -1`).
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  report(e);
});
const die = (e: unknown) => {
  report(e);
  process.exit(process.exitCode ?? EXIT_INTERNAL);
};
process.on('uncaughtException', die);
process.on('unhandledRejection', die);

await main(process.argv.slice(2));
