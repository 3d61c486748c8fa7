/**
 * The board: stones, incremental line patterns, combined threat classes, Zobrist hash.
 *
 * Layout (all typed arrays, no allocation on play/undo):
 *  - `cells[q]`: 0 empty, 1 black, 2 white; q = row * size + col, row 0 at the top.
 *  - lines as bitboards (one black and one white word per line, walls set in both); the line
 *    key of a cell (patterns.ts) is read from them with `keyOf`.
 *  - `state[q]`, one word per cell, kept current for empty cells only:
 *      bits 0..11   the four line patterns (P_*) for black, 3 bits per direction,
 *      bits 12..23  the same for white,
 *      bits 24..27  the combined class (C_*) for black, bits 28..31 for white.
 *    `classOf(q, c)` and `(state[q] >>> classShift(c)) & 15` read a class.
 *  - `counts[countIndex(c, k)]` (= (c - 1) * 16 + k): number of empty cells whose class for colour c is k. The
 *    counts live in a stack with one 32-entry frame per ply (`counts` is the current frame's
 *    view), so undo restores them by moving down a frame. Take `counts` again after play/undo.
 * Directions: 0 horizontal, 1 vertical, 2 diagonal (down-right), 3 anti-diagonal (down-left).
 */
import { BLACK, EMPTY, WHITE, type Color, type Rule, MIN_SIZE, MAX_SIZE, MAX_AREA } from './types.js';
import { patternTable, windowTable, windowIndex, COMBINED_TABLE, C_NONE, C_FIVE } from './patterns.js';
import { ZOBRIST_HI, ZOBRIST_LO, SIDE_HI, SIDE_LO } from './zobrist.js';
import { lazyTables } from './lazy.js';

export const DIR_DX = [1, 0, 1, -1] as const;
export const DIR_DY = [0, 1, 1, 1] as const;

/** SPREAD[m] moves bit i of a 10-bit mask to bit 2i (line-key slots from a line bitboard). */
const SPREAD = (() => {
  const t = new Int32Array(1024);
  for (let m = 0; m < 1024; m++) for (let i = 0; i < 10; i++) if (m & (1 << i)) t[m]! |= 1 << (2 * i);
  return t;
})();

/** The bit position of colour c's combined class in a cell's `state` word. */
export function classShift(c: number): number {
  return 20 + 4 * c;
}

/** Where colour c's count of class k is in `counts` (16 entries a colour, classes 0..9 used). */
export function countIndex(c: number, k: number): number {
  return (c - 1) * 16 + k;
}

/** What every board of one size and rule starts from (built once, shared read-only). */
interface Geometry {
  step: Int32Array;
  reach: Uint8Array;
  lineOf: Int16Array;
  posOf: Uint8Array;
  /** Each line's initial word (off-board bits set), for both colours. */
  lines: Int32Array;
  /** The empty board's cell states and counts frame. */
  state: Int32Array;
  counts: Int32Array;
}

/** Every size and rule's geometry, made on first use (core/lazy.ts), keyed by size * 2 + (1 for
 *  standard). */
const geometries = lazyTables<number, Geometry>((key) => buildGeometry(key >> 1, key & 1 ? 'standard' : 'freestyle'));

function geometry(size: number, rule: Rule): Geometry {
  return geometries.get(size * 2 + (rule === 'standard' ? 1 : 0));
}

function buildGeometry(size: number, rule: Rule): Geometry {
  const area = size * size;
  const R = rule === 'standard' ? 5 : 4;
  const lineOf = new Int16Array(area * 4);
  const posOf = new Uint8Array(area * 4);
  const reach = new Uint8Array(area * 8);
  const onBoard = (x: number, y: number) => x >= 0 && y >= 0 && x < size && y < size;
  const lens: number[] = [];
  for (let d = 0; d < 4; d++) {
    for (let q = 0; q < area; q++) {
      const x = q % size;
      const y = (q - x) / size;
      if (onBoard(x - DIR_DX[d]!, y - DIR_DY[d]!)) continue; // not the first cell of its line
      let n = 0;
      for (let cx = x, cy = y; onBoard(cx, cy); cx += DIR_DX[d]!, cy += DIR_DY[d]!, n++) {
        const r = cy * size + cx;
        lineOf[r * 4 + d] = lens.length;
        posOf[r * 4 + d] = 5 + n;
      }
      lens.push(n);
    }
  }
  // every bit outside 5 .. 5+len-1 is off-board
  const lines = Int32Array.from(lens, (len) => ~(((1 << len) - 1) << 5));
  for (let q = 0; q < area; q++) {
    const x = q % size;
    const y = (q - x) / size;
    for (let d = 0; d < 4; d++) {
      for (let side = 0; side < 2; side++) {
        const sgn = side === 0 ? 1 : -1;
        let n = 0;
        while (n < R && onBoard(x + sgn * (n + 1) * DIR_DX[d]!, y + sgn * (n + 1) * DIR_DY[d]!)) n++;
        reach[(q * 4 + d) * 2 + side] = n;
      }
    }
  }
  // the empty board's cell states (only the edges limit the patterns) and counts
  const win = windowTable(rule);
  const state = new Int32Array(area);
  const counts = new Int32Array(32);
  for (let q = 0; q < area; q++) {
    let packed = 0;
    for (let d = 0; d < 4; d++) {
      const line = lines[lineOf[q * 4 + d]!]! >>> (posOf[q * 4 + d]! - R);
      packed |= win[windowIndex(line, line, R)]! << (3 * d);
    }
    state[q] = packed | (COMBINED_TABLE[packed & 0xfff]! << 24) | (COMBINED_TABLE[packed >>> 12]! << 28);
    counts[(state[q]! >>> 24) & 15]!++;
    counts[16 + (state[q]! >>> 28)]!++;
  }
  return { step: new Int32Array([1, size, size + 1, size - 1]), reach, lineOf, posOf, lines, state, counts };
}

