import { describe, expect, it } from 'vitest';
import type { GameRecord } from '../../src/match/game.js';
import { gameToSgf, sgfPoint, sgfResult } from '../../src/match/sgf.js';

const base: GameRecord = {
  game: 3, openingId: 'x]y', opening: ['h8', 'i9'], black: 'new', white: 'old', size: 15, rule: 'freestyle',
  tc: { turnMs: 100, matchMs: 10000 }, moves: [{ move: 'a15', ms: 12 }, { move: 'o1', ms: 7 }], result: '1-0', reason: 'five',
  detail: 'black (new) made five with a15', timeMs: { black: 12, white: 7 }, startedAt: '2026-11-23T10:00:00.000Z',
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
