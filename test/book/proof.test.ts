import { afterEach, describe, expect, test } from 'vitest';
import { buildBook } from '../../src/book/builder.js';
import { runBookJob, type BookJob } from '../../src/book/job.js';
import { assembleProof } from '../../src/book/proof.js';
import { verifyBook } from '../../src/book/verify-all.js';
import { bookPositionOf } from '../../src/book/canonical.js';
import { parseCertificate } from '../../src/proof/certificate.js';
import { verifyCertificate } from '../../src/proof/verify.js';
import { TRANSFORMS, transformPoint } from '../../src/core/symmetry.js';
import { Board } from '../../src/core/board.js';
import { BLACK, WHITE } from '../../src/core/types.js';
import type { BookStore } from '../../src/book/store.js';
import { boardOf, openStore, tempDir } from './helpers.js';

let tmp = tempDir();
afterEach(() => {
  tmp.cleanup();
  tmp = tempDir();
});

function stonesOf(b: Board) {
  return { black: b.stones(BLACK), white: b.stones(WHITE), toMove: b.toMove };
}

/** Real jobs, except that `unsolvedStones`-stone positions get no solver budget (so the tree must decide them). */
function jobs(unsolvedStones: number) {
  return async (j: BookJob) => runBookJob(j.black.length + j.white.length === unsolvedStones ? { ...j, solveNodes: 0 } : j);
}

function verify(store: BookStore, b: Board): string {
  const r = assembleProof(store, b);
  if (!r.ok) return r.error;
  const c = parseCertificate(r.value.certificate);
  if (!c.ok) return 'unparseable';
  return verifyCertificate(c.value, { maxMs: 20_000 }).result;
}

function transformed(b: Board, t: (typeof TRANSFORMS)[number]): Board {
  const out = new Board(b.size, b.rule);
  for (const q of b.stones(BLACK)) out.put(transformPoint(t, q, b.size), BLACK);
  for (const q of b.stones(WHITE)) out.put(transformPoint(t, q, b.size), WHITE);
  out.setToMove(b.toMove);
  return out;
}

describe('certificates assembled from the book', () => {
  test('a win decided through the tree (best move + a solver-proven reply) verifies from every orientation', async () => {
    const s = openStore(tmp.file('w.db'));
    // black to move with an open three: the win needs a move, then every white reply loses
    const root = boardOf('B:e5,f5,g5;W:a1,b1,c1', 11);
    const r = await buildBook({ store: s, opening: 'test', roots: [stonesOf(root)], size: 11, rule: 'freestyle', region: 1, concurrency: 1, budget: { jobs: 400 }, solveNodes: 300, scoreNodes: 50, runJob: jobs(6) });
    expect(r.proven).toBeGreaterThanOrEqual(1);
    for (const t of TRANSFORMS) expect(verify(s, transformed(root, t))).toBe('verified');
    const all = verifyBook(s);
    expect(all.decided).toBe(r.proven + r.disproven);
    expect(all).toMatchObject({ failed: 0, unknown: 0 });
    expect(all.verified).toBe(all.decided);
    // spoil the root's stored move: the book check must catch it
    const row = s.get('freestyle', bookPositionOf(root).key)!;
    s.updateProofNumbers(row.id, 0, 1e9, 'win', 0, row.score, 1);
    const spoiled = verifyBook(s);
    expect(spoiled.failed).toBe(1);
    expect(spoiled.failures[0]!.reason).toMatch(/does not hold this position as a loss \(absent\)/);
    s.close();
  }, 60_000);

  test('a loss decided through the tree (every reply refuted) verifies; an undecided position is refused', async () => {
    const s = openStore(tmp.file('l.db'));
    // white to move against an open four on 9x9: every reply loses
    const root = boardOf('B:c5,d5,e5,f5;W:a1,i1,a9', 9);
    const r = await buildBook({ store: s, opening: 'test', roots: [stonesOf(root)], size: 9, rule: 'freestyle', region: 1, concurrency: 2, budget: { jobs: 400 }, solveNodes: 2000, scoreNodes: 50, runJob: jobs(7) });
    expect(r.stoppedBy).toBe('done');
    expect(r.disproven).toBe(1);
    expect(verify(s, root)).toBe('verified');
    expect(verify(s, transformed(root, 5))).toBe('verified');
    const other = assembleProof(s, boardOf('e5', 9));
    expect(other.ok).toBe(false);
    if (!other.ok) expect(other.error).toBe('the position is not in the book');
    s.close();
  }, 60_000);
});
