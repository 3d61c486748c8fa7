/**
 * Threat-aware move generation from the board's incremental patterns.
 *
 * For the side to move (me) against the opponent (opp), with no five cell for me (the search
 * has already taken an immediate five):
 *  - opp has one five cell: the block is the only move (GEN_FORCED);
 *  - opp has a cell that makes an open four or a double four (an open three or two crossing
 *    threes on the board): only moves that remove EVERY such opp cell, plus my own fours
 *    (GEN_DEFEND). A defence must change the pattern of the first such cell z, so it is z or
 *    lies on one of z's four lines within 5; each candidate c is tested exactly by looking up
 *    z's new line pattern with my stone added at c (no play/undo). If nothing is left the side
 *    to move is lost (generate returns -1): whatever it plays, opp makes an open four (two five
 *    cells) and it has no four to interpose;
 *  - otherwise every empty cell within distance 2 of a stone that lies on a line with room for
 *    five through some stone (GEN_QUIET; its pattern word is not all empty).
 * Moves come with ordering scores: MOVE_VALUE (attack for me + defence against opp) says which
 * are tactical (TACTICAL_SCORE); quiet ones are ordered by the evaluation's learned cell values
 * for both sides (eval-weights.ts), so reductions and pruning fall on the cells it values least.
 * Nothing here allocates.
 */
import type { Board } from '../core/board.js';
import { COMBINED_TABLE, C_FIVE, C_FOUR, C_FOUR_THREE, C_OPEN_FOUR, patternTable } from '../core/patterns.js';
import { MOVE_VALUE, MOVER_VALUE, OPPONENT_VALUE, type Geometry } from './eval.js';

export const GEN_QUIET = 0;
export const GEN_FORCED = 1;
export const GEN_DEFEND = 2;

/** Ordering scores above this are tactical (fours, open threes, blocks of open threes): never reduced or pruned. */
export const TACTICAL_SCORE = 550;

export class MoveGen {
  /** The stones of each row as bits by column (a cell is near a stone when a row within 2 has one within 2 columns). */
  private readonly rows: Int32Array;
  kind = GEN_QUIET;
  /** Leave out quiet cells whose line patterns are all empty for both colours. */
  pruneDead = true;
  private readonly table: Uint8Array;
  private readonly zs: Int16Array;
  private readonly mark: Uint8Array;
  /** Bounding box of the stones, grown by 2 and clipped: x0, y0, x1, y1; a stack with one entry per stone. */
  private readonly box: Int8Array;
  private sp = 0;

  constructor(
    private readonly b: Board,
    private readonly geo: Geometry,
  ) {
    this.rows = new Int32Array(b.size);
    this.table = patternTable(b.rule);
    this.zs = new Int16Array(b.area);
    this.mark = new Uint8Array(b.area);
    this.box = new Int8Array((b.area + 2) * 4);
    this.reset();
  }

  reset(): void {
    this.rows.fill(0);
    this.sp = 0;
    this.box[0] = 127; // empty: x0 > x1
    this.box[1] = 127;
    this.box[2] = -1;
    this.box[3] = -1;
    for (let q = 0; q < this.b.area; q++) if (this.b.cells[q] !== 0) this.onPlay(q);
  }

  onPlay(q: number): void {
    const size = this.b.size;
    const x = q % size;
    const y = (q - x) / size;
    this.rows[y] |= 1 << x;
    const bb = this.box;
    const o = this.sp * 4;
    const lx = x < 2 ? 0 : x - 2;
    const ly = y < 2 ? 0 : y - 2;
    const hx = x + 2 >= size ? size - 1 : x + 2;
    const hy = y + 2 >= size ? size - 1 : y + 2;
    const x0 = bb[o]!,
      y0 = bb[o + 1]!,
      x1 = bb[o + 2]!,
      y1 = bb[o + 3]!;
    bb[o + 4] = lx < x0 ? lx : x0;
    bb[o + 5] = ly < y0 ? ly : y0;
    bb[o + 6] = hx > x1 ? hx : x1;
    bb[o + 7] = hy > y1 ? hy : y1;
    this.sp++;
  }

  onUndo(q: number): void {
    const x = q % this.b.size;
    this.rows[(q - x) / this.b.size] &= ~(1 << x);
    this.sp--;
  }

