import { describe, expect, it } from 'vitest';
import { DEFAULT_TABLE_BITS, Engine, MAX_TABLE_BITS, MIN_TABLE_BITS, tableBitsFor, tableBytes } from '../../src/search/engine.js';
import { Board } from '../../src/core/board.js';
import { C_FIVE, C_FOUR, C_OPEN_FOUR } from '../../src/core/patterns.js';
import type { BookProbe } from '../../src/search/types.js';
import { boardOf, VCF_POSITIONS } from './helpers.js';
import { parsePoint } from '../../src/core/notation.js';

const clock = () => performance.now();

function engineAt(moves: string, seed = 'test'): Engine {
  const e = new Engine({ now: clock, seed });
  e.board = boardOf(moves);
  return e;
}

type Defence = (b: Board, rnd: () => number) => number;
/** Defender policies: block a five cell if there is one, else something else. */
const DEFENCES: Record<string, Defence> = {
  'blocks, else the first empty cell': (b) => firstFive(b, (3 - b.toMove) as 1 | 2) ?? firstEmpty(b),
  'blocks, else random near the last move': (b, rnd) => firstFive(b, (3 - b.toMove) as 1 | 2) ?? randomNear(b, rnd),
  'random near the last move (may not block)': (b, rnd) => randomNear(b, rnd),
  'its own fours first, then blocks': (b) => fourCell(b, b.toMove) ?? firstFive(b, (3 - b.toMove) as 1 | 2) ?? firstEmpty(b),
};

function firstFive(b: Board, c: 1 | 2): number | undefined {
  for (let q = 0; q < b.area; q++) if (b.cells[q] === 0 && b.classOf(q, c) === C_FIVE) return q;
  return undefined;
}
function fourCell(b: Board, c: 1 | 2): number | undefined {
  for (let q = 0; q < b.area; q++) if (b.cells[q] === 0 && b.classOf(q, c) >= C_FOUR) return q;
  return undefined;
}
function firstEmpty(b: Board): number {
  for (let q = 0; q < b.area; q++) if (b.cells[q] === 0) return q;
  return -1;
}
function randomNear(b: Board, rnd: () => number): number {
  const last = b.history[b.ply - 1]!;
  for (let t = 0; t < 100; t++) {
    const x = (last % b.size) + Math.floor(rnd() * 5) - 2;
    const y = Math.floor(last / b.size) + Math.floor(rnd() * 5) - 2;
    if (x >= 0 && y >= 0 && x < b.size && y < b.size && b.cells[y * b.size + x] === 0) return y * b.size + x;
  }
  return firstEmpty(b);
}

