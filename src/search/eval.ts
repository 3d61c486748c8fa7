/**
 * Static evaluation from the board's incremental line patterns.
 *
 * Every empty cell has, per colour, a packed 12-bit word of its four line patterns
 * (board.state: black bits 0..11, white bits 12..23). A stone placed there would make those
 * shapes, so the word measures that colour's potential at the cell. CELL_VALUE[word] is a
 * table over all 4096 words (the sum of per-line weights plus a bonus for the combined class);
 * the position's value for a colour is the sum over empty cells. The Evaluator keeps both
 * sums incrementally: after each play/undo only the cells on the four lines through the
 * move (within 5) can change, so it recomputes just those.
 *
 * The score seen by the side to move weights its own potential a little higher (it moves
 * next) and adds terms for the immediate threat counts (board.counts).
 */
import type { Board } from '../core/board.js';
import {
  COMBINED_TABLE,
  C_DOUBLE_THREE,
  C_FOUR,
  C_FOUR_THREE,
  C_OPEN_FOUR,
  C_THREE,
  C_FIVE,
  C_DOUBLE_TWO,
  C_CLOSED_THREE,
} from '../core/patterns.js';

/** Per-line weights, indexed by P_* (none, two, open two, three, open three, four, open four, five). */
const LINE_WEIGHT = [0, 2, 7, 6, 22, 24, 90, 300];
/** Extra value per combined class (C_*). */
const COMBINED_BONUS = [0, 0, 8, 0, 0, 60, 20, 140, 220, 300];

/** Potential of one cell for one colour, indexed by its 12-bit pattern word. */
export const CELL_VALUE: Int32Array = (() => {
  const t = new Int32Array(4096);
  for (let w = 0; w < 4096; w++) {
    let v = 0;
    for (let d = 0; d < 4; d++) v += LINE_WEIGHT[(w >> (3 * d)) & 7]!;
    t[w] = v + COMBINED_BONUS[COMBINED_TABLE[w]!]!;
  }
  return t;
})();

/** Move-ordering value of a cell for one colour (attack for the mover, defence for the other). */
const ORDER_LINE = [0, 3, 12, 10, 60, 70, 800, 20000];
const ORDER_COMBINED = [0, 0, 30, 0, 0, 600, 100, 3000, 6000, 50000];
export const MOVE_VALUE: Int32Array = (() => {
  const t = new Int32Array(4096);
  for (let w = 0; w < 4096; w++) {
    let v = 0;
    for (let d = 0; d < 4; d++) v += ORDER_LINE[(w >> (3 * d)) & 7]!;
    t[w] = v + ORDER_COMBINED[COMBINED_TABLE[w]!]!;
  }
  return t;
})();

/** Cells whose patterns can change when a stone is placed at q: q and its line neighbours within reach. */
export class Geometry {
  readonly size: number;
  readonly area: number;
  readonly reach: number;
  /** affected[q * 41 + i], i < affectedCount[q]. */
  readonly affected: Int16Array;
  readonly affectedCount: Uint8Array;
  /** box[q * 24 + i], i < boxCount[q]: the cells at Chebyshev distance 1..2. */
  readonly box: Int16Array;
  readonly boxCount: Uint8Array;
  /** line[((q * 4 + d) * 11) + k + 5]: the cell at offset k (-5..5) along direction d, or -1. */
  readonly line: Int16Array;

