/**
 * The HTTP side of `gomoku serve` (fastify): the page's files, read once from dist/web at
 * start-up and served from memory (no request names a file), a JSON API for the quick
 * questions (a position's threats and book moves, SGF in and out) and one WebSocket per page
 * for the searches (session.ts).
 *
 * Safe by default: bound to 127.0.0.1 unless told otherwise; while bound to a loopback
 * address, requests must name a loopback host (no DNS rebinding), a WebSocket must come from
 * the server's own page (Origin), bodies and messages have size limits, and every field is
 * checked (position.ts). The only files read are the page's and the book given on the
 * command line.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import { BLACK, WHITE, colorName, type Color } from '../../core/types.js';
import { makeMoveList, makeStoneSet } from '../../core/notation.js';
import { parseSgf, positionToSgf } from '../../match/sgf.js';
import type { BookStore } from '../../book/store.js';
import { loadServed, positionView, readPositionRequest, type PositionRequest } from './position.js';
import { Searches, type SearchLimits } from './searches.js';
import { Session } from './session.js';

export interface ServerOptions extends SearchLimits {
  host: string;
  port: number;
  /** The book file (engine probes and the book overlay), or undefined for none. */
  book: string | undefined;
  bookStore: BookStore | undefined;
  seed: string;
  version: string;
  updatesPerSecond: number;
  /** Where the built page is (default: dist/web of this package). */
  webDir?: string;
}

const MAX_BODY = 1 << 20;
const MAX_MESSAGE = 64 * 1024;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

/** dist/web, from dist/cli/serve or src/cli/serve alike. */
export function defaultWebDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.resolve(here, '..', '..', '..', 'dist', 'web');
}

interface StaticFile {
  body: Buffer;
  type: string;
  immutable: boolean;
}

/** Every file of the built page, by URL path. */
function loadPage(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (d: string, prefix: string) => {
    for (const f of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, f.name);
      if (f.isDirectory()) walk(p, `${prefix}${f.name}/`);
      else if (statSync(p).size < 8 << 20)
        files.set(`${prefix}${f.name}`, {
          body: readFileSync(p),
          type: TYPES[path.extname(f.name)] ?? 'application/octet-stream',
          immutable: prefix.startsWith('/assets/'),
        });
    }
  };
  walk(dir, '/');
  if (!files.has('/index.html')) throw new Error(`the web page is not built (${dir}/index.html is missing): run npm run build`);
  return files;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

function hostnameOf(hostHeader: string | undefined): string | undefined {
  if (!hostHeader) return undefined;
  const m = /^(\[[^\]]*\]|[^:]+)(?::\d+)?$/.exec(hostHeader.trim().toLowerCase());
  return m?.[1];
}

/** SGF in: the request that reproduces it (a move list when it is one, else a stone set and the moves after it). */
function requestFromSgf(text: string): { ok: true; value: PositionRequest } | { ok: false; error: string } {
  const r = parseSgf(text);
  if (!r.ok) return r;
  const g = r.value;
  const size = g.size;
  const rule = g.rule ?? 'freestyle';
  const hasSetup = g.setup.black.length + g.setup.white.length > 0;
  const alternate = (from: Color) => g.moves.every((m, i) => m.color === (i % 2 === 0 ? from : 3 - from));
  if (!hasSetup && alternate(BLACK))
    return {
      ok: true,
      value: {
        position: makeMoveList(
          g.moves.map((m) => m.index),
          size,
        ),
        then: '',
        size,
        rule,
      },
    };
  const first: Color = g.moves.length > 0 ? g.moves[0]!.color : (g.toMove ?? (g.setup.black.length > g.setup.white.length ? WHITE : BLACK));
  if (hasSetup && alternate(first)) {
    return {
      ok: true,
      value: {
        position: makeStoneSet(g.setup.black, g.setup.white, size),
        then: makeMoveList(
          g.moves.map((m) => m.index),
          size,
        ),
        size,
        rule,
        toMove: first,
      },
    };
  }
  // moves that do not alternate: all one stone set, the side to move after the last move
  const black = [...g.setup.black, ...g.moves.filter((m) => m.color === BLACK).map((m) => m.index)];
  const white = [...g.setup.white, ...g.moves.filter((m) => m.color === WHITE).map((m) => m.index)];
  const req: PositionRequest = { position: makeStoneSet(black, white, size), then: '', size, rule };
  if (g.toMove !== undefined) req.toMove = g.toMove;
  return { ok: true, value: req };
}

/** How long a stopping server waits for its connections to close before it cuts them. */
const CLOSE_GRACE_MS = 1000;