  /** The columns of row y that have a stone within Chebyshev distance 2 (bits by column). */
  private nearMask(y: number): number {
    const rows = this.rows;
    const y0 = y < 2 ? 0 : y - 2;
    const y1 = y + 2 >= rows.length ? rows.length - 1 : y + 2;
    let m = 0;
    for (let r = y0; r <= y1; r++) m |= rows[r]!;
    return m | (m << 1) | (m << 2) | (m >>> 1) | (m >>> 2);
  }

  /** Is there a stone within Chebyshev distance 2 of the empty cell q? */
  isNear(q: number): boolean {
    const x = q % this.b.size;
    return ((this.nearMask((q - x) / this.b.size) >>> x) & 1) !== 0;
  }

  /**
   * Would a stone of `me` at empty cell c take z (empty) below class `below` for the
   * opponent (C_OPEN_FOUR: no longer an open-four/double-four cell)? Exact: recomputes z's
   * pattern on the shared line from its key.
   */
  defends(c: number, z: number, below = C_OPEN_FOUR): boolean {
    if (c === z) return true;
    const b = this.b;
    const size = b.size;
    const cx = c % size;
    const cy = (c - cx) / size;
    const zx = z % size;
    const zy = (z - zx) / size;
    const dx = cx - zx;
    const dy = cy - zy;
    let d: number;
    let k: number;
    if (dy === 0) {
      d = 0;
      k = dx;
    } else if (dx === 0) {
      d = 1;
      k = dy;
    } else if (dx === dy) {
      d = 2;
      k = dx;
    } else if (dx === -dy) {
      d = 3;
      k = dy;
    } else return false;
    if (k > 5 || k < -5) return false;
    const me = b.toMove;
    return this.lineDefends(b.keyOf(z, d), (b.state[z]! >>> ((2 - me) * 12)) & 0xfff, d, k < 0 ? k + 5 : k + 4, me, below);
  }

  /**
   * The exact test of `defends` on one line: z's line key `key` in direction d gets a stone of
   * `me` at `slot` (0..9, the key's cells without z); is z's combination for the opponent (its
   * word `w`, with that direction's pattern replaced) then below `below`?
   */
  private lineDefends(key: number, w: number, d: number, slot: number, me: number, below: number): boolean {
    const t = this.table[key | (me << (2 * slot))]!;
    const np = me === 2 ? t & 7 : t >> 3;
    return COMBINED_TABLE[(w & ~(7 << (3 * d))) | (np << (3 * d))]! < below;
  }

  /**
   * Into out[base..]: the moves that take every opponent cell of class `cls` (or better)
   * below it (they lie on the first such cell's lines within 5 and are tested exactly), and
   * our own fours. Returns the count.
   */
  private defences(out: Int16Array, scores: Int32Array, base: number, cls: number): number {
    const b = this.b;
    const me = b.toMove;
    const mo = me - 1;
    const oo = 2 - me;
    const state = b.state;
    const cells = b.cells;
    const area = b.area;
    const meShift = mo * 12;
    const oppShift = oo * 12;
    // the board's class counts say how many cells each scan will find: stop at the last
    const counts = b.counts;
    let want = 0;
    for (let c = cls; c < C_FIVE; c++) want += counts[oo * 16 + c]!;
    let nz = 0;
    for (let q = 0; q < area && nz < want; q++)
      if (cells[q] === 0 && ((state[q]! >>> (24 + 4 * oo)) & 15) >= cls && ((state[q]! >>> (24 + 4 * oo)) & 15) < C_FIVE) this.zs[nz++] = q;
    const z0 = this.zs[0]!;
    const line = this.geo.line;
    const mark = this.mark;
    let n = base;
    // defends(c, z0) for the cells on z0's lines, with z0's line key read once a direction
    const w0 = (state[z0]! >>> oppShift) & 0xfff;
    for (let d = 0; d < 4; d++) {
      const key0 = b.keyOf(z0, d);
      for (let k = 0; k < 11; k++) {
        const c = line[(z0 * 4 + d) * 11 + k]!;
        if (c < 0 || cells[c] !== 0 || mark[c]) continue;
        mark[c] = 1;
        if (((state[c]! >>> (24 + 4 * mo)) & 15) >= C_FOUR) continue; // taken with the fours below
        if (c !== z0 && !this.lineDefends(key0, w0, d, k < 5 ? k : k - 1, me, cls)) continue;
        let ok = true;
        for (let i = 1; i < nz && ok; i++) ok = this.defends(c, this.zs[i]!, cls);
        if (!ok) continue;
        const p = state[c]!;
        out[n] = c;
        scores[n++] = 2000 + MOVE_VALUE[(p >>> meShift) & 0xfff]! + MOVE_VALUE[(p >>> oppShift) & 0xfff]!;
      }
    }
    for (let d = 0; d < 4; d++) {
      for (let k = 0; k < 11; k++) {
        const c = line[(z0 * 4 + d) * 11 + k]!;
        if (c >= 0) mark[c] = 0;
      }
    }
    let fours = 0;
    for (let c = C_FOUR; c <= C_FIVE; c++) fours += counts[mo * 16 + c]!;
    for (let q = 0; q < area && fours > 0; q++) {
      if (cells[q] !== 0) continue;
      const cl = (state[q]! >>> (24 + 4 * mo)) & 15;
      if (cl >= C_FOUR) {
        fours--;
        out[n] = q;
        scores[n++] = 1000 + cl * 1000 + MOVE_VALUE[(state[q]! >>> oppShift) & 0xfff]!;
      }
    }
    return n - base;
  }

