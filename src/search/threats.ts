/**
 * Threat queries on the incremental board patterns, shared by VCF, VCT and the game-tree
 * proof search. All of them read `board.comb` / `board.counts`; none allocates.
 *
 * The soundness argument the solver relies on (see vct.ts):
 *  - a cell whose class for A is C_OPEN_FOUR (open four, or two fours on different lines)
 *    gives A two different five cells after A plays it;
 *  - if the defender D has no five cell and A has two, D loses;
 *  - so when it is D's turn and A has an open-four cell z, a D move that is not itself a
 *    four (does not give D a five cell) and leaves A an open-four cell loses at once.
 */
import type { Board } from '../core/board.js';
import type { Color } from '../core/types.js';
import { C_FIVE, C_FOUR, C_OPEN_FOUR, C_THREE, C_FOUR_THREE, C_DOUBLE_THREE } from '../core/patterns.js';

/** First empty cell where c makes five, or -1. */
export function findFive(b: Board, c: Color): number {
  if (b.counts[(c - 1) * 16 + C_FIVE] === 0) return -1;
  const comb = b.comb;
  const o = c - 1;
  for (let q = 0; q < b.area; q++) if (comb[q * 2 + o] === C_FIVE && b.cells[q] === 0) return q;
  return -1;
}

export function fiveCount(b: Board, c: Color): number {
  return b.counts[(c - 1) * 16 + C_FIVE]!;
}

/** Cells where c would make an open four or a double four (or five). */
export function winningThreatCount(b: Board, c: Color): number {
  return b.counts[(c - 1) * 16 + C_OPEN_FOUR]! + b.counts[(c - 1) * 16 + C_FIVE]!;
}

/** Is playing q a four (or better) for c: does it leave c at least one five cell? */
export function isFourMove(b: Board, q: number, c: Color): boolean {
  return b.comb[q * 2 + c - 1]! >= C_FOUR;
}

/**
 * Collect cells where c makes a four or better into `out`, best first (open four / double four,
 * four-three, four). Returns the count.
 */
export function collectFours(b: Board, c: Color, out: Int16Array, start: number): number {
  const comb = b.comb;
  const o = c - 1;
  const base = (c - 1) * 16;
  const counts = b.counts;
  if (counts[base + C_FOUR]! + counts[base + C_FOUR_THREE]! + counts[base + C_OPEN_FOUR]! + counts[base + C_FIVE]! === 0) return 0;
  let n = start;
  for (let want = C_FIVE; want >= C_FOUR; want--) {
    if (counts[base + want] === 0) continue;
    for (let q = 0; q < b.area; q++) if (comb[q * 2 + o] === want && b.cells[q] === 0) out[n++] = q;
  }
  return n - start;
}

/**
 * Collect attacking moves for c: fours and moves that make an open three (or several), best
 * first. Returns the count.
 */
export function collectThreats(b: Board, c: Color, out: Int16Array, start: number): number {
  const comb = b.comb;
  const o = c - 1;
  const base = (c - 1) * 16;
  const counts = b.counts;
  let n = start;
  for (let want = C_FIVE; want >= C_THREE; want--) {
    if (counts[base + want] === 0) continue;
    for (let q = 0; q < b.area; q++) if (comb[q * 2 + o] === want && b.cells[q] === 0) out[n++] = q;
  }
  void C_DOUBLE_THREE;
  return n - start;
}

/**
 * The defender's replies that can matter when it is D's turn, A has no five cell and A has
 * at least one open-four cell: every D move after which A has no open-four cell, plus every
 * D move that is a four. Any other D move loses at once (see the header). Returns the count,
 * or -1 when A has no open-four cell (no threat: D moves freely).
 */
export function collectDefences(b: Board, a: Color, out: Int16Array, start: number, mark: Uint8Array): number {
  const base = (a - 1) * 16;
  const counts = b.counts;
  if (counts[base + C_OPEN_FOUR] === 0) return -1;
  const d = (3 - a) as Color;
  const comb = b.comb;
  const o = a - 1;
  // Every defence must change the pattern of each open-four cell, so it lies on a line through
  // one of them within reach: take the first open-four cell's neighbourhood as candidates.
  let z = -1;
  for (let q = 0; q < b.area; q++) {
    if (comb[q * 2 + o] === C_OPEN_FOUR && b.cells[q] === 0) { z = q; break; }
  }
  let n = start;
  const size = b.size;
  const zx = z % size;
  const zy = (z - zx) / size;
  const tryCell = (q: number) => {
    if (b.cells[q] !== 0 || mark[q]) return;
    mark[q] = 1;
    if (comb[q * 2 + d - 1]! >= C_FOUR) return; // added below with the fours
    b.play(q);
    const still = counts[base + C_OPEN_FOUR]! + counts[base + C_FIVE]!;
    b.undo();
    if (still === 0) out[n++] = q;
  };
  mark[z] = 0;
  const needTurn = b.toMove !== d;
  if (needTurn) b.setToMove(d);
  tryCell(z);
  for (let dir = 0; dir < 4; dir++) {
    const dx = dir === 0 ? 1 : dir === 3 ? -1 : dir === 1 ? 0 : 1;
    const dy = dir === 0 ? 0 : 1;
    for (let sgn = -1; sgn <= 1; sgn += 2) {
      for (let k = 1; k <= 5; k++) {
        const x = zx + sgn * k * dx;
        const y = zy + sgn * k * dy;
        if (x < 0 || y < 0 || x >= size || y >= size) break;
        tryCell(y * size + x);
      }
    }
  }
  // clear marks
  for (let i = start; i < n; i++) mark[out[i]!] = 0;
  mark[z] = 0;
  for (let dir = 0; dir < 4; dir++) {
    const dx = dir === 0 ? 1 : dir === 3 ? -1 : dir === 1 ? 0 : 1;
    const dy = dir === 0 ? 0 : 1;
    for (let sgn = -1; sgn <= 1; sgn += 2) {
      for (let k = 1; k <= 5; k++) {
        const x = zx + sgn * k * dx;
        const y = zy + sgn * k * dy;
        if (x < 0 || y < 0 || x >= size || y >= size) break;
        mark[y * size + x] = 0;
      }
    }
  }
  // the defender's own fours
  const ndo = d - 1;
  for (let q = 0; q < b.area; q++) if (b.cells[q] === 0 && comb[q * 2 + ndo]! >= C_FOUR) out[n++] = q;
  if (needTurn) b.setToMove(a);
  return n - start;
}
