/**
 * The evaluation: its incremental sums agree with the features the tuner reads (evalFeatures
 * and the weights give evaluate() exactly), cell combinations ignore the order of the
 * directions, and the value is the same from every orientation of the board.
 */
import { describe, expect, test } from 'vitest';
import { Board } from '../../src/core/board.js';
import { transformPoint, type Transform } from '../../src/core/symmetry.js';
import { COMBO_OF_WORD, COMBO_PATTERNS, Evaluator, N_COMBOS, evalFeatures } from '../../src/search/eval.js';
import { EVAL_WEIGHTS } from '../../src/search/eval-weights.js';
import { lcg } from './helpers.js';

/** evaluate() recomputed from the tuner's features and the weight table. */
function fromFeatures(b: Board): number {
  const mover = new Int32Array(N_COMBOS);
  const opponent = new Int32Array(N_COMBOS);
  const t = evalFeatures(b, mover, opponent);
  let v = 0;
  for (let c = 0; c < N_COMBOS; c++) v += mover[c]! * EVAL_WEIGHTS.mover[c]! - opponent[c]! * EVAL_WEIGHTS.opponent[c]!;
  if (t.moverTier >= 0) v += EVAL_WEIGHTS.moverTier[t.moverTier]!;
  if (t.opponentTier >= 0) v -= EVAL_WEIGHTS.opponentTier[t.opponentTier]!;
  return v;
}

describe('evaluation', () => {
  test('a combination is the multiset of the four line patterns', () => {
    const seen = new Set<number>();
    for (let w = 0; w < 4096; w++) {
      const c = COMBO_OF_WORD[w]!;
      seen.add(c);
      const lines = [w & 7, (w >> 3) & 7, (w >> 6) & 7, (w >> 9) & 7].sort((x, y) => y - x);
      expect(Array.from(COMBO_PATTERNS.subarray(c * 4, c * 4 + 4))).toEqual(lines);
    }
    expect(seen.size).toBe(N_COMBOS);
    expect(EVAL_WEIGHTS.mover.length).toBe(N_COMBOS);
    expect(EVAL_WEIGHTS.opponent.length).toBe(N_COMBOS);
  });

  for (const rule of ['freestyle', 'standard'] as const) {
    test(`incremental sums = the tuner's features, through random games, their undos and other moves after an undo (${rule})`, () => {
      const rnd = lcg(rule === 'freestyle' ? 7 : 8);
      for (let game = 0; game < 20; game++) {
        const b = new Board(15, rule);
        const ev = new Evaluator(b);
        const played: number[] = [];
        for (let i = 0; i < 60 && !b.lastMoveWon(); i++) {
          let q = rnd(b.area);
          while (b.cells[q] !== 0) q = (q + 1) % b.area;
          b.play(q);
          ev.onPlay(q);
          played.push(q);
          expect(ev.evaluate()).toBe(fromFeatures(b));
        }
        while (played.length > 0) {
          played.pop();
          b.undo();
          expect(ev.evaluate()).toBe(fromFeatures(b));
          // a different move from here, then back: the frame kept for this ply still holds
          let q = rnd(b.area);
          while (b.cells[q] !== 0) q = (q + 1) % b.area;
          b.play(q);
          ev.onPlay(q);
          expect(ev.evaluate()).toBe(fromFeatures(b));
          b.undo();
          expect(ev.evaluate()).toBe(fromFeatures(b));
        }
      }
    });
  }

  test('the same value from all 8 orientations of a position', () => {
    const rnd = lcg(11);
    for (let game = 0; game < 10; game++) {
      const moves: number[] = [];
      const b = new Board(15);
      for (let i = 0; i < 30; i++) {
        let q = 4 * 15 + 4 + rnd(7) * 15 + rnd(7);
        while (b.cells[q] !== 0) q = (q + 1) % b.area;
        b.play(q);
        moves.push(q);
        if (b.lastMoveWon()) break;
      }
      const values = new Set<number>();
      for (let t = 0; t < 8; t++) {
        const c = new Board(15);
        for (const q of moves) c.play(transformPoint(t as Transform, q, 15));
        values.add(new Evaluator(c).evaluate());
      }
      expect(values.size).toBe(1);
    }
  });
});
