import { describe, expect, it } from 'vitest';
import { capClock, limitsFor, MAX_GAME_MS, MAX_TURN_MS, STARTUP_OVERHEAD_MS } from '../../src/protocols/clock.js';
import { planTime } from '../../src/search/timeman.js';

describe("protocol clocks -> Limits (translation only; margins are the time manager's)", () => {
  it("passes the referee's numbers through", () => {
    expect(limitsFor({ turnMs: 10_000, ply: 10 })).toEqual({ turnMs: 10_000 });
    expect(limitsFor({ gameLeftMs: 20_000, incrementMs: 500, matchMs: 180_000, ply: 0 })).toEqual({ gameLeftMs: 20_000, incrementMs: 500, matchMs: 180_000 });
  });
  it("the first answer carries the start-up overhead, added to the protocol's own", () => {
    expect(limitsFor({ turnMs: 5000, ply: 0, first: true })).toEqual({ turnMs: 5000, overheadMs: STARTUP_OVERHEAD_MS });
    expect(limitsFor({ turnMs: 5000, ply: 0, first: true, overheadMs: 100 }).overheadMs).toBe(STARTUP_OVERHEAD_MS + 100);
  });
  it('a negative limit is the smallest budget, never no limit', () => {
    expect(limitsFor({ turnMs: -500, ply: 3 }).turnMs).toBe(0);
  });
  it('no clock -> no limit and no overhead', () => {
    expect(limitsFor({ ply: 0, first: true })).toEqual({});
  });
  it('every clock is capped at a sane maximum, so no reading makes the bot think without limit', () => {
    const l = limitsFor({ turnMs: 1e14, gameLeftMs: 1e14, matchMs: 1e14, incrementMs: 1e14, ply: 0 });
    expect(l).toEqual({ turnMs: MAX_TURN_MS, gameLeftMs: MAX_GAME_MS, matchMs: MAX_GAME_MS, incrementMs: MAX_TURN_MS });
    expect(planTime(l, 0).maximumMs).toBeLessThanOrEqual(MAX_TURN_MS);
    expect(limitsFor({ turnMs: NaN, ply: 0 }).turnMs).toBe(0);
  });
  it('capClock names what was capped', () => {
    expect(capClock(5000, MAX_TURN_MS, 'INFO timeout_turn')).toEqual({ ms: 5000 });
    expect(capClock(99999999999999, MAX_TURN_MS, 'INFO timeout_turn')).toEqual({
      ms: MAX_TURN_MS,
      note: 'INFO timeout_turn of 99999999999999 ms is over the maximum of 600000 ms (10 min); read as 600000',
    });
  });
});
