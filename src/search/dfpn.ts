/**
 * Depth-first proof-number search (df-pn, Nagai 2002) with the 1+epsilon threshold trick
 * (Pawlewicz & Lew 2007) and weak disproof numbers at OR nodes (Ueda et al. 2008), for the
 * attacker A = the side to move at an OR root (or the side NOT to move at an AND root, to
 * prove that the side to move loses).
 *
 * Two modes share the code:
 *  - 'vct' (threat-space search): A plays only fours and open-three-making moves; D plays
 *    only the replies threats.ts proves can matter (every cell that removes all of A's
 *    open-four cells, plus D's own fours). A node where A has no threat is a disproof in
 *    threat space only, never a claim about the game. Wider spaces give A quiet moves too
 *    (`vcfThreats`: closed threes and double twos; `quietTwos`: twos as well); D's replies to
 *    a quiet move are those that stop every VCF it threatens (`vcfDefences`).
 *  - 'game' (Allis-style proof-number search over the real game tree): A plays threats and
 *    the best few other moves by a pattern heuristic; D plays EVERY empty cell unless A has a
 *    threat, when the threat rules above prune soundly. New OR nodes first try a small VCT.
 *
 * In 'vct' mode `solve` runs three phases. The defender's fours multiply the threat-space
 * tree (after each comes A's forced block and the same threat again) and most of them are
 * futile, so:
 *  1. df-pn in the relaxed threat space: the defender's plain fours are left out of his
 *     replies (those that also defend, his four-threes and open fours stay in, and so do
 *     those on a line through the attacker's last move within 4 cells, the ones most likely
 *     to spoil the threat; a defender VCF disproves the node). A relaxed disproof is a real
 *     one (the defender only lost replies) and ends the search; a relaxed proof is only a
 *     guide.
 *  2. replay: the relaxed proof is played in the real threat space, A's move at each node
 *     being the relaxed proof's move there or at its shadow (the same position without the
 *     defender-four/attacker-block pairs played on the way down), with every real defender
 *     reply; small searches repair single nodes. What it proves is stored as proven. Where
 *     a defender reply refutes it, that reply joins the relaxed space at that node, the
 *     relaxed table forgets the failed path, and phases 1-2 go on from what they know
 *     (counterexample-guided refinement) until a replay succeeds, nothing new is found, or
 *     the share runs out. A refined relaxed space is still a subset of the real replies, so
 *     its disproofs are real too.
 *  3. df-pn in the real threat space, the relaxed proof's move first where there is one.
 * docs/solver.md tells why in this order; the tuned values are in tuning.ts.
 *
 * Only proofs are ever reported as results; disproofs mean "not found".
 */
import { classShift, countIndex, type Board } from '../core/board.js';
import { MAX_AREA, type Color } from '../core/types.js';
import { C_CLOSED_THREE, C_DOUBLE_TWO, C_FOUR, C_FOUR_THREE, C_OPEN_FOUR, C_THREE, C_TWO } from '../core/patterns.js';
import { ZOBRIST_HI, ZOBRIST_LO, SIDE_HI, SIDE_LO } from '../core/zobrist.js';
import { INF, PnTable } from './pntt.js';
import { addStrongFours, collectDefences, collectFourCells, collectThreats, findFive, fiveCount } from './threats.js';
import { VcfSearcher, type VcfResult } from './vcf.js';
import {
  CLASS_WEIGHT, DEFENDER_VCF_NODES, EPS, FAR_THREE_PN, FOUR_CELLS, GAME_MAX_DEPTH, GAME_WIDTH, GEN_BITS, GEN_WIDTH, INIT_PN,
  LEAF_VCF_NODES, LEAF_VCT_DEPTH, LEAF_VCT_NODES, PN_TABLE_BITS, POSITIONAL_NEAR, POSITIONAL_OWN_WEIGHT, QUIET_NEAR, QUIET_RECENT,
  REF_BITS, REF_WIDTH, RELAXED_SHARE, REPLAY_RELAXED_NODES, REPLAY_REPAIR_NODES, REPLAY_SHARE, TWOS_RECENT, VCF_THREAT_PROBE_NODES,
  VCT_MAX_DEPTH,
} from './tuning.js';

export type PnMode = 'vct' | 'game';

export interface PnOptions {
  mode?: PnMode;
  maxNodes?: number;
  deadline?: number;
  now?: () => number;
  maxDepth?: number;
  /** Game mode: how many non-threat attacker moves to consider at an OR node. */
  width?: number;
  /** VCT mode: also let the attacker make quiet moves that threaten a VCF (wider, slower). */
  vcfThreats?: boolean;
  /** With `vcfThreats`: the attacker's quiet moves include twos that share a line window
   *  with a cell where he can make a four (wider still; its own tables). */
  quietTwos?: boolean;
  /** VCT mode: search the relaxed threat space first and replay its proof (default true). */
  relaxedFirst?: boolean;
  /** Game mode: VCT budget tried at each new OR node. */
  leafVctNodes?: number;
}

