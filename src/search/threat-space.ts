/**
 * The children df-pn searches (dfpn.ts), in threat space and in the game tree: the attacker's
 * threats and quiet moves, the defender's replies that can matter, the VCF probes that decide
 * both, and a cache of the child lists.
 *
 * Threat space (rules without SPACE_GAME): the attacker A plays fours and open-three-making
 * moves; with SPACE_WIDE also quiet moves that threaten a VCF (closed threes, double twos), and
 * with SPACE_TWOS twos near his four cells as well. The defender D plays the replies threats.ts
 * proves can matter (every cell that removes all of A's open-four cells, plus D's own fours), or
 * after a quiet move those that stop every VCF it threatens (`vcfDefences`). SPACE_RELAXED
 * leaves D's plain fours out except near A's last move (the relaxed space of dfpn.ts).
 * Game tree (SPACE_GAME): A plays threats and the best few other moves by a pattern heuristic;
 * D plays every empty cell unless A has a threat, when the threat rules above prune soundly.
 *
 * The probes spend nodes of the caller's search; it takes them with `takeNodes` after each call.
 */
import { classShift, countIndex, type Board } from '../core/board.js';
import { MAX_AREA, type Color } from '../core/types.js';
import { C_CLOSED_THREE, C_DOUBLE_TWO, C_FOUR, C_FOUR_THREE, C_OPEN_FOUR, C_THREE, C_TWO } from '../core/patterns.js';
import { attackerKeyHi, attackerKeyLo } from './pntt.js';
import { ThreatScratch, addStrongFours, collectDefences, collectFourCells, collectThreats, findFive, fiveCount, inWindow } from './threats.js';
import { VcfSearcher, type VcfResult } from './vcf.js';
import {
  CLASS_WEIGHT,
  DEFENDER_VCF_NODES,
  FOUR_CELLS,
  GEN_BITS,
  GEN_WIDTH,
  POSITIONAL_NEAR,
  POSITIONAL_OWN_WEIGHT,
  QUIET_NEAR,
  QUIET_RECENT,
  TWOS_RECENT,
  VCF_THREAT_PROBE_NODES,
} from './tuning.js';

/** Rule bits of `ThreatSpace.generate`. */
export const SPACE_GAME = 1;
export const SPACE_RELAXED = 2;
export const SPACE_WIDE = 4;
export const SPACE_TWOS = 8;

const GEN_MASK = (1 << GEN_BITS) - 1;
/** XORed into a node's key in the child-list cache by rule set: OR/AND node, relaxed, wide. */
const GEN_TAG_LO = Int32Array.from([0x1b873593, 0x7a3c5e21, 0x2e1f4d67, 0x5f0b9c13, 0x61c88647, 0x3c6ef372, 0x0d2b4e19, 0x4a7f8e35]);
const GEN_TAG_HI = Int32Array.from([0x68e31da4, 0x1d8f3c2b, 0x7ed55d16, 0x165667b1, 0x27d4eb2f, 0x0b4b6b2c, 0x3243f6a8, 0x452821e6]);
/** XORed into the cache key of an OR node in the quiet-twos space (its attacker moves differ
 *  from the wide space's; the defender's replies do not). */
const TWOS_TAG_LO = 0x2545f491;
const TWOS_TAG_HI = 0x6a09e667;

/** More than `dist` cells away (Chebyshev) from `ref`. */
function far(q: number, ref: number, size: number, dist: number): boolean {
  const dx = (q % size) - (ref % size);
  const dy = ((q / size) | 0) - ((ref / size) | 0);
  return dx > dist || dx < -dist || dy > dist || dy < -dist;
}

export class ThreatSpace {
  /** The board's ply at the search root: quiet moves are taken anywhere there (see
   *  `quietThreats`). Set by the search at each solve. */
  rootPly = 0;
  /** Game mode: how many non-threat attacker moves an OR node lists. Set at each solve. */
  width = 0;
  private b!: Board;
  private a: Color = 1;
  private kLo = 0;
  private kHi = 0;
  /** The rules of the call in progress (see `generate`). */
  private game = false;
  private relaxed = false;
  private wide = false;
  private twos = false;
  /** Nodes the VCF probes spent since the last `takeNodes`. */
  private spent = 0;
  /** One VCF searcher for every probe: its table of failures serves them all. */
  private readonly vcfs = new VcfSearcher();
  private readonly scratch = new ThreatScratch();
  private readonly zone = new Uint8Array(MAX_AREA);
  private readonly zoneList = new Int16Array(MAX_AREA);
  private readonly replyMark = new Uint8Array(MAX_AREA);
  private readonly scoreBuf = new Float64Array(MAX_AREA);
  /** Cells where A can make a four, for `quietThreats` (the first FOUR_CELLS are used). */
  private readonly fourCells = new Int16Array(MAX_AREA);
  private readonly genLo = new Int32Array(1 << GEN_BITS);
  private readonly genHi = new Int32Array(1 << GEN_BITS);
  private readonly genN = new Uint8Array(1 << GEN_BITS);
  private readonly genMoves = new Int16Array((1 << GEN_BITS) * GEN_WIDTH);