export class Board {
  readonly size: number;
  readonly area: number;
  readonly rule: Rule;
  readonly cells: Uint8Array;
  readonly state: Int32Array;
  /** The counts of the current ply (a view of its frame in `countStack`). */
  get counts(): Int32Array {
    return this.countViews[this.ply] ?? this.countView(this.ply);
  }
  private readonly countStack: Int32Array;
  private readonly countViews: (Int32Array | undefined)[];
  /** Moves played, in order (point indices). */
  readonly history: Int16Array;
  ply = 0;
  /** The side to move. */
  toMove: Color = BLACK;
  hashLo = 0;
  hashHi = 0;
  /** Step between neighbours in each direction. */
  readonly step: Int32Array;
  /** reach[(q * 4 + d) * 2 + side]: on-board neighbours (0..R) in the positive (0) / negative (1)
   *  direction, R = 4 in freestyle (cells 5 away never change a freestyle pattern), 5 in standard. */
  readonly reach: Uint8Array;
  /** The pattern table of this rule (patterns.ts), indexed by full 20-bit line keys (`keyOf`). */
  readonly table: Uint8Array;
  /**
   * Lines as bitboards: line `lineOf[q*4+d]` holds cell q at bit `posOf[q*4+d]`, black stones
   * in `lineB`, white in `lineW`; the bits beyond the board on either end are set in both
   * (off-board). A line has at most 22 cells at bits 5..26, so 5 off-board bits fit each side.
   */
  private readonly lineOf: Int16Array;
  private readonly posOf: Uint8Array;
  private readonly lineB: Int32Array;
  private readonly lineW: Int32Array;
  /** The table the incremental update reads, by window index (`windowTable` in patterns.ts):
   *  the R cells each side of a cell, black bits then white bits, the centre left out. */
  private readonly win: Uint16Array;
  private readonly R: number;
  /** Undo journal: for every cell whose patterns a move changed, the cell and its previous
   *  state, so undo restores instead of recomputing: two words per cell, `r` and
   *  `state[r]`. Ply i wrote journal[jBase[i] .. jBase[i+1]). */
  readonly journal: Int32Array;
  private readonly jBase: Int32Array;
  private jTop = 0;
  /** Where the last move's journal entries begin; they end at `journalTop` (incremental evaluators read them). */
  get lastJournalStart(): number {
    return this.jBase[this.ply - 1]!;
  }
  get journalTop(): number {
    return this.jTop;
  }

  constructor(size = 15, rule: Rule = 'freestyle') {
    if (!Number.isInteger(size) || size < MIN_SIZE || size > MAX_SIZE) throw new RangeError(`board size ${size} is not in ${MIN_SIZE}..${MAX_SIZE}`);
    this.size = size;
    this.rule = rule;
    const area = size * size;
    this.area = area;
    this.table = patternTable(rule);
    this.win = windowTable(rule);
    this.R = rule === 'standard' ? 5 : 4;
    const g = geometry(size, rule);
    this.step = g.step;
    this.reach = g.reach;
    this.lineOf = g.lineOf;
    this.posOf = g.posOf;
    this.lineB = g.lines.slice();
    this.lineW = g.lines.slice();
    this.state = g.state.slice();
    this.cells = new Uint8Array(area);
    this.history = new Int16Array(area);
    this.journal = new Int32Array(area * 80);
    this.jBase = new Int32Array(area + 1);
    this.countStack = new Int32Array((area + 1) * 32);
    this.countStack.set(g.counts);
    this.countViews = new Array<Int32Array | undefined>(area + 1).fill(undefined);
  }

  /** The counts frame of ply i (views are made on first use: most plies are never reached). */
  private countView(i: number): Int32Array {
    let v = this.countViews[i];
    if (v === undefined) {
      v = this.countStack.subarray(i * 32, i * 32 + 32);
      this.countViews[i] = v;
    }
    return v;
  }

  /**
   * The line key (patterns.ts) of cell q in direction d: its 5 neighbours each way, 2 bits
   * each (0 empty, 1 black, 2 white, 3 off-board), whatever q itself holds.
   */
  keyOf(q: number, d: number): number {
    const li = this.lineOf[q * 4 + d]!;
    const sh = this.posOf[q * 4 + d]! - 5;
    const b = (this.lineB[li]! >>> sh) & 0x7ff;
    const w = (this.lineW[li]! >>> sh) & 0x7ff;
    return SPREAD[(b & 0x1f) | ((b >> 6) << 5)]! | (SPREAD[(w & 0x1f) | ((w >> 6) << 5)]! << 1);
  }

