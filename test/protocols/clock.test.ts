import { describe, expect, it } from 'vitest';
import { limitsFor, STARTUP_OVERHEAD_MS } from '../../src/protocols/clock.js';

describe('protocol clocks -> Limits (translation only; margins are the time manager\'s)', () => {
  it('passes the referee\'s numbers through', () => {
    expect(limitsFor({ turnMs: 10_000, ply: 10 })).toEqual({ turnMs: 10_000 });
    expect(limitsFor({ gameLeftMs: 20_000, incrementMs: 500, matchMs: 180_000, ply: 0 })).toEqual({ gameLeftMs: 20_000, incrementMs: 500, matchMs: 180_000 });
  });
  it('the first answer carries the start-up overhead, added to the protocol\'s own', () => {
    expect(limitsFor({ turnMs: 5000, ply: 0, first: true })).toEqual({ turnMs: 5000, overheadMs: STARTUP_OVERHEAD_MS });
    expect(limitsFor({ turnMs: 5000, ply: 0, first: true, overheadMs: 100 }).overheadMs).toBe(STARTUP_OVERHEAD_MS + 100);
  });
  it('a negative limit is the smallest budget, never no limit', () => {
    expect(limitsFor({ turnMs: -500, ply: 3 }).turnMs).toBe(0);
  });
  it('no clock -> no limit and no overhead', () => {
    expect(limitsFor({ ply: 0, first: true })).toEqual({});
  });
});