export type PnStatus = 'proven' | 'disproven' | 'unknown';

export interface PnResult {
  status: PnStatus;
  nodes: number;
  /** The proving move at an OR root. */
  move: number;
}

/**
 * The tables are shared by searches for either attacker, and a position with the same side to
 * move is an OR node for one and an AND node for the other: its entry must not serve both.
 * Keys of searches with White attacking are XORed with this constant pair.
 */
const WHITE_KEY_LO = 0x5bd1e995 | 0;
const WHITE_KEY_HI = 0x27d4eb2f | 0;
const STRIDE = MAX_AREA;
/** The deepest a search may go: the move buffers have a row per depth (rows 128 and 129 are
 *  scratch, see `children` and ZONE_ROW). */
const MAX_DEPTH = 120;
/** The row of `moves` that `counterFilter` lists a zone in (no search depth reaches it). */
const ZONE_ROW = 129;
/** The children cache of `generate`: 2^GEN_BITS slots of up to GEN_WIDTH moves. */
const GEN_MASK = (1 << GEN_BITS) - 1;
/** XORed into a node's key by rule set: OR/AND node, relaxed, wide (VCF threats). */
const GEN_TAG_LO = Int32Array.from([0x1b873593, 0x7a3c5e21, 0x2e1f4d67, 0x5f0b9c13, 0x61c88647, 0x3c6ef372, 0x0d2b4e19, 0x4a7f8e35]);
const GEN_TAG_HI = Int32Array.from([0x68e31da4, 0x1d8f3c2b, 0x7ed55d16, 0x165667b1, 0x27d4eb2f, 0x0b4b6b2c, 0x3243f6a8, 0x452821e6]);
/** XORed into the children-cache key of an OR node in the quiet-twos space (its attacker
 *  moves differ from the wide space's; the defender's replies do not). */
const TWOS_TAG_LO = 0x2545f491;
const TWOS_TAG_HI = 0x6a09e667;

/** More than `dist` cells away (Chebyshev) from `ref`. */
function far(q: number, ref: number, size: number, dist: number): boolean {
  const dx = (q % size) - (ref % size);
  const dy = ((q / size) | 0) - ((ref / size) | 0);
  return dx > dist || dx < -dist || dy > dist || dy < -dist;
}

/** On a line (row, column or diagonal) through `ref` within 4 cells: q and `ref` share a 5-cell
 *  window of that line. */
function inWindow(q: number, ref: number, size: number): boolean {
  const dx = (q % size) - (ref % size);
  const dy = ((q / size) | 0) - ((ref / size) | 0);
  return dx <= 4 && dx >= -4 && dy <= 4 && dy >= -4 && (dx === 0 || dy === 0 || dx === dy || dx === -dy);
}

/**
 * Sums of proof or disproof numbers saturate at CAP, far below INF: in threat space they grow
 * exponentially with depth (and transpositions count twice), and a sum that reached INF would
 * read as "solved" and freeze the node (no threshold can exceed it). Only a solved child
 * (INF) makes the sum INF.
 */
const CAP = 1 << 28;
function add(a: number, b: number): number {
  if (a >= INF || b >= INF) return INF;
  const s = a + b;
  return s >= CAP ? CAP : s;
}