  /** Place a stone of the side to move at the empty cell q. */
  play(q: number): void {
    const c = this.toMove;
    this.cells[q] = c;
    // the next frame starts as a copy of this one (classes 0..9 of each colour are used)
    const stack = this.countStack;
    const o = this.ply * 32;
    for (let i = 0; i < 10; i++) {
      stack[o + 32 + i] = stack[o + i]!;
      stack[o + 48 + i] = stack[o + 16 + i]!;
    }
    const counts = this.countViews[this.ply + 1] ?? this.countView(this.ply + 1);
    const sq = this.state[q]!;
    counts[(sq >>> 24) & 15]!--;
    counts[16 + (sq >>> 28)]!--;
    this.jBase[this.ply] = this.jTop;
    this.addStone(q, c, counts);
    const zi = (c - 1) * MAX_AREA + q;
    this.hashLo ^= ZOBRIST_LO[zi]! ^ SIDE_LO;
    this.hashHi ^= ZOBRIST_HI[zi]! ^ SIDE_HI;
    this.history[this.ply++] = q;
    this.toMove = (3 - c) as Color;
  }

  /**
   * Put a stone of colour c at q into its four lines and refresh the patterns of the empty
   * neighbours within reach, journalling each cell whose patterns change.
   */
  private addStone(q: number, c: number, counts: Int32Array): void {
    const state = this.state;
    const win = this.win;
    const lineB = this.lineB;
    const lineW = this.lineW;
    const journal = this.journal;
    const R = this.R;
    const R1 = R + 1;
    const R2 = 2 * R;
    const low = (1 << R) - 1;
    const wmask = (1 << (2 * R + 1)) - 1;
    let top = this.jTop;
    for (let d = 0; d < 4; d++) {
      const li = this.lineOf[q * 4 + d]!;
      const p = this.posOf[q * 4 + d]!;
      let B = lineB[li]!;
      let W = lineW[li]!;
      if (c === 1) lineB[li] = B |= 1 << p;
      else lineW[li] = W |= 1 << p;
      const st = this.step[d]!;
      const dshift = 3 * d;
      const keep = ~((7 << dshift) | (7 << (12 + dshift)));
      // the empty on-board cells within reach, as bits of the window around q (bit R is q)
      let m = (~(B | W) >>> (p - R)) & wmask;
      while (m !== 0) {
        const bit = m & -m;
        m ^= bit;
        const j = 31 - Math.clz32(bit);
        const r = q + (j - R) * st;
        const sh = p + j - R2;
        // windowIndex(B >>> sh, W >>> sh, R) (patterns.ts), written out: this is the hot loop
        const b = B >>> sh;
        const w = W >>> sh;
        const t = win[(b & low) | (((b >> R1) & low) << R) | (((w & low) | (((w >> R1) & low) << R)) << R2)]!;
        const old = state[r]!;
        const np = (old & keep) | (t << dshift);
        if (np === old) continue;
        journal[top] = r;
        journal[top + 1] = old;
        top += 2;
        const cb = COMBINED_TABLE[np & 0xfff]!;
        const cw = COMBINED_TABLE[(np >>> 12) & 0xfff]!;
        state[r] = (np & 0xffffff) | (cb << 24) | (cw << 28);
        counts[(old >>> 24) & 15]!--;
        counts[cb]!++;
        counts[16 + (old >>> 28)]!--;
        counts[16 + cw]!++;
      }
    }
    this.jTop = top;
  }

  /** Take back the last move: lift the stone from its lines and restore the journalled
   *  patterns. The cell's own patterns were not touched while it was occupied. */
  undo(): void {
    const q = this.history[--this.ply]!;
    const c = this.cells[q]! as Color;
    const state = this.state;
    this.cells[q] = EMPTY;
    const lines = c === 1 ? this.lineB : this.lineW;
    for (let d = 0; d < 4; d++) {
      const li = this.lineOf[q * 4 + d]!;
      lines[li] = lines[li]! & ~(1 << this.posOf[q * 4 + d]!);
    }
    const journal = this.journal;
    const base = this.jBase[this.ply]!;
    // a move changes each cell at most once: restore in any order
    const top = this.jTop;
    for (let i = base; i < top; i += 2) state[journal[i]!] = journal[i + 1]!;
    this.jTop = base;
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
    return (this.state[q]! >>> classShift(c)) & 15;
  }

  /** Line pattern (P_*) of empty cell q for colour c in direction d. */
  patternOf(q: number, c: Color, d: number): number {
    return (this.state[q]! >>> ((c - 1) * 12 + 3 * d)) & 7;
  }

  /** Number of empty cells whose class for c is k. */
  count(c: Color, k: number): number {
    return this.counts[countIndex(c, k)]!;
  }

  /** True if playing q (empty) now makes five for colour c. */
  makesFive(q: number, c: Color): boolean {
    return ((this.state[q]! >>> classShift(c)) & 15) === C_FIVE;
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
