/**
 * The JIT warm-up: it plays its own scratch games within its budget, and the bot's moves
 * under a node limit are the same with or without it.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/search/engine.js';
import { WarmUp } from '../../src/search/warmup.js';
import { boardOf } from './helpers.js';

function moves(warm: boolean): number[] {
  if (warm) {
    const w = new WarmUp(150, () => performance.now());
    while (w.step());
    expect(w.moves).toBeGreaterThan(0);
  }
  const e = new Engine({ now: () => performance.now(), seed: 'w' });
  const b = boardOf('h8 i9 j8 i8');
  for (let i = 0; i < b.ply; i++) e.play(b.history[i]!);
  const out: number[] = [];
  for (let i = 0; i < 4; i++) {
    const r = e.go({ nodes: 3000 });
    out.push(r.move);
    e.play(r.move);
  }
  return out;
}

describe('warm-up', () => {
  it('keeps to its budget and stops for good', () => {
    const t0 = performance.now();
    const w = new WarmUp(100, () => performance.now());
    while (w.step());
    const ms = performance.now() - t0;
    // on a loaded machine the first (cold) step alone can outlast the budget: it still counts
    expect(w.moves).toBeGreaterThan(0);
    expect(ms).toBeGreaterThanOrEqual(100);
    expect(ms).toBeLessThan(400); // a step is a 20-ms move: the last one ends soon after the budget
    expect(w.done).toBe(true);
    expect(w.step()).toBe(false);
    expect(new WarmUp(0, () => 0).step()).toBe(false);
  });

  it('the same moves under a node limit with and without it', () => {
    expect(moves(true)).toEqual(moves(false));
  });
});
