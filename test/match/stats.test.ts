import { describe, expect, it } from 'vitest';
import type { GameRecord } from '../../src/match/game.js';
import { computeStats, eloPentanomial, eloToScore, eloTrinomial, progressLine, scoreToElo, sprtBounds, sprtState, summaryText } from '../../src/match/stats.js';

function rec(game: number, black: string, white: string, result: GameRecord['result'], reason: GameRecord['reason'] = 'five'): GameRecord {
  return {
    game,
    openingId: 'o',
    opening: [],
    black,
    white,
    size: 15,
    rule: 'freestyle',
    tc: { turnMs: 1, matchMs: 0 },
    moves: [],
    result,
    reason,
    detail: '',
    timeMs: { black: 0, white: 0 },
    startedAt: '2026-01-01T00:00:00Z',
  };
}

describe('Elo', () => {
  it('maps scores and Elo both ways', () => {
    expect(scoreToElo(0.5)).toBe(0);
    expect(scoreToElo(0.75)).toBeCloseTo(190.85, 1);
    expect(eloToScore(scoreToElo(0.3))).toBeCloseTo(0.3, 12);
    expect(scoreToElo(1)).toBe(Infinity);
    expect(scoreToElo(0)).toBe(-Infinity);
  });

  it('trinomial interval (60 wins, 20 draws, 20 losses)', () => {
    const e = eloTrinomial({ wins: 60, draws: 20, losses: 20 });
    expect(e.elo).toBeCloseTo(147.19, 1);
    expect(e.lo).toBeCloseTo(86.1, 1);
    expect(e.hi).toBeCloseTo(218.42, 1);
    expect(e.pm).toBeCloseTo((218.42 - 86.1) / 2, 1);
    expect(e.n).toBe(100);
  });

  it('pentanomial interval over pairs', () => {
    const e = eloPentanomial([2, 5, 10, 8, 5]);
    expect(e.n).toBe(30);
    expect(e.elo).toBeCloseTo(52.51, 1);
    expect(e.lo).toBeCloseTo(-19.83, 1);
    expect(e.hi).toBeCloseTo(129.75, 1);
  });

  it('identical results still get an interval of some width', () => {
    const e = eloPentanomial([0, 0, 50, 0, 0]);
    expect(e.elo).toBe(0);
    expect(e.pm).toBeCloseTo(14.87, 1);
    const w = eloTrinomial({ wins: 10, draws: 0, losses: 0 });
    expect(w.elo).toBe(Infinity);
    expect(Number.isFinite(w.lo)).toBe(true);
  });
});

describe('SPRT', () => {
  it('bounds and log-likelihood ratio', () => {
    const b = sprtBounds(0.05, 0.05);
    expect(b.lower).toBeCloseTo(-2.944, 3);
    expect(b.upper).toBeCloseTo(2.944, 3);
    const tri = sprtState({ elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 }, { wins: 60, draws: 20, losses: 20 }, [0, 0, 0, 0, 0]);
    expect(tri.model).toBe('trinomial');
    expect(tri.llr).toBeCloseTo(1.6999, 3);
    expect(tri.decision).toBe('continue');
    const penta = sprtState({ elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 }, { wins: 0, draws: 0, losses: 0 }, [2, 5, 10, 8, 5]);
    expect(penta.model).toBe('pentanomial');
    expect(penta.llr).toBeCloseTo(0.32003, 4);
  });

  it('decides pass for a clearly stronger engine and fail for a weaker one', () => {
    const p = { elo0: 0, elo1: 20, alpha: 0.05, beta: 0.05 };
    expect(sprtState(p, { wins: 300, draws: 100, losses: 100 }, [0, 0, 0, 0, 0]).decision).toBe('pass');
    expect(sprtState(p, { wins: 100, draws: 100, losses: 300 }, [0, 0, 0, 0, 0]).decision).toBe('fail');
  });
});

describe('computeStats', () => {
  it("counts per colour from A's side, pairs, faults and aborted games", () => {
    const games = [
      rec(1, 'A', 'B', '1-0'), // A black wins
      rec(2, 'B', 'A', '1-0'), // A white loses   -> pair 1: 1 point
      rec(3, 'A', 'B', '1/2-1/2', 'full-board'), // A black draws
      rec(4, 'B', 'A', '1-0', 'crash'), // A white loses by crash (fault of A)
      rec(5, 'A', 'B', '0-1', 'timeout'), // A black loses on time
      rec(6, 'B', 'A', '*', 'aborted'),
    ];
    const s = computeStats(games, 'A', 'B', { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 });
    expect(s.games).toBe(5);
    expect(s.aborted).toBe(1);
    expect(s.total).toEqual({ wins: 1, draws: 1, losses: 3 });
    expect(s.asBlack).toEqual({ wins: 1, draws: 1, losses: 1 });
    expect(s.asWhite).toEqual({ wins: 0, draws: 0, losses: 2 });
    expect(s.score).toBeCloseTo(0.3, 12);
    expect(s.pairs).toBe(2);
    expect(s.penta).toEqual([0, 1, 1, 0, 0]); // pair 2: draw + loss = 0.5 points; pair 1: 1 point
    expect(s.faults).toEqual({ A: 2, B: 0 });
    expect(s.sprt?.model).toBe('pentanomial');
    expect(progressLine(s, 10)).toMatch(
      /^games 6\/10 {2}A vs B {2}W-D-L 1-1-3 {2}score 30\.0% {2}Elo -147 (± \d+|\[-inf, [-+]\d+\]) {2}LLR -?\d+\.\d\d \[-2\.94, 2\.94\]$/,
    );
    expect(summaryText(s)).toContain('A black +1 =1 -1');
    expect(summaryText(s)).toContain('lost by fault: A 2');
  });

  it('prints infinite Elo as bounds, not NaN', () => {
    const s = computeStats([rec(1, 'A', 'B', '1-0'), rec(2, 'B', 'A', '0-1')], 'A', 'B');
    expect(progressLine(s, 2)).toContain('Elo +inf');
    expect(summaryText(s)).not.toContain('NaN');
  });
});

describe('SPRT regularisation', () => {
  it('stays finite and decides when every pair is won', () => {
    const p = { elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05 };
    expect(sprtState(p, { wins: 0, draws: 0, losses: 0 }, [0, 0, 0, 0, 0]).llr).toBe(0);
    expect(sprtState(p, { wins: 2, draws: 0, losses: 0 }, [0, 0, 0, 0, 1]).decision).toBe('continue');
    const s = sprtState(p, { wins: 18, draws: 0, losses: 0 }, [0, 0, 0, 0, 9]);
    expect(s.llr).toBeCloseTo(3.2808, 3);
    expect(s.decision).toBe('pass');
  });
});