  /** Moves for the side to move into out[base..], scores into scores[base..]. Returns the count, or -1 when lost. */
  generate(out: Int16Array, scores: Int32Array, base: number): number {
    const b = this.b;
    const me = b.toMove;
    const opp = 3 - me;
    const counts = b.counts;
    const state = b.state;
    const cells = b.cells;
    const pats = b.state;
    const area = b.area;
    const mo = me - 1;
    const oo = opp - 1;
    const ob = oo * 16;
    if (counts[ob + C_FIVE]! > 0) {
      this.kind = GEN_FORCED;
      for (let q = 0; q < area; q++) {
        if (cells[q] === 0 && ((state[q]! >>> (24 + 4 * oo)) & 15) === C_FIVE) {
          out[base] = q;
          scores[base] = 1 << 30;
          return 1;
        }
      }
    }
    const meShift = mo * 12;
    const oppShift = oo * 12;
    let n = base;
    if (counts[ob + C_OPEN_FOUR]! > 0) {
      this.kind = GEN_DEFEND;
      const n = this.defences(out, scores, base, C_OPEN_FOUR);
      return n === 0 ? -1 : n;
    }
    if (counts[ob + C_FOUR_THREE]! > 0) {
      // The opponent wins by a four-three unless it is broken first or we keep him busy with
      // fours: only those moves can matter. (None at all: searched as a quiet node.)
      const n = this.defences(out, scores, base, C_FOUR_THREE);
      if (n > 0) {
        this.kind = GEN_DEFEND;
        return n;
      }
    }
    this.kind = GEN_QUIET;
    const bb = this.box;
    const o = this.sp * 4;
    const size = b.size;
    const x0 = bb[o]!,
      x1 = bb[o + 2]!,
      y1 = bb[o + 3]!;
    const pruneDead = this.pruneDead;
    for (let y = bb[o + 1]!; y <= y1; y++) {
      let nm = this.nearMask(y) >>> x0;
      for (let q = y * size + x0, qe = y * size + x1; q <= qe; q++, nm >>>= 1) {
        if (cells[q] !== 0 || (nm & 1) === 0) continue;
        const p = pats[q]!;
        if (p === 0 && pruneDead) continue; // on no line with room for five near a stone
        out[n] = q;
        const wm = (p >>> meShift) & 0xfff;
        const wo = (p >>> oppShift) & 0xfff;
        let s = MOVE_VALUE[wm]! + ((MOVE_VALUE[wo]! * 3) >> 2);
        if (s < TACTICAL_SCORE) {
          // quiet: ordered by the learned value of the cell for both sides
          s = 2 * (MOVER_VALUE[wm]! + OPPONENT_VALUE[wo]!);
          s = s < 0 ? 0 : s >= TACTICAL_SCORE ? TACTICAL_SCORE - 1 : s;
        }
        scores[n++] = s;
      }
    }
    if (n === base) {
      // empty board (or nothing near): the centre, else the first empty cell
      const c = (b.size >> 1) * b.size + (b.size >> 1);
      let q = cells[c] === 0 ? c : -1;
      for (let i = 0; q < 0 && i < area; i++) if (cells[i] === 0) q = i;
      if (q >= 0) {
        out[n] = q;
        scores[n++] = 0;
      }
    }
    return n - base;
  }
}
