import { afterEach, describe, expect, test, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import yargs from 'yargs';
import { command as book } from '../../../src/cli/commands/book.js';
import { decodeYxdb, verdictOf } from '../../../src/book/yxdb.js';
import { canonicalize } from '../../../src/core/symmetry.js';
import { parsePoint } from '../../../src/core/notation.js';
import { boardOf, openStore, putChild, putPosition, tempDir } from '../../book/helpers.js';

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
    await yargs(args).command(book).strict().fail((msg) => {
      stderr += `gomoku: ${msg}\n`;
      process.exitCode = 2;
    }).parseAsync();
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
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
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