export class PnSearcher {
  /** Threat-space results with the plain rules, with the wide rules (VCF threats), and for the
   *  game tree. Disproofs depend on the rules, so each keeps its own; only proofs are shared. */
  readonly vctTT: PnTable;
  readonly wideTT: PnTable;
  readonly gameTT: PnTable;
  private tt!: PnTable;
  private readonly moves: Int16Array;
  private readonly cLo: Int32Array;
  private readonly cHi: Int32Array;
  private readonly scoreBuf: Float64Array;
  private readonly cPn: Int32Array;
  private readonly cDn: Int32Array;
  private readonly mark = new Uint8Array(MAX_AREA);
  private b!: Board;
  private a: Color = 1;
  private mode: PnMode = 'vct';
  nodes = 0;
  private maxNodes = Infinity;
  private deadline = Infinity;
  private now: () => number = () => 0;
  private aborted = false;
  private maxDepth = VCT_MAX_DEPTH;
  private width = GAME_WIDTH;
  private leafVctNodes = LEAF_VCT_NODES;
  private retPn = 0;
  private retDn = 0;
  private tag = '';
  private readonly vcfs = new VcfSearcher();
  private readonly zone = new Uint8Array(MAX_AREA);
  private readonly replyMark = new Uint8Array(MAX_AREA);
  private vcfThreats = false;
  private quietTwos = false;
  /** The tables of the quiet-twos space (full and relaxed), made on first use. */
  private widerTT: PnTable | undefined;
  private relaxedWiderTT: PnTable | undefined;
  private readonly ttBits: number;
  /** Cells where A can make a four, for `quietThreats` (the first FOUR_CELLS are used). */
  private readonly fourCells = new Int16Array(MAX_AREA);
  /**
   * The relaxed threat space: the defender's fours are left out of his replies unless they
   * also defend. Its proofs are not proofs (a four the defender throws in can matter), only
   * guides; its disproofs are disproofs of the threat space (the defender has fewer replies).
   */
  private relaxed = false;
  /** The board's ply at the search root (see `quietThreats`). */
  private rootPly = 0;
  readonly relaxedVctTT: PnTable;
  readonly relaxedWideTT: PnTable;
  private relaxTT!: PnTable;
  /** The shadow of the current replay node: its hash XOR (dLo, dHi) is the position without
   *  the defender-four/attacker-block pairs played on the way down (see `replayOr`). */
  private dLo = 0;
  private dHi = 0;
  /** XORed into every table key when White is the attacker (see WHITE_KEY_LO). */
  private kLo = 0;
  private kHi = 0;
  /** The real search takes the relaxed proof's moves first (set after a relaxed proof). */
  private guided = false;
  private readonly failLo = new Int32Array(1 << 16);
  private readonly failHi = new Int32Array(1 << 16);
  private readonly refLo = new Int32Array(1 << REF_BITS);
  private readonly refHi = new Int32Array(1 << REF_BITS);
  private readonly refN = new Uint8Array(1 << REF_BITS);
  private readonly refMoves = new Int16Array((1 << REF_BITS) * REF_WIDTH);
  private refCount = 0;
  /** Set when a replay adds a defender reply to the relaxed space. */
  private refined = false;
  private readonly genLo = new Int32Array(1 << GEN_BITS);
  private readonly genHi = new Int32Array(1 << GEN_BITS);
  private readonly genN = new Uint8Array(1 << GEN_BITS);
  private readonly genMoves = new Int16Array((1 << GEN_BITS) * GEN_WIDTH);

  constructor(ttBits = PN_TABLE_BITS) {
    this.ttBits = ttBits;
    this.vctTT = new PnTable(ttBits);
    this.wideTT = new PnTable(ttBits);
    this.gameTT = new PnTable(ttBits - 2);
    this.relaxedVctTT = new PnTable(ttBits - 2);
    this.relaxedWideTT = new PnTable(ttBits - 2);
    this.moves = new Int16Array(STRIDE * 130);
    this.cLo = new Int32Array(STRIDE * 130);
    this.cHi = new Int32Array(STRIDE * 130);
    this.scoreBuf = new Float64Array(MAX_AREA);
    this.cPn = new Int32Array(STRIDE * 130);
    this.cDn = new Int32Array(STRIDE * 130);
  }

  /**
   * A new top-level search (a new position to solve): the tables keep what they know, but
   * their entries become replaceable (PnTable.newSearch).
   */
  newSearch(): void {
    for (const tt of this.tables()) tt.newSearch();
  }

  private tables(): PnTable[] {
    const all = [this.vctTT, this.wideTT, this.gameTT, this.relaxedVctTT, this.relaxedWideTT];
    if (this.widerTT) all.push(this.widerTT, this.relaxedWiderTT!);
    return all;
  }

  private reset(b: Board): void {
    const tag = `${b.size}/${b.rule}`;
    if (tag !== this.tag) {
      for (const tt of this.tables()) tt.clear();
      this.genLo.fill(0);
      this.genHi.fill(0);
      this.tag = tag;
    }
  }

