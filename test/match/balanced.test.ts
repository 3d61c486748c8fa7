import { describe, expect, it } from 'vitest';
import { BLACK, WHITE } from '../../src/core/types.js';
import { balancedOpenings } from '../../src/match/balanced.js';
import { randomOpeningStream, randomOpenings } from '../../src/match/opening-files.js';
import { Engine } from '../../src/search/engine.js';

const NODES = 1500;

function scoreOf(moves: readonly number[], size: number): number {
  const e = new Engine({ size, rule: 'freestyle', seed: 'b1', now: () => 0 });
  e.setPosition(
    moves.map((index, i) => ({ index, color: i % 2 === 0 ? BLACK : WHITE })),
    moves.length % 2 === 0 ? BLACK : WHITE,
  );
  return e.go({ nodes: NODES }).score;
}

describe('randomOpeningStream', () => {
  it('yields randomOpenings in order: its first N are randomOpenings(N)', () => {
    const s = randomOpeningStream(15, 's1', 4);
    if (!s.ok) throw new Error(s.error);
    const first: unknown[] = [];
    for (const o of s.value) if (first.push(o) === 40) break;
    expect(first).toEqual((randomOpenings(40, 15, 's1', 4) as { value: unknown[] }).value);
    expect(randomOpeningStream(15, 's1', 9).ok).toBe(false);
  });
});

describe('balancedOpenings', () => {
  it('keeps, in the stream order, exactly the random openings whose search score is within the bound, the same every run', () => {
    const r = balancedOpenings(6, 11, 'freestyle', 'b1', 3, { maxScore: 60, nodes: NODES });
    if (!r.ok) throw new Error(r.error);
    const again = balancedOpenings(6, 11, 'freestyle', 'b1', 3, { maxScore: 60, nodes: NODES });
    expect(again).toEqual(r);
    const { openings, drawn } = r.value;
    expect(openings).toHaveLength(6);
    const all = randomOpenings(drawn, 11, 'b1', 3);
    if (!all.ok) throw new Error(all.error);
    // every opening drawn was searched with a fresh engine of the same seed: kept exactly when |score| <= 60
    const kept = all.value.filter((o) => Math.abs(scoreOf(o.moves, 11)) <= 60);
    expect(openings).toEqual(kept);
    expect(drawn).toBeGreaterThan(6); // some were out of balance (else the test proves nothing)
  });

  it('with a bound no score exceeds it keeps the plain random openings; an impossible one fails in one line', () => {
    const wide = balancedOpenings(5, 11, 'freestyle', 'b2', 3, { maxScore: 1e9, nodes: 200 });
    expect(wide.ok && wide.value).toEqual({ openings: (randomOpenings(5, 11, 'b2', 3) as { value: unknown[] }).value, drawn: 5 });
    const none = balancedOpenings(5, 11, 'freestyle', 'b2', 3, { maxScore: 0, nodes: 200, maxDrawn: 8 });
    expect(none.ok).toBe(false);
    expect(!none.ok && none.error).toMatch(/^only [0-4] of 8 random openings of 3 stones scored within \+-0 at 200 nodes \(5 asked for\)$/);
  });
});
