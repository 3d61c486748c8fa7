/**
 * Static evaluation from the board's incremental line patterns.
 *
 * Every empty cell has, per colour, a packed 12-bit word of its four line patterns
 * (board.state: black bits 0..11, white bits 12..23): the shapes a stone of that colour would
 * make there. The evaluation is linear in what those words hold:
 *  - the four line patterns of a cell, as a multiset (its *combination*: 330 of them, the
 *    order of the directions does not matter), valued by one table for the side to move's
 *    cells and another for the opponent's (the side to move acts first, so the same shape is
 *    worth more to it);
 *  - the immediate threats on the board (board.counts): one tier for the side to move (open
 *    four, four-three, double three with no opponent four, three) and one for the opponent.
 * The weights are data (eval-weights.ts, written by scripts/tune-eval.mjs from game results
 * and solver labels); `evalFeatures` gives the tuner exactly the features evaluate() uses.
 * The Evaluator keeps the table sums incrementally: after a move only the cells the board's
 * journal lists changed, and an undo goes back to the sums kept for the ply before.
 */
import type { Board } from '../core/board.js';
import { COMBINED_TABLE, C_DOUBLE_THREE, C_FOUR, C_FOUR_THREE, C_OPEN_FOUR, C_THREE } from '../core/patterns.js';
import { EVAL_WEIGHTS } from './eval-weights.js';

/** Line patterns per direction (P_NONE .. P_FIVE). */
const N_LINE = 8;
/** Number of cell combinations: multisets of 4 line patterns out of 8. */
export const N_COMBOS = 330;
/** The four line patterns of each combination, largest first (combo * 4 + i), in enumeration order. */
export const COMBO_PATTERNS: Uint8Array = Uint8Array.from(
  (function* () {
    for (let a = N_LINE - 1; a >= 0; a--) for (let b = a; b >= 0; b--) for (let c = b; c >= 0; c--) for (let d = c; d >= 0; d--) yield* [a, b, c, d];
  })(),
);
/** The combination of each 12-bit pattern word. */
export const COMBO_OF_WORD: Uint16Array = Uint16Array.from({ length: 4096 }, (_, w) => {
  const p = [w & 7, (w >> 3) & 7, (w >> 6) & 7, (w >> 9) & 7].sort((x, y) => y - x);
  for (let c = 0; c < N_COMBOS; c++) {
    if (COMBO_PATTERNS[c * 4] === p[0] && COMBO_PATTERNS[c * 4 + 1] === p[1] && COMBO_PATTERNS[c * 4 + 2] === p[2] && COMBO_PATTERNS[c * 4 + 3] === p[3])
      return c;
  }
  return 0;
});
/** The all-empty combination (every line P_NONE): fixed at 0, it is most of the board. */
export const COMBO_NONE = COMBO_OF_WORD[0]!;

/** Threat tiers of the side to move (0: open four, 1: four-three, 2: double three the opponent cannot answer with a four, 3: three), -1 for none. */
export function moverTier(counts: Int32Array, me: number): number {
  const mb = (me - 1) * 16;
  const ob = 16 - mb;
  if (counts[mb + C_OPEN_FOUR]! > 0) return 0;
  if (counts[mb + C_FOUR_THREE]! > 0) return 1;
  if (counts[mb + C_DOUBLE_THREE]! > 0 && counts[ob + C_FOUR]! + counts[ob + C_FOUR_THREE]! === 0) return 2;
  if (counts[mb + C_THREE]! > 0) return 3;
  return -1;
}

/** Threat tiers of the opponent (0: open four, 1: four-three or double three), -1 for none. */
export function opponentTier(counts: Int32Array, me: number): number {
  const ob = (2 - me) * 16;
  if (counts[ob + C_OPEN_FOUR]! > 0) return 0;
  if (counts[ob + C_FOUR_THREE]! + counts[ob + C_DOUBLE_THREE]! > 0) return 1;
  return -1;
}

/** Table value of a pattern word for the side to move's cells and for the opponent's (also how the move generator orders quiet moves). */
export const MOVER_VALUE: Int32Array = Int32Array.from({ length: 4096 }, (_, w) => EVAL_WEIGHTS.mover[COMBO_OF_WORD[w]!]!);
export const OPPONENT_VALUE: Int32Array = Int32Array.from({ length: 4096 }, (_, w) => EVAL_WEIGHTS.opponent[COMBO_OF_WORD[w]!]!);
const MOVER_TIER: Int32Array = Int32Array.from(EVAL_WEIGHTS.moverTier);
const OPPONENT_TIER: Int32Array = Int32Array.from(EVAL_WEIGHTS.opponentTier);

/**
 * The features evaluate() reads, for the tuner: per empty cell the combination of the side
 * to move's word (`mover[c]` counts them) and of the opponent's (`opponent[c]`), and the two
 * threat tiers. evaluate() = sum mover[c] * W.mover[c] - sum opponent[c] * W.opponent[c]
 * + W.moverTier[tier] - W.opponentTier[tier] (absent tiers add nothing).
 */
export function evalFeatures(b: Board, mover: Int32Array, opponent: Int32Array): { moverTier: number; opponentTier: number } {
  mover.fill(0);
  opponent.fill(0);
  const me = b.toMove;
  const ms = me === 1 ? 0 : 12;
  const os = 12 - ms;
  for (let q = 0; q < b.area; q++) {
    if (b.cells[q] !== 0) continue;
    const p = b.state[q]!;
    mover[COMBO_OF_WORD[(p >>> ms) & 0xfff]!]!++;
    opponent[COMBO_OF_WORD[(p >>> os) & 0xfff]!]!++;
  }
  return { moverTier: moverTier(b.counts, me), opponentTier: opponentTier(b.counts, me) };
}

