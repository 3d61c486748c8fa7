/**
 * Threat queries on the incremental board patterns, shared by VCF, VCT and the game-tree
 * proof search. All of them read `board.state` / `board.counts`; none allocates.
 *
 * The soundness argument the solver relies on (see vct.ts):
 *  - a cell whose class for A is C_OPEN_FOUR (open four, or two fours on different lines)
 *    gives A two different five cells after A plays it;
 *  - if the defender D has no five cell and A has two, D loses;
 *  - so when it is D's turn and A has an open-four cell z, a D move that is not itself a
 *    four (does not give D a five cell) and leaves A an open-four cell loses at once.
 */
import { classShift, countIndex, type Board } from '../core/board.js';
import { MAX_AREA, type Color } from '../core/types.js';
import { C_FIVE, C_FOUR, C_OPEN_FOUR, C_THREE, C_FOUR_THREE, COMBINED_TABLE } from '../core/patterns.js';

/** On a line (row, column or diagonal) through `ref` within 4 cells: q and `ref` share a
 *  5-cell window of that line. */
export function inWindow(q: number, ref: number, size: number): boolean {
  const dx = (q % size) - (ref % size);
  const dy = ((q / size) | 0) - ((ref / size) | 0);
  return dx <= 4 && dx >= -4 && dy <= 4 && dy >= -4 && (dx === 0 || dy === 0 || dx === dy || dx === -dy);
}

/** First empty cell where c makes five, or -1. */
export function findFive(b: Board, c: Color): number {
  const nf = b.counts[countIndex(c, C_FIVE)]!;
  if (nf === 0) return -1;
  const state = b.state;
  const sh = classShift(c);
  if (nf === 1 && b.ply > 0) {
    // A lone five cell is nearly always on a line through the last stone, within 4 (the
    // four it completes holds that stone); look there before scanning the board. With two
    // or more, the scan below keeps "the first in board order".
    const last = b.history[b.ply - 1]!;
    const reach = b.reach;
    for (let i = 0; i < 8; i++) {
      // direction i >> 1, positive side (i even) or negative side (i odd)
      const st = i & 1 ? -b.step[i >> 1]! : b.step[i >> 1]!;
      const n = Math.min(4, reach[last * 8 + i]!);
      for (let k = 1, q = last + st; k <= n; k++, q += st) {
        if (((state[q]! >>> sh) & 15) === C_FIVE && b.cells[q] === 0) return q;
      }
    }
  }
  for (let q = 0; q < b.area; q++) if (((state[q]! >>> sh) & 15) === C_FIVE && b.cells[q] === 0) return q;
  return -1;
}

export function fiveCount(b: Board, c: Color): number {
  return b.counts[countIndex(c, C_FIVE)]!;
}

/** Cells where c would make an open four or a double four (or five). */
export function winningThreatCount(b: Board, c: Color): number {
  return b.counts[countIndex(c, C_OPEN_FOUR)]! + b.counts[countIndex(c, C_FIVE)]!;
}

/** Is playing q a four (or better) for c: does it leave c at least one five cell? */
export function isFourMove(b: Board, q: number, c: Color): boolean {
  return ((b.state[q]! >>> classShift(c)) & 15) >= C_FOUR;
}

/** How many empty cells give c a four or better (the counts of those classes). */
export function fourCellCount(b: Board, c: Color): number {
  const base = countIndex(c, 0);
  const counts = b.counts;
  return counts[base + C_FOUR]! + counts[base + C_FOUR_THREE]! + counts[base + C_OPEN_FOUR]! + counts[base + C_FIVE]!;
}

/** Open-four cells collectDefences tracks one by one (beyond, it tries every cell). */
const MAX_TRACKED = 32;
const ROW = MAX_AREA;

/**
 * The scratch buffers of the queries below, owned by their caller (nothing here keeps state
 * between calls): `mark` flags cells and is all zero again when a query returns, `rows` holds
 * collectFours' cells by class (four, four-three, open four, five), `opens` collectDefences'
 * open-four cells.
 */
export class ThreatScratch {
  readonly mark = new Uint8Array(MAX_AREA);
  readonly rows = new Int16Array(4 * ROW);
  readonly opens = new Int16Array(MAX_TRACKED);
}

/**
 * Collect cells where c makes a four or better into `out`, best first (open four / double four,
 * four-three, four). Returns the count.
 */
