import { describe, expect, it } from 'vitest';
import type { GameRecord } from '../../src/match/game.js';
import { gameToSgf, parseSgf, positionToSgf, sgfPoint, sgfResult } from '../../src/match/sgf.js';

const base: GameRecord = {
  game: 3,
  openingId: 'x]y',
  opening: ['h8', 'i9'],
  black: 'new',
  white: 'old',
  size: 15,
  rule: 'freestyle',
  tc: { turnMs: 100, matchMs: 10000 },
  moves: [
    { move: 'a15', ms: 12 },
    { move: 'o1', ms: 7 },
  ],
  result: '1-0',
  reason: 'five',
  detail: 'black (new) made five with a15',
  timeMs: { black: 12, white: 7 },
  startedAt: '2026-11-23T10:00:00.000Z',
};

describe('SGF', () => {
  it('uses letters from the top-left corner', () => {
    expect(sgfPoint(7 * 15 + 7, 15)).toBe('hh'); // h8
    expect(sgfPoint(0, 15)).toBe('aa'); // a15
    expect(sgfPoint(14 * 15 + 14, 15)).toBe('oo'); // o1
  });

  it('writes the header, players, result and moves with colours', () => {
    const s = gameToSgf(base);
    expect(s.startsWith('(;FF[4]GM[4]CA[UTF-8]AP[gomoku-tss match]SZ[15]PB[new]PW[old]RE[B+]DT[2026-11-23]GN[game 3, opening x\\]y]')).toBe(true);
    expect(s).toContain(';B[hh];W[ig];B[aa]C[12 ms];W[oo]C[7 ms])');
    expect(s.trim().endsWith(')')).toBe(true);
  });

  it('result codes', () => {
    expect(sgfResult({ ...base, result: '0-1', reason: 'timeout' })).toBe('W+T');
    expect(sgfResult({ ...base, result: '1-0', reason: 'crash' })).toBe('B+F');
    expect(sgfResult({ ...base, result: '1/2-1/2', reason: 'full-board' })).toBe('0');
    expect(sgfResult({ ...base, result: '*', reason: 'aborted' })).toBe('Void');
  });
});

describe('SGF positions', () => {
  it('a move list out and in', () => {
    const moves = [
      { index: 112, color: 1 as const },
      { index: 98, color: 2 as const },
    ];
    const text = positionToSgf({ size: 15, rule: 'freestyle', setup: { black: [], white: [] }, moves });
    expect(text).toBe('(;FF[4]GM[4]CA[UTF-8]AP[gomoku-tss serve]SZ[15]RU[freestyle]\n;B[hh];W[ig])\n');
    expect(parseSgf(text)).toEqual({ ok: true, value: { size: 15, rule: 'freestyle', setup: { black: [], white: [] }, moves, toMove: 1 } });
  });

  it('setup stones, the side to move, the main line of variations, escapes', () => {
    const r = parseSgf('(;GM[4]SZ[9]C[a \\] b]AB[aa][bb]AW[cc]PL[W](;W[dd]C[x](;B[ee])(;B[ff]))(;W[gg]))');
    expect(r).toEqual({
      ok: true,
      value: {
        size: 9,
        setup: { black: [0, 10], white: [20] },
        moves: [
          { index: 30, color: 2 },
          { index: 40, color: 1 },
        ],
        toMove: 2,
      },
    });
    const noMoves = parseSgf('(;GM[4]SZ[15]AB[hh]PL[W])');
    expect(noMoves.ok && noMoves.value.toMove).toBe(2);
  });

  it('what it cannot read, in one line', () => {
    const bad = (t: string) => {
      const r = parseSgf(t);
      return r.ok ? 'ok' : r.error;
    };
    expect(bad('')).toBe("not an SGF file (no '(')");
    expect(bad('(;GM[1])')).toBe('SGF: GM[1] is not Gomoku (GM[4])');
    expect(bad('(;SZ[19:15])')).toBe('SGF: SZ[19:15] is not a square board size');
    expect(bad('(;SZ[30])')).toBe('SGF: board size 30 is not in 5..22');
    expect(bad('(;SZ[15];B[])')).toBe('SGF: move 1: a pass (empty move)');
    expect(bad('(;SZ[15];B[hh];AB[aa])')).toBe('SGF: setup stones (AB) after moves are not supported');
    expect(bad('(;SZ[15];B[hh')).toBe("SGF: property B is not closed with ']'");
    expect(bad('(;SZ[15];B[hh];AE[hh])')).toBe('SGF: removing stones (AE) is not supported');
    expect(bad('(;SZ[15]!)')).toBe("SGF: unexpected '!'");
  });
});
