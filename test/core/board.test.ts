/**
 * core/board.ts on its own: what play/undo keep incrementally (cells, line patterns, classes,
 * counts, hash, history) against a board rebuilt from the same stones, the class counts of
 * known shapes, fives in both rules, and the small API around them (put, setToMove, clone).
 * (test/core/patterns.test.ts checks the pattern tables themselves.)
 */
import { describe, expect, test } from 'vitest';
import { Board, classShift, countIndex } from '../../src/core/board.js';
import { C_FIVE, C_FOUR, C_OPEN_FOUR, C_THREE, N_COMBINED } from '../../src/core/patterns.js';
import { parsePoint } from '../../src/core/notation.js';
import { BLACK, MAX_SIZE, MIN_SIZE, WHITE, type Color, type Rule } from '../../src/core/types.js';

/** A seeded integer generator: rnd(n) in 0..n-1. */
function lcg(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
}

/** The same stones and side to move, placed one by one on a new board. */
function rebuilt(b: Board): Board {
  const r = new Board(b.size, b.rule);
  for (let i = 0; i < b.ply; i++) r.put(b.history[i]!, b.cells[b.history[i]!]! as Color);
  r.setToMove(b.toMove);
  return r;
}

/** Everything a search reads, as plain data: equal snapshots mean equal boards. */
function snapshot(b: Board) {
  const empty: number[] = [];
  for (let q = 0; q < b.area; q++) if (b.cells[q] === 0) empty.push(q);
  return {
    cells: Array.from(b.cells),
    // patterns and classes are kept for empty cells only
    state: empty.map((q) => b.state[q]),
    counts: Array.from(b.counts),
    hash: [b.hashLo, b.hashHi],
    toMove: b.toMove,
  };
}

/** counts recomputed from the classes in `state`. */
function recount(b: Board): number[] {
  const c = new Array<number>(32).fill(0);
  for (let q = 0; q < b.area; q++) {
    if (b.cells[q] !== 0) continue;
    for (const col of [BLACK, WHITE]) c[countIndex(col, (b.state[q]! >>> classShift(col)) & 15)]!++;
  }
  return c;
}

const at = (b: Board, s: string) => (parsePoint(s, b.size) as { ok: true; value: number }).value;

describe('play and undo keep the board incrementally', () => {
  for (const [size, rule, games] of [
    [15, 'freestyle', 30],
    [15, 'standard', 20],
    [9, 'freestyle', 20],
    [MAX_SIZE, 'standard', 6],
  ] as [number, Rule, number][]) {
    test(`${size}x${size} ${rule}: ${games} random games equal a rebuilt board at every ply, and undo retraces them`, () => {
      const rnd = lcg(size * 7 + (rule === 'standard' ? 1 : 0));
      for (let g = 0; g < games; g++) {
        const b = new Board(size, rule);
        const seen: ReturnType<typeof snapshot>[] = [snapshot(b)];
        const lo = Math.max(0, (size >> 1) - 4);
        const span = Math.min(size, 9);
        for (let i = 0; i < 60 && b.ply < b.area; i++) {
          const q = (lo + rnd(span)) * size + lo + rnd(span);
          if (b.cells[q] !== 0) continue;
          b.play(q);
          const now = snapshot(b);
          expect(now).toEqual(snapshot(rebuilt(b)));
          expect(now.counts).toEqual(recount(b));
          seen.push(now);
          if (b.lastMoveWon()) break;
        }
        // undo all the way back: every earlier ply comes back exactly
        while (b.ply > 0) {
          seen.pop();
          b.undo();
          expect(snapshot(b)).toEqual(seen[seen.length - 1]);
        }
        expect(snapshot(b)).toEqual(snapshot(new Board(size, rule)));
      }
    });
  }

  test('the empty board: each empty cell counted once per colour, no threats, hash zero, Black to move', () => {
    for (const size of [MIN_SIZE, 15, MAX_SIZE]) {
      const b = new Board(size, 'freestyle');
      expect(b.area).toBe(size * size);
      expect([b.hashLo, b.hashHi, b.ply, b.toMove]).toEqual([0, 0, 0, BLACK]);
      expect(b.counts.reduce((s, x) => s + x, 0)).toBe(2 * b.area);
      expect(Array.from(b.counts)).toEqual(recount(b));
      for (const c of [BLACK, WHITE] as Color[]) expect(b.count(c, C_FIVE) + b.count(c, C_FOUR) + b.count(c, C_THREE)).toBe(0);
    }
  });

  test('sizes outside 5..22 are refused', () => {
    expect(() => new Board(MIN_SIZE - 1)).toThrow(RangeError);
    expect(() => new Board(MAX_SIZE + 1)).toThrow(RangeError);
    expect(() => new Board(15.5)).toThrow(RangeError);
  });
});

