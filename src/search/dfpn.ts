/**
 * Depth-first proof-number search (df-pn, Nagai 2002) with the 1+epsilon threshold trick
 * (Pawlewicz & Lew 2007) and weak disproof numbers at OR nodes (Ueda et al. 2008), for the
 * attacker A = the side to move at an OR root (or the side NOT to move at an AND root, to
 * prove that the side to move loses).
 *
 * Two modes share the code; threat-space.ts makes the children of each:
 *  - 'vct' (threat-space search): A plays threats (fours and threes, in wider spaces quiet moves
 *    that threaten a VCF), D only the replies that can matter. A node where A has no threat is a
 *    disproof in threat space only, never a claim about the game.
 *  - 'game' (Allis-style proof-number search over the real game tree): A plays threats and the
 *    best few other moves, D every empty cell unless A has a threat. New OR nodes first try a
 *    small VCT.
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
import { classShift, type Board } from '../core/board.js';
import { MAX_AREA, type Color } from '../core/types.js';
import { C_FOUR } from '../core/patterns.js';
import { ZOBRIST_HI, ZOBRIST_LO, SIDE_HI, SIDE_LO } from '../core/zobrist.js';
import { INF, PnTables, attackerKeyHi, attackerKeyLo, type PnTable } from './pntt.js';
import { findFive, fiveCount, inWindow } from './threats.js';
import { SPACE_GAME, SPACE_RELAXED, SPACE_TWOS, SPACE_WIDE, ThreatSpace } from './threat-space.js';
import { RelaxedReplay } from './replay.js';
import {
  EPS,
  FAR_THREE_PN,
  GAME_MAX_DEPTH,
  GAME_WIDTH,
  INIT_PN,
  LEAF_VCF_NODES,
  LEAF_VCT_DEPTH,
  LEAF_VCT_NODES,
  PN_TABLE_BITS,
  RELAXED_SHARE,
  REPLAY_SHARE,
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

const STRIDE = MAX_AREA;
/** The deepest a search may go: the child buffers have a row per depth below it, and the row
 *  at MAX_DEPTH is `children`'s (no search depth reaches it). */