export function collectFours(b: Board, c: Color, out: Int16Array, start: number, scratch: ThreatScratch): number {
  const state = b.state;
  const cells = b.cells;
  const sh = classShift(c);
  const need = fourCellCount(b, c);
  if (need === 0) return 0;
  // one pass over the board (it stops once the counts are found), each class into its own
  // row of the scratch buffer in board order; then the rows best first
  const per = scratch.rows;
  let n6 = 0;
  let n7 = 0;
  let n8 = 0;
  let n9 = 0;
  const area = b.area;
  for (let q = 0, found = 0; q < area && found < need; q++) {
    const k = (state[q]! >>> sh) & 15;
    if (k < C_FOUR || cells[q] !== 0) continue;
    found++;
    if (k === C_FIVE) per[3 * ROW + n9++] = q;
    else if (k === C_OPEN_FOUR) per[2 * ROW + n8++] = q;
    else if (k === C_FOUR_THREE) per[ROW + n7++] = q;
    else per[n6++] = q;
  }
  let n = start;
  for (let i = 0; i < n9; i++) out[n++] = per[3 * ROW + i]!;
  for (let i = 0; i < n8; i++) out[n++] = per[2 * ROW + i]!;
  for (let i = 0; i < n7; i++) out[n++] = per[ROW + i]!;
  for (let i = 0; i < n6; i++) out[n++] = per[i]!;
  return n - start;
}

/**
 * Cells where c makes a four or better, in board order (collectFours lists them best first).
 * Returns the count. The scan stops once the counts are found.
 */
export function collectFourCells(b: Board, c: Color, out: Int16Array, start: number): number {
  const state = b.state;
  const cells = b.cells;
  const sh = classShift(c);
  const need = fourCellCount(b, c);
  let n = start;
  for (let q = 0, area = b.area; q < area && n - start < need; q++) if (((state[q]! >>> sh) & 15) >= C_FOUR && cells[q] === 0) out[n++] = q;
  return n - start;
}

/**
 * Collect attacking moves for c: fours and moves that make an open three (or several), best
 * first. Returns the count.
 */
export function collectThreats(b: Board, c: Color, out: Int16Array, start: number): number {
  const state = b.state;
  const sh = classShift(c);
  const base = countIndex(c, 0);
  const counts = b.counts;
  let n = start;
  for (let want = C_FIVE; want >= C_THREE; want--) {
    if (counts[base + want] === 0) continue;
    for (let q = 0; q < b.area; q++) if (((state[q]! >>> sh) & 15) === want && b.cells[q] === 0) out[n++] = q;
  }
  return n - start;
}

/**
 * The defender's replies that can matter when it is D's turn, A has no five cell and A has
 * at least one open-four cell: every D move after which A has no open-four cell, plus every
 * D move that is a four. Any other D move loses at once (see the header). Returns the count,
 * or -1 when A has no open-four cell (no threat: D moves freely).
 *
 * Exact and cheap: a D stone at x changes an open-four cell z only through z's line key in
 * the direction joining them (or by occupying z), so the new class of z is one table lookup.
 * With more than `maxTracked` open-four cells (default 32; tests lower it) every empty cell
 * is tried by playing it instead. With `withFours` false, D's fours are listed only where
 * they also defend or threaten to win by themselves (four-threes and open fours,
 * `addStrongFours`): the relaxed threat space of dfpn.ts, which only ever guides a search
 * (dfpn.ts adds the plain fours near A's last move).
 */
