/** Positions for the search tests, built here (move lists in the project's notation). */
import { Board } from '../../src/core/board.js';
import { parsePosition } from '../../src/core/notation.js';
import type { Rule } from '../../src/core/types.js';

export function boardOf(moves: string, size = 15, rule: Rule = 'freestyle'): Board {
  const spec = parsePosition(moves, size);
  if (!spec.ok) throw new Error(spec.error);
  const b = new Board(size, rule);
  for (const m of spec.value.moves) b.put(m.index, m.color);
  b.setToMove(spec.value.moves.length % 2 === 0 ? 1 : 2);
  return b;
}

/** Positions (side to move = the one after the last move) where the side to move has a VCF of the given length and no five, open four or four-three yet. */
export const VCF_POSITIONS = [
  'e10 i10 f7 e6 g8 i6 i11 f10 i9 e7 j7 g6 h5 g7 e9 e8 h11 j11 k10',
  'j11 f7 g6 h8 f9 g5 e9 e10 i11 j7 e8 g7 i5 k11 k9',
  'e7 h8 g7 j5 h11 k7 g10 k10 j9 f5 k11 i8 g11 e5',
  'j6 h7 f5 j11 g7 h6 i10 f11 k11 g8 h5 h9 j10 i9 e7 g11 h8',
  'h10 j6 e9 j10 k7 j11 j5 f5 g7 g9 g5 e7 k9 h7 i5 h11',
];

/** Did the stone just played make five? */
export function lastMadeFive(b: Board): boolean {
  return b.lastMoveWon() !== 0;
}

/** A seeded integer generator: rnd(n) in 0..n-1 (a 32-bit LCG; the same seed, the same games). */
export function lcg(seed: number): (n: number) => number {
  let s = seed;
  return (n: number) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
}

/**
 * A random middle game on 15x15: `minStones + rnd(extraStones)` moves tried, alternating, each
 * on a random cell of the `span` x `span` square from (lo, lo); occupied cells are skipped and
 * the game stops before a five.
 */
export function randomMiddleGame(rnd: (n: number) => number, rule: Rule, minStones: number, extraStones: number, lo: number, span: number): Board {
  const b = new Board(15, rule);
  const n = minStones + rnd(extraStones);
  for (let i = 0; i < n; i++) {
    const q = (lo + rnd(span)) * 15 + lo + rnd(span);
    if (b.cells[q] !== 0) continue;
    b.play(q);
    if (b.lastMoveWon()) {
      b.undo();
      break;
    }
  }
  return b;
}
