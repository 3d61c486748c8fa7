/**
 * The board: stones, incremental line patterns, combined threat classes, Zobrist hash.
 *
 * Layout (all typed arrays, no allocation on play/undo):
 *  - `cells[q]`: 0 empty, 1 black, 2 white; q = row * size + col, row 0 at the top.
 *  - `keys[q * 4 + d]`: the line key of cell q in direction d (see patterns.ts), kept for
 *    every cell, occupied or not, so undo is exact.
 *  - `pats[q]`: the four line patterns for black (bits 0..11, 3 bits per direction) and
 *    for white (bits 12..23). Kept current for empty cells only.
 *  - `comb[q * 2 + c - 1]`: combined class (C_*) for colour c at empty cell q.
 *  - `counts[(c - 1) * 16 + k]`: number of empty cells whose class for colour c is k.
 * Directions: 0 horizontal, 1 vertical, 2 diagonal (down-right), 3 anti-diagonal (down-left).
 */
import { BLACK, EMPTY, WHITE, type Color, type Rule, MIN_SIZE, MAX_SIZE } from './types.js';
import { patternTable, COMBINED_TABLE, C_NONE, C_FIVE, OFF_BOARD } from './patterns.js';
import { ZOBRIST_HI, ZOBRIST_LO, SIDE_HI, SIDE_LO, MAX_AREA } from './zobrist.js';

export const DIR_DX = [1, 0, 1, -1] as const;
export const DIR_DY = [0, 1, 1, 1] as const;

export class Board {
  readonly size: number;
  readonly area: number;
  readonly rule: Rule;
  readonly cells: Uint8Array;
  readonly keys: Int32Array;
  readonly pats: Int32Array;
  readonly comb: Uint8Array;
  readonly counts: Int32Array;
  /** Moves played, in order (point indices). */
  readonly history: Int16Array;
  ply = 0;
  /** The side to move. */
  toMove: Color = BLACK;
  hashLo = 0;
  hashHi = 0;
  /** Step between neighbours in each direction. */
  readonly step: Int32Array;
  /** reach[(q * 4 + d) * 2 + side]: on-board neighbours (0..5) in the positive (0) / negative (1) direction. */
  readonly reach: Uint8Array;
  /** Flat neighbour lists: for cell q, nbCell[q*40 + j] (j < nbCount[q]) is a neighbour r on one
   *  of q's lines and nbInfo[...] = direction << 5 | the bit shift of q's slot in r's line key. */
  private readonly nbCell: Int16Array;
  private readonly nbInfo: Uint8Array;
  private readonly nbCount: Uint8Array;
  /** The pattern table of this rule (patterns.ts). */
  readonly table: Uint8Array;