export function collectDefences(
  b: Board,
  a: Color,
  out: Int16Array,
  start: number,
  scratch: ThreatScratch,
  maxTracked = MAX_TRACKED,
  withFours = true,
): number {
  const mark = scratch.mark;
  const zBuf = scratch.opens;
  const base = countIndex(a, 0);
  const counts = b.counts;
  const nz = counts[base + C_OPEN_FOUR]!;
  if (nz === 0) return -1;
  const d = (3 - a) as Color;
  const state = b.state;
  const o = a - 1;
  const sa = classShift(a);
  const sd = classShift(d);
  const cells = b.cells;
  const area = b.area;
  let k = 0;
  for (let q = 0; q < area && k < nz; q++) {
    if (((state[q]! >>> sa) & 15) === C_OPEN_FOUR && cells[q] === 0) {
      if (k < MAX_TRACKED) zBuf[k] = q;
      k++;
    }
  }
  let n = start;
  if (nz <= maxTracked) {
    const table = b.table;
    const pats = b.state;
    const reach = b.reach;
    const step = b.step;
    const shiftA = o * 12;
    // candidates: the first open-four cell and its line neighbours within reach
    const z0 = zBuf[0]!;
    for (let ci = -1; ci < 40; ci++) {
      let x: number;
      if (ci < 0) x = z0;
      else {
        const dir = (ci / 10) | 0;
        const j = ci % 10;
        if (dir >= 4) break;
        const kk = j < 5 ? j + 1 : -(j - 4);
        const side = kk > 0 ? 0 : 1;
        if ((kk > 0 ? kk : -kk) > reach[(z0 * 4 + dir) * 2 + side]!) continue;
        x = z0 + kk * step[dir]!;
      }
      if (cells[x] !== 0 || (withFours && ((state[x]! >>> sd) & 15) >= C_FOUR)) continue; // fours are added below
      let defends = true;
      for (let zi = 0; zi < nz && defends; zi++) {
        const z = zBuf[zi]!;
        if (z === x) continue;
        // is x on a line of z within reach? find direction and offset
        let hit = false;
        for (let dir = 0; dir < 4 && !hit; dir++) {
          const st = step[dir]!;
          const diff = x - z;
          if (diff % st !== 0) continue;
          const kk = diff / st;
          if (kk === 0 || kk > 5 || kk < -5) continue;
          const side = kk > 0 ? 0 : 1;
          if ((kk > 0 ? kk : -kk) > reach[(z * 4 + dir) * 2 + side]!) continue;
          // make sure the step really walks along the line (no wrap across rows)
          const size = b.size;
          const zx = z % size;
          const xx = x % size;
          const dxExp = dir === 0 ? kk : dir === 1 ? 0 : dir === 2 ? kk : -kk;
          if (xx - zx !== dxExp) continue;
          hit = true;
          const slot = kk < 0 ? kk + 5 : kk + 4;
          const t = table[b.keyOf(z, dir) | (d << (2 * slot))]!;
          const pa = a === 1 ? t & 7 : t >> 3;
          const word = (pats[z]! >>> shiftA) & 0xfff;
          const nw = (word & ~(7 << (3 * dir))) | (pa << (3 * dir));
          if (COMBINED_TABLE[nw]! >= C_OPEN_FOUR) defends = false;
        }
        if (!hit) defends = false;
      }
      if (defends) {
        if (mark[x]) continue;
        mark[x] = 1;
        out[n++] = x;
      }
    }
    if (!withFours) n = addStrongFours(b, d, out, n, mark);
    for (let i = start; i < n; i++) mark[out[i]!] = 0;
  } else {
    // pathological: too many open-four cells to track; test every empty cell by playing it
    const needTurn = b.toMove !== d;
    if (needTurn) b.setToMove(d);
    for (let x = 0; x < area; x++) {
      if (cells[x] !== 0 || (withFours && ((state[x]! >>> sd) & 15) >= C_FOUR)) continue;
      b.play(x);
      // b.counts after the move: the counts are a frame per ply (board.ts), not one array
      const still = b.counts[base + C_OPEN_FOUR]! + b.counts[base + C_FIVE]!;
      b.undo();
      if (still === 0) {
        mark[x] = 1;
        out[n++] = x;
      }
    }
    if (needTurn) b.setToMove(a);
    if (!withFours) n = addStrongFours(b, d, out, n, mark);
    for (let i = start; i < n; i++) mark[out[i]!] = 0;
  }
  // the defender's own fours
  if (withFours) n += collectFourCells(b, d, out, n);
  return n - start;
}

/**
 * Append d's four-three and open-four cells (the fours that threaten to win by themselves) not
 * yet marked, marking them. Returns the new end.
 */
export function addStrongFours(b: Board, d: Color, out: Int16Array, n: number, mark: Uint8Array): number {
  const sh = classShift(d);
  const counts = b.counts;
  const need = counts[countIndex(d, C_FOUR_THREE)]! + counts[countIndex(d, C_OPEN_FOUR)]!;
  const state = b.state;
  const cells = b.cells;
  for (let q = 0, found = 0, area = b.area; q < area && found < need; q++) {
    const k = (state[q]! >>> sh) & 15;
    if ((k !== C_FOUR_THREE && k !== C_OPEN_FOUR) || cells[q] !== 0) continue;
    found++;
    if (mark[q]) continue;
    mark[q] = 1;
    out[n++] = q;
  }
  return n;
}
