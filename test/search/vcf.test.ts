/**
 * search/vcf.ts on its own: the VCFs it finds are legal lines of fours ending in five, it
 * finds the known ones, its "no VCF" agrees with a plain search without tables, and its
 * table of failures carries over soundly from one position to the next. (solver.test.ts
 * covers the solver's VCF stage and the depth-limit case.)
 */
import { describe, expect, it } from 'vitest';
import type { Board } from '../../src/core/board.js';
import { C_FOUR, C_OPEN_FOUR } from '../../src/core/patterns.js';
import type { Color, Rule } from '../../src/core/types.js';
import { VcfSearcher, type VcfResult } from '../../src/search/vcf.js';
import { findFive, fiveCount } from '../../src/search/threats.js';
import { VCF_POSITIONS, boardOf, lcg, randomMiddleGame } from './helpers.js';

/**
 * Check a VCF line on the board (restored afterwards): each attacker move is on an empty cell
 * and makes a four or better; each defender move is the only cell that stops that four, and
 * makes no five for him; the last attacker move makes five.
 */
function expectLegalLine(b: Board, r: VcfResult): void {
  const a = b.toMove;
  const d = (3 - a) as Color;
  const line = r.line;
  expect(line.length % 2).toBe(1);
  let played = 0;
  for (let i = 0; i < line.length; i++) {
    const q = line[i]!;
    expect(b.cells[q]).toBe(0);
    if (i % 2 === 0) {
      expect(b.toMove).toBe(a);
      if (i === line.length - 1) expect(b.makesFive(q, a)).toBe(true);
      else expect(b.classOf(q, a)).toBeGreaterThanOrEqual(C_FOUR);
    } else {
      // the attacker's four leaves him five cells; D must take one (the line gives the first)
      expect(fiveCount(b, a)).toBeGreaterThanOrEqual(1);
      expect(b.makesFive(q, a)).toBe(true);
      expect(b.makesFive(q, d)).toBe(false);
    }
    b.play(q);
    played++;
  }
  expect(b.lastMoveWon()).toBe(a);
  for (let i = 0; i < played; i++) b.undo();
}

/** A VCF search written plainly from the rules, without tables (for small depths). */
function plainVcf(b: Board, depth: number): boolean {
  const a = b.toMove;
  const d = (3 - a) as Color;
  if (findFive(b, a) >= 0) return true;
  if (depth === 0) return false;
  const nd = fiveCount(b, d);
  if (nd >= 2) return false;
  const moves: number[] = [];
  if (nd === 1) {
    const f = findFive(b, d);
    if (b.classOf(f, a) >= C_FOUR) moves.push(f);
  } else {
    for (let q = 0; q < b.area; q++) if (b.cells[q] === 0 && b.classOf(q, a) >= C_FOUR) moves.push(q);
  }
  for (const m of moves) {
    const open = b.classOf(m, a) >= C_OPEN_FOUR;
    b.play(m);
    let win: boolean;
    if (open)
      win = true; // two five cells, and D has none to make first
    else {
      b.play(findFive(b, a));
      win = plainVcf(b, depth - 1);
      b.undo();
    }
    b.undo();
    if (win) return true;
  }
  return false;
}

describe('VcfSearcher', () => {
  it('finds the known VCFs, and every line is legal: fours, forced blocks, five', () => {
    const vcfs = new VcfSearcher();
    for (const moves of VCF_POSITIONS) {
      const b = boardOf(moves);
      const before = [b.hashLo, b.hashHi, b.ply, b.toMove];
      const r = vcfs.search(b);
      expect(r.win).toBe(true);
      expect(r.aborted).toBe(false);
      expect([b.hashLo, b.hashHi, b.ply, b.toMove]).toEqual(before);
      expectLegalLine(b, r);
    }
  });

  it('a budget too small to finish says "not found" and aborted, never a win it did not see', () => {
    const b = boardOf(VCF_POSITIONS[0]!);
    const vcfs = new VcfSearcher();
    const r = vcfs.search(b, { maxNodes: 1 });
    expect(r.win).toBe(false);
    expect(r.aborted).toBe(true);
    expect(r.line).toEqual([]);
    // and what it did not finish it did not store as a failure: the same searcher finds the win
    expect(vcfs.search(b).win).toBe(true);
  });

  for (const rule of ['freestyle', 'standard'] as Rule[]) {
    it(`${rule}: on random middle games it agrees with a plain search to 4 fours, both sides`, () => {
      const rnd = lcg(rule === 'freestyle' ? 4242 : 4243);
      const vcfs = new VcfSearcher();
      let wins = 0;
      let checked = 0;
      for (let g = 0; g < 250; g++) {
        const b = randomMiddleGame(rnd, rule, 10, 18, 3, 9);
        for (const side of [b.toMove, (3 - b.toMove) as Color]) {
          const back = b.toMove;
          b.setToMove(side);
          const r = vcfs.search(b, { maxDepth: 4 });
          expect(r.aborted).toBe(false);
          expect(r.win).toBe(plainVcf(b, 4));
          if (r.win) {
            wins++;
            expectLegalLine(b, r);
          }
          checked++;
          b.setToMove(back);
        }
      }
      expect(checked).toBeGreaterThan(300);
      expect(wins).toBeGreaterThan(20);
    });
  }

  it('its table of failures carries over: a searcher used on many positions answers as a fresh one', () => {
    const rnd = lcg(77);
    const shared = new VcfSearcher();
    const fresh = new VcfSearcher();
    let wins = 0;
    for (let g = 0; g < 200; g++) {
      const b = randomMiddleGame(rnd, g % 3 === 0 ? 'standard' : 'freestyle', 12, 16, 3, 9);
      fresh.clear();
      const want = fresh.search(b);
      const got = shared.search(b);
      expect(got.win).toBe(want.win);
      expect(got.aborted || want.aborted).toBe(false);
      if (got.win) {
        wins++;
        expectLegalLine(b, got);
      }
    }
    expect(wins).toBeGreaterThan(10);
  });
});
