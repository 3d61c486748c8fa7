import { describe, expect, it } from 'vitest';
import { OPTIMUM_SHARE, planTime, safetyMargin } from '../../src/search/timeman.js';
import { Engine } from '../../src/search/engine.js';
import { boardOf } from './helpers.js';
import { MATE_BOUND } from '../../src/search/types.js';

describe('time manager', () => {
  it('keeps the maximum inside every limit with a margin, and the optimum below the maximum', () => {
    for (const turnMs of [5, 50, 100, 1000, 5000, 30000]) {
      const p = planTime({ turnMs });
      expect(p.maximumMs).toBeLessThanOrEqual(turnMs - safetyMargin(turnMs));
      expect(p.maximumMs).toBeGreaterThan(0);
      expect(p.optimumMs).toBeLessThanOrEqual(p.maximumMs);
    }
    for (const [left, inc, ply] of [
      [100, 0, 0],
      [60000, 0, 10],
      [180000, 2000, 80],
      [1000, 500, 100],
      [300000, 0, 0],
    ] as const) {
      const p = planTime({ gameLeftMs: left, incrementMs: inc }, ply);
      expect(p.maximumMs).toBeLessThan(left / 4 + inc);
      expect(p.optimumMs).toBeLessThanOrEqual(p.maximumMs);
    }
    const m = planTime({ matchMs: 180000, turnMs: 5000 });
    expect(m.maximumMs).toBeLessThanOrEqual(5000 - safetyMargin(5000));
    expect(planTime({}).maximumMs).toBe(Infinity);
    expect(planTime({ turnMs: -5 }).maximumMs).toBeGreaterThan(0);
    expect(planTime({ nodes: 1000, depth: 4 })).toMatchObject({ nodes: 1000, depth: 4 });
  });

  it('a turn limit alone: nearly all of it is used (optimum 90% of the maximum); the overhead comes off first', () => {
    const p = planTime({ turnMs: 1000 });
    expect(p.maximumMs).toBeGreaterThanOrEqual(940);
    expect(p.optimumMs).toBeCloseTo(p.maximumMs * OPTIMUM_SHARE);
    const q = planTime({ turnMs: 1000, overheadMs: 250 });
    expect(q.maximumMs).toBeLessThanOrEqual(750 - safetyMargin(750));
    expect(q.maximumMs).toBeGreaterThan(700);
    // an overhead that would eat a short limit leaves a quarter of it
    expect(planTime({ turnMs: 200, overheadMs: 700 }).maximumMs).toBeGreaterThan(0);
    expect(planTime({ turnMs: 200, overheadMs: 700 }).maximumMs).toBeLessThanOrEqual(50);
  });

  it('the engine never passes the hard limit, on a fake clock that runs fast', () => {
    // every clock read costs 0.5 ms of fake time, far more than real nodes cost
    let t = 0;
    const now = () => (t += 0.5);
    const e = new Engine({ now });
    const b = boardOf('h8 i9 h9 i8 j7 g10 h10 h11');
    e.setPosition([], 1);
    e.board = b;
    for (const turnMs of [50, 100, 250]) {
      const start = t;
      const r = e.go({ turnMs });
      expect(t - start).toBeLessThanOrEqual(turnMs);
      expect(e.isLegal(r.move)).toBe(true);
    }
  });

  it('a move that is not forced searches on to the optimum (no reserve for checks it may not need)', () => {
    // fake time runs with the clock reads, so a 1-s turn is a few thousand reads of search
    let t = 0;
    const now = () => (t += 0.25);
    const e = new Engine({ now });
    e.board = boardOf('h8 i9 h10 j8 g9');
    const plan = planTime({ turnMs: 1000 }, e.board.ply);
    const start = t;
    const r = e.go({ turnMs: 1000 });
    expect(['alphabeta', 'defence']).toContain(r.source);
    expect(t - start).toBeGreaterThanOrEqual(plan.optimumMs);
    expect(t - start).toBeLessThanOrEqual(1000);
  });

  it('a mate score does not end the search: it goes on to the optimum or to the depth limit', () => {
    // Black's open three h7-h9: alpha-beta sees the mate at depth 3, but its defences at the
    // nodes below are a selection, so only the clock or the depth limit may end the search
    let t = 0;
    const e = new Engine({ now: () => (t += 0.25), alphaBetaOnly: true });
    e.board = boardOf('h7 b2 h8 n3 h9 c13');
    const r = e.go({ turnMs: 1000 });
    expect(r.score).toBeGreaterThanOrEqual(MATE_BOUND);
    expect(r.stop === 'soft' || r.stop === 'hard' || (r.stop === 'depth' && r.depth >= 50)).toBe(true);
  });

  it('the engine returns within its time on the real clock', () => {
    const e = new Engine({ now: () => performance.now() });
    // a process's first search runs its code cold (the protocols allow for that on a first answer)
    e.board = boardOf('h8 i9 h10 j8 g9');
    e.go({ turnMs: 300 });
    e.board = boardOf('h8 i9 h9 i8 j7 g10 h10 h11 g9 f8');
    for (const turnMs of [100, 300]) {
      const t0 = performance.now();
      const r = e.go({ turnMs });
      expect(performance.now() - t0).toBeLessThanOrEqual(turnMs);
      expect(e.isLegal(r.move)).toBe(true);
    }
  });
});