  /** `moves`: the caller's child-list buffer, written at the row each call names. */
  constructor(private readonly moves: Int16Array) {}

  /** Forget the cached child lists (they are keyed by hash: a board of another size or rule
   *  could meet them). */
  clearCache(): void {
    this.genLo.fill(0);
    this.genHi.fill(0);
  }

  /** The position and attacker of the following calls. */
  attach(b: Board, attacker: Color): void {
    this.b = b;
    this.a = attacker;
    this.kLo = attackerKeyLo(attacker);
    this.kHi = attackerKeyHi(attacker);
  }

  /** The nodes the probes spent since the last call (the caller's search counts them). */
  takeNodes(): number {
    const n = this.spent;
    this.spent = 0;
    return n;
  }

  /** A VCF probe for the side to move, counting its nodes. */
  vcf(maxNodes: number): VcfResult {
    const r = this.vcfs.search(this.b, { maxNodes });
    this.spent += r.nodes;
    return r;
  }

  /**
   * Children of the current node into moves[base..] under `rules` (SPACE_* bits). Returns the
   * count, or -1 when the node is proven for A, -2 when disproven (under these rules).
   *
   * df-pn enters a node many times; in threat space the children cost VCF probes (the
   * defender's VCF, the attacker's VCF threat and its zone), so lists of two or more children
   * are kept in a small cache keyed by the node's table key and the rules in force (not while
   * the search is `aborted`). A list is as sound as when it was made (each is a complete reply
   * set for its position and rules).
   */
  generate(isOr: boolean, base: number, rules: number, aborted: boolean): number {
    this.game = (rules & SPACE_GAME) !== 0;
    this.relaxed = (rules & SPACE_RELAXED) !== 0;
    this.wide = (rules & SPACE_WIDE) !== 0;
    this.twos = (rules & SPACE_TWOS) !== 0;
    return this.game ? this.generateFresh(isOr, base) : this.generateCached(isOr, base, aborted);
  }

  private generateCached(isOr: boolean, base: number, aborted: boolean): number {
    const b = this.b;
    const t = (isOr ? 1 : 0) | (this.relaxed ? 2 : 0) | (this.wide ? 4 : 0);
    const twos = isOr && this.twos;
    const lo = b.hashLo ^ this.kLo ^ GEN_TAG_LO[t]! ^ (twos ? TWOS_TAG_LO : 0);
    const hi = b.hashHi ^ this.kHi ^ GEN_TAG_HI[t]! ^ (twos ? TWOS_TAG_HI : 0);
    const slot = lo & GEN_MASK;
    const gm = this.genMoves;
    const moves = this.moves;
    if (this.genLo[slot] === lo && this.genHi[slot] === (hi | 1)) {
      const n = this.genN[slot]!;
      for (let i = 0, o = slot * GEN_WIDTH; i < n; i++) moves[base + i] = gm[o + i]!;
      return n;
    }
    const n = this.generateFresh(isOr, base);
    if (n > 1 && n <= GEN_WIDTH && !aborted) {
      this.genLo[slot] = lo;
      this.genHi[slot] = hi | 1;
      this.genN[slot] = n;
      for (let i = 0, o = slot * GEN_WIDTH; i < n; i++) gm[o + i] = moves[base + i]!;
    }
    return n;
  }