/** Move-ordering value of a cell for one colour (attack for the mover, defence for the other). */
const ORDER_LINE = [0, 3, 12, 10, 60, 70, 800, 20000];
const ORDER_COMBINED = [0, 0, 30, 0, 0, 600, 100, 3000, 6000, 50000];
export const MOVE_VALUE: Int32Array = (() => {
  const t = new Int32Array(4096);
  for (let w = 0; w < 4096; w++) {
    let v = 0;
    for (let d = 0; d < 4; d++) v += ORDER_LINE[(w >> (3 * d)) & 7]!;
    t[w] = v + ORDER_COMBINED[COMBINED_TABLE[w]!]!;
  }
  return t;
})();

/** The lines through each cell on a board of one size (the move generator's). */
export class Geometry {
  readonly size: number;
  /** line[((q * 4 + d) * 11) + k + 5]: the cell at offset k (-5..5) along direction d, or -1. */
  readonly line: Int16Array;

  constructor(size: number) {
    this.size = size;
    const area = size * size;
    this.line = new Int16Array(area * 44).fill(-1);
    const DX = [1, 0, 1, -1];
    const DY = [0, 1, 1, 1];
    for (let q = 0; q < area; q++) {
      const x = q % size;
      const y = (q - x) / size;
      for (let d = 0; d < 4; d++) {
        for (let k = -5; k <= 5; k++) {
          const nx = x + k * DX[d]!;
          const ny = y + k * DY[d]!;
          if (nx < 0 || ny < 0 || nx >= size || ny >= size) continue;
          this.line[(q * 4 + d) * 11 + k + 5] = ny * size + nx;
        }
      }
    }
  }
}

export class Evaluator {
  /**
   * Per ply, the four table sums over the empty cells: black's words valued as the mover's and
   * as the opponent's, white's likewise. A move's frame is the one before plus what changed
   * (the board's journal), so an undo only steps back a frame.
   */
  private readonly sums: Int32Array;

  constructor(private readonly b: Board) {
    this.sums = new Int32Array(4 * (b.area + 1));
    this.reset();
  }

  /** Recompute the current ply's sums from every cell. */
  reset(): void {
    const b = this.b;
    let bm = 0;
    let bo = 0;
    let wm = 0;
    let wo = 0;
    for (let r = 0; r < b.area; r++) {
      if (b.cells[r] !== 0) continue;
      const p = b.state[r]!;
      bm += MOVER_VALUE[p & 0xfff]!;
      bo += OPPONENT_VALUE[p & 0xfff]!;
      wm += MOVER_VALUE[(p >>> 12) & 0xfff]!;
      wo += OPPONENT_VALUE[(p >>> 12) & 0xfff]!;
    }
    const o = b.ply * 4;
    this.sums[o] = bm;
    this.sums[o + 1] = bo;
    this.sums[o + 2] = wm;
    this.sums[o + 3] = wo;
  }

  /** Call after a stone was placed at q (an undo needs no call: the frame before is kept). */
  onPlay(q: number): void {
    const b = this.b;
    const sums = this.sums;
    const state = b.state;
    const o = b.ply * 4;
    // q's own state is left as it was while it holds a stone: it stops counting
    const sq = state[q]!;
    let bm = sums[o - 4]! - MOVER_VALUE[sq & 0xfff]!;
    let bo = sums[o - 3]! - OPPONENT_VALUE[sq & 0xfff]!;
    let wm = sums[o - 2]! - MOVER_VALUE[(sq >>> 12) & 0xfff]!;
    let wo = sums[o - 1]! - OPPONENT_VALUE[(sq >>> 12) & 0xfff]!;
    const journal = b.journal;
    const top = b.journalTop;
    for (let i = b.lastJournalStart; i < top; i += 2) {
      const was = journal[i + 1]!;
      const now = state[journal[i]!]!;
      const ob = was & 0xfff;
      const nb = now & 0xfff;
      const ow = (was >>> 12) & 0xfff;
      const nw = (now >>> 12) & 0xfff;
      bm += MOVER_VALUE[nb]! - MOVER_VALUE[ob]!;
      bo += OPPONENT_VALUE[nb]! - OPPONENT_VALUE[ob]!;
      wm += MOVER_VALUE[nw]! - MOVER_VALUE[ow]!;
      wo += OPPONENT_VALUE[nw]! - OPPONENT_VALUE[ow]!;
    }
    sums[o] = bm;
    sums[o + 1] = bo;
    sums[o + 2] = wm;
    sums[o + 3] = wo;
  }

  /** Score for the side to move (no five cells for it; those are handled by the search). */
  evaluate(): number {
    const b = this.b;
    const me = b.toMove;
    const o = b.ply * 4;
    const sums = this.sums;
    let v = me === 1 ? sums[o]! - sums[o + 3]! : sums[o + 2]! - sums[o + 1]!;
    const mt = moverTier(b.counts, me);
    if (mt >= 0) v += MOVER_TIER[mt]!;
    const ot = opponentTier(b.counts, me);
    if (ot >= 0) v -= OPPONENT_TIER[ot]!;
    return v;
  }
}