describe('classes and counts of known shapes', () => {
  test('an open three: its two open-four cells and two four cells; then a four: two five cells', () => {
    const b = new Board(15, 'freestyle');
    for (const s of ['h8', 'i8', 'j8']) b.put(at(b, s), BLACK);
    b.put(at(b, 'a1'), WHITE);
    b.setToMove(BLACK);
    const cells = (c: Color, k: number) => {
      const out: number[] = [];
      for (let q = 0; q < b.area; q++) if (b.cells[q] === 0 && b.classOf(q, c) === k) out.push(q);
      return out.sort((x, y) => x - y);
    };
    expect(cells(BLACK, C_OPEN_FOUR)).toEqual([at(b, 'g8'), at(b, 'k8')].sort((x, y) => x - y));
    expect(cells(BLACK, C_FOUR)).toEqual([at(b, 'f8'), at(b, 'l8')].sort((x, y) => x - y));
    expect(b.count(BLACK, C_OPEN_FOUR)).toBe(2);
    expect(b.count(BLACK, C_FOUR)).toBe(2);
    expect(b.count(BLACK, C_FIVE)).toBe(0);
    b.play(at(b, 'k8'));
    expect(cells(BLACK, C_FIVE)).toEqual([at(b, 'g8'), at(b, 'l8')].sort((x, y) => x - y));
    expect(b.makesFive(at(b, 'g8'), BLACK)).toBe(true);
    expect(b.makesFive(at(b, 'g8'), WHITE)).toBe(false);
    // the classes read three ways agree
    for (let q = 0; q < b.area; q++) {
      if (b.cells[q] !== 0) continue;
      for (const c of [BLACK, WHITE] as Color[]) expect(b.classOf(q, c)).toBe((b.state[q]! >>> classShift(c)) & 15);
    }
    for (let k = N_COMBINED; k < 16; k++) expect(b.count(BLACK, k)).toBe(0);
  });

  test('five: freestyle counts an overline, standard does not', () => {
    for (const rule of ['freestyle', 'standard'] as Rule[]) {
      const b = new Board(15, rule);
      // black d8 e8 f8 g8 and i8 j8: h8 joins them into six
      for (const s of ['d8', 'e8', 'f8', 'g8', 'i8', 'j8']) b.put(at(b, s), BLACK);
      b.setToMove(BLACK);
      const h8 = at(b, 'h8');
      expect(b.makesFive(h8, BLACK)).toBe(rule === 'freestyle');
      b.play(h8);
      expect(b.hasFiveAt(h8)).toBe(rule === 'freestyle');
      expect(b.lastMoveWon()).toBe(rule === 'freestyle' ? BLACK : 0);
    }
  });
});

describe('the small API', () => {
  test('put, setToMove and the hash: the side to move is part of it', () => {
    const b = new Board(15, 'freestyle');
    b.put(at(b, 'h8'), WHITE);
    expect(b.toMove).toBe(BLACK);
    const black = [b.hashLo, b.hashHi];
    b.setToMove(WHITE);
    expect([b.hashLo, b.hashHi]).not.toEqual(black);
    b.setToMove(WHITE); // no change
    b.setToMove(BLACK);
    expect([b.hashLo, b.hashHi]).toEqual(black);
    expect(b.stones(WHITE)).toEqual([at(b, 'h8')]);
    expect(b.stones(BLACK)).toEqual([]);
  });

  test('the same stones in another order hash alike', () => {
    const a = new Board(15, 'freestyle');
    const c = new Board(15, 'freestyle');
    for (const s of ['h8', 'i9', 'h9', 'i10']) a.play(at(a, s));
    for (const s of ['h9', 'i10', 'h8', 'i9']) c.play(at(c, s));
    expect([a.hashLo, a.hashHi]).toEqual([c.hashLo, c.hashHi]);
    expect(snapshot(a)).toEqual(snapshot(c));
  });

  test('clone: the same board, and independent of the original', () => {
    const rnd = lcg(11);
    const b = new Board(15, 'standard');
    while (b.ply < 30) {
      const q = rnd(b.area);
      if (b.cells[q] === 0) b.play(q);
    }
    const c = b.clone();
    expect(snapshot(c)).toEqual(snapshot(b));
    expect(Array.from(c.history.subarray(0, c.ply))).toEqual(Array.from(b.history.subarray(0, b.ply)));
    const before = snapshot(b);
    for (let q = 0; q < c.area; q++)
      if (c.cells[q] === 0) {
        c.play(q);
        break;
      }
    expect(snapshot(b)).toEqual(before);
  });

  test("isFull once every cell is taken (play does not stop at a five: that is the caller's)", () => {
    const b = new Board(MIN_SIZE, 'standard');
    for (let q = 0; q < b.area; q++) {
      expect(b.isFull()).toBe(false);
      b.play(q);
    }
    expect(b.isFull()).toBe(true);
    expect(b.ply).toBe(b.area);
  });
});