  constructor(size = 15, rule: Rule = 'freestyle') {
    if (!Number.isInteger(size) || size < MIN_SIZE || size > MAX_SIZE) throw new RangeError(`board size ${size} is not in ${MIN_SIZE}..${MAX_SIZE}`);
    this.size = size;
    this.rule = rule;
    const area = size * size;
    this.area = area;
    this.table = patternTable(rule);
    this.cells = new Uint8Array(area);
    this.keys = new Int32Array(area * 4);
    this.pats = new Int32Array(area);
    this.comb = new Uint8Array(area * 2);
    this.counts = new Int32Array(32);
    this.history = new Int16Array(area);
    this.step = new Int32Array([1, size, size + 1, size - 1]);
    this.reach = new Uint8Array(area * 8);
    // Freestyle patterns never depend on the cells 5 away (a run reaching them is already
    // five or more), so freestyle updates only 4 neighbours each way.
    const maxReach = rule === 'standard' ? 5 : 4;
    for (let q = 0; q < area; q++) {
      const x = q % size;
      const y = (q - x) / size;
      for (let d = 0; d < 4; d++) {
        let key = 0;
        for (let side = 0; side < 2; side++) {
          const sgn = side === 0 ? 1 : -1;
          let n = 0;
          for (let k = 1; k <= 5; k++) {
            const nx = x + sgn * k * DIR_DX[d]!;
            const ny = y + sgn * k * DIR_DY[d]!;
            if (nx < 0 || ny < 0 || nx >= size || ny >= size) {
              key |= OFF_BOARD << (2 * (sgn > 0 ? k + 4 : 5 - k));
            } else if (k <= maxReach) n = k;
          }
          this.reach[(q * 4 + d) * 2 + side] = n;
        }
        this.keys[q * 4 + d] = key;
      }
      this.refreshCell(q);
    }
    this.nbCell = new Int16Array(area * 40);
    this.nbInfo = new Uint8Array(area * 40);
    this.nbCount = new Uint8Array(area);
    for (let q = 0; q < area; q++) {
      let j = 0;
      for (let d = 0; d < 4; d++) {
        const st = this.step[d]!;
        for (let k = 1; k <= this.reach[(q * 4 + d) * 2]!; k++) {
          this.nbCell[q * 40 + j] = q + k * st;
          this.nbInfo[q * 40 + j++] = (d << 5) | (2 * (5 - k));
        }
        for (let k = 1; k <= this.reach[(q * 4 + d) * 2 + 1]!; k++) {
          this.nbCell[q * 40 + j] = q - k * st;
          this.nbInfo[q * 40 + j++] = (d << 5) | (2 * (4 + k));
        }
      }
      this.nbCount[q] = j;
    }
    this.counts.fill(0);
    for (let q = 0; q < area; q++) {
      this.counts[this.comb[q * 2]!]!++;
      this.counts[16 + this.comb[q * 2 + 1]!]!++;
    }
  }

  /** Recompute all patterns of an empty cell from its keys (counts not touched). */
  private refreshCell(q: number): void {
    let packed = 0;
    for (let d = 0; d < 4; d++) {
      const t = this.table[this.keys[q * 4 + d]!]!;
      packed |= ((t & 7) << (3 * d)) | ((t >> 3) << (12 + 3 * d));
    }
    this.pats[q] = packed;
    this.comb[q * 2] = COMBINED_TABLE[packed & 0xfff]!;
    this.comb[q * 2 + 1] = COMBINED_TABLE[packed >>> 12]!;
  }

  /** Place a stone of the side to move at the empty cell q. */
  play(q: number): void {
    const c = this.toMove;
    const comb = this.comb;
    const counts = this.counts;
    this.cells[q] = c;
    counts[comb[q * 2]!]!--;
    counts[16 + comb[q * 2 + 1]!]!--;
    this.update(q, c);
    const zi = (c - 1) * MAX_AREA + q;
    this.hashLo ^= ZOBRIST_LO[zi]! ^ SIDE_LO;
    this.hashHi ^= ZOBRIST_HI[zi]! ^ SIDE_HI;
    this.history[this.ply++] = q;
    this.toMove = (3 - c) as Color;
  }

  /**
   * Add (sign > 0: colour `sign`) or remove (sign < 0: colour `-sign`) a stone at q in every
   * neighbour's line key and refresh the patterns of the empty neighbours.
   */
  private update(q: number, sign: number): void {
    const cells = this.cells;
    const keys = this.keys;
    const pats = this.pats;
    const comb = this.comb;
    const counts = this.counts;
    const table = this.table;
    const nbCell = this.nbCell;
    const nbInfo = this.nbInfo;
    const o = q * 40;
    const end = o + this.nbCount[q]!;
    const c = sign > 0 ? sign : -sign;
    for (let j = o; j < end; j++) {
      const r = nbCell[j]!;
      const info = nbInfo[j]!;
      const d = info >> 5;
      const ki = r * 4 + d;
      const key = sign > 0 ? keys[ki]! | (c << (info & 31)) : keys[ki]! & ~(3 << (info & 31));
      keys[ki] = key;
      if (cells[r] !== EMPTY) continue;
      const t = table[key]!;
      const dshift = 3 * d;
      const old = pats[r]!;
      const np = (old & ~((7 << dshift) | (7 << (12 + dshift)))) | ((t & 7) << dshift) | ((t >> 3) << (12 + dshift));
      if (np === old) continue;
      pats[r] = np;
      const cb = COMBINED_TABLE[np & 0xfff]!;
      const cw = COMBINED_TABLE[np >>> 12]!;
      const ob = comb[r * 2]!;
      const ow = comb[r * 2 + 1]!;
      if (cb !== ob) { counts[ob]!--; counts[cb]!++; comb[r * 2] = cb; }
      if (cw !== ow) { counts[16 + ow]!--; counts[16 + cw]!++; comb[r * 2 + 1] = cw; }
    }
  }

