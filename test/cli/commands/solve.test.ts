/**
 * `gomoku solve` end to end (the built CLI): the exit status of each answer, the position as
 * several words, and `--batch` with bad lines (each its own `"result":"error"` line, the others
 * still solved, exit 2 at the end) and its progress line.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt, gomokuAsync } from '../run.js';

const dir = mkdtempSync(join(tmpdir(), 'gomoku-solve-'));
const file = (name: string, lines: string[]) => {
  const f = join(dir, name);
  writeFileSync(f, lines.join('\n') + '\n');
  return f;
};
const noMs = (s: string) => s.replace(/"ms":\d+/g, '"ms":0');

beforeAll(() => ensureBuilt(), 300_000);

describe('gomoku solve: exit status', () => {
  test('a win exits 0; unknown (the budget ran out) exits 3; bad input exits 2 with one line', async () => {
    const [win, unknown, byNodes, bad] = await Promise.all([
      gomokuAsync('solve', 'h8 h9 i8 i9 j8 j9', '--json'),
      gomokuAsync('solve', 'h8 i9 h9', '--time', '200'),
      gomokuAsync('solve', 'h8 i9 h9', '--nodes', '500', '--json'),
      gomokuAsync('solve', 'h8 i9 z9'),
    ]);
    expect(win.code).toBe(0);
    expect(JSON.parse(win.stdout)).toMatchObject({ result: 'win', move: 'g8', verified: true });
    expect(unknown.code).toBe(3);
    expect(unknown.stdout).toMatch(/^unknown\n/);
    expect(byNodes.code).toBe(3);
    expect(JSON.parse(byNodes.stdout)).toMatchObject({ result: 'unknown' });
    expect(bad).toEqual({ code: 2, stdout: '', stderr: "gomoku: bad point 'z9'\n" });
  });

  test('a finished game is bad input, not a question', async () => {
    const r = await gomokuAsync('solve', 'h8 a1 h9 a2 h10 a3 h11 a4 h12');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^gomoku: the game is over: h\d+ is part of a five\n$/);
  });

  test('no position is a usage error; an empty one is the empty board', async () => {
    const [none, empty] = await Promise.all([gomokuAsync('solve'), gomokuAsync('solve', '', '--nodes', '200')]);
    expect(none).toEqual({ code: 2, stdout: '', stderr: 'gomoku: give a POSITION, or --batch FILE\n' });
    expect(empty.code).toBe(3);
    expect(empty.stdout).toMatch(/^unknown\n/);
  });

  test('the position may be several words', async () => {
    const [one, many] = await Promise.all([
      gomokuAsync('solve', 'h8 h9 i8 i9 j8 j9', '--json'),
      gomokuAsync('solve', 'h8', 'h9', 'i8', 'i9', 'j8', 'j9', '--json'),
    ]);
    expect(many.code).toBe(0);
    expect(noMs(many.stdout)).toBe(noMs(one.stdout));
  });
});

describe('gomoku solve --batch', () => {
  test('each malformed line gets its own error result, the others are solved, exit 2 at the end', async () => {
    const f = file('mixed.jsonl', [
      '{"position":"h8 h9 i8 i9 j8 j9"}',
      '[1,2,3]',
      '',
      '{"position":"h8 z99"}',
      'not json',
      '{"black":"H8 I8 J8","white":"A1 A2 A3"}',
      '{"position":"h8","size":99}',
      '{"position":"h8","toMove":"green"}',
      '{"id":7}',
    ]);
    const r = await gomokuAsync('solve', '--batch', f, '--json', '--time', '2000');
    expect(r.code).toBe(2);
    const out = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out.map((o) => o.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(out.map((o) => o.result)).toEqual(['win', 'error', 'error', 'error', 'win', 'error', 'error', 'error']);
    // each error names the line of the file (blank lines count) and the reason
    expect(out[1]).toEqual({ index: 1, result: 'error', error: 'line 2: not a JSON object' });
    expect(out[2]).toEqual({ index: 2, result: 'error', error: "line 4: bad point 'z99'" });
    expect(out[3]).toEqual({ index: 3, result: 'error', error: 'line 5: not JSON' });
    expect(out[5]!.error).toMatch(/^line 7: bad 'size' 99/);
    expect(out[6]!.error).toMatch(/^line 8: bad 'toMove' "green"/);
    expect(out[7]!.error).toBe("line 9: needs 'position', or 'black' and 'white'");
    // one summary line on stderr besides the progress lines
    const notes = r.stderr.split('\n').filter((l) => l.startsWith('gomoku: '));
    expect(notes).toEqual([`gomoku: 6 bad lines in ${f} (the first: line 2: not a JSON object); the other lines were solved`]);
  });

  test('all lines decided: exit 0; one left unknown: exit 3; the final progress line is printed once', async () => {
    const decided = file('decided.jsonl', ['{"position":"h8 h9 i8 i9 j8 j9"}', '{"black":"H8 I8 J8","white":"A1 A2 A3"}']);
    const open = file('open.jsonl', ['{"position":"h8 h9 i8 i9 j8 j9"}', '{"position":"h8 i9 h9"}']);
    const [a, b] = await Promise.all([gomokuAsync('solve', '--batch', decided, '--time', '2000'), gomokuAsync('solve', '--batch', open, '--time', '300')]);
    expect(a.code).toBe(0);
    expect(a.stdout).toMatch(/^0\twin\tg8\tvcf\n1\twin\t/);
    expect(b.code).toBe(3);
    expect(b.stdout).toMatch(/\n1\tunknown\t/);
    for (const r of [a, b]) {
      const finals = r.stderr.split('\n').filter((l) => / 2\/2 /.test(l));
      expect(finals).toHaveLength(1);
    }
  });

  test('--batch with a position, or with --proof, is a usage error', async () => {
    const f = file('one.jsonl', ['{"position":"h8"}']);
    const [both, proof] = await Promise.all([gomokuAsync('solve', 'h8', '--batch', f), gomokuAsync('solve', '--batch', f, '--proof', join(dir, 'p.jsonl'))]);
    expect(both).toMatchObject({ code: 2, stdout: '' });
    expect(both.stderr).toBe('gomoku: give a POSITION or --batch FILE, not both\n');
    expect(proof.code).toBe(2);
    expect(proof.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('gomoku solve --pass', () => {
  // 11x11, White to move: Black's open three f5 g6 h7 (plus f7) wins even if White passes
  // (i8, an open four); the zone is e4 i8 j9 and White's replies there are proven one by one.
  const pos = ['B:f5,g6,h7,f7;W:g5,e8', '--to-move', 'white', '--size', '11'];

  test('a loss for the side to move with a verified /2 certificate; a tampered zone fails `gomoku verify`', async () => {
    const proof = join(dir, 'pass.jsonl');
    const [json, text] = await Promise.all([
      gomokuAsync('solve', ...pos, '--pass', '--nodes', '100000', '--json', '--proof', proof),
      gomokuAsync('solve', ...pos, '--pass', '--nodes', '100000'),
    ]);
    expect(json.code).toBe(0);
    const o = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(o).toMatchObject({ result: 'loss', toMove: 'white', method: 'pass', verified: true });
    expect(o.pass).toEqual({ zone: 3, replies: 3, byPass: 0, repaired: 2, proven: 1, unproven: [], passNodes: expect.any(Number), move: 'i8' });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^loss for white \(pass\)\npass: after a pass i8 wins \(\d+ nodes\); zone 3 cells, 3 replies walked: 0 by the pass strategy, 2 repaired, 1 proven\n/,
    );
    const ok = await gomokuAsync('verify', proof);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^VERIFIED .*1 zone checks, 112 replies covered by zones/);
    const cert = readFileSync(proof, 'utf8');
    const tampered = join(dir, 'tampered.jsonl');
    writeFileSync(tampered, cert.replace('"zone":["e4","i8","j9"]', '"zone":["e4","i8"]'));
    const bad = await gomokuAsync('verify', tampered);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^FAILED the zone of the pass entry on line \d+ misses 1 supporting cell: j9/);
  });

  test('unproven replies leave it unknown (exit 3, no certificate); the reply options need --pass', async () => {
    const proof = join(dir, 'none.jsonl');
    const [starved, stray] = await Promise.all([
      gomokuAsync('solve', ...pos, '--pass', '--nodes', '100000', '--reply-nodes', '1', '--json', '--proof', proof),
      gomokuAsync('solve', ...pos, '--reply-nodes', '5'),
    ]);
    expect(starved.code).toBe(3);
    expect(JSON.parse(starved.stdout)).toMatchObject({ result: 'unknown', error: expect.stringMatching(/not proven/) });
    expect(existsSync(proof)).toBe(false);
    expect(stray).toMatchObject({ code: 2, stdout: '', stderr: 'gomoku: --reply-nodes, --reply-time and --max-zone go with --pass\n' });
  });
});
