import { afterEach, describe, expect, test, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import yargs from 'yargs';
import { command as book } from '../../../src/cli/commands/book.js';
import { bookVerifyStatus } from '../../../src/cli/commands/book-verify.js';
import { decodeYxdb, verdictOf } from '../../../src/book/yxdb.js';
import { canonicalize } from '../../../src/core/symmetry.js';
import { parsePoint } from '../../../src/core/notation.js';
import { boardOf, openStore, putChild, putPosition, tempDir } from '../../book/helpers.js';
import { parseBudget, parseRootsFile, progressLine } from '../../../src/cli/commands/book-build.js';
import { buildBook } from '../../../src/book/builder.js';
import { runBookJob } from '../../../src/book/job.js';
import { parseCertificate } from '../../../src/proof/certificate.js';
import { verifyCertificate } from '../../../src/proof/verify.js';
import { BLACK, WHITE } from '../../../src/core/types.js';

let tmp = tempDir();
afterEach(() => {
  tmp.cleanup();
  tmp = tempDir();
  process.exitCode = undefined;
});

const pt = (s: string) => (parsePoint(s, 15) as { ok: true; value: number }).value;

async function run(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  let stdout = '';
  let stderr = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((stdout += String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
  try {
    await yargs(args)
      .command(book)
      .strict()
      .fail((msg) => {
        stderr += `gomoku: ${msg}\n`;
        process.exitCode = 2;
      })
      .parseAsync();
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { stdout, stderr, code };
}

function sampleBook(file: string): void {
  const s = openStore(file);
  const root = boardOf('h8 i9 h9 i8'); // black to move
  putPosition(s, root, { verdict: 'loss', score: -29990, depth: 21, bestMove: pt('j9') });
  putChild(s, root, pt('j9'), { verdict: 'win', score: 29990 });
  putChild(s, root, pt('g7'), { verdict: 'unknown', score: -120 });
  putPosition(s, boardOf('h8'), { verdict: 'unknown', score: -30, opening: 'first-stone' });
  s.close();
}

describe('gomoku book query', () => {
  test('--json prints the formats.md section 4 object, moves in the caller orientation', async () => {
    const f = tmp.file('q.db');
    sampleBook(f);
    const r = await run(['book', 'query', 'h8 i9 h9 i8', '--json', '--book', f]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      verdict: 'loss',
      score: -29990,
      depth: 21,
      bestMove: 'j9',
      children: [
        { move: 'j9', verdict: 'win', score: 29990 },
        { move: 'g7', verdict: 'unknown', score: -120 },
      ],
    });
    // the same position mirrored left-right (h stays h on 15x15: a<->o, i<->g, j<->f)
    const m = await run(['book', 'query', 'h8 g9 h9 g8', '--json', '--book', f]);
    expect(JSON.parse(m.stdout)).toMatchObject({ verdict: 'loss', bestMove: 'f9', children: [{ move: 'f9' }, { move: 'i7' }] });
  });

  test('an absent position gives {"verdict":"unknown","found":false}', async () => {
    const f = tmp.file('q.db');
    sampleBook(f);
    const r = await run(['book', 'query', 'a1', '--json', '--book', f]);
    expect(r.stdout).toBe('{"verdict":"unknown","found":false}\n');
    expect(r.code).toBe(0);
  });

  test('text output, and bad input is one line with exit 2', async () => {
    const f = tmp.file('q.db');
    sampleBook(f);
    const t = await run(['book', 'query', 'h8', '--book', f]);
    expect(t.stdout).toMatch(/^verdict unknown {2}score -30/);
    const bad = await run(['book', 'query', 'h8 z99', '--book', f]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("gomoku: bad point 'z99'\n");
    const missing = await run(['book', 'query', 'h8', '--book', tmp.file('none.db')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('gomoku book stats', () => {
  test('--json counts by verdict, opening, stones', async () => {
    const f = tmp.file('s.db');
    sampleBook(f);
    const r = await run(['book', 'stats', '--json', '--book', f]);
    const s = JSON.parse(r.stdout);
    expect(s.positions).toBe(4);
    expect(s.byVerdict).toEqual({ win: 1, loss: 1, draw: 0, unknown: 2 });
    expect(s.byOpening).toEqual({ test: 3, 'first-stone': 1 });
    expect(s.byStones).toEqual({ '1': 1, '4': 1, '5': 2 });
  });
});

describe('gomoku book export', () => {
  test('jsonl: one line per position with the documented fields', async () => {
    const f = tmp.file('e.db');
    sampleBook(f);
    const out = tmp.file('e.jsonl');
    const r = await run(['book', 'export', '--format', 'jsonl', '--out', out, '--book', f]);
    expect(r.code).toBe(0);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatchObject({ rule: 'freestyle', size: 15, toMove: 'black', verdict: 'loss', score: -29990, depth: 21 });
    expect(Object.keys(lines[0])).toEqual(expect.arrayContaining(['position', 'key', 'opening', 'bestMove', 'pn', 'dn', 'proofSize', 'nodes']));
  });

  test('yxdb: LZ4 frame that reads back to the same positions, verdicts and scores', async () => {
    const f = tmp.file('e.db');
    sampleBook(f);
    const out = tmp.file('e.yxdb');
    const r = await run(['book', 'export', '--format', 'yxdb', '--out', out, '--book', f]);
    expect(r.code).toBe(0);
    const bytes = readFileSync(out);
    expect([...bytes.subarray(0, 4)]).toEqual([0x04, 0x22, 0x4d, 0x18]);
    const recs = decodeYxdb(bytes);
    expect(recs.ok).toBe(true);
    if (!recs.ok) return;
    const s = openStore(f);
    const rows = [...s.positions()];
    expect(recs.value).toHaveLength(rows.length);
    for (const rec of recs.value) {
      expect(rec.rule).toBe(0);
      const key = canonicalize(rec.width, rec.black, rec.white, rec.toMove).key;
      const row = s.get('freestyle', key);
      expect(row).toBeDefined();
      expect(verdictOf(rec.label)).toBe(row!.verdict);
      expect(rec.value).toBe(row!.score);
      expect(rec.depth).toBe(row!.depth);
    }
    s.close();
  });
});

describe('gomoku book build helpers', () => {
  test('--budget: times and job counts', () => {
    expect(parseBudget('10m')).toEqual({ ms: 600_000 });
    expect(parseBudget('90s')).toEqual({ ms: 90_000 });
    expect(parseBudget('1.5h')).toEqual({ ms: 5_400_000 });
    expect(parseBudget('250ms')).toEqual({ ms: 250 });
    expect(parseBudget('500')).toEqual({ jobs: 500 });
    expect(parseBudget('500j')).toEqual({ jobs: 500 });
    for (const bad of ['', '0', '10x', 'm', '-5', '0m']) expect(parseBudget(bad)).toBeUndefined();
  });

  test('--roots: one position a line, comments and blank lines skipped, errors name the line', () => {
    const r = parseRootsFile('# the first two\nh8 h9 h10\n\nB:h8,i8;W:h9  # a stone set\n', 15);
    expect(r).toEqual([
      { black: [pt('h8'), pt('h10')], white: [pt('h9')], toMove: WHITE },
      { black: [pt('h8'), pt('i8')], white: [pt('h9')], toMove: WHITE },
    ]);
    expect(parseRootsFile('h8\nh8 z9\n', 15)).toBe("line 2: bad point 'z9'");
    expect(parseRootsFile('\n# nothing\n', 15)).toBe('no positions');
  });

  test('the progress line shows jobs/s, proven, disproven and an ETA', () => {
    const line = progressLine({
      jobs: 50,
      positions: 300,
      proven: 3,
      disproven: 1,
      roots: 10,
      openRoots: 8,
      inFlight: 2,
      elapsedMs: 10_000,
      budget: { jobs: 100 },
    });
    expect(line).toBe('book [##########..........] jobs 50 (5.00/s) proven 3 disproven 1 roots open 8/10 positions 300 eta 10s');
    expect(
      progressLine({ jobs: 5, positions: 9, proven: 0, disproven: 0, roots: 1, openRoots: 1, inFlight: 0, elapsedMs: 60_000, budget: { ms: 600_000 } }),
    ).toMatch(/eta 9m00s$/);
  });
});

describe('gomoku book proof / verify', () => {
  test('book verify exits 1 when a certificate failed, else 3 when the budget left one undecided (README, Exit status), else 0', () => {
    expect(bookVerifyStatus({ failed: 1, unknown: 4 })).toBe(1);
    expect(bookVerifyStatus({ failed: 0, unknown: 2 })).toBe(3);
    expect(bookVerifyStatus({ failed: 0, unknown: 0 })).toBe(0);
  });

  test('a certificate written from the book verifies; book verify checks every decided position', async () => {
    const f = tmp.file('p.db');
    const s = openStore(f);
    const root = boardOf('B:c5,d5,e5,f5;W:a1,i1,a9', 9);
    await buildBook({
      store: s,
      opening: 'test',
      roots: [{ black: root.stones(BLACK), white: root.stones(WHITE), toMove: root.toMove }],
      size: 9,
      rule: 'freestyle',
      region: 1,
      concurrency: 2,
      budget: { jobs: 200 },
      solveNodes: 500,
      scoreNodes: 20,
      runJob: async (j) => runBookJob(j.black.length + j.white.length === 7 ? { ...j, solveNodes: 0 } : j),
    });
    s.close();
    const out = tmp.file('cert.jsonl');
    const r = await run(['book', 'proof', 'B:c5,d5,e5,f5;W:a1,i1,a9', '--size', '9', '--out', out, '--book', f]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^black wins: \d+ entries from \d+ book positions written to /);
    const cert = parseCertificate(readFileSync(out, 'utf8'));
    expect(cert.ok && verifyCertificate(cert.value).result).toBe('verified');
    const none = await run(['book', 'proof', 'e5', '--size', '9', '--out', out, '--book', f]);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe('gomoku: the position is not in the book\n');
    const v = await run(['book', 'verify', '--json', '--book', f]);
    expect(v.code).toBe(0);
    const rep = JSON.parse(v.stdout);
    expect(rep.decided).toBeGreaterThan(1);
    expect(rep.verified).toBe(rep.decided);
  }, 30_000);
});
