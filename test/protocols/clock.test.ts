import { describe, expect, it } from 'vitest';
import { limitsFor, MIN_TURN_MS, safetyMargin, STARTUP_MARGIN_MS } from '../../src/protocols/clock.js';

describe('protocol clocks -> Limits', () => {
  it('keeps a margin inside a per-turn limit', () => {
    expect(limitsFor({ turnMs: 10_000, ply: 10 }).turnMs).toBe(10_000 - safetyMargin(10_000));
    expect(limitsFor({ turnMs: 300, ply: 0 }).turnMs).toBe(300 - safetyMargin(300));
  });
  it('takes a share of a game clock and never more than is left', () => {
    const l = limitsFor({ gameLeftMs: 20_000, ply: 0 });
    expect(l.turnMs).toBeLessThan(2000);
    expect(l.gameLeftMs).toBe(20_000);
    expect(limitsFor({ gameLeftMs: 50, ply: 100 }).turnMs).toBeLessThanOrEqual(50);
  });
  it('subtracts the start-up margin on the first answer', () => {
    expect(limitsFor({ turnMs: 5000, ply: 0, first: true }).turnMs).toBe(5000 - safetyMargin(5000) - STARTUP_MARGIN_MS);
  });
  it('a turn limit eaten by margins is the smallest budget, never no limit', () => {
    expect(limitsFor({ turnMs: -500, ply: 3 }).turnMs).toBe(MIN_TURN_MS);
    expect(limitsFor({ turnMs: 0, ply: 3, first: true }).turnMs).toBe(MIN_TURN_MS);
  });
  it('no clock -> no turn limit', () => {
    expect(limitsFor({ ply: 0 })).toEqual({});
  });
});