  private generateFresh(isOr: boolean, base: number): number {
    const b = this.b;
    const a = this.a;
    const d = (3 - a) as Color;
    const moves = this.moves;
    if (isOr) {
      if (fiveCount(b, a) > 0) return -1;
      const nd = fiveCount(b, d);
      if (nd >= 2) return -2;
      if (nd === 1) {
        moves[base] = findFive(b, d);
        return 1;
      }
      let n = collectThreats(b, a, moves, base);
      if (this.game) n += this.positionalMoves(base, n);
      else if (this.wide) n += this.quietThreats(base, n);
      if (!this.game && n > 0) n = this.counterFilter(base, n);
      if (!this.game && n > 1) this.orderThreats(base, n);
      return n === 0 ? -2 : n;
    }
    if (fiveCount(b, d) > 0) return -2;
    const na = fiveCount(b, a);
    if (na >= 2) return -1;
    if (na === 1) {
      moves[base] = findFive(b, a);
      return 1;
    }
    if (!this.game) {
      // A defender VCF (his fours all the way to five) wins for him: the node is lost for A
      // whatever A threatens. The relaxed space needs this (it leaves most of his fours out);
      // the real one finds it faster this way than through his four replies one by one.
      const r = this.vcfs.search(b, { maxNodes: DEFENDER_VCF_NODES });
      this.spent += r.nodes;
      if (r.win) return -2;
    }
    const n = collectDefences(b, a, moves, base, this.scratch, undefined, !this.relaxed);
    if (n === 0) return -1;
    if (n > 0) return this.relaxed ? this.addNearFours(base, n) : n;
    if (this.wide || this.game) {
      const nv = this.vcfDefences(base);
      if (nv === 0) return -1;
      if (nv > 0) return nv;
    }
    if (!this.game) return -2;
    // game mode, no threat: every empty cell
    let m = 0;
    for (let q = 0; q < b.area; q++) if (b.cells[q] === 0) moves[base + m++] = q;
    return m === 0 ? -2 : m;
  }

  /**
   * Threat-space OR node: the attacker's moves best first, by their class for A and then by
   * what they take from D (D's class on the same cell). df-pn breaks ties between equal
   * proof numbers by this order, so it decides what is searched first.
   */
  private orderThreats(base: number, n: number): void {
    const st = this.b.state;
    const sa = classShift(this.a);
    const sd = classShift(3 - this.a);
    const sc = this.scoreBuf;
    const mv = this.moves;
    for (let i = 0; i < n; i++) {
      const w = st[mv[base + i]!]!;
      sc[i] = ((w >>> sa) & 15) * 1000 + CLASS_WEIGHT[(w >>> sd) & 15]! * 10;
    }
    // insertion sort, stable: equal scores keep board order
    for (let i = 1; i < n; i++) {
      const q = mv[base + i]!;
      const v = sc[i]!;
      let j = i;
      for (; j > 0 && sc[j - 1]! < v; j--) {
        sc[j] = sc[j - 1]!;
        mv[base + j] = mv[base + j - 1]!;
      }
      sc[j] = v;
      mv[base + j] = q;
    }
  }

  /**
   * Threat-space OR node (A to move, no five cell on the board): if D, given the move, would
   * have a VCF, an A move that is not a four and stays out of that VCF's relevance zone leaves
   * it standing, and D plays it out at once (A has no five cell to interpose). Keeps A's fours
   * and the moves inside the zone; returns the new count. Only attacker moves are dropped, so
   * this can cost a proof, never make one: the AND nodes it spares would each be disproven by
   * their own defender-VCF probe.
   */
  private counterFilter(base: number, n: number): number {
    const b = this.b;
    const a = this.a;
    const d = (3 - a) as Color;
    const cd = b.counts;
    if (cd[countIndex(d, C_OPEN_FOUR)]! + cd[countIndex(d, C_FOUR_THREE)]! === 0) return n;
    const r = this.vcfOf(d, DEFENDER_VCF_NODES);
    if (!r.win) return n;
    const zl = this.zoneList;
    const nz = this.vcfZone(r.line, d, zl, 0);
    const moves = this.moves;
    const zone = this.zone;
    const state = b.state;
    const sh = classShift(a);
    let m = 0;
    for (let i = 0; i < n; i++) {
      const q = moves[base + i]!;
      if (zone[q] || ((state[q]! >>> sh) & 15) >= C_FOUR) moves[base + m++] = q;
    }
    for (let i = 0; i < nz; i++) zone[zl[i]!] = 0;
    return m;
  }