  /** Take back the last move. */
  undo(): void {
    const q = this.history[--this.ply]!;
    const c = this.cells[q]! as Color;
    const comb = this.comb;
    const counts = this.counts;
    this.cells[q] = EMPTY;
    this.update(q, -c);
    this.refreshCell(q);
    counts[comb[q * 2]!]!++;
    counts[16 + comb[q * 2 + 1]!]!++;
    const zi = (c - 1) * MAX_AREA + q;
    this.hashLo ^= ZOBRIST_LO[zi]! ^ SIDE_LO;
    this.hashHi ^= ZOBRIST_HI[zi]! ^ SIDE_HI;
    this.toMove = c;
  }

  /** Pass the turn without a stone (used for stone sets whose side to move is given explicitly). */
  setToMove(c: Color): void {
    if (c !== this.toMove) {
      this.hashLo ^= SIDE_LO;
      this.hashHi ^= SIDE_HI;
      this.toMove = c;
    }
  }

  /** Place a stone of a given colour (set-up only: changes the side to move to the other colour). */
  put(q: number, c: Color): void {
    this.setToMove(c);
    this.play(q);
  }

  /** Combined class (C_*) of empty cell q for colour c. */
  classOf(q: number, c: Color): number {
    return this.comb[q * 2 + c - 1]!;
  }

  /** Line pattern (P_*) of empty cell q for colour c in direction d. */
  patternOf(q: number, c: Color, d: number): number {
    return (this.pats[q]! >>> ((c - 1) * 12 + 3 * d)) & 7;
  }

  /** Number of empty cells whose class for c is k. */
  count(c: Color, k: number): number {
    return this.counts[(c - 1) * 16 + k]!;
  }

  /** True if playing q (empty) now makes five for colour c. */
  makesFive(q: number, c: Color): boolean {
    return this.comb[q * 2 + c - 1] === C_FIVE;
  }

  /** Does colour c have five (or, in freestyle, more) through q? Scans the board; not for hot paths. */
  hasFiveAt(q: number): boolean {
    const c = this.cells[q]!;
    if (c === EMPTY) return false;
    const size = this.size;
    const x0 = q % size;
    const y0 = (q - x0) / size;
    for (let d = 0; d < 4; d++) {
      let n = 1;
      for (const sgn of [1, -1]) {
        let x = x0 + sgn * DIR_DX[d]!;
        let y = y0 + sgn * DIR_DY[d]!;
        while (x >= 0 && y >= 0 && x < size && y < size && this.cells[y * size + x] === c) {
          n++;
          x += sgn * DIR_DX[d]!;
          y += sgn * DIR_DY[d]!;
        }
      }
      if (this.rule === 'standard' ? n === 5 : n >= 5) return true;
    }
    return false;
  }

  /** The winner if the last move made five, else 0. */
  lastMoveWon(): 0 | Color {
    if (this.ply === 0) return 0;
    const q = this.history[this.ply - 1]!;
    return this.hasFiveAt(q) ? (this.cells[q]! as Color) : 0;
  }

  stones(c: Color): number[] {
    const out: number[] = [];
    for (let q = 0; q < this.area; q++) if (this.cells[q] === c) out.push(q);
    return out;
  }

  isFull(): boolean {
    return this.ply >= this.area;
  }

  clone(): Board {
    const b = new Board(this.size, this.rule);
    for (let i = 0; i < this.ply; i++) {
      const q = this.history[i]!;
      b.put(q, this.cells[q]! as Color);
    }
    b.setToMove(this.toMove);
    return b;
  }
}

export { BLACK, WHITE, EMPTY, C_NONE };