describe('engine pipeline', () => {
  it('with a VCF it plays a winning move and converts it against every defence', () => {
    let seed = 3;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
    for (const pos of VCF_POSITIONS.slice(0, 3)) {
      for (const [name, defend] of Object.entries(DEFENCES)) {
        const e = engineAt(pos);
        const me = e.board.toMove;
        let won = false;
        for (let turn = 0; turn < 20 && !won; turn++) {
          const r = e.go({ turnMs: 2000, nodes: 200_000 });
          expect(e.isLegal(r.move), `${name}: legal`).toBe(true);
          if (turn === 0) expect(['vcf', 'five']).toContain(r.source);
          e.play(r.move);
          if (e.board.lastMoveWon() === me) {
            won = true;
            break;
          }
          const d = defend(e.board, rnd);
          e.play(d);
          expect(e.board.lastMoveWon(), `${name}: the defender never wins`).toBe(0);
        }
        expect(won, `${pos} against '${name}'`).toBe(true);
      }
    }
  });

  it('blocks a four (source defence) and answers an open three', () => {
    const e = engineAt('h8 a1 h9 a2 h10 b1 h11');
    const r = e.go({ turnMs: 500 });
    expect(r.source).toBe('defence');
    expect([boardOf('h12').history[0], boardOf('h7').history[0]]).toContain(r.move);

    const e2 = engineAt('h8 a1 h9 a3 h10');
    const r2 = e2.go({ turnMs: 500 });
    e2.play(r2.move);
    expect(e2.board.count(1, C_OPEN_FOUR) + e2.board.count(1, C_FIVE)).toBe(0);
  });

  it('refutes an opponent VCF it cannot outrun', () => {
    // black (to move) in VCF_POSITIONS[0] has a VCF; give white the move instead
    const b = boardOf(VCF_POSITIONS[0]!);
    b.setToMove((3 - b.toMove) as 1 | 2);
    const e = new Engine({ now: clock });
    e.board = b;
    const r = e.go({ turnMs: 1500 });
    expect(e.isLegal(r.move)).toBe(true);
    // after the move, black's VCF is gone (or white made a four that black must answer)
    e.play(r.move);
    const e2 = new Engine({ now: clock });
    e2.board = e.board;
    const black = e2.go({ turnMs: 1000 });
    expect(black.source === 'vcf' || black.source === 'five').toBe(false);
  });

  it('plays a book move only when the book has proven it wins', () => {
    const bookWith = (depth: number, verdict: 'win' | 'unknown'): BookProbe => ({
      probe: (b) => (b.ply === 1 ? { verdict, score: 12, depth, bestMove: 7 * 15 + 8 } : undefined),
    });
    const at = (book: BookProbe) => {
      const e = new Engine({ now: clock, book });
      e.board = boardOf('h8');
      return e.go({ turnMs: 200 });
    };
    expect(at(bookWith(3, 'win'))).toMatchObject({ move: 7 * 15 + 8, source: 'book', score: 12 });
    // an evaluated move is not played, however deep its search
    expect(at(bookWith(30, 'unknown')).source).not.toBe('book');
    expect(at(bookWith(3, 'unknown')).source).not.toBe('book');
  });

  it('plays its own five, or blocks his, whatever the book says', () => {
    const pt = (s: string) => (parsePoint(s, 15) as { ok: true; value: number }).value;
    // a proven win elsewhere: the one kind of book move the engine plays
    const elsewhere: BookProbe = { probe: () => ({ verdict: 'win', score: 0, depth: 30, bestMove: 0 }) };
    const at = (moves: string) => {
      const e = new Engine({ now: clock, book: elsewhere });
      e.board = boardOf(moves);
      return e.go({ nodes: 20_000 });
    };
    // Black to move with four in a row (h8..k8, open at g8 and l8)
    const own = at('h8 h10 i8 i10 j8 j10 k8 a1');
    expect(own.source).toBe('five');
    expect([pt('g8'), pt('l8')]).toContain(own.move);
    // White to move against Black's four h8..k8 with g8 taken: only l8 stops it
    const block = at('h8 h10 i8 i10 j8 g8 k8');
    expect(block).toMatchObject({ move: pt('l8'), source: 'defence' });
  });

  it('same seed and node limit give the same move', () => {
    const pos = 'h8 i9 h9 i8 j7 g10 h10 h11 g9 f8';
    const a = engineAt(pos, 's1').go({ nodes: 30_000 });
    const b = engineAt(pos, 's1').go({ nodes: 30_000 });
    expect([a.move, a.score, a.nodes, a.pv]).toEqual([b.move, b.score, b.nodes, b.pv]);
  });

  it('self-play smoke: a few short games, legal moves, within time', () => {
    for (const opening of ['h8 i9', 'h8 j10 g7', 'h8 h9 i9 g8']) {
      const e = engineAt(opening, opening);
      let result = 0;
      for (let ply = 0; ply < 30 && !result && e.board.ply < e.board.area; ply++) {
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        const r = e.go({ turnMs: 100 });
        const c = process.cpuUsage(c0);
        const wall = performance.now() - t0;
        const cpu = (c.user + c.system) / 1000;
        // The hard limit is exact on an injected clock (timeman.test.ts); this only catches a
        // search that overruns it. Wall time grows when other processes take the CPU, and CPU
        // time counts V8's compiler and GC threads beside the search (Node 20 has no
        // per-thread figure), so neither alone is a fair bound; an overrun raises both.
        expect(Math.min(wall, cpu)).toBeLessThanOrEqual(150);
        expect(wall).toBeLessThanOrEqual(300);
        expect(e.isLegal(r.move)).toBe(true);
        e.play(r.move);
        result = e.board.lastMoveWon();
      }
    }
  });
});

describe('search table sizes (a referee memory limit)', () => {
  it('tableBitsFor fits the tables in the bytes given, between the smallest and the largest', () => {
    expect(tableBitsFor(0)).toEqual(MIN_TABLE_BITS);
    expect(tableBitsFor(1e15)).toEqual(MAX_TABLE_BITS);
    for (const mb of [4, 20, 64, 150, 300]) {
      const bits = tableBitsFor(mb * 2 ** 20);
      expect(tableBytes(bits)).toBeLessThanOrEqual(mb * 2 ** 20);
    }
    expect(tableBytes(DEFAULT_TABLE_BITS)).toBe(32 * 2 ** 18 + 92 * 2 ** 17); // 8 MB + 11.5 MB
  });
  it('an engine with resized tables still plays legal moves and keeps its position', () => {
    const e = new Engine({ seed: 't', now: clock });
    e.setTableBits(MIN_TABLE_BITS);
    expect(e.tableBits).toEqual(MIN_TABLE_BITS);
    e.setPosition([{ index: 112, color: 1 }], 2);
    const r = e.go({ nodes: 3000 });
    expect(e.isLegal(r.move)).toBe(true);
  });
});