export async function startServer(opts: ServerOptions): Promise<{ app: FastifyInstance; url: string; searches: Searches; close: () => Promise<void> }> {
  const page = loadPage(opts.webDir ?? defaultWebDir());
  const searches = new Searches({ maxSearches: opts.maxSearches, maxTimeMs: opts.maxTimeMs });
  const loopbackOnly = LOOPBACK.has(opts.host.toLowerCase());
  const app = Fastify({ logger: false, bodyLimit: MAX_BODY });
  await app.register(websocket, { options: { maxPayload: MAX_MESSAGE } });
  // every body is JSON: a cross-site form (text/plain) gets 415 before any handler runs
  app.removeContentTypeParser('text/plain');

  const refuse = (reply: FastifyReply, code: number, error: string) => reply.code(code).type('application/json').send({ error });

  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const host = hostnameOf(req.headers.host);
    if (loopbackOnly && (host === undefined || !LOOPBACK.has(host)))
      return refuse(reply, 403, `host '${req.headers.host ?? ''}' is not this server (it answers to 127.0.0.1 and localhost)`);
    if (req.url.startsWith('/api/ws')) {
      const origin = req.headers.origin;
      if (origin !== undefined) {
        let ok = false;
        try {
          ok = new URL(origin).host.toLowerCase() === String(req.headers.host).toLowerCase();
        } catch {
          ok = false;
        }
        if (!ok) return refuse(reply, 403, `origin '${origin}' may not use this server`);
      }
    }
    return undefined;
  });

  app.setErrorHandler((e: Error & { statusCode?: number }, _req, reply) => {
    const code = e.statusCode && e.statusCode >= 400 && e.statusCode < 500 ? e.statusCode : 500;
    const msg = code === 500 ? `internal error: ${e.message}` : e.message.replace(/^FST_\w+: /, '');
    return refuse(reply, code, msg);
  });
  app.setNotFoundHandler((req, reply) => refuse(reply, 404, `no such page: ${req.method} ${req.url.split('?')[0]}`));

  const sendFile = (reply: FastifyReply, f: StaticFile) =>
    reply
      .header('content-type', f.type)
      .header('cache-control', f.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .header(
        'content-security-policy',
        "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
      )
      .send(f.body);
  app.get('/', (_req, reply) => sendFile(reply, page.get('/index.html')!));
  app.get('/assets/:file', (req, reply) => {
    const f = page.get(`/assets/${(req.params as { file: string }).file}`);
    return f ? sendFile(reply, f) : refuse(reply, 404, 'no such file');
  });

  app.get('/api/info', async () => ({
    version: opts.version,
    book: opts.book !== undefined,
    maxTimeMs: opts.maxTimeMs,
    maxSearches: opts.maxSearches,
    active: searches.active,
  }));

  app.post('/api/position', async (req, reply) => {
    const r = readPositionRequest(req.body);
    const sp = r.ok ? loadServed(r.value) : r;
    if (!sp.ok) return refuse(reply, 400, sp.error);
    return positionView(sp.value, opts.bookStore);
  });

  app.post('/api/sgf/export', async (req, reply) => {
    const r = readPositionRequest(req.body);
    const sp = r.ok ? loadServed(r.value) : r;
    if (!sp.ok) return refuse(reply, 400, sp.error);
    const { pos, setup, moves } = sp.value;
    const sgf = positionToSgf({
      size: pos.size,
      rule: pos.rule,
      setup: { black: setup.filter((s) => s.color === BLACK).map((s) => s.index), white: setup.filter((s) => s.color === WHITE).map((s) => s.index) },
      moves,
      toMove: pos.board.toMove,
    });
    return { sgf };
  });

  app.post('/api/sgf/import', async (req, reply) => {
    const body = req.body as Record<string, unknown> | null;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return refuse(reply, 400, 'expected a JSON object');
    for (const k of Object.keys(body)) if (k !== 'sgf') return refuse(reply, 400, `unknown field '${k}'`);
    if (typeof body.sgf !== 'string') return refuse(reply, 400, "'sgf' must be a string");
    const r = requestFromSgf(body.sgf);
    const sp = r.ok ? loadServed(r.value) : r;
    if (!r.ok || !sp.ok) return refuse(reply, 400, r.ok ? (sp as { error: string }).error : r.error);
    const q = r.value;
    return {
      request: { position: q.position, then: q.then, size: q.size, rule: q.rule, ...(q.toMove ? { toMove: colorName(q.toMove) } : {}) },
      view: positionView(sp.value, opts.bookStore),
    };
  });

  app.register(async (scope) => {
    scope.get('/api/ws', { websocket: true }, (socket) => {
      // the worker threads start once a page is there, not while it loads
      setTimeout(() => searches.warmUp(), 300).unref();
      const session = new Session({ searches, book: opts.book, seed: opts.seed, version: opts.version, updatesPerSecond: opts.updatesPerSecond }, (msg) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
      });
      socket.on('message', (data, isBinary) => {
        if (isBinary) session.onMessage('');
        else session.onMessage(data.toString());
      });
      socket.on('close', () => session.close());
      socket.on('error', () => session.close());
    });
  });

  await app.listen({ host: opts.host, port: opts.port });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  const shown = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    app,
    url: `http://${shown}:${port}/`,
    searches,
    close: async () => {
      // A page left open keeps its WebSocket (and a browser its keep-alive connections):
      // tell the pages the server is going away, and cut what is still open after a grace,
      // so that Ctrl-C stops the server at once instead of when the last tab closes.
      for (const c of app.websocketServer.clients) c.close(1001, 'server stopping');
      const force = setTimeout(() => {
        for (const c of app.websocketServer.clients) c.terminate();
        app.server.closeAllConnections();
      }, CLOSE_GRACE_MS);
      await app.close();
      clearTimeout(force);
      await searches.close();
    },
  };
}
