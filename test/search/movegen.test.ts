import { describe, expect, it } from 'vitest';
import { Board } from '../../src/core/board.js';
import { C_FOUR, C_FOUR_THREE, C_OPEN_FOUR, C_FIVE } from '../../src/core/patterns.js';
import { Geometry } from '../../src/search/eval.js';
import { MoveGen, GEN_DEFEND, GEN_FORCED, GEN_QUIET } from '../../src/search/movegen.js';
import type { Rule } from '../../src/core/types.js';
import { boardOf, lcg } from './helpers.js';

function gen(b: Board): { n: number; moves: number[]; kind: number } {
  const g = new MoveGen(b, new Geometry(b.size));
  const out = new Int16Array(b.area);
  const sc = new Int32Array(b.area);
  const n = g.generate(out, sc, 0);
  return { n, moves: n > 0 ? Array.from(out.subarray(0, n)).sort((x, y) => x - y) : [], kind: g.kind };
}

/** Brute force: moves after which the opponent has no cell of class `cls` or better (short of five), plus own fours. */
function bruteDefences(b: Board, cls = C_OPEN_FOUR): number[] {
  const me = b.toMove;
  const opp = (3 - me) as 1 | 2;
  const out: number[] = [];
  for (let q = 0; q < b.area; q++) {
    if (b.cells[q] !== 0) continue;
    if (b.classOf(q, me) >= C_FOUR) {
      out.push(q);
      continue;
    }
    b.play(q);
    let left = b.count(opp, C_FIVE);
    for (let c = cls; c < C_FIVE; c++) left += b.count(opp, c);
    b.undo();
    if (left === 0) out.push(q);
  }
  return out;
}

describe('threat-aware move generation', () => {
  it('only the block against a four', () => {
    const b = boardOf('h8 a1 h9 a2 h10 b1 h11'); // black four h8-h11, white to move
    const r = gen(b);
    expect(r.kind).toBe(GEN_FORCED);
    expect(r.n).toBe(1);
    expect([boardOf('h12').history[0], boardOf('h7').history[0]]).toContain(r.moves[0]);
  });

  it('exact defences against an open three, equal to a brute-force scan (both rules, random positions)', () => {
    let checked = 0;
    for (const rule of ['freestyle', 'standard'] as Rule[]) {
      let s = rule === 'freestyle' ? 7 : 11;
      const rnd = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296;
      for (let g = 0; g < 400 && checked < 120; g++) {
        const b = new Board(15, rule);
        const n = 8 + Math.floor(rnd() * 20);
        let bad = false;
        for (let i = 0; i < n && !bad; i++) {
          let q = -1;
          for (let t = 0; t < 50 && q < 0; t++) {
            const c = (3 + Math.floor(rnd() * 9)) * 15 + 3 + Math.floor(rnd() * 9);
            if (b.cells[c] === 0) q = c;
          }
          if (q < 0 || b.classOf(q, b.toMove) >= C_FIVE) bad = true;
          else b.play(q);
        }
        if (bad) continue;
        const me = b.toMove;
        const opp = (3 - me) as 1 | 2;
        if (b.count(me, C_FIVE) > 0 || b.count(opp, C_FIVE) > 0 || b.count(opp, C_OPEN_FOUR) === 0) continue;
        const r = gen(b);
        const brute = bruteDefences(b).sort((x, y) => x - y);
        if (brute.length === 0) expect(r.n).toBe(-1);
        else {
          expect(r.kind).toBe(GEN_DEFEND);
          expect(r.moves).toEqual(brute);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('against a four-three cell: exactly the moves that break every one, plus own fours (brute force, both rules)', () => {
    let checked = 0;
    for (const rule of ['freestyle', 'standard'] as Rule[]) {
      let s = rule === 'freestyle' ? 3 : 5;
      const rnd = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296;
      for (let g = 0; g < 3000 && checked < 60 * (rule === 'freestyle' ? 1 : 2); g++) {
        const b = new Board(15, rule);
        const n = 8 + Math.floor(rnd() * 20);
        let bad = false;
        for (let i = 0; i < n && !bad; i++) {
          let q = -1;
          for (let t = 0; t < 50 && q < 0; t++) {
            const c = (3 + Math.floor(rnd() * 9)) * 15 + 3 + Math.floor(rnd() * 9);
            if (b.cells[c] === 0) q = c;
          }
          if (q < 0 || b.classOf(q, b.toMove) >= C_FIVE) bad = true;
          else b.play(q);
        }
        if (bad) continue;
        const me = b.toMove;
        const opp = (3 - me) as 1 | 2;
        if (b.count(me, C_FIVE) > 0 || b.count(opp, C_FIVE) > 0 || b.count(opp, C_OPEN_FOUR) > 0 || b.count(opp, C_FOUR_THREE) === 0) continue;
        const r = gen(b);
        const brute = bruteDefences(b, C_FOUR_THREE).sort((x, y) => x - y);
        if (brute.length === 0)
          expect(r.kind).toBe(GEN_QUIET); // nothing breaks it: left to the search
        else {
          expect(r.kind).toBe(GEN_DEFEND);
          expect(r.moves).toEqual(brute);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('quiet positions: every empty cell within distance 2 of a stone that is on one of its lines', () => {
    const b = boardOf('h8');
    const r = gen(b);
    expect(r.kind).toBe(GEN_QUIET);
    expect(r.n).toBe(16); // the 5x5 box minus the centre and the 8 knight-move cells
    const empty = gen(new Board(15, 'freestyle'));
    expect(empty.moves).toEqual([7 * 15 + 7]);
  });

  it('kept up incrementally through random games and undos, the quiet list equals a brute-force scan (sizes 7 to 22)', () => {
    const rnd = lcg(23);
    for (const size of [7, 15, 22]) {
      for (let game = 0; game < 6; game++) {
        const b = new Board(size, 'freestyle');
        const g = new MoveGen(b, new Geometry(size));
        const out = new Int16Array(b.area);
        const sc = new Int32Array(b.area);
        const check = () => {
          if (g.generate(out, sc, 0) < 0 || g.kind !== GEN_QUIET || b.ply === 0) return;
          const n = g.generate(out, sc, 0);
          const want: number[] = [];
          for (let q = 0; q < b.area; q++) {
            if (b.cells[q] !== 0 || b.state[q] === 0) continue;
            const x = q % size;
            const y = (q - x) / size;
            let near = false;
            for (let r = 0; r < b.area && !near; r++) near = b.cells[r] !== 0 && Math.abs((r % size) - x) <= 2 && Math.abs(Math.floor(r / size) - y) <= 2;
            if (near) want.push(q);
            expect(g.isNear(q)).toBe(near);
          }
          expect(Array.from(out.subarray(0, n)).sort((p, q) => p - q)).toEqual(want);
        };
        const played: number[] = [];
        for (let i = 0; i < 30 && !b.lastMoveWon(); i++) {
          let q = rnd(b.area);
          while (b.cells[q] !== 0) q = (q + 1) % b.area;
          b.play(q);
          g.onPlay(q);
          played.push(q);
          check();
        }
        while (played.length > 0) {
          const q = played.pop()!;
          b.undo();
          g.onUndo(q);
          check();
        }
      }
    }
  });
});
