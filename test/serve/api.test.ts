/**
 * `gomoku serve` over real HTTP and WebSocket: the real CLI as a child process, answers
 * checked against the CLI's own commands (show, book query, verify) where they overlap.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt, gomoku, gomokuAsync } from '../cli/run.js';
import { Client, postJson, serve, type Served } from './helpers.js';

let s: Served;

beforeAll(async () => {
  ensureBuilt();
  s = await serve('--max-time', '60000');
});

afterAll(async () => {
  const code = await s?.stop();
  expect(code).toBe(0);
});

describe('gomoku serve: the command', () => {
  test('--help names the options', () => {
    const r = gomoku('serve', '--help');
    expect(r.code).toBe(0);
    for (const o of ['--port', '--host', '--book', '--open', '--max-searches', '--max-time']) expect(r.stdout).toContain(o);
  });

  test('bad options and a port in use: one line, exit 2', async () => {
    const bad = await gomokuAsync('serve', '--port', '70000');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("gomoku: --port must be an integer in 0..65535, got '70000'\n");
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    const inUse = await gomokuAsync('serve', '--port', String(port));
    blocker.close();
    expect(inUse.code).toBe(2);
    expect(inUse.stderr).toBe(`gomoku: cannot listen on 127.0.0.1:${port}: the port is in use (choose another with --port)\n`);
  });

  test('listens on 127.0.0.1 by default and prints the address', () => {
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });
});

describe('HTTP', () => {
  test('the page and its assets; nothing else is a file', async () => {
    const r = await fetch(s.url);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/html');
    const html = await r.text();
    const js = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const a = await fetch(new URL(js, s.url));
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toContain('javascript');
    for (const p of ['/assets/..%2f..%2fpackage.json', '/../package.json', '/index.html/../../book/gomoku-book.db', '/api/nothing']) {
      const n = await fetch(new URL(p, s.url));
      expect(n.status, p).toBe(404);
    }
  });

  test('a request naming another host is refused (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve) => {
      request(new URL('/api/info', s.url), { headers: { host: 'attacker.example:80' } }, (res) => resolve(res.statusCode!)).end();
    });
    expect(status).toBe(403);
  });

  test('/api/position: gomoku show --json plus the threat marks of --threats', async () => {
    const { status, json } = await postJson(new URL('/api/position', s.url).href, { position: 'h8 i9 h9 i10 h10' });
    expect(status).toBe(200);
    const cli = JSON.parse(gomoku('show', 'h8 i9 h9 i10 h10', '--json', '--threats').stdout) as {
      toMove: string;
      stones: unknown;
      threats: { black: { point: string }[]; white: { point: string }[] };
    };
    expect(json.toMove).toBe(cli.toMove);
    expect(json.stones).toEqual(cli.stones);
    expect(json.lastMove).toBe('h10');
    expect(json.text).toBe('h8 i9 h9 i10 h10');
    const marked = (json.marks as { point: string }[]).map((m) => m.point).sort();
    const threats = [...new Set([...cli.threats.black, ...cli.threats.white].map((t) => t.point))].sort();
    expect(marked).toEqual(threats);
    // the marks are the diagram's characters
    const diagram = gomoku('show', 'h8 i9 h9 i10 h10', '--threats').stdout;
    expect(diagram).toContain('11 . . . . . . . # 3 . . . . . . 11');
    expect(json.marks).toContainEqual({ point: 'h11', text: '#', tone: 'theirs' });
    expect(json.marks).toContainEqual({ point: 'i11', text: '3', tone: 'mine' });
  });

  test('/api/position: a stone set, moves after it, a five', async () => {
    const url = new URL('/api/position', s.url).href;
    const a = await postJson(url, { position: 'B:h8,h9;W:i9', toMove: 'white', then: 'a1 h10' });
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ toMove: 'white', setup: 'B:h8,h9;W:i9', moves: ['a1', 'h10'], lastMove: 'h10', text: 'B:h8,h9,h10;W:a1,i9' });
    const five = await postJson(url, { position: 'h8 a1 h9 a2 h10 a3 h11 a4 h12' });
    expect(five.json).toMatchObject({ winner: 'black', five: ['h8', 'h9', 'h10', 'h11', 'h12'], book: null });
  });

  test("/api/position: bad input gets the CLI's one line, status 400", async () => {
    const url = new URL('/api/position', s.url).href;
    const cases: [unknown, string][] = [
      [{ position: 'h8 i9 h8' }, "point 'h8' is given twice"],
      [{ position: 'z99' }, "bad point 'z99'"],
      [{ position: 'h8', size: 30 }, "bad --size '30' (expected 5..22)"],
      [{ position: 'h8', rule: 'renju' }, "unknown rule 'renju' (expected freestyle or standard)"],
      [{ position: 'B:h8,h9;W:' }, 'stone counts (black 2, white 0) need an explicit side to move (--to-move black|white)'],
      [{ position: 'h8', then: 'h8' }, "point 'h8' is given twice"],
      [{ position: 'h8', book: '/etc/passwd' }, "unknown field 'book'"],
      [{ position: 7 }, "'position' must be a string"],
      [[1, 2], 'expected a JSON object'],
      [{ position: 'h8 '.repeat(2000) }, "'position' is longer than 4000 characters"],
    ];
    for (const [body, error] of cases) {
      const r = await postJson(url, body);
      expect(r, JSON.stringify(body)).toEqual({ status: 400, json: { error } });
    }
    const cli = gomoku('show', 'h8 i9 h8');
    expect(cli.stderr).toBe("gomoku: point 'h8' is given twice\n");
    const junk = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"position":' });
    expect(junk.status).toBe(400);
    expect(((await junk.json()) as { error: string }).error).toMatch(/JSON/);
    const form = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'position=h8' });
    expect(form.status).toBe(415);
  });

  test('the book overlay is `gomoku book query` seen from the side to move', async () => {
    const pos = 'g9 g8 h9 j6 h8';
    const { json } = await postJson(new URL('/api/position', s.url).href, { position: pos });
    const cli = JSON.parse(gomoku('book', 'query', pos, '--json').stdout) as {
      score: number;
      bestMove: string;
      children: { move: string; verdict: string; score: number }[];
    };
    const book = json.book as { found: boolean; score: number; bestMove: string; children: { point: string; verdict: string; score: number }[] };
    expect(book.found).toBe(true);
    expect(book.score).toBe(cli.score);
    expect(book.bestMove).toBe(cli.bestMove);
    const flip: Record<string, string> = { win: 'loss', loss: 'win', draw: 'draw', unknown: 'unknown' };
    expect(book.children).toEqual(cli.children.map((c) => ({ point: c.move, verdict: flip[c.verdict], score: -c.score })));
    expect(book.children.some((c) => c.verdict === 'loss')).toBe(true);
  });

  test('SGF out and back in', async () => {
    const exp = new URL('/api/sgf/export', s.url).href;
    const imp = new URL('/api/sgf/import', s.url).href;
    const a = await postJson(exp, { position: 'h8 i9 h9', size: 15 });
    expect(a.json.sgf).toBe('(;FF[4]GM[4]CA[UTF-8]AP[gomoku-tss serve]SZ[15]RU[freestyle]\n;B[hh];W[ig];B[hg])\n');
    const back = await postJson(imp, { sgf: a.json.sgf });
    expect(back.json.request).toEqual({ position: 'h8 i9 h9', then: '', size: 15, rule: 'freestyle' });
    expect((back.json.view as { text: string }).text).toBe('h8 i9 h9');
    // a stone set with moves after it, on another size and rule
    const b = await postJson(exp, { position: 'B:a1,c3;W:b2', toMove: 'white', then: 'e5 d4', size: 9, rule: 'standard' });
    expect(b.json.sgf).toBe('(;FF[4]GM[4]CA[UTF-8]AP[gomoku-tss serve]SZ[9]RU[standard]AB[ai][cg]AW[bh]PL[W]\n;W[ee];B[df])\n');
    const back2 = await postJson(imp, { sgf: b.json.sgf });
    expect(back2.json.request).toEqual({ position: 'B:a1,c3;W:b2', then: 'e5 d4', size: 9, rule: 'standard', toMove: 'white' });
    // another program's record: variations (the main line is kept), comments, escaped text
    const other = '(;GM[4]FF[4]SZ[15]C[a \\] bracket];B[hh](;W[ig];B[hg])(;W[aa]))';
    const back3 = await postJson(imp, { sgf: other });
    expect(back3.json.request).toMatchObject({ position: 'h8 i9 h9' });
    for (const [sgf, error] of [
      ['(;GM[1]SZ[19];B[pd])', 'SGF: GM[1] is not Gomoku (GM[4])'],
      ['(;GM[4]SZ[15];B[hh];W[hh])', "point 'h8' is given twice"],
      ['(;GM[4]SZ[15];B[zz])', "SGF: move 1: SGF point 'zz' is off the 15x15 board"],
      ['hello', "not an SGF file (no '(')"],
    ]) {
      const r = await postJson(imp, { sgf });
      expect(r, sgf).toEqual({ status: 400, json: { error } });
    }
  });
});

describe('WebSocket', () => {
  test('hello; live analysis updates several times a second; stop returns the move', async () => {
    const c = await Client.open(s.url);
    const hello = await c.next((m) => m.type === 'hello');
    expect(hello).toMatchObject({ maxTimeMs: 60000, maxSearches: 2, book: true });
    c.send({ type: 'analyse', id: 1, position: 'h8 i9 h9 i10 h10' });
    await c.next((m) => m.type === 'info' && (m.ms as number) >= 2500, 20_000);
    c.send({ type: 'stop' });
    const stopAt = performance.now();
    const r = await c.answer(1, 5000);
    expect(performance.now() - stopAt).toBeLessThan(2000);
    expect(r).toMatchObject({ type: 'result', kind: 'analyse', stopped: true });
    expect(r.move).toMatch(/^[a-o]\d+$/);
    const infos = c.messages.filter((m) => m.type === 'info' && m.id === 1) as unknown as {
      ms: number;
      depth: number;
      pv: string[];
      nodes: number;
      nps: number;
      stage: string;
    }[];
    // at least 4 a second over the whole search, and the line changes as the depth grows
    const span = (infos[infos.length - 1]!.ms - infos[0]!.ms) / 1000;
    expect(infos.length / Math.max(span, 1)).toBeGreaterThanOrEqual(4);
    expect(Math.max(...infos.map((i) => i.depth))).toBeGreaterThan(2);
    expect(new Set(infos.map((i) => i.pv.join(' '))).size).toBeGreaterThan(1);
    expect(infos.some((i) => i.stage === 'alphabeta' && i.nps > 0)).toBe(true);
    await c.close();
  });

  test('solve: win verified, and the certificate passes `gomoku verify`', async () => {
    const c = await Client.open(s.url);
    c.send({ type: 'solve', id: 7, position: 'h8 h9 i8 i9 j8 j9', timeMs: 5000 });
    const r = await c.answer(7);
    expect(r).toMatchObject({ type: 'result', kind: 'solve', result: 'win', toMove: 'black', move: 'g8', method: 'vcf', verified: true });
    const dir = mkdtempSync(join(tmpdir(), 'gomoku-serve-'));
    writeFileSync(join(dir, 'proof.jsonl'), r.certificate as string);
    const v = gomoku('verify', join(dir, 'proof.jsonl'));
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/^VERIFIED/);
    await c.close();
  });

  test('the engine moves; Swap2 decisions come from the opening advisor', async () => {
    const c = await Client.open(s.url);
    c.send({ type: 'move', id: 1, position: 'h8 h9 i8 i9 j8 a1', timeMs: 500 });
    expect(await c.answer(1)).toMatchObject({ kind: 'move', move: 'g8', source: 'vcf' });
    // the engine's moves use the book as the bot does; analysis searches (the book has its overlay)
    c.send({ type: 'move', id: 8, position: 'g9 g8 h9 j6 h8 e8', timeMs: 500 });
    expect(await c.answer(8)).toMatchObject({ kind: 'move', move: 'h10', source: 'book' });
    c.send({ type: 'analyse', id: 9, position: 'g9 g8 h9 j6 h8 e8', timeMs: 2000 });
    const a = await c.answer(9);
    expect(a).toMatchObject({ kind: 'analyse' });
    expect(a.source).not.toBe('book');
    c.send({ type: 'swap2', id: 2, step: 'propose', position: '', timeMs: 300 });
    const p = await c.answer(2);
    expect(p).toMatchObject({ kind: 'swap2', step: 'propose' });
    const three = p.stones as { point: string; color: string }[];
    expect(three.map((x) => x.color)).toEqual(['black', 'white', 'black']);
    c.send({ type: 'swap2', id: 3, step: 'after-three', position: three.map((x) => x.point).join(' '), timeMs: 300 });
    const d = await c.answer(3);
    expect(d).toMatchObject({ kind: 'swap2', step: 'after-three' });
    expect(['black', 'white', 'add2']).toContain(d.choice);
    c.send({ type: 'swap2', id: 4, step: 'after-five', position: 'h8 h9 i8 j10 g9', timeMs: 300 });
    const e = await c.answer(4);
    expect(['black', 'white']).toContain(e.choice);
    c.send({ type: 'swap2', id: 5, step: 'after-five', position: 'h8 h9 i8', timeMs: 300 });
    expect(await c.answer(5)).toEqual({ type: 'error', id: 5, error: 'swap2 after-five needs a move list of 5 stones, got 3', at: expect.any(Number) });
    await c.close();
  });

  test('bad requests get one line each', async () => {
    const c = await Client.open(s.url);
    const cases: [string, string][] = [
      ['not json', 'not a JSON object'],
      [JSON.stringify({ type: 'dance', id: 1 }), "unknown type 'dance' (expected analyse, move, solve, swap2 or stop)"],
      [JSON.stringify({ type: 'analyse', id: 'x' }), "'id' must be an integer"],
      [JSON.stringify({ type: 'analyse', id: 2, position: 'h8 h8' }), "point 'h8' is given twice"],
      [JSON.stringify({ type: 'analyse', id: 3, timeMs: 1e9 }), "'timeMs' 1000000000 is over the server's limit of 60000 ms (--max-time)"],
      [JSON.stringify({ type: 'move', id: 4, timeMs: -1 }), "'timeMs' must be a positive number of ms, got -1"],
      [JSON.stringify({ type: 'move', id: 5, position: 'h8 a1 h9 a2 h10 a3 h11 a4 h12' }), 'the game is over: h12 is part of a five'],
      [JSON.stringify({ type: 'solve', id: 6, book: 'x.db' }), "unknown field 'book'"],
    ];
    for (const [text, error] of cases) {
      c.ws.send(text);
      const m = await c.next((x) => x.type === 'error' && x.error === error, 5000);
      expect(m.error).toBe(error);
    }
    await c.close();
  });
});

describe('stopping', () => {
  test('SIGTERM with a page still connected: the page is told, the server exits at once', async () => {
    const one = await serve('--book', 'none');
    const c = await Client.open(one.url);
    const closed = new Promise<number>((resolve) => c.ws.once('close', (code: number) => resolve(code)));
    const t0 = performance.now();
    expect(await one.stop()).toBe(0);
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(await closed).toBe(1001);
  });
});

describe('caps', () => {
  test('searches at once, the page going away, time', async () => {
    const one = await serve('--max-searches', '1', '--max-time', '3000', '--book', 'none');
    try {
      const a = await Client.open(one.url);
      const b = await Client.open(one.url);
      a.send({ type: 'analyse', id: 1, position: 'h8 i9' });
      await a.next((m) => m.type === 'info');
      b.send({ type: 'analyse', id: 1, position: 'h8' });
      expect(await b.answer(1)).toMatchObject({ type: 'error', error: 'busy: 1 search is running (the server allows 1 at once: --max-searches)' });
      // a's page goes away: its search ends, and b may start one
      await a.close();
      const info = async () => ((await (await fetch(new URL('/api/info', one.url))).json()) as { active: number }).active;
      const t0 = performance.now();
      while ((await info()) > 0 && performance.now() - t0 < 3000) await new Promise((r) => setTimeout(r, 50));
      expect(await info()).toBe(0);
      // an analysis without a time runs for the server's cap (3 s here), not for ever
      b.send({ type: 'analyse', id: 2, position: 'h8' });
      const r = await b.answer(2, 8000);
      expect(r).toMatchObject({ type: 'result', kind: 'analyse', stopped: false });
      expect(r.ms as number).toBeLessThanOrEqual(3000);
      // a new request replaces the page's running one
      b.send({ type: 'analyse', id: 3, position: 'h8 i9' });
      await b.next((m) => m.type === 'info' && m.id === 3);
      b.send({ type: 'move', id: 4, position: 'h8 i9', timeMs: 200 });
      expect(await b.answer(3)).toMatchObject({ kind: 'analyse', stopped: true });
      expect(await b.answer(4)).toMatchObject({ kind: 'move' });
      // and a WebSocket from another site's page is refused
      await expect(Client.open(one.url, { origin: 'http://attacker.example' })).rejects.toThrow(/403/);
      await b.close();
    } finally {
      expect(await one.stop()).toBe(0);
    }
  });
});
