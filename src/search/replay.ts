/**
 * The replay of a relaxed threat-space proof in the real threat space, and what its failures
 * teach the relaxed space (counterexample-guided refinement); phase 2 of dfpn.ts's `solve`.
 *
 * The relaxed space leaves most of the defender's plain fours out of his replies, so its
 * proofs are only guides. A replay plays the relaxed proof's move at each attacker node (or
 * the move proved at its shadow: the same position without the defender-four/attacker-block
 * pairs played on the way down) against every real defender reply, repairing single nodes
 * with small searches, and stores what it proves in the real table. A defender reply that
 * refutes it joins the relaxed space at that node (`refine`; the relaxed search then lists it
 * there, `addRefined`), and the relaxed table forgets the failed path, so the next relaxed
 * search looks elsewhere. Refined replies are real ones, so relaxed disproofs stay real.
 * The refinement table outlives one solve: a reply that mattered once is worth keeping.
 */
import type { Board } from '../core/board.js';
import { MAX_AREA, type Color } from '../core/types.js';
import { ZOBRIST_HI, ZOBRIST_LO } from '../core/zobrist.js';
import { INF, attackerKeyHi, attackerKeyLo, type PnTable } from './pntt.js';
import { findFive, fiveCount } from './threats.js';
import { REF_BITS, REF_WIDTH, REPLAY_RELAXED_NODES, REPLAY_REPAIR_NODES } from './tuning.js';

const STRIDE = MAX_AREA;
/** The failed-node memo of one replay round: 2^16 slots. */
const FAIL_BITS = 16;
/** How far a refinement-table probe looks for its node before giving up. */
const REF_PROBES = 16;

/** What a replay asks of the df-pn search it serves (dfpn.ts). */
export interface ReplaySearch {
  /** Count a node; false when the search's budget is spent. */
  enter(): boolean;
  /** Has the search run out of its budget? */
  aborted(): boolean;
  /** The depth no node may reach. */
  maxDepth(): number;
  /** The current defender node's real replies into the child buffer at `base`: their count,
   *  -1 when the node is proven for the attacker, -2 when disproven. */
  children(base: number): number;
  /** A short VCF of the attacker from the current node (its line stored as proven). */
  leafVcf(): boolean;
  /** A df-pn search from the current node on `tt` with a node budget of its own. */
  local(isOr: boolean, depth: number, budget: number, tt: PnTable, relaxed: boolean): boolean;
}

export class RelaxedReplay {
  /** Set when the last `run` added a defender reply to the relaxed space. */
  refined = false;
  private b!: Board;
  private a: Color = 1;
  private kLo = 0;
  private kHi = 0;
  private realTT!: PnTable;
  private relaxTT!: PnTable;
  /** The shadow of the current node: its hash XOR (dLo, dHi) is the position without the
   *  defender-four/attacker-block pairs played on the way down. */
  private dLo = 0;
  private dHi = 0;
  private readonly failLo = new Int32Array(1 << FAIL_BITS);
  private readonly failHi = new Int32Array(1 << FAIL_BITS);
  private readonly refLo = new Int32Array(1 << REF_BITS);
  private readonly refHi = new Int32Array(1 << REF_BITS);
  private readonly refN = new Uint8Array(1 << REF_BITS);
  private readonly refMoves = new Int16Array((1 << REF_BITS) * REF_WIDTH);
  private refCount = 0;

  /** `moves`: the search's child buffer (where `children` lists a node's replies). */
  constructor(
    private readonly moves: Int16Array,
    private readonly search: ReplaySearch,
  ) {}

  /** The position and attacker of the following calls. */
  attach(b: Board, attacker: Color): void {
    this.b = b;
    this.a = attacker;
    this.kLo = attackerKeyLo(attacker);
    this.kHi = attackerKeyHi(attacker);
  }

  /** The real table (where proofs are stored) and the relaxed one (whose proofs are replayed). */
  useTables(real: PnTable, relaxed: PnTable): void {
    this.realTT = real;
    this.relaxTT = relaxed;
  }