  /**
   * Attacker moves that are not fours or threes but may threaten a VCF: closed threes and
   * double twos, and with `quietTwos` the twos on a line within 4 cells of a cell where A can
   * make a four (a four there may then make a three as well). The AND node after them checks
   * whether a VCF threat really exists.
   */
  private quietThreats(base: number, have: number): number {
    const b = this.b;
    const sa = classShift(this.a);
    const state = b.state;
    let n = 0;
    const start = base + have;
    const size = b.size;
    const fc = this.fourCells;
    const nf = this.twos ? Math.min(FOUR_CELLS, collectFourCells(b, this.a, fc, 0)) : 0;
    for (let q = 0; q < b.area; q++) {
      if (b.cells[q] !== 0) continue;
      const c = (state[q]! >>> sa) & 15;
      const two = c === C_TWO;
      if (two ? nf === 0 : c !== C_CLOSED_THREE && c !== C_DOUBLE_TWO) continue;
      // only near the last few moves: a quiet move elsewhere rarely starts a winning threat.
      // Not at the root: there the "last moves" are whatever order the position was given in
      // (for a stone set, its last-listed stones), and the first quiet move may be anywhere
      let near = b.ply === this.rootPly;
      const recent = two ? TWOS_RECENT : QUIET_RECENT;
      for (let k = 1; k <= recent && k <= b.ply && !near; k++) near = !far(q, b.history[b.ply - k]!, size, QUIET_NEAR);
      if (!near) continue;
      if (two) {
        let inLine = false;
        for (let k = 0; k < nf && !inLine; k++) inLine = inWindow(q, fc[k]!, size);
        if (!inLine) continue;
      }
      this.moves[start + n++] = q;
    }
    return n;
  }

  /**
   * D to move, A has no five cell and no open-four cell. If A (given the move) has a VCF, D's
   * replies that can matter are D's fours and the cells of the VCF's relevance zone (within 5
   * along the four lines of every cell of the VCF line) after which A has no VCF; any other D
   * move leaves every pattern of that VCF unchanged, so A wins by it. Returns the count,
   * 0 when nothing defends, or -1 when A has no VCF threat (within the probe budget).
   */
  private vcfDefences(base: number): number {
    const b = this.b;
    const a = this.a;
    const d = (3 - a) as Color;
    const probe = { maxNodes: VCF_THREAT_PROBE_NODES };
    const r = this.vcfOf(a, VCF_THREAT_PROBE_NODES);
    if (!r.win) return -1;
    const n = this.vcfZone(r.line, a, this.moves, base);
    const moves = this.moves;
    const zone = this.zone;
    // keep the zone cells after which A has no VCF, and D's fours
    let m = 0;
    const sd = classShift(d);
    for (let i = 0; i < n; i++) {
      const q = moves[base + i]!;
      zone[q] = 0;
      if (!this.relaxed && ((b.state[q]! >>> sd) & 15) >= C_FOUR) continue; // listed with the fours below
      b.play(q);
      const rr = this.vcfs.search(b, probe);
      b.undo();
      this.spent += rr.nodes;
      if (!rr.win) moves[base + m++] = q;
    }
    if (!this.relaxed) m += collectFourCells(b, d, moves, base + m);
    else {
      const mark = this.scratch.mark;
      for (let i = 0; i < m; i++) mark[moves[base + i]!] = 1;
      const end = addStrongFours(b, d, moves, base + m, mark);
      for (let i = base; i < end; i++) mark[moves[i]!] = 0;
      m = end - base;
    }
    return m;
  }

  /**
   * Relaxed defender node: append D's plain fours on a line through A's last move within 4
   * cells (sharing a 5-cell window with it), the fours most likely to spoil A's threat, which
   * replays of relaxed proofs kept finding one refutation at a time. Returns the new count.
   */
  private addNearFours(base: number, n: number): number {
    const b = this.b;
    const d = 3 - this.a;
    const sh = classShift(d);
    const cd = b.counts[countIndex(d, C_FOUR)]!;
    if (cd === 0 || b.ply === 0) return n;
    const last = b.history[b.ply - 1]!;
    const size = b.size;
    const state = b.state;
    const cells = b.cells;
    const moves = this.moves;
    let m = n;
    for (let q = 0, found = 0, area = b.area; q < area && found < cd; q++) {
      if (cells[q] !== 0 || ((state[q]! >>> sh) & 15) !== C_FOUR) continue;
      found++;
      if (!inWindow(q, last, size)) continue;
      let dup = false;
      for (let j = base; j < base + m && !dup; j++) dup = moves[j] === q;
      if (!dup) moves[base + m++] = q;
    }
    return m;
  }