  /**
   * Prove that `attacker` wins from the current position. If the side to move is the
   * attacker the root is an OR node, otherwise an AND node.
   */
  solve(b: Board, attacker: Color, opts: PnOptions = {}): PnResult {
    this.reset(b);
    this.b = b;
    this.a = attacker;
    this.kLo = attacker === 2 ? WHITE_KEY_LO : 0;
    this.kHi = attacker === 2 ? WHITE_KEY_HI : 0;
    this.mode = opts.mode ?? 'vct';
    this.vcfThreats = opts.vcfThreats ?? false;
    this.quietTwos = this.mode === 'vct' && this.vcfThreats && (opts.quietTwos ?? false);
    if (this.quietTwos && !this.widerTT) {
      this.widerTT = new PnTable(this.ttBits);
      this.relaxedWiderTT = new PnTable(this.ttBits - 2);
    }
    this.tt = this.mode === 'game' ? this.gameTT : this.quietTwos ? this.widerTT! : this.vcfThreats ? this.wideTT : this.vctTT;
    this.nodes = 0;
    this.aborted = false;
    this.maxNodes = opts.maxNodes ?? Infinity;
    this.deadline = opts.deadline ?? Infinity;
    this.now = opts.now ?? (() => 0);
    this.maxDepth = Math.min(opts.maxDepth ?? (this.mode === 'vct' ? VCT_MAX_DEPTH : GAME_MAX_DEPTH), MAX_DEPTH);
    this.width = opts.width ?? GAME_WIDTH;
    this.leafVctNodes = opts.leafVctNodes ?? LEAF_VCT_NODES;
    this.relaxed = false;
    this.guided = false;
    this.rootPly = b.ply;
    this.dLo = 0;
    this.dHi = 0;
    const isOr = b.toMove === attacker;
    const fullTT = this.tt;
    let replayed = false;
    if (this.mode === 'vct' && (opts.relaxedFirst ?? true)) {
      // 1. the relaxed threat space (cheap: the defender's fours multiply the tree)
      this.relaxTT = this.quietTwos ? this.relaxedWiderTT! : this.vcfThreats ? this.relaxedWideTT : this.relaxedVctTT;
      const r = this.phase(isOr, this.relaxTT, true, RELAXED_SHARE);
      if (r === 'disproven') {
        this.tt = fullTT;
        return { status: 'disproven', nodes: this.nodes, move: -1 };
      }
      if (r === 'proven') {
        // 2. replay its proof in the real threat space, repairing where a four matters; where
        // a defender reply refutes it, that reply joins the relaxed space and the relaxed
        // search goes on from what it knows, until a replay succeeds or nothing new is found
        this.tt = fullTT;
        const budget = this.phaseBudget(REPLAY_SHARE);
        this.clearRefinements();
        let refuted = false;
        for (;;) {
          this.failLo.fill(0);
          this.failHi.fill(0);
          this.refined = false;
          replayed = isOr ? this.replayOr(0) : this.replayAnd(0);
          if (replayed || !this.refined || this.aborted) break;
          const again = this.phase(isOr, this.relaxTT, true, 1);
          this.tt = fullTT;
          if (again === 'disproven') refuted = true;
          if (again !== 'proven') break;
        }
        this.restoreBudget(budget);
        if (refuted) {
          // the defender's replies in the refined relaxed space are real ones: a real disproof
          this.aborted = false;
          return { status: 'disproven', nodes: this.nodes, move: -1 };
        }
        this.guided = true;
      }
      this.aborted = false;
    }
    this.tt = fullTT;
    this.relaxed = false;
    this.dLo = 0;
    this.dHi = 0;
    // 3. the real threat space (proofs stored by the replay are found in the table)
    if (!replayed) this.mid(isOr, 0, INF - 1, INF - 1);
    const status: PnStatus = replayed ? 'proven' : this.status();
    let move = -1;
    if (status === 'proven' && isOr) {
      const e = this.tt.find(b.hashLo ^ this.kLo, b.hashHi ^ this.kHi);
      if (e >= 0) move = this.tt.best[e]!;
      if (move < 0) move = findFive(b, attacker);
    }
    return { status, nodes: this.nodes, move };
  }

  /** Run one phase of `solve` from the root on `tt` with a share of what is left. */
  private phase(isOr: boolean, tt: PnTable, relaxed: boolean, share: number): PnStatus {
    this.tt = tt;
    this.relaxed = relaxed;
    const budget = this.phaseBudget(share);
    this.mid(isOr, 0, INF - 1, INF - 1);
    const status = this.status();
    this.restoreBudget(budget);
    this.relaxed = false;
    return status;
  }

  /** What the last `mid` from the root found (a disproof cut short by the budget is unknown). */
  private status(): PnStatus {
    return this.retPn === 0 ? 'proven' : this.retDn === 0 && !this.aborted ? 'disproven' : 'unknown';
  }

  /** Count a node and stop the search when the node or time budget is spent. */
  private tick(): void {
    this.nodes++;
    if (this.nodes > this.maxNodes || ((this.nodes & 63) === 0 && this.now() > this.deadline)) this.aborted = true;
  }

  /** Narrow the node and time budget to `share` of what is left; returns the old limits. */
  private phaseBudget(share: number): [number, number] {
    const saved: [number, number] = [this.maxNodes, this.deadline];
    if (this.maxNodes !== Infinity) this.maxNodes = this.nodes + Math.max(1, Math.floor((this.maxNodes - this.nodes) * share));
    if (this.deadline !== Infinity) {
      const t = this.now();
      this.deadline = t + Math.max(0, this.deadline - t) * share;
    }
    this.aborted = false;
    return saved;
  }

  private restoreBudget(saved: [number, number]): void {
    [this.maxNodes, this.deadline] = saved;
    this.aborted = this.nodes > this.maxNodes || this.now() > this.deadline;
  }

