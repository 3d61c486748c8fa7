import { describe, expect, test } from 'vitest';
import { makePoint, parsePosition } from '../../src/core/notation.js';
import { boardFromSpec } from '../../src/core/position.js';
import { BLACK, WHITE, type Color } from '../../src/core/types.js';

function value<T>(r: { ok: true; value: T } | { ok: false; error: string }): T {
  if (!r.ok) throw new Error(r.error);
  return r.value;
}
function error(r: { ok: boolean; error?: string }): string {
  expect(r.ok).toBe(false);
  return r.error!;
}

describe('boardFromSpec', () => {
  const load = (t: string, rule: 'freestyle' | 'standard' = 'freestyle', toMove?: Color, size = 15) =>
    boardFromSpec(value(parsePosition(t, size)), rule, toMove);

  test('stones, history and side to move', () => {
    const b = value(load('h8 i9 h9'));
    expect(b.toMove).toBe(WHITE);
    expect(b.ply).toBe(3);
    expect(Array.from(b.history.subarray(0, 3)).map((q) => makePoint(q, 15))).toEqual(['h8', 'i9', 'h9']);
    expect(
      b
        .stones(BLACK)
        .map((q) => makePoint(q, 15))
        .sort(),
    ).toEqual(['h8', 'h9']);
    const s = value(load('B:h8,h9;W:', 'freestyle', WHITE));
    expect(s.toMove).toBe(WHITE);
    const t = value(load('B:h8,h9;W:', 'freestyle', BLACK));
    expect(t.toMove).toBe(BLACK);
    expect(t.hashLo ^ s.hashLo).not.toBe(0); // the side to move is in the hash
  });

  test('one side with five is a (finished) position; both sides is an error naming a stone of each', () => {
    expect(value(load('h8 a1 h9 a2 h10 a3 h11 a4 h12')).lastMoveWon()).toBe(BLACK);
    expect(error(load('h8 a1 h9 a2 h10 a3 h11 a4 h12 a5'))).toBe('both sides have five (black through h8, white through a1)');
    expect(error(load('B:a1,a2,a3,a4,a5;W:c1,c2,c3,c4,c5'))).toMatch(/^both sides have five \(black through a\d, white through c\d\)$/);
  });

  test('standard: an overline is not a five', () => {
    // black a1..a6 (six), white c1..c5 (five): two fives in freestyle, only white's in standard
    const t = 'B:a1,a2,a3,a4,a5,a6;W:c1,c2,c3,c4,c5,e1';
    expect(error(load(t, 'freestyle'))).toContain('both sides have five');
    expect(load(t, 'standard').ok).toBe(true);
  });

  test('side-to-move errors come through', () => {
    expect(error(load('B:h8,h9;W:'))).toContain('need an explicit side to move');
    expect(error(load('h8', 'freestyle', BLACK))).toContain('contradicts the move list');
  });
});
