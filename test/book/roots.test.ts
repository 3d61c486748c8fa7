import { describe, expect, test } from 'vitest';
import { openingRoots, regionCells } from '../../src/book/roots.js';
import { canonicalize } from '../../src/core/symmetry.js';
import { BLACK, WHITE } from '../../src/core/types.js';

describe('opening roots', () => {
  test('the central region', () => {
    expect(regionCells(15, 3)).toEqual([96, 97, 98, 111, 112, 113, 126, 127, 128]);
    expect(regionCells(16, 2)).toEqual([119, 120, 135, 136]);
  });

  test('first-stone: one orbit per cell class of the square (6 in 5x5, 1 for the centre)', () => {
    expect(openingRoots('first-stone', 15, 5)).toHaveLength(6);
    expect(openingRoots('first-stone', 15, 1)).toEqual([{ key: '15.w.3g.', black: [112], white: [], toMove: WHITE }]);
    expect(openingRoots('first-stone', 15, 15)).toHaveLength(36); // 8 * 9 / 2 cells of a triangle
  });

  test('free is the empty board', () => {
    expect(openingRoots('free', 15, 5)).toEqual([{ key: '15.b..', black: [], white: [], toMove: BLACK }]);
  });

  test('swap2 / swap-after-3: every placement in the region maps to exactly one root', () => {
    for (const [size, k] of [[15, 3], [16, 4]] as const) {
      const roots = openingRoots('swap2', size, k);
      expect(openingRoots('swap-after-3', size, k)).toEqual(roots);
      const keys = new Set(roots.map((r) => r.key));
      expect(keys.size).toBe(roots.length);
      const cells = regionCells(size, k);
      const reached = new Set<string>();
      for (let i = 0; i < cells.length; i++)
        for (let j = i + 1; j < cells.length; j++)
          for (const w of cells) {
            if (w === cells[i] || w === cells[j]) continue;
            const key = canonicalize(size, [cells[i]!, cells[j]!], [w], WHITE).key;
            expect(keys.has(key)).toBe(true);
            reached.add(key);
          }
      expect(reached.size).toBe(roots.length);
      for (const r of roots) {
        expect(r.black).toHaveLength(2);
        expect(r.white).toHaveLength(1);
        expect(r.toMove).toBe(WHITE);
      }
    }
    // Burnside on the 3x3 square: 252 placements, 38 classes
    expect(openingRoots('swap2', 15, 3)).toHaveLength(38);
  });
});
