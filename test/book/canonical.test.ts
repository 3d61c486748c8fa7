/**
 * book/canonical.ts: the book's side of canonical keys. A position shown in any of its 8
 * orientations finds the same book entry; moves and strategy entries cross between the
 * caller's orientation and the stored one and come back unchanged; a stored move means the
 * same position after it for every caller, even on symmetric positions where the cell differs.
 * (test/core/symmetry.test.ts covers the transforms and keys themselves.)
 */
import { describe, expect, it } from 'vitest';
import { Board } from '../../src/core/board.js';
import { BLACK, WHITE, type Color } from '../../src/core/types.js';
import { TRANSFORMS, canonicalize, transformPoint, transformPoints } from '../../src/core/symmetry.js';
import {
  bookPositionOf,
  bookPositionOfStones,
  entryToCaller,
  entryToCanonical,
  moveToCaller,
  moveToCanonical,
  stonesOfKey,
} from '../../src/book/canonical.js';

function lcg(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
}

/** Random distinct stones near the centre (fewer than the area). */
function randomStones(rnd: (n: number) => number, size: number, count: number): { black: number[]; white: number[] } {
  const taken = new Set<number>();
  const black: number[] = [];
  const white: number[] = [];
  while (taken.size < count) {
    const q = rnd(size * size);
    if (taken.has(q)) continue;
    taken.add(q);
    (taken.size % 2 ? black : white).push(q);
  }
  return { black, white };
}

const sorted = (a: readonly number[]) => [...a].sort((x, y) => x - y);
const keyAfter = (size: number, black: number[], white: number[], toMove: Color, move: number) =>
  canonicalize(size, toMove === BLACK ? [...black, move] : black, toMove === WHITE ? [...white, move] : white, (3 - toMove) as Color).key;

describe('book/canonical', () => {
  it('every orientation of a position finds the same key, and the key holds the transformed stones', () => {
    const rnd = lcg(2024);
    for (let iter = 0; iter < 200; iter++) {
      const size = [9, 15, 19, 22][iter % 4]!;
      const { black, white } = randomStones(rnd, size, 1 + rnd(14));
      const toMove: Color = rnd(2) ? BLACK : WHITE;
      const base = bookPositionOfStones(size, black, white, toMove);
      expect(base.stones).toBe(black.length + white.length);
      for (const t of TRANSFORMS) {
        const p = bookPositionOfStones(size, transformPoints(t, black, size), transformPoints(t, white, size), toMove);
        expect(p.key).toBe(base.key);
        expect([p.size, p.toMove, p.stones]).toEqual([size, toMove, base.stones]);
        const k = stonesOfKey(p.key)!;
        expect(k).toBeDefined();
        expect([k.size, k.toMove]).toEqual([size, toMove]);
        expect(sorted(k.black)).toEqual(sorted(transformPoints(p.transform, transformPoints(t, black, size), size)));
        expect(sorted(k.white)).toEqual(sorted(transformPoints(p.transform, transformPoints(t, white, size), size)));
      }
    }
  });

  it('bookPositionOf(board) is the position of its stones and side to move', () => {
    const b = new Board(15, 'freestyle');
    for (const q of [112, 97, 113, 128, 98]) b.play(q);
    const p = bookPositionOf(b);
    expect(p).toEqual(bookPositionOfStones(15, b.stones(BLACK), b.stones(WHITE), b.toMove));
    expect(p.toMove).toBe(WHITE);
  });

  it('moves: caller -> stored -> caller is the identity on every cell, in every orientation', () => {
    const rnd = lcg(7);
    for (const size of [9, 15]) {
      const { black, white } = randomStones(rnd, size, 7);
      for (const t of TRANSFORMS) {
        const p = bookPositionOfStones(size, transformPoints(t, black, size), transformPoints(t, white, size), BLACK);
        for (let q = 0; q < size * size; q++) expect(moveToCaller(p, moveToCanonical(p, q))).toBe(q);
      }
    }
  });

  it('a stored move gives every caller the same position after it, symmetric positions included', () => {
    const rnd = lcg(99);
    const size = 15;
    // a lone centre stone and a symmetric pair are symmetric; random ones mostly are not
    const positions = [
      { black: [112], white: [] as number[] },
      { black: [112], white: [96, 128] },
      ...Array.from({ length: 8 }, () => randomStones(rnd, size, 2 + rnd(8))),
    ];
    let asymmetric = 0;
    for (const { black, white } of positions) {
      const taken = new Set([...black, ...white]);
      const same = (a: number[], b: number[]) => sorted(a).join() === sorted(b).join();
      const symmetries = TRANSFORMS.filter((s) => same(transformPoints(s, black, size), black) && same(transformPoints(s, white, size), white)).length;
      if (symmetries === 1) asymmetric++;
      const base = bookPositionOfStones(size, black, white, WHITE);
      for (let m = 0; m < size * size; m++) {
        if (taken.has(m)) continue;
        const stored = moveToCanonical(base, m);
        const want = keyAfter(size, black, white, WHITE, m);
        for (const t of TRANSFORMS) {
          const tb = transformPoints(t, black, size);
          const tw = transformPoints(t, white, size);
          const p = bookPositionOfStones(size, tb, tw, WHITE);
          const back = moveToCaller(p, stored);
          expect(tb.includes(back) || tw.includes(back)).toBe(false);
          expect(keyAfter(size, tb, tw, WHITE, back)).toBe(want);
          // on a position without symmetry it is the very cell, seen from t
          if (symmetries === 1) expect(back).toBe(transformPoint(t, m, size));
        }
      }
    }
    expect(asymmetric).toBeGreaterThan(4);
  });

  it('strategy entries: stored once, read back in each orientation as the same stones and move', () => {
    const rnd = lcg(31);
    for (let iter = 0; iter < 60; iter++) {
      const size = [9, 15, 20][iter % 3]!;
      const { black, white } = randomStones(rnd, size, 3 + rnd(10));
      const toMove: Color = rnd(2) ? BLACK : WHITE;
      const root = bookPositionOfStones(size, black, white, toMove);
      // an entry deeper in the proof: more stones, and the winner's move on an empty cell
      const more = randomStones(rnd, size, black.length + white.length + 4);
      const eb = more.black;
      const ew = more.white;
      let move = rnd(size * size);
      while (eb.includes(move) || ew.includes(move)) move = (move + 1) % (size * size);
      const stored = entryToCanonical(root, { black: eb, white: ew, move });
      const back = entryToCaller(root, stored)!;
      expect([sorted(back.black), sorted(back.white), back.move]).toEqual([sorted(eb), sorted(ew), move]);
      const entryKey = canonicalize(size, eb, ew, toMove).key;
      for (const t of TRANSFORMS) {
        const p = bookPositionOfStones(size, transformPoints(t, black, size), transformPoints(t, white, size), toMove);
        const e = entryToCaller(p, stored)!;
        // the caller in orientation t reads a symmetric image of the entry (the very image
        // t(entry) unless the root is symmetric) and would store it the same way
        expect(canonicalize(size, e.black, e.white, toMove).key).toBe(entryKey);
        expect(keyAfter(size, e.black, e.white, toMove, e.move)).toBe(keyAfter(size, eb, ew, toMove, move));
        expect(entryToCanonical(p, e)).toEqual(stored);
      }
    }
  });

  it('a stored entry that does not decode is refused, not misread', () => {
    const p = bookPositionOfStones(15, [112], [], WHITE);
    expect(entryToCaller(p, { black: '3g', white: 'zz', move: 0 })).toBeUndefined();
    expect(entryToCaller(p, { black: '3', white: '', move: 0 })).toBeUndefined();
  });
});
