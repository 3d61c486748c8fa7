/**
 * The certificate checker's own board. Deliberately independent of src/core/board.ts and
 * src/core/patterns.ts (and of anything in src/search/): a checker that shared the solver's
 * pattern tables would repeat the solver's mistakes.
 *
 * Representation (typed arrays, nothing allocated per move):
 *  - `cells[q]`: 0 empty, 1 black, 2 white; q = row * size + col (row 0 at the top, as in
 *    notation.ts, which is the only thing shared with the rest of the project).
 *  - Every run of 5 consecutive on-board cells in one of the 4 directions is a *window*.
 *    `count[w * 2 + c - 1]` is the number of stones of colour c in window w, kept current
 *    by `place`/`remove` (each cell lies in at most 20 windows).
 *  - A *five cell* of colour c is an empty cell where c's stone makes five: freestyle, five
 *    or more in a row; standard, exactly five in some direction. In window terms: a window
 *    holding 4 stones of c and none of the other colour, whose empty cell completes it, and
 *    (standard only) whose two flanking cells are not c (else the run would be six or more).
 *    `runMakesFive` is the same question answered the naive way (count the run), used for
 *    the root position and by the tests to cross-check the windows.
 *  - A 96-bit Zobrist hash (three independent 32-bit halves) of the stones, from this
 *    file's own fixed-seed generator.
 */
import type { Color, Rule } from '../core/types.js';

const DX = [1, 0, 1, 1];
const DY = [0, 1, 1, -1];

const MAX_CELLS = 22 * 22;
/** ZOB[k][(c - 1) * MAX_CELLS + q] for k = 0, 1, 2. */
const ZOB: Int32Array[] = [new Int32Array(2 * MAX_CELLS), new Int32Array(2 * MAX_CELLS), new Int32Array(2 * MAX_CELLS)];
{
  // xorshift128 with a fixed seed: deterministic across runs and processes.
  let a = 0x12345678,
    b = 0x9abcdef0 | 0,
    c = 0x0fedcba9,
    d = 0x87654321 | 0;
  const next = (): number => {
    const t = a ^ (a << 11);
    a = b;
    b = c;
    c = d;
    d = (d ^ (d >>> 19) ^ (t ^ (t >>> 8))) | 0;
    return d;
  };
  for (let i = 0; i < 64; i++) next();
  for (const z of ZOB) for (let i = 0; i < z.length; i++) z[i] = next();
}

/** The windows of a board size: read-only, built once per size and shared by all boards. */
interface Geometry {
  nWin: number;
  winCells: Int16Array;
  winBefore: Int16Array;
  winAfter: Int16Array;
  cellWinStart: Int32Array;
  cellWins: Int32Array;
}

const GEOMETRY = new Map<number, Geometry>();

function geometry(size: number): Geometry {
  const cached = GEOMETRY.get(size);
  if (cached) return cached;
  const area = size * size;
  const cellsOf: number[][] = [];
  const before: number[] = [];
  const after: number[] = [];
  const inside = (x: number, y: number) => x >= 0 && y >= 0 && x < size && y < size;
  for (let d = 0; d < 4; d++) {
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const ex = x + 4 * DX[d]!;
        const ey = y + 4 * DY[d]!;
        if (!inside(ex, ey)) continue;
        const w: number[] = [];
        for (let k = 0; k < 5; k++) w.push((y + k * DY[d]!) * size + x + k * DX[d]!);
        cellsOf.push(w);
        const bx = x - DX[d]!,
          by = y - DY[d]!;
        const ax = ex + DX[d]!,
          ay = ey + DY[d]!;
        before.push(inside(bx, by) ? by * size + bx : -1);
        after.push(inside(ax, ay) ? ay * size + ax : -1);
      }
    }
  }
  const nWin = cellsOf.length;
  const winCells = new Int16Array(nWin * 5);
  const per: number[][] = Array.from({ length: area }, () => []);
  cellsOf.forEach((w, i) => {
    for (let k = 0; k < 5; k++) {
      winCells[i * 5 + k] = w[k]!;
      per[w[k]!]!.push(i);
    }
  });
  const cellWinStart = new Int32Array(area + 1);
  const cellWins = new Int32Array(nWin * 5);
  let n = 0;
  for (let q = 0; q < area; q++) {
    cellWinStart[q] = n;
    for (const w of per[q]!) cellWins[n++] = w;
  }
  cellWinStart[area] = n;
  const g: Geometry = { nWin, winCells, winBefore: Int16Array.from(before), winAfter: Int16Array.from(after), cellWinStart, cellWins };
  GEOMETRY.set(size, g);
  return g;
}

export class CheckBoard {
  readonly size: number;
  readonly area: number;
  readonly standard: boolean;
  readonly cells: Uint8Array;
  /** Number of windows. */
  readonly nWin: number;
  /** winCells[w * 5 + k]: the k-th cell of window w. */
  readonly winCells: Int16Array;
  /** The cells just before and just after window w along its direction, or -1 off the board. */
  readonly winBefore: Int16Array;
  readonly winAfter: Int16Array;
  /** Windows containing cell q: cellWins[cellWinStart[q] .. cellWinStart[q + 1]). */
  readonly cellWinStart: Int32Array;
  readonly cellWins: Int32Array;
  /** count[w * 2 + c - 1]: stones of colour c in window w. */
  readonly count: Uint8Array;
  stones = 0;
  h1 = 0;
  h2 = 0;
  h3 = 0;