const MAX_DEPTH = 120;
const CHILDREN_ROW = MAX_DEPTH;
const ROWS = MAX_DEPTH + 1;

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
  private readonly tables: PnTables;
  /** The table of the search in progress. */
  private tt!: PnTable;
  /** Each depth's children (a row of STRIDE each): moves, keys, proof and disproof numbers. */
  private readonly moves: Int16Array;
  private readonly cLo: Int32Array;
  private readonly cHi: Int32Array;
  private readonly cPn: Int32Array;
  private readonly cDn: Int32Array;
  /** Makes the children of a node (and owns the VCF probes). */
  private readonly space: ThreatSpace;
  /** Replays relaxed proofs in the real threat space and keeps their counterexamples. */
  private readonly replay: RelaxedReplay;
  private b!: Board;
  private a: Color = 1;
  private mode: PnMode = 'vct';
  nodes = 0;
  private maxNodes = Infinity;
  private deadline = Infinity;
  private now: () => number = () => 0;
  private aborted = false;
  private maxDepth = VCT_MAX_DEPTH;
  private leafVctNodes = LEAF_VCT_NODES;
  private retPn = 0;
  private retDn = 0;
  private tag = '';
  private vcfThreats = false;
  private quietTwos = false;
  /**
   * The relaxed threat space: the defender's fours are left out of his replies unless they
   * also defend. Its proofs are not proofs (a four the defender throws in can matter), only
   * guides; its disproofs are disproofs of the threat space (the defender has fewer replies).
   */
  private relaxed = false;
  /** The board's ply at the search root (see `awayFromPrevious`). */
  private rootPly = 0;
  /** XORed into every table key: the attacker's salt (pntt.ts `attackerKeyLo`). */
  private kLo = 0;
  private kHi = 0;
  /** The real search takes the relaxed proof's moves first (set after a relaxed proof). */
  private guided = false;

  constructor(ttBits = PN_TABLE_BITS) {
    this.tables = new PnTables(ttBits);
    this.moves = new Int16Array(STRIDE * ROWS);
    this.cLo = new Int32Array(STRIDE * ROWS);
    this.cHi = new Int32Array(STRIDE * ROWS);
    this.cPn = new Int32Array(STRIDE * ROWS);
    this.cDn = new Int32Array(STRIDE * ROWS);
    this.space = new ThreatSpace(this.moves);
    // what a replay may ask of this search (closures made once, not per node)
    this.replay = new RelaxedReplay(this.moves, {
      enter: () => {
        this.tick();
        return !this.aborted;
      },
      aborted: () => this.aborted,
      maxDepth: () => this.maxDepth,
      children: (base) => this.generate(false, base),
      leafVcf: () => this.leafVcf(),
      local: (isOr, depth, budget, tt, relaxed) => this.local(isOr, depth, budget, tt, relaxed),
    });
  }

  /**
   * A new top-level search (a new position to solve): the tables keep what they know, but
   * their entries become replaceable (PnTable.newSearch).
   */
  newSearch(): void {
    this.tables.newSearch();
  }

  private reset(b: Board): void {
    const tag = `${b.size}/${b.rule}`;
    if (tag !== this.tag) {
      this.tables.clear();
      this.space.clearCache();
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
    this.kLo = attackerKeyLo(attacker);
    this.kHi = attackerKeyHi(attacker);
    this.space.attach(b, attacker);
    this.replay.attach(b, attacker);
    this.mode = opts.mode ?? 'vct';
    this.vcfThreats = opts.vcfThreats ?? false;
    this.quietTwos = this.mode === 'vct' && this.vcfThreats && (opts.quietTwos ?? false);
    this.tt = this.mode === 'game' ? this.tables.game : this.tables.real(this.vcfThreats, this.quietTwos);
    this.nodes = 0;
    this.aborted = false;
    this.maxNodes = opts.maxNodes ?? Infinity;
    this.deadline = opts.deadline ?? Infinity;
    this.now = opts.now ?? (() => 0);
    this.maxDepth = Math.min(opts.maxDepth ?? (this.mode === 'vct' ? VCT_MAX_DEPTH : GAME_MAX_DEPTH), MAX_DEPTH);
    this.space.width = opts.width ?? GAME_WIDTH;
    this.leafVctNodes = opts.leafVctNodes ?? LEAF_VCT_NODES;
    this.relaxed = false;
    this.guided = false;
    this.rootPly = b.ply;
    this.space.rootPly = b.ply;
    this.replay.clearShadow();
    const isOr = b.toMove === attacker;
    const fullTT = this.tt;
    let replayed = false;
    if (this.mode === 'vct' && (opts.relaxedFirst ?? true)) {
      // 1. the relaxed threat space (cheap: the defender's fours multiply the tree)
      const relaxTT = this.tables.relaxed(this.vcfThreats, this.quietTwos);
      this.replay.useTables(fullTT, relaxTT);
      const r = this.phase(isOr, relaxTT, true, RELAXED_SHARE);
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
        this.replay.clearRefinements();
        let refuted = false;
        for (;;) {
          replayed = this.replay.run(isOr);
          if (replayed || !this.replay.refined || this.aborted) break;
          const again = this.phase(isOr, relaxTT, true, 1);
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
    this.replay.clearShadow();
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

  /** A short VCF from the current node (attacker to move); a found line is stored node by
   *  node as proven, so proof extraction can replay it. */
  private leafVcf(): boolean {
    const r = this.space.vcf(LEAF_VCF_NODES);
    this.nodes += this.space.takeNodes();
    if (r.win) this.storeVcfLine(r.line);
    return r.win;
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
    this.space.attach(b, attacker);
    this.replay.attach(b, attacker);
    const saveMode = this.mode;
    const saveWide = this.vcfThreats;
    this.mode = mode;
    // the wide rules are a superset of the plain ones and agree with them wherever a plain
    // proof exists, so one child set serves proofs from either
    this.vcfThreats = true;
    const n = this.generate(isOr, CHILDREN_ROW * STRIDE);
    this.mode = saveMode;
    this.vcfThreats = saveWide;
    if (n === -1) return [];
    if (n === -2) return undefined;
    return Array.from(this.moves.subarray(CHILDREN_ROW * STRIDE, CHILDREN_ROW * STRIDE + n));
  }

  /** TT value of a position, for proof extraction: [pn, dn, best] or undefined (in 'vct' mode
   *  a proof from any of the threat spaces, else undefined). */
  lookup(b: Board, mode: PnMode, attacker: Color): [number, number, number] | undefined {
    const lo = b.hashLo ^ attackerKeyLo(attacker);
    const hi = b.hashHi ^ attackerKeyHi(attacker);
    return mode === 'vct' ? this.tables.proof(lo, hi) : this.tables.entry(this.tables.game, lo, hi);
  }

  /**
   * Children of the current node into moves[base..] under the rules in force (ThreatSpace.
   * generate), with the replies failed replays added to a relaxed defender node. Returns the
   * count, or -1 when the node is proven for A, -2 when disproven (in this mode).
   */
  private generate(isOr: boolean, base: number): number {
    const rules =
      (this.mode === 'game' ? SPACE_GAME : 0) | (this.relaxed ? SPACE_RELAXED : 0) | (this.vcfThreats ? SPACE_WIDE : 0) | (this.quietTwos ? SPACE_TWOS : 0);
    const n = this.space.generate(isOr, base, rules, this.aborted);
    this.nodes += this.space.takeNodes();
    if (this.mode !== 'vct') return n;
    return this.relaxed && !isOr && this.replay.hasRefinements() && n !== -2 ? this.replay.addRefined(base, n) : n;
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

  private mid(isOr: boolean, depth: number, thpn: number, thdn: number): void {
    const b = this.b;
    const tt = this.tt;
    this.tick();
    const lo = b.hashLo ^ this.kLo;
    const hi = b.hashHi ^ this.kHi;
    const e = tt.find(lo, hi);
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
    const hint = this.guided && isOr ? this.replay.relaxedMove() : -1;
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
      if (f >= 0) this.replay.toggleShadow(f, bestMove);
      if (isOr) this.mid(false, depth + 1, childTh1, childTh2);
      else this.mid(true, depth + 1, childTh2, childTh1);
      if (f >= 0) this.replay.toggleShadow(f, bestMove);
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
    const proven = this.local(true, depth, this.leafVctNodes, this.tables.real(this.vcfThreats, false), false);
    this.mode = saveMode;
    this.maxDepth = saveDepth;
    return proven;
  }
}
