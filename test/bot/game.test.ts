import { describe, expect, it } from 'vitest';
import { BotGame } from '../../src/bot/game.js';
import type { MoveResult } from '../../src/search/types.js';
import { BLACK, WHITE } from '../protocols/helpers.js';

describe('BotGame', () => {
  it('places, refuses occupied and off-board cells, removes and swaps colours', () => {
    const g = new BotGame(15, 'freestyle', { seed: 's' });
    expect(g.place(0, BLACK)).toBeUndefined();
    expect(g.place(0, WHITE)).toBe('occupied');
    expect(g.place(225, WHITE)).toBe('off the board');
    expect(g.place(-1, WHITE)).toBe('off the board');
    g.place(1, WHITE);
    g.swapColors();
    expect(g.stones).toEqual([
      { index: 0, color: WHITE },
      { index: 1, color: BLACK },
    ]);
    expect(g.remove(0)).toBe(true);
    expect(g.remove(0)).toBe(false);
    expect(g.isEmpty(0)).toBe(true);
  });

  it('detects fives by rule (overline counts only in freestyle)', () => {
    const six = (rule: 'freestyle' | 'standard') => {
      const g = new BotGame(15, rule, { seed: 's' });
      for (let x = 0; x < 6; x++) g.place(x, BLACK);
      return g.hasFive(BLACK);
    };
    expect(six('freestyle')).toBe(true);
    expect(six('standard')).toBe(false);
  });

  it('never returns an illegal move: an engine that proposes an occupied cell is overruled and logged', () => {
    const g = new BotGame(15, 'freestyle', { seed: 's' });
    g.place(112, BLACK);
    // Fault injection: make the engine answer the occupied centre.
    g.engine.go = (): MoveResult => ({ move: 112, score: 0, depth: 1, nodes: 1, ms: 0, pv: [112], source: 'alphabeta' });
    const t = g.think(WHITE, {});
    expect(t.move).not.toBe(112);
    expect(g.isEmpty(t.move)).toBe(true);
    expect(t.log[0]).toMatch(/illegal/);
    g.engine.go = () => {
      throw new Error('engine bug');
    };
    const u = g.think(WHITE, {});
    expect(g.isEmpty(u.move)).toBe(true);
    expect(u.log.join(' ')).toMatch(/engine error: engine bug/);
  });

  it('returns -1 on a full board', () => {
    const g = new BotGame(5, 'freestyle', { seed: 's' });
    for (let q = 0; q < 25; q++) g.place(q, q % 2 ? WHITE : BLACK);
    expect(g.think(BLACK, {}).move).toBe(-1);
  });
});
