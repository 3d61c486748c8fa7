/**
 * Pass jobs end to end (the built CLI): `book build --pass-for white --pass-nodes N` proves a
 * quiet White-to-move root by pass and zone; `book query` says so with the proof's size;
 * `book proof` writes a gomoku-proof/2 certificate that `gomoku verify` accepts; a pass job
 * short of budget leaves a pass tree that the build finishes, with a /3 certificate.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt, gomokuAsync } from '../run.js';

const dir = mkdtempSync(join(tmpdir(), 'gomoku-book-pass-'));

beforeAll(() => ensureBuilt(), 300_000);

// 11x11, White to move: Black's open three f5 g6 h7 wins even if White passes (k11 is far)
const QUIET = 'B:f5,g6,h7,f7;W:g5,e8,k11';

/** `book build --pass-for white` on QUIET as the one root (roots file NAME.txt, book NAME.db). */
async function passBuild(name: string, o: { budget: string; solveNodes: string; passNodes: string }) {
  const roots = join(dir, `${name}.txt`);
  writeFileSync(roots, `${QUIET}\n`);
  const book = join(dir, `${name}.db`);
  const common = ['--book', book, '--size', '11'];
  const args = [
    '--roots',
    roots,
    '--budget',
    o.budget,
    '--workers',
    '1',
    '--solve-nodes',
    o.solveNodes,
    '--pass-for',
    'white',
    '--pass-nodes',
    o.passNodes,
    '--quiet',
  ];
  const build = await gomokuAsync('book', 'build', ...common, ...args);
  return { book, common, build };
}

describe('gomoku book build --pass-for', () => {
  test('proves the quiet root; query, proof and verify agree', async () => {
    const { book, common, build } = await passBuild('roots', { budget: '1', solveNodes: '0', passNodes: '100000' });
    expect(build.code).toBe(0);
    expect(build.stdout).toMatch(/^done: 1 jobs in [\d.]+ s, 0 proven, 1 disproven, 0\/1 roots open/);
    const q = await gomokuAsync('book', 'query', QUIET, ...common);
    expect(q.code).toBe(0);
    expect(q.stdout).toMatch(/^verdict loss .*\(roots:roots\.txt, pass, \d+ nodes\)\nproven: the side to move loses \(by pass and zone\), proof size \d+\n/);
    const cert = join(dir, 'cert.jsonl');
    const p = await gomokuAsync('book', 'proof', QUIET, ...common, '--out', cert);
    expect(p.code).toBe(0);
    expect(p.stdout).toMatch(/^black wins: \d+ entries and 1 pass entry from 1 book positions written to /);
    const v = await gomokuAsync('verify', cert);
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/^VERIFIED .*1 zone checks, 111 replies covered by zones/);
    const bv = await gomokuAsync('book', 'verify', '--json', '--book', book);
    expect(JSON.parse(bv.stdout)).toMatchObject({ decided: 1, verified: 1, failed: 0 });
  }, 60_000);

  test('a pass job short of budget leaves a pass tree; the build finishes it and the /3 certificate verifies', async () => {
    // 5,000 nodes win the pass child but not every reply in its zone (one job needs ~8,000)
    const { book, common, build } = await passBuild('roots2', { budget: '50', solveNodes: '20000', passNodes: '5000' });
    expect(build.code).toBe(0);
    expect(build.stdout).toMatch(/^done: 2 jobs in [\d.]+ s, 2 proven, 1 disproven, 0\/1 roots open, 3 positions\n/);
    const q = await gomokuAsync('book', 'query', QUIET, ...common);
    expect(q.stdout).toMatch(/\nproven: the side to move loses \(by pass and zone\), proof size \d+\n {2}\w\d+ +win /);
    const cert = join(dir, 'tree.jsonl');
    const p = await gomokuAsync('book', 'proof', QUIET, ...common, '--out', cert);
    expect(p.code).toBe(0);
    const v = await gomokuAsync('verify', cert, '--json');
    expect(v.code).toBe(0);
    expect(readFileSync(cert, 'utf8').split('\n')[0]).toMatch(/"format":"gomoku-proof\/3"/);
    // the reply the pass job left open has its own proof in the book, read as 3.3 reads it
    expect(JSON.parse(v.stdout)).toMatchObject({ result: 'verified', passEntries: 1, ownReplies: 1 });
    const bv = await gomokuAsync('book', 'verify', '--json', '--book', book);
    expect(JSON.parse(bv.stdout)).toMatchObject({ failed: 0, unknown: 0 });
  }, 60_000);

  test('--pass-for and --pass-nodes go together', async () => {
    const r = await gomokuAsync('book', 'build', '--book', join(dir, 'x.db'), '--pass-for', 'white');
    expect(r).toMatchObject({ code: 2, stderr: 'gomoku: --pass-for and --pass-nodes go together\n' });
  });
});
