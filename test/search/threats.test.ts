import { describe, expect, it } from 'vitest';
import { Board } from '../../src/core/board.js';
import { C_FOUR, C_FOUR_THREE, C_OPEN_FOUR, C_FIVE } from '../../src/core/patterns.js';
import { ThreatScratch, collectDefences, collectFours, findFive } from '../../src/search/threats.js';
import type { Color, Rule } from '../../src/core/types.js';

function rng(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
}

/** Brute force: every empty cell that is a D four, or after which A has no open-four or five cell. */
function bruteDefences(b: Board, a: Color): number[] {
  const d = (3 - a) as Color;
  const out: number[] = [];
  for (let x = 0; x < b.area; x++) {
    if (b.cells[x] !== 0) continue;
    if (b.classOf(x, d) >= C_FOUR) {
      out.push(x);
      continue;
    }
    b.play(x);
    const still = b.count(a, C_OPEN_FOUR) + b.count(a, C_FIVE);
    b.undo();
    if (still === 0) out.push(x);
  }
  return out.sort((p, q) => p - q);
}

/** The first empty cell (board order) where c makes five, by brute force. */
function naiveFirstFive(b: Board, c: Color): number {
  for (let q = 0; q < b.area; q++) if (b.cells[q] === 0 && b.classOf(q, c) === C_FIVE) return q;
  return -1;
}

describe('findFive', () => {
  it('findFive and collectFours agree with board scans on random games', () => {
    const r = rng(5);
    const buf = new Int16Array(600);
    const scratch = new ThreatScratch();
    let withFive = 0;
    for (let game = 0; game < 300; game++) {
      const size = [9, 15, 19][game % 3]!;
      const b = new Board(size, game % 2 ? 'standard' : 'freestyle');
      const c = Math.floor(size / 2);
      for (let i = 0; i < 60; i++) {
        const q = Math.min(size - 1, Math.max(0, c + r(9) - 4)) * size + Math.min(size - 1, Math.max(0, c + r(9) - 4));
        if (b.cells[q] !== 0) continue;
        b.play(q);
        if (b.lastMoveWon()) break;
        for (const col of [1, 2] as Color[]) {
          const want = naiveFirstFive(b, col);
          expect(findFive(b, col)).toBe(want);
          if (want >= 0) withFive++;
          // collectFours: fives, open fours, four-threes, fours, each in board order
          const fours: number[] = [];
          for (const k of [C_FIVE, C_OPEN_FOUR, C_FOUR_THREE, C_FOUR])
            for (let x = 0; x < b.area; x++) if (b.cells[x] === 0 && b.classOf(x, col) === k) fours.push(x);
          const n = collectFours(b, col, buf, 3, scratch);
          expect(Array.from(buf.subarray(3, 3 + n))).toEqual(fours);
        }
      }
    }
    expect(withFive).toBeGreaterThan(200);
  });
});

describe('collectDefences', () => {
  for (const rule of ['freestyle', 'standard'] as Rule[]) {
    it(`equals a brute-force scan on random positions with open-four cells (${rule})`, () => {
      const r = rng(rule === 'freestyle' ? 7 : 11);
      const out = new Int16Array(2000);
      const scratch = new ThreatScratch();
      let checked = 0;
      for (let game = 0; game < 400 && checked < 150; game++) {
        const size = [9, 15, 19][game % 3]!;
        const b = new Board(size, rule);
        const c = Math.floor(size / 2);
        for (let i = 0; i < 40; i++) {
          // stones clustered near the centre so threats appear
          const x = Math.min(size - 1, Math.max(0, c + r(9) - 4));
          const y = Math.min(size - 1, Math.max(0, c + r(9) - 4));
          const q = y * size + x;
          if (b.cells[q] !== 0) continue;
          if (findFive(b, b.toMove) >= 0 || b.lastMoveWon()) break;
          b.play(q);
          const a = (3 - b.toMove) as Color; // the side that just moved is the attacker
          if (b.lastMoveWon()) break;
          if (b.count(a, C_FIVE) > 0 || b.count(b.toMove, C_FIVE) > 0) continue;
          if (b.count(a, C_OPEN_FOUR) === 0) continue;
          const want = bruteDefences(b, a);
          const n = collectDefences(b, a, out, 0, scratch);
          const got = Array.from(out.subarray(0, n)).sort((p, q) => p - q);
          expect(got).toEqual(want);
          expect(scratch.mark.every((m) => m === 0)).toBe(true);
          // the branch for many open-four cells (every empty cell played) gives the same set
          const n0 = collectDefences(b, a, out, 0, scratch, 0);
          expect(Array.from(out.subarray(0, n0)).sort((p, q) => p - q)).toEqual(want);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(50);
    });
  }
});