  constructor(size: number, rule: Rule) {
    this.size = size;
    this.area = size * size;
    this.standard = rule === 'standard';
    this.cells = new Uint8Array(this.area);
    const g = geometry(size);
    this.nWin = g.nWin;
    this.winCells = g.winCells;
    this.winBefore = g.winBefore;
    this.winAfter = g.winAfter;
    this.cellWinStart = g.cellWinStart;
    this.cellWins = g.cellWins;
    this.count = new Uint8Array(this.nWin * 2);
  }

  place(q: number, c: Color): void {
    this.cells[q] = c;
    const off = c - 1;
    for (let i = this.cellWinStart[q]!, e = this.cellWinStart[q + 1]!; i < e; i++) this.count[this.cellWins[i]! * 2 + off]!++;
    const z = off * MAX_CELLS + q;
    this.h1 ^= ZOB[0]![z]!;
    this.h2 ^= ZOB[1]![z]!;
    this.h3 ^= ZOB[2]![z]!;
    this.stones++;
  }

  remove(q: number): void {
    const c = this.cells[q]!;
    this.cells[q] = 0;
    const off = c - 1;
    for (let i = this.cellWinStart[q]!, e = this.cellWinStart[q + 1]!; i < e; i++) this.count[this.cellWins[i]! * 2 + off]!--;
    const z = off * MAX_CELLS + q;
    this.h1 ^= ZOB[0]![z]!;
    this.h2 ^= ZOB[1]![z]!;
    this.h3 ^= ZOB[2]![z]!;
    this.stones--;
  }

  /** The hash halves a stone set would have (for keying certificate entries). */
  static hashOf(stones: readonly number[], c: Color, into: Int32Array): void {
    const off = (c - 1) * MAX_CELLS;
    for (const q of stones) {
      into[0] ^= ZOB[0]![off + q]!;
      into[1] ^= ZOB[1]![off + q]!;
      into[2] ^= ZOB[2]![off + q]!;
    }
  }

  /** XOR one stone's hash halves into `into` (the checker's running hash of its ignore set). */
  static xorStone(q: number, c: Color, into: Int32Array): void {
    const z = (c - 1) * MAX_CELLS + q;
    into[0] ^= ZOB[0]![z]!;
    into[1] ^= ZOB[1]![z]!;
    into[2] ^= ZOB[2]![z]!;
  }

  /** If window w gives colour c a five cell, that cell; else -1. */
  fiveCellOfWindow(w: number, c: Color): number {
    const count = this.count;
    if (count[w * 2 + c - 1] !== 4 || count[w * 2 + 2 - c] !== 0) return -1;
    if (this.standard) {
      const b = this.winBefore[w]!;
      const a = this.winAfter[w]!;
      if ((b >= 0 && this.cells[b] === c) || (a >= 0 && this.cells[a] === c)) return -1;
    }
    const base = w * 5;
    for (let k = 0; k < 5; k++) {
      const q = this.winCells[base + k]!;
      if (this.cells[q] === 0) return q;
    }
    return -1; // unreachable: 4 stones of c and none of the other leave one empty cell
  }

  /**
   * Five cells of colour c in the windows through q: returns 0, 1 or 2 (meaning "two or
   * more distinct cells") and stores the first one found in `firstFive`.
   */
  fiveCellsThrough(q: number, c: Color): number {
    let first = -1;
    for (let i = this.cellWinStart[q]!, e = this.cellWinStart[q + 1]!; i < e; i++) {
      const f = this.fiveCellOfWindow(this.cellWins[i]!, c);
      if (f < 0 || f === first) continue;
      if (first >= 0) {
        this.firstFive = first;
        this.secondFive = f;
        return 2;
      }
      first = f;
    }
    this.firstFive = first;
    return first >= 0 ? 1 : 0;
  }

  /** Like `fiveCellsThrough` over the whole board. */
  fiveCells(c: Color): number {
    let first = -1;
    for (let w = 0; w < this.nWin; w++) {
      const f = this.fiveCellOfWindow(w, c);
      if (f < 0 || f === first) continue;
      if (first >= 0) {
        this.firstFive = first;
        return 2;
      }
      first = f;
    }
    this.firstFive = first;
    return first >= 0 ? 1 : 0;
  }

  /** Output of the last `fiveCells`/`fiveCellsThrough` call: the first five cell, or -1. */
  firstFive = -1;
  /** Output of the last `fiveCellsThrough` call that returned 2: a second, different five cell. */
  secondFive = -1;

  /** Length of c's run through q in direction d, counting q itself as c's. */
  private runLength(q: number, c: number, d: number): number {
    const size = this.size;
    const x0 = q % size;
    const y0 = (q - x0) / size;
    let n = 1;
    for (const s of [1, -1]) {
      let x = x0 + s * DX[d]!;
      let y = y0 + s * DY[d]!;
      while (x >= 0 && y >= 0 && x < size && y < size && this.cells[y * size + x] === c) {
        n++;
        x += s * DX[d]!;
        y += s * DY[d]!;
      }
    }
    return n;
  }

  /** Naive check: would a stone of c at q (empty or c's) be five under the rule? */
  runMakesFive(q: number, c: Color): boolean {
    for (let d = 0; d < 4; d++) {
      const n = this.runLength(q, c, d);
      if (this.standard ? n === 5 : n >= 5) return true;
    }
    return false;
  }

  /** Naive scan: does colour c already have a five on the board? */
  hasFive(c: Color): boolean {
    for (let q = 0; q < this.area; q++) if (this.cells[q] === c && this.runMakesFive(q, c)) return true;
    return false;
  }
}
