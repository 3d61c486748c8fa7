import { describe, expect, test } from 'vitest';
import type { Color, Rule } from '../../src/core/types.js';
import { CheckBoard } from '../../src/proof/check-board.js';

/** A small deterministic generator (tests must not depend on Math.random). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

describe('window five cells agree with naive run counting', () => {
  for (const rule of ['freestyle', 'standard'] as Rule[]) {
    for (const size of [7, 15]) {
      test(`${rule} ${size}x${size}`, () => {
        const rnd = lcg(size * 31 + rule.length);
        let checked = 0;
        for (let game = 0; game < (size > 10 ? 15 : 40); game++) {
          const b = new CheckBoard(size, rule);
          // Dense random stones, biased towards long runs of one colour.
          const nStones = Math.floor(rnd() * b.area * 0.6);
          for (let i = 0; i < nStones; i++) {
            const q = Math.floor(rnd() * b.area);
            if (b.cells[q] === 0) b.place(q, (rnd() < 0.7 ? 1 : 2) as Color);
          }
          for (const c of [1, 2] as Color[]) {
            const naive: number[] = [];
            for (let q = 0; q < b.area; q++) if (b.cells[q] === 0 && b.runMakesFive(q, c)) naive.push(q);
            const n = b.fiveCells(c);
            expect(n).toBe(Math.min(naive.length, 2));
            if (naive.length > 0) expect(naive).toContain(b.firstFive);
            for (let q = 0; q < b.area; q++) {
              if (b.cells[q] !== 0) continue;
              // a stone at q: its five cells through q are exactly the naive five cells on its lines
              b.place(q, c);
              const through = b.fiveCellsThrough(q, c);
              const after: number[] = [];
              for (let r = 0; r < b.area; r++) if (b.cells[r] === 0 && b.runMakesFive(r, c)) after.push(r);
              const fresh = after.filter((r) => !naive.includes(r));
              // fiveCellsThrough reports every new five cell (all new ones pass through q)
              if (fresh.length > 0) expect(through).toBeGreaterThanOrEqual(Math.min(fresh.length, 2));
              expect(through).toBeLessThanOrEqual(Math.min(after.length, 2));
              if (through > 0) expect(after).toContain(b.firstFive);
              b.remove(q);
              checked++;
            }
          }
        }
        expect(checked).toBeGreaterThan(100);
      });
    }
  }
});

test('place and remove restore counts and hash', () => {
  const b = new CheckBoard(15, 'freestyle');
  b.place(112, 1);
  const snap = [b.h1, b.h2, b.h3];
  const counts = b.count.slice();
  b.place(113, 2);
  b.place(97, 1);
  b.remove(97);
  b.remove(113);
  expect([b.h1, b.h2, b.h3]).toEqual(snap);
  expect(b.count).toEqual(counts);
  const h = new Int32Array(3);
  CheckBoard.hashOf([112], 1, h);
  expect([...h]).toEqual(snap);
});

test('standard: a run of six is no five, exactly five is', () => {
  const b = new CheckBoard(15, 'standard');
  for (const q of [0, 1, 2, 3, 5]) b.place(q, 1); // a15 b15 c15 d15 _ f15
  expect(b.runMakesFive(4, 1)).toBe(false);
  expect(b.fiveCells(1)).toBe(0);
  const f = new CheckBoard(15, 'freestyle');
  for (const q of [0, 1, 2, 3, 5]) f.place(q, 1);
  expect(f.fiveCells(1)).toBe(1);
  expect(f.firstFive).toBe(4);
});