  /** One replay from the root: true if it proved the root in the real space. */
  run(isOr: boolean): boolean {
    this.failLo.fill(0);
    this.failHi.fill(0);
    this.refined = false;
    return isOr ? this.replayOr(0) : this.replayAnd(0);
  }

  hasRefinements(): boolean {
    return this.refCount > 0;
  }

  clearShadow(): void {
    this.dLo = 0;
    this.dHi = 0;
  }

  /** Forget every defender reply added to the relaxed space. */
  clearRefinements(): void {
    if (this.refCount === 0) return;
    this.refLo.fill(0);
    this.refHi.fill(0);
    this.refN.fill(0);
    this.refCount = 0;
  }

  /** The slot of AND node (lo, hi) in the refinement table: its own, else the empty one its
   *  probe ends at, else -1 (table full along the probe). */
  private refSlot(lo: number, hi: number): number {
    const mask = (1 << REF_BITS) - 1;
    const h = hi | 1;
    for (let k = 0, i = lo & mask; k < REF_PROBES; k++, i = (i + 1) & mask) {
      if (this.refHi[i] === 0 || (this.refLo[i] === lo && this.refHi[i] === h)) return i;
    }
    return -1;
  }

  /** Let the defender also play `r` at the current node in the relaxed space; true if new. */
  private refine(r: number): boolean {
    const lo = this.b.hashLo ^ this.kLo;
    const hi = this.b.hashHi ^ this.kHi;
    const i = this.refSlot(lo, hi);
    if (i < 0) return false;
    const n = this.refN[i]!;
    const o = i * REF_WIDTH;
    for (let k = 0; k < n; k++) if (this.refMoves[o + k] === r) return false;
    if (n >= REF_WIDTH) return false;
    if (this.refHi[i] === 0) {
      this.refLo[i] = lo;
      this.refHi[i] = hi | 1;
      this.refCount++;
    }
    this.refMoves[o + n] = r;
    this.refN[i] = n + 1;
    return true;
  }

  /** Relaxed defender node: append the replies failed replays added here to its `n` listed
   *  in moves[base..] (n = -1: none listed, the node was proven). */
  addRefined(base: number, n: number): number {
    const b = this.b;
    const i = this.refSlot(b.hashLo ^ this.kLo, b.hashHi ^ this.kHi);
    if (i < 0 || this.refHi[i] === 0) return n;
    const have = n < 0 ? 0 : n;
    let m = have;
    const moves = this.moves;
    for (let k = 0, o = i * REF_WIDTH; k < this.refN[i]!; k++) {
      const r = this.refMoves[o + k]!;
      if (b.cells[r] !== 0) continue;
      let dup = false;
      for (let j = 0; j < have && !dup; j++) dup = moves[base + j] === r;
      if (!dup) moves[base + m++] = r;
    }
    return m === 0 ? n : m;
  }

  /**
   * Replay, attacker to move: prove the node in the real threat space by playing the move that
   * proved it (or its shadow) in the relaxed one, and every real reply after it. A node the
   * relaxed table does not know gets a small relaxed search first; where the relaxed move
   * fails, a small real search. Everything proven is stored in the real table, so extraction
   * and the following search see it; a failure stores nothing.
   */
  private replayOr(depth: number): boolean {
    const b = this.b;
    const a = this.a;
    const d = (3 - a) as Color;
    const tt = this.realTT;
    const search = this.search;
    if (fiveCount(b, a) > 0) return true;
    const known = this.replayEnter(depth);
    if (known >= 0) return known === 1;
    const lo = b.hashLo ^ this.kLo;
    const hi = b.hashHi ^ this.kHi;
    const fi = lo & ((1 << FAIL_BITS) - 1);
    if (this.failLo[fi] === lo && this.failHi[fi] === (hi | 1)) return false;
    const nd = fiveCount(b, d);
    if (nd >= 2) return false;
    let ok = false;
    if (nd === 1) {
      // the defender just made a four: block it; below, the shadow leaves the pair out
      const f = b.history[b.ply - 1]!;
      const g = findFive(b, d);
      b.play(g);
      this.toggleShadow(f, g);
      ok = this.replayAnd(depth + 1);
      this.toggleShadow(f, g);
      b.undo();
      if (ok) tt.store(lo, hi, 0, INF, 1, g);
    } else {
      if (search.leafVcf()) return true;
      let m = this.relaxedMove();
      if (m < 0 && !search.aborted()) {
        search.local(true, depth, REPLAY_RELAXED_NODES, this.relaxTT, true);
        m = this.relaxedMove();
      }
      if (m >= 0 && b.cells[m] === 0) {
        b.play(m);
        ok = this.replayAnd(depth + 1);
        b.undo();
        if (ok) tt.store(lo, hi, 0, INF, 1, m);
      }
      if (!ok && !search.aborted()) ok = search.local(true, depth, REPLAY_REPAIR_NODES, tt, false);
    }
    if (!ok) this.relaxTT.forget(lo, hi);
    if (!ok && !search.aborted()) {
      this.failLo[fi] = lo;
      this.failHi[fi] = hi | 1;
    }
    return ok;
  }