  /** A VCF probe for colour c, the side not to move (as if given the move); counts its nodes. */
  private vcfOf(c: Color, maxNodes: number): VcfResult {
    const b = this.b;
    b.setToMove(c);
    const r = this.vcfs.search(b, { maxNodes });
    b.setToMove((3 - c) as Color);
    this.spent += r.nodes;
    return r;
  }

  /**
   * The relevance zone of a VCF `line` of colour `att` (its moves at even indices, the other
   * side's forced replies at odd ones): every empty cell where a stone of the other side can
   * spoil it, marked in `zone` (the caller clears the marks) and listed in out[base..];
   * returns the count. A stone of the other side elsewhere leaves the VCF winning: it can only
   * spoil it by taking a cell of the line or by giving that side a four along the way, and then
   * it shares a 5-cell window free of `att` stones with some of the forced replies, and that
   * window holds at least 3 of that side's stones (stones on the board plus replies) besides it.
   */
  private vcfZone(line: readonly number[], att: Color, out: Int16Array, base: number): number {
    const b = this.b;
    const def = (3 - att) as Color;
    const zone = this.zone;
    const reply = this.replyMark;
    const cells = b.cells;
    let n = 0;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (i & 1) reply[c] = 1;
      if (cells[c] !== 0 || zone[c]) continue;
      zone[c] = 1;
      out[base + n++] = c;
    }
    const reach = b.reach;
    for (let i = 1; i < line.length; i += 2) {
      const f = line[i]!;
      for (let dir = 0; dir < 4; dir++) {
        const st = b.step[dir]!;
        const fwd = reach[(f * 4 + dir) * 2]!;
        const back = reach[(f * 4 + dir) * 2 + 1]!;
        // windows [f + s*st, f + (s+4)*st] for s = -4..0 that fit on the board
        for (let s = -Math.min(4, back); s <= 0; s++) {
          if (s + 4 > fwd) continue;
          let nd = 0;
          let blocked = false;
          for (let j = 0, q = f + s * st; j < 5; j++, q += st) {
            const v = cells[q]!;
            if (v === att) {
              blocked = true;
              break;
            }
            if (v === def || reply[q]) nd++;
          }
          if (blocked || nd < 3) continue;
          for (let j = 0, q = f + s * st; j < 5; j++, q += st) {
            if (cells[q] !== 0 || zone[q]) continue;
            zone[q] = 1;
            out[base + n++] = q;
          }
        }
      }
    }
    for (let i = 1; i < line.length; i += 2) reply[line[i]!] = 0;
    return n;
  }

  /** Game mode: the best `width` non-threat moves near stones, appended after `have` threats. */
  private positionalMoves(base: number, have: number): number {
    const b = this.b;
    const a = this.a;
    const sa = classShift(a);
    const sd = classShift(3 - a);
    const size = b.size;
    const sc = this.scoreBuf;
    const start = base + have;
    let n = 0;
    for (let q = 0; q < b.area; q++) {
      if (b.cells[q] !== 0) continue;
      const ca = (b.state[q]! >>> sa) & 15;
      if (ca >= C_THREE) continue; // threats already listed
      // near a stone
      const x = q % size;
      const y = (q - x) / size;
      let near = false;
      for (let dy = -POSITIONAL_NEAR; dy <= POSITIONAL_NEAR && !near; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= size) continue;
        for (let dx = -POSITIONAL_NEAR; dx <= POSITIONAL_NEAR; dx++) {
          const xx = x + dx;
          if (xx >= 0 && xx < size && b.cells[yy * size + xx] !== 0) {
            near = true;
            break;
          }
        }
      }
      if (!near) continue;
      sc[q] = CLASS_WEIGHT[ca]! * POSITIONAL_OWN_WEIGHT + CLASS_WEIGHT[(b.state[q]! >>> sd) & 15]!;
      // insertion into a top-`width` list
      let i = Math.min(n, this.width);
      if (i === this.width && sc[q]! <= sc[this.moves[start + i - 1]!]!) continue;
      if (i === this.width) i--;
      while (i > 0 && sc[this.moves[start + i - 1]!]! < sc[q]!) {
        this.moves[start + i] = this.moves[start + i - 1]!;
        i--;
      }
      this.moves[start + i] = q;
      if (n < this.width) n++;
    }
    if (b.ply === 0 && n === 0) {
      this.moves[start] = (size >> 1) * size + (size >> 1);
      n = 1;
    }
    return n;
  }
}