  /** `reach`: how far a stone can change a cell's pattern along a line (4 in freestyle, 5 in standard). */
  constructor(size: number, reach = 5) {
    this.size = size;
    this.reach = reach;
    const area = size * size;
    this.area = area;
    this.affected = new Int16Array(area * 41);
    this.affectedCount = new Uint8Array(area);
    this.box = new Int16Array(area * 24);
    this.boxCount = new Uint8Array(area);
    this.line = new Int16Array(area * 44).fill(-1);
    const DX = [1, 0, 1, -1];
    const DY = [0, 1, 1, 1];
    for (let q = 0; q < area; q++) {
      const x = q % size;
      const y = (q - x) / size;
      let n = 0;
      this.affected[q * 41 + n++] = q;
      for (let d = 0; d < 4; d++) {
        for (let k = -5; k <= 5; k++) {
          const nx = x + k * DX[d]!;
          const ny = y + k * DY[d]!;
          if (nx < 0 || ny < 0 || nx >= size || ny >= size) continue;
          const r = ny * size + nx;
          this.line[(q * 4 + d) * 11 + k + 5] = r;
          if (k !== 0 && k <= reach && k >= -reach) this.affected[q * 41 + n++] = r;
        }
      }
      this.affectedCount[q] = n;
      let m = 0;
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) {
          if (dx === 0 && dy === 0) continue;
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= size || ny >= size) continue;
          this.box[q * 24 + m++] = ny * size + nx;
        }
      }
      this.boxCount[q] = m;
    }
  }
}

export class Evaluator {
  /** Sum of CELL_VALUE over empty cells, per colour. */
  sumBlack = 0;
  sumWhite = 0;
  private readonly vb: Int32Array;
  private readonly vw: Int32Array;

  constructor(
    private readonly b: Board,
    private readonly geo: Geometry,
  ) {
    this.vb = new Int32Array(b.area);
    this.vw = new Int32Array(b.area);
    this.reset();
  }

  reset(): void {
    const b = this.b;
    this.sumBlack = 0;
    this.sumWhite = 0;
    for (let q = 0; q < b.area; q++) {
      if (b.cells[q] !== 0) {
        this.vb[q] = 0;
        this.vw[q] = 0;
        continue;
      }
      const p = b.state[q]!;
      const vb = CELL_VALUE[p & 0xfff]!;
      const vw = CELL_VALUE[(p >>> 12) & 0xfff]!;
      this.vb[q] = vb;
      this.vw[q] = vw;
      this.sumBlack += vb;
      this.sumWhite += vw;
    }
  }

  /** Call after a stone was placed at or removed from q. */
  update(q: number): void {
    const b = this.b;
    const cells = b.cells;
    const pats = b.state;
    const aff = this.geo.affected;
    const n = this.geo.affectedCount[q]!;
    const base = q * 41;
    const vbA = this.vb;
    const vwA = this.vw;
    let sb = this.sumBlack;
    let sw = this.sumWhite;
    for (let i = 0; i < n; i++) {
      const r = aff[base + i]!;
      let vb = 0;
      let vw = 0;
      if (cells[r] === 0) {
        const p = pats[r]!;
        vb = CELL_VALUE[p & 0xfff]!;
        vw = CELL_VALUE[(p >>> 12) & 0xfff]!;
      }
      sb += vb - vbA[r]!;
      sw += vw - vwA[r]!;
      vbA[r] = vb;
      vwA[r] = vw;
    }
    this.sumBlack = sb;
    this.sumWhite = sw;
  }

  /** Score for the side to move (no five cells for it; those are handled by the search). */
  evaluate(): number {
    const b = this.b;
    const me = b.toMove;
    const counts = b.counts;
    const mb = (me - 1) * 16;
    const ob = 16 - mb;
    let mine = me === 1 ? this.sumBlack : this.sumWhite;
    let theirs = me === 1 ? this.sumWhite : this.sumBlack;
    // immediate threats: the side to move acts first
    if (counts[mb + C_OPEN_FOUR]! > 0) mine += 900;
    else if (counts[mb + C_FOUR_THREE]! > 0) mine += 450;
    else if (counts[mb + C_DOUBLE_THREE]! > 0 && counts[ob + C_FOUR]! + counts[ob + C_FOUR_THREE]! === 0) mine += 250;
    else if (counts[mb + C_THREE]! > 0) mine += 40;
    if (counts[ob + C_OPEN_FOUR]! > 0) theirs += 120;
    else if (counts[ob + C_FOUR_THREE]! + counts[ob + C_DOUBLE_THREE]! > 0) theirs += 60;
    void C_FOUR;
    void C_FIVE;
    void C_DOUBLE_TWO;
    void C_CLOSED_THREE;
    return ((mine * 11 - theirs * 10) / 10) | 0;
  }
}