  /** Replay, defender to move: every real reply must be proven. */
  private replayAnd(depth: number): boolean {
    const b = this.b;
    const tt = this.realTT;
    const known = this.replayEnter(depth);
    if (known >= 0) return known === 1;
    const lo = b.hashLo ^ this.kLo;
    const hi = b.hashHi ^ this.kHi;
    const base = depth * STRIDE;
    const n = this.search.children(base);
    if (n === -1) {
      tt.store(lo, hi, 0, INF, 1, -1);
      return true;
    }
    if (n === -2) return false;
    for (let i = 0; i < n; i++) {
      const r = this.moves[base + i]!;
      b.play(r);
      const ok = this.replayOr(depth + 1);
      b.undo();
      if (!ok) {
        // a counterexample to the relaxed proof: the relaxed space gets this reply here (if it
        // left it out) and forgets its proof of this node (the replay's path is forgotten on
        // the way up)
        if (!this.search.aborted() && this.refine(r)) this.refined = true;
        this.relaxTT.forget(lo, hi);
        return false;
      }
    }
    tt.store(lo, hi, 0, INF, n, -1);
    return true;
  }

  /** A replay node's bookkeeping: count it, check the budget, the table and the depth.
   *  1: proven, 0: failed (or out of budget), -1: search it. */
  private replayEnter(depth: number): number {
    if (!this.search.enter()) return 0;
    const tt = this.realTT;
    const e = tt.find(this.b.hashLo ^ this.kLo, this.b.hashHi ^ this.kHi);
    if (e >= 0) {
      if (tt.pn[e] === 0) return 1;
      if (tt.dn[e] === 0) return 0;
    }
    return depth >= this.search.maxDepth() ? 0 : -1;
  }

  /** Add (or take back: XOR) a defender four at f and the attacker's block at g to the
   *  pairs the shadow leaves out. */
  toggleShadow(f: number, g: number): void {
    const dz = (2 - this.a) * MAX_AREA;
    const az = (this.a - 1) * MAX_AREA;
    this.dLo ^= ZOBRIST_LO[dz + f]! ^ ZOBRIST_LO[az + g]!;
    this.dHi ^= ZOBRIST_HI[dz + f]! ^ ZOBRIST_HI[az + g]!;
  }

  /** The relaxed proof's move here, or at the shadow; -1 if neither is proven. */
  relaxedMove(): number {
    const b = this.b;
    const rt = this.relaxTT;
    const lo = b.hashLo ^ this.kLo;
    const hi = b.hashHi ^ this.kHi;
    let e = rt.find(lo, hi);
    if (e >= 0 && rt.pn[e] === 0) return rt.best[e]!;
    if ((this.dLo | this.dHi) === 0) return -1;
    e = rt.find(lo ^ this.dLo, hi ^ this.dHi);
    return e >= 0 && rt.pn[e] === 0 ? rt.best[e]! : -1;
  }
}