  /** Forget every defender reply added to the relaxed space. */
  private clearRefinements(): void {
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
    for (let k = 0, i = lo & mask; k < 16; k++, i = (i + 1) & mask) {
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
   *  ones (n = -1: none listed, the node was proven). */
  private addRefined(base: number, n: number): number {
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
   * fails, a small real search. Everything proven is stored in the real table (`this.tt`), so
   * extraction and the following search see it; a failure stores nothing.
   */
  private replayOr(depth: number): boolean {
    const b = this.b;
    const a = this.a;
    const d = (3 - a) as Color;
    const tt = this.tt;
    if (fiveCount(b, a) > 0) return true;
    const known = this.replayEnter(depth);
    if (known >= 0) return known === 1;
    const lo = b.hashLo ^ this.kLo;
    const hi = b.hashHi ^ this.kHi;
    const fi = lo & 0xffff;
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
      if (this.leafVcf()) return true;
      let m = this.relaxedMove();
      if (m < 0 && !this.aborted) {
        this.local(true, depth, REPLAY_RELAXED_NODES, this.relaxTT, true);
        m = this.relaxedMove();
      }
      if (m >= 0 && b.cells[m] === 0) {
        b.play(m);
        ok = this.replayAnd(depth + 1);
        b.undo();
        if (ok) tt.store(lo, hi, 0, INF, 1, m);
      }
      if (!ok && !this.aborted) ok = this.local(true, depth, REPLAY_REPAIR_NODES, tt, false);
    }
    if (!ok) this.relaxTT.forget(lo, hi);
    if (!ok && !this.aborted) {
      this.failLo[fi] = lo;
      this.failHi[fi] = hi | 1;
    }
    return ok;
  }

  /** Replay, defender to move: every real reply must be proven. */
  private replayAnd(depth: number): boolean {
    const b = this.b;
    const tt = this.tt;
    const known = this.replayEnter(depth);
    if (known >= 0) return known === 1;
    const lo = b.hashLo ^ this.kLo;
    const hi = b.hashHi ^ this.kHi;
    const base = depth * STRIDE;
    const n = this.generate(false, base);
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
        if (!this.aborted && this.refine(r)) this.refined = true;
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
    this.tick();
    if (this.aborted) return 0;
    const tt = this.tt;
    const e = tt.find(this.b.hashLo ^ this.kLo, this.b.hashHi ^ this.kHi);
    if (e >= 0) {
      if (tt.pn[e] === 0) return 1;
      if (tt.dn[e] === 0) return 0;
    }
    return depth >= this.maxDepth ? 0 : -1;
  }

  /** Add (or take back: XOR) a defender four at f and the attacker's block at g to the
   *  pairs the shadow leaves out. */
  private toggleShadow(f: number, g: number): void {
    const dz = (2 - this.a) * MAX_AREA;
    const az = (this.a - 1) * MAX_AREA;
    this.dLo ^= ZOBRIST_LO[dz + f]! ^ ZOBRIST_LO[az + g]!;
    this.dHi ^= ZOBRIST_HI[dz + f]! ^ ZOBRIST_HI[az + g]!;
  }

  /** A short VCF from the current node (attacker to move); a found line is stored node by
   *  node as proven, so proof extraction can replay it. */
  private leafVcf(): boolean {
    const r = this.vcfs.search(this.b, { maxNodes: LEAF_VCF_NODES });
    this.nodes += r.nodes;
    if (r.win) this.storeVcfLine(r.line);
    return r.win;
  }

  /** The relaxed proof's move here, or at the shadow; -1 if neither is proven. */
  private relaxedMove(): number {
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

  /**
   * A df-pn search from the current node on table `tt` (relaxed or real rules) with a small
   * node budget; running out of that budget does not stop the enclosing search.
   */
  private local(isOr: boolean, depth: number, budget: number, tt: PnTable, relaxed: boolean): boolean {
    const saveTT = this.tt;
    const saveMax = this.maxNodes;
    const saveRelaxed = this.relaxed;
    const wasAborted = this.aborted;
    this.tt = tt;
    this.relaxed = relaxed;
    this.maxNodes = Math.min(saveMax, this.nodes + budget);
    this.mid(isOr, depth, INF - 1, INF - 1);
    const proven = this.retPn === 0;
    const budgetHit = this.aborted && !wasAborted && this.nodes <= saveMax && !(this.now() > this.deadline);
    this.tt = saveTT;
    this.relaxed = saveRelaxed;
    this.maxNodes = saveMax;
    if (budgetHit) this.aborted = false;
    return proven;
  }

  /**
   * The children of the current position as the search sees them (for proof extraction):
   * an empty list when the node is proven outright, undefined when it is disproven.
   */
  children(b: Board, attacker: Color, isOr: boolean, mode: PnMode): number[] | undefined {
    this.b = b;
    this.a = attacker;
    const saveMode = this.mode;
    const saveWide = this.vcfThreats;
    this.mode = mode;
    // the wide rules are a superset of the plain ones and agree with them wherever a plain
    // proof exists, so one child set serves proofs from either
    this.vcfThreats = true;
    const n = this.generate(isOr, 128 * STRIDE); // a scratch row no search depth reaches
    this.mode = saveMode;
    this.vcfThreats = saveWide;
    if (n === -1) return [];
    if (n === -2) return undefined;
    return Array.from(this.moves.subarray(128 * STRIDE, 128 * STRIDE + n));
  }

  /** TT value of a position, for proof extraction: [pn, dn, best] or undefined. */
  lookup(b: Board, mode: PnMode, attacker: Color): [number, number, number] | undefined {
    const lo = b.hashLo ^ (attacker === 2 ? WHITE_KEY_LO : 0);
    const hi = b.hashHi ^ (attacker === 2 ? WHITE_KEY_HI : 0);
    if (mode === 'vct') {
      // a proof from any of the rule sets will do
      for (const tt of [this.vctTT, this.wideTT, this.widerTT]) {
        if (!tt) continue;
        const e = tt.find(lo, hi);
        if (e >= 0 && tt.pn[e] === 0) return [0, tt.dn[e]!, tt.best[e]!];
      }
      return undefined;
    }
    const tt = this.gameTT;
    const e = tt.find(lo, hi);
    if (e < 0) return undefined;
    return [tt.pn[e]!, tt.dn[e]!, tt.best[e]!];
  }

  /**
   * Children of the current node into moves[base..]. Returns the count, or -1 when the node
   * is proven for A, -2 when disproven (in this mode).
   *
   * df-pn enters a node many times; in threat space the children cost VCF probes (the
   * defender's VCF, the attacker's VCF threat and its zone), so lists of two or more children
   * are kept in a small cache keyed by the node's table key and the rules in force. A list is
   * as sound as when it was made (each is a complete reply set for its position and rules).
   */
  generate(isOr: boolean, base: number): number {
    if (this.mode !== 'vct') return this.generateFresh(isOr, base);
    const n = this.generateCached(isOr, base);
    return this.relaxed && !isOr && this.refCount > 0 && n !== -2 ? this.addRefined(base, n) : n;
  }

  private generateCached(isOr: boolean, base: number): number {
    const b = this.b;
    const t = (isOr ? 1 : 0) | (this.relaxed ? 2 : 0) | (this.vcfThreats ? 4 : 0);
    const twos = isOr && this.quietTwos;
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
    if (n > 1 && n <= GEN_WIDTH && !this.aborted) {
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
      if (this.mode === 'game') n += this.positionalMoves(base, n);
      else if (this.vcfThreats) n += this.quietThreats(base, n);
      if (this.mode === 'vct' && n > 0) n = this.counterFilter(base, n);
      if (this.mode === 'vct' && n > 1) this.orderThreats(base, n);
      return n === 0 ? -2 : n;
    }
    if (fiveCount(b, d) > 0) return -2;
    const na = fiveCount(b, a);
    if (na >= 2) return -1;
    if (na === 1) {
      moves[base] = findFive(b, a);
      return 1;
    }
    if (this.mode === 'vct') {
      // A defender VCF (his fours all the way to five) wins for him: the node is lost for A
      // whatever A threatens. The relaxed space needs this (it leaves most of his fours out);
      // the real one finds it faster this way than through his four replies one by one.
      const r = this.vcfs.search(b, { maxNodes: DEFENDER_VCF_NODES });
      this.nodes += r.nodes;
      if (r.win) return -2;
    }
    const n = collectDefences(b, a, moves, base, this.mark, undefined, !this.relaxed);
    if (n === 0) return -1;
    if (n > 0) return this.relaxed ? this.addNearFours(base, n) : n;
    if (this.vcfThreats || this.mode === 'game') {
      const nv = this.vcfDefences(base);
      if (nv === 0) return -1;
      if (nv > 0) return nv;
    }
    if (this.mode === 'vct') return -2;
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
    const zs = ZONE_ROW * STRIDE;
    const nz = this.vcfZone(r.line, d, zs);
    const moves = this.moves;
    const zone = this.zone;
    const state = b.state;
    const sh = classShift(a);
    let m = 0;
    for (let i = 0; i < n; i++) {
      const q = moves[base + i]!;
      if (zone[q] || ((state[q]! >>> sh) & 15) >= C_FOUR) moves[base + m++] = q;
    }
    for (let i = 0; i < nz; i++) zone[moves[zs + i]!] = 0;
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
    const nf = this.quietTwos ? Math.min(FOUR_CELLS, collectFourCells(b, this.a, fc, 0)) : 0;
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
    const n = this.vcfZone(r.line, a, base);
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
      this.nodes += rr.nodes;
      if (!rr.win) moves[base + m++] = q;
    }
    if (!this.relaxed) m += collectFourCells(b, d, moves, base + m);
    else {
      const mark = this.mark;
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

  /**
   * Threat-space OR node: does A's move q share no 5-cell window of a line with A's previous
   * move? Threat sequences mostly build on their last threat, so a three (not a four) there
   * starts with a larger proof number (FAR_THREE_PN; it is still searched). Never at the first
   * two plies of the search: there A's "previous move" is a stone of the given position.
   */
  private awayFromPrevious(q: number): boolean {
    const b = this.b;
    return b.ply >= this.rootPly + 2 && !inWindow(q, b.history[b.ply - 2]!, b.size);
  }

  /** A VCF probe for colour c, the side not to move (as if given the move); counts its nodes. */
  private vcfOf(c: Color, maxNodes: number): VcfResult {
    const b = this.b;
    b.setToMove(c);
    const r = this.vcfs.search(b, { maxNodes });
    b.setToMove((3 - c) as Color);
    this.nodes += r.nodes;
    return r;
  }

  /**
   * The relevance zone of a VCF `line` of colour `att` (its moves at even indices, the other
   * side's forced replies at odd ones): every empty cell where a stone of the other side can
   * spoil it, marked in `zone` (the caller clears the marks) and listed in moves[base..];
   * returns the count. A stone of the other side elsewhere leaves the VCF winning: it can only
   * spoil it by taking a cell of the line or by giving that side a four along the way, and then
   * it shares a 5-cell window free of `att` stones with some of the forced replies, and that
   * window holds at least 3 of that side's stones (stones on the board plus replies) besides it.
   */
  private vcfZone(line: readonly number[], att: Color, base: number): number {
    const b = this.b;
    const def = (3 - att) as Color;
    const zone = this.zone;
    const reply = this.replyMark;
    const moves = this.moves;
    const cells = b.cells;
    let n = 0;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (i & 1) reply[c] = 1;
      if (cells[c] !== 0 || zone[c]) continue;
      zone[c] = 1;
      moves[base + n++] = c;
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
            if (v === att) { blocked = true; break; }
            if (v === def || reply[q]) nd++;
          }
          if (blocked || nd < 3) continue;
          for (let j = 0, q = f + s * st; j < 5; j++, q += st) {
            if (cells[q] !== 0 || zone[q]) continue;
            zone[q] = 1;
            moves[base + n++] = q;
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
          if (xx >= 0 && xx < size && b.cells[yy * size + xx] !== 0) { near = true; break; }
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

  private mid(isOr: boolean, depth: number, thpn: number, thdn: number): void {
    const b = this.b;
    const tt = this.tt;
    this.tick();
    const lo = b.hashLo ^ this.kLo;
    const hi = b.hashHi ^ this.kHi;
    let e = tt.find(lo, hi);
    if (e >= 0) {
      const pn = tt.pn[e]!;
      const dn = tt.dn[e]!;
      if (pn === 0 || dn === 0 || pn >= thpn || dn >= thdn || this.aborted) {
        this.retPn = pn;
        this.retDn = dn;
        return;
      }
    }
    if (this.aborted) {
      this.retPn = 1;
      this.retDn = 1;
      return;
    }
    if (depth >= this.maxDepth) {
      this.retPn = INF;
      this.retDn = 0;
      return;
    }
    // A new OR node first tries a short VCF: four sequences are far cheaper there than as
    // df-pn nodes.
    if (isOr && e < 0 && fiveCount(b, (3 - this.a) as Color) === 0) {
      if (this.leafVcf()) {
        this.retPn = 0;
        this.retDn = INF;
        return;
      }
    }
    // Game mode: a new OR node first tries a small threat-space proof.
    if (isOr && this.mode === 'game' && e < 0 && this.leafVctNodes > 0) {
      if (this.tryVct(depth)) {
        this.retPn = 0;
        this.retDn = INF;
        return;
      }
    }
    const base = depth * STRIDE;
    const n = this.generate(isOr, base);
    if (n < 0) {
      const pn = n === -1 ? 0 : INF;
      const dn = n === -1 ? INF : 0;
      tt.store(lo, hi, pn, dn, 1, -1);
      this.retPn = pn;
      this.retDn = dn;
      return;
    }
    const moves = this.moves;
    const cLo = this.cLo;
    const cHi = this.cHi;
    const mover = b.toMove;
    const zoff = (mover - 1) * MAX_AREA;
    for (let i = 0; i < n; i++) {
      const q = moves[base + i]!;
      cLo[base + i] = lo ^ ZOBRIST_LO[zoff + q]! ^ SIDE_LO;
      cHi[base + i] = hi ^ ZOBRIST_HI[zoff + q]! ^ SIDE_HI;
    }
    const startNodes = this.nodes;
    const a = this.a;
    const cPn = this.cPn;
    const cDn = this.cDn;
    // guided: the relaxed proof's move here (or at its shadow) first
    const hint = this.guided && isOr ? this.relaxedMove() : -1;
    // children's numbers: from the table when known, else a heuristic start (df-pn+)
    for (let i = 0; i < n; i++) {
      const ce = tt.find(cLo[base + i]!, cHi[base + i]!);
      if (ce >= 0) {
        cPn[base + i] = tt.pn[ce]!;
        cDn[base + i] = tt.dn[ce]!;
      } else if (isOr) {
        const q = moves[base + i]!;
        cDn[base + i] = 1;
        if (q !== hint) {
          const cls = (b.state[q]! >>> classShift(a)) & 15;
          cPn[base + i] = cls < C_FOUR && this.mode === 'vct' && this.awayFromPrevious(q) ? FAR_THREE_PN : INIT_PN[cls]!;
        } else {
          // first in the list and the smallest start: df-pn breaks ties by order
          cPn[base + i] = 1;
          if (i > 0) {
            moves[base + i] = moves[base]!;
            moves[base] = q;
            const l = cLo[base + i]!;
            const h = cHi[base + i]!;
            cLo[base + i] = cLo[base]!;
            cHi[base + i] = cHi[base]!;
            cLo[base] = l;
            cHi[base] = h;
            cPn[base + i] = cPn[base]!;
            cDn[base + i] = cDn[base]!;
            cPn[base] = 1;
            cDn[base] = 1;
          }
        }
      } else {
        cPn[base + i] = 1;
        cDn[base + i] = 1;
      }
    }
    let pn = 0;
    let dn = 0;
    let bestMove = -1;
    // guided, a forced block of the defender's four f: below it the shadow leaves the pair out
    const f = this.guided && isOr && n === 1 && fiveCount(b, (3 - a) as Color) === 1 ? b.history[b.ply - 1]! : -1;
    for (;;) {
      let best = -1;
      let v1 = INF + 1;
      let v2 = INF + 1;
      // the other number: summed at AND nodes; at OR nodes the weak sum (Ueda et al. 2008),
      // the largest plus one per other child not yet disproven, so transposed replies no
      // longer add up
      let sum = 0;
      let maxO = 0;
      let cntO = 0;
      let bestOther = 0;
      for (let i = 0; i < n; i++) {
        const mine = isOr ? cPn[base + i]! : cDn[base + i]!; // minimised
        const other = isOr ? cDn[base + i]! : cPn[base + i]!;
        if (!isOr) sum = add(sum, other);
        else if (other > 0) {
          cntO++;
          if (other > maxO) maxO = other;
        }
        if (mine < v1) {
          v2 = v1;
          v1 = mine;
          best = i;
          bestOther = other;
        } else if (mine < v2) v2 = mine;
      }
      if (isOr) {
        pn = v1 > INF ? INF : v1;
        dn = v1 === 0 ? INF : add(maxO, cntO > 1 ? cntO - 1 : 0);
      } else {
        dn = v1 > INF ? INF : v1;
        pn = v1 === 0 ? INF : sum;
      }
      bestMove = moves[base + best]!;
      if (pn >= thpn || dn >= thdn || pn === 0 || dn === 0 || this.aborted) break;
      const v2c = v2 > INF ? INF : v2;
      const childTh1 = Math.min(isOr ? thpn : thdn, v2c >= INF ? INF : Math.ceil(v2c * (1 + EPS)));
      const childTh2 = (isOr ? thdn - dn : thpn - pn) + bestOther;
      b.play(bestMove);
      if (f >= 0) this.toggleShadow(f, bestMove);
      if (isOr) this.mid(false, depth + 1, childTh1, childTh2);
      else this.mid(true, depth + 1, childTh2, childTh1);
      if (f >= 0) this.toggleShadow(f, bestMove);
      b.undo();
      cPn[base + best] = this.retPn;
      cDn[base + best] = this.retDn;
    }
    tt.store(lo, hi, pn, dn, this.nodes - startNodes + 1, isOr && pn === 0 ? bestMove : -1);
    this.retPn = pn;
    this.retDn = dn;
  }

  /** Store every node of a VCF line (A move, D reply, ..., A's five) as proven. */
  private storeVcfLine(line: number[]): void {
    const b = this.b;
    const tt = this.tt;
    let i = 0;
    for (; i < line.length - 1; i++) {
      const orNode = i % 2 === 0;
      tt.store(b.hashLo ^ this.kLo, b.hashHi ^ this.kHi, 0, INF, 1, orNode ? line[i]! : -1);
      b.play(line[i]!);
    }
    // the final position (A to move with a five) is proven by generate() on sight
    for (let j = 0; j < i; j++) b.undo();
  }

  /** Game mode helper: a bounded VCT from this OR node, sharing the VCT table. */
  private tryVct(depth: number): boolean {
    const saveMode = this.mode;
    const saveDepth = this.maxDepth;
    this.mode = 'vct';
    this.maxDepth = Math.min(MAX_DEPTH, depth + LEAF_VCT_DEPTH);
    const proven = this.local(true, depth, this.leafVctNodes, this.vcfThreats ? this.wideTT : this.vctTT, false);
    this.mode = saveMode;
    this.maxDepth = saveDepth;
    return proven;
  }
}

