/**
 * Alpha-beta: principal-variation search with iterative deepening and aspiration windows.
 *
 *  - Terminal rules at every node (exact, from board.counts): a five cell for the side to
 *    move wins in 1 ply; two five cells for the opponent lose in 2; an open-four cell for the
 *    side to move while the opponent has no four to make wins in 3. Mate scores are
 *    MATE - plies from the root, the same convention as the solver (types.ts).
 *  - Moves from MoveGen (threat-aware: forced blocks, exact defences against open threes,
 *    quiet candidates near stones), ordered TT move > killers > threat class + history.
 *  - Threat extension: a node whose only move is a forced block costs no depth.
 *  - Quiescence: at the horizon the side to move may play its four-threes and double fours
 *    anywhere, and plain fours near its own last move (with stand-pat; the defender only
 *    blocks), so a VCF that goes on from where it attacked is seen past the nominal depth.
 *    Plain fours anywhere made two thirds of all nodes quiescence nodes (`npm run bench`).
 *  - Late-move reductions (a ln(depth)*ln(move number) table), late-move pruning and futility
 *    pruning near the horizon, for quiet, non-tactical moves at calm nodes only; reverse
 *    futility (a calm node's static evaluation far above beta is returned) at depth <= 4;
 *    fail-high reduction (at an expected cut node whose static evaluation clears beta by a
 *    margin a ply, quiet moves are searched a ply shallower; cut-node flags as in Stockfish).
 *  - Singular extension: a TT move that alone holds its stored lower bound (the other moves
 *    searched at half depth fall short of it by a margin) is searched one ply deeper.
 * Search is pure: the clock comes in as `now()`. No allocation per node: every ply has its
 * slice of preallocated move/score buffers.
 */
import type { Board } from '../core/board.js';
import { MAX_AREA } from '../core/types.js';
import { C_FIVE, C_FOUR, C_FOUR_THREE, C_OPEN_FOUR } from '../core/patterns.js';
import { MATE, MATE_BOUND, SCORE_INF, type StopReason } from './types.js';
import { TransTable, BOUND_EXACT, BOUND_LOWER, BOUND_UPPER } from './tt.js';
import { Evaluator, Geometry, MOVE_VALUE } from './eval.js';
import { MoveGen, GEN_FORCED, GEN_QUIET, TACTICAL_SCORE } from './movegen.js';
import { rootPv } from './pv.js';

export const MAX_PLY = 128;
const STRIDE = MAX_AREA;
const QDEPTH = 8;
/** Quiescence plays plain fours within this distance of the side's own last move (see qsearch; the lines' part is threats.ts inWindow, 4 cells). */
const QVCF_REACH = 4;
/** Plies past an iteration's depth in which a threatened horizon node is searched one ply deeper. */
const HORIZON_EXTENSION = 8;
/** Late-move pruning: quiet moves searched at a non-PV node of depth d. */
const LMP = [0, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32];
/** Late-move reductions by depth and move number: about ln(depth) * ln(n) / LMR_DIV plies. */
const LMR_DIV = 0.9;
const LMR: Int8Array = (() => {
  const t = new Int8Array(32 * 64);
  for (let d = 1; d < 32; d++) for (let n = 1; n < 64; n++) t[d * 64 + n] = Math.max(1, Math.floor(0.5 + (Math.log(d) * Math.log(n + 1)) / LMR_DIV));
  return t;
})();
/** Futility margins by depth: a calm node this far below alpha searches only its first and tactical moves. */
const FUTILITY = [0, 120, 300];
/** Reverse futility: a calm non-PV node this shallow whose static evaluation beats beta by RFP_MARGIN a ply returns it unsearched. */
const RFP_DEPTH = 4;
const RFP_MARGIN = 80;
/** Fail-high reduction margin a ply (Rapfi's idea). */
const FHR_MARGIN = 20;
/** Singular extension: from this depth, a TT move that alone beats its stored score less SE_MARGIN a ply (searched at half depth without it) is searched one ply deeper. */
const SE_DEPTH = 6;
const SE_MARGIN = 2;
/** Internal iterative reduction from this depth. */
const IIR_DEPTH = 4;

export interface AlphaBetaOptions {
  now?: () => number;
  /** Stop searching at once when now() passes this. */
  hardDeadline?: number;
  /** Do not start a new iteration after now() passes this. */
  softDeadline?: number;
  maxNodes?: number;
  maxDepth?: number;
  /** Restrict the root to these moves (the engine's defence filter). */
  rootMoves?: readonly number[];
  /** A small per-move bonus (seeded tie-breaks); indexed by point. */
  rootBias?: Int32Array;
  /**
   * Checks a root move the search is about to prefer (false: the opponent has a forced win
   * after it). Called for the best move of each finished iteration and for a better move
   * found by an interrupted one; a refuted move leaves the root and the depth is searched
   * again without it. Not called for mate scores (the search has proved them itself).
   */
  verify?: (move: number) => boolean;
  onIteration?: (info: IterationInfo) => void;
}

export interface IterationInfo {
  depth: number;
  score: number;
  nodes: number;
  ms: number;
  pv: number[];
}

export interface AlphaBetaResult extends IterationInfo {
  move: number;
  /** True when the hard deadline or node limit cut the last iteration short. */
  aborted: boolean;
  stop: StopReason;
}

export class AlphaBeta {
  readonly tt: TransTable;
  private b!: Board;
  private geo!: Geometry;
  private ev!: Evaluator;
  private gen!: MoveGen;
  private readonly moves = new Int16Array(MAX_PLY * STRIDE);
  private readonly scores = new Int32Array(MAX_PLY * STRIDE);
  private readonly pv = new Int16Array(MAX_PLY * MAX_PLY);
  private readonly pvLen = new Int32Array(MAX_PLY);
  private readonly killers = new Int16Array(MAX_PLY * 2);
  /** The move a singular-extension search leaves out at each ply (-1: none). */
  private readonly excluded = new Int16Array(MAX_PLY + 1).fill(-1);
  private readonly history = new Int32Array(2 * STRIDE);
  private readonly rootMoves = new Int16Array(STRIDE);
  private readonly rootScores = new Int32Array(STRIDE);
  private nRoot = 0;
  nodes = 0;
  /** Quiescence nodes of the last search (included in `nodes`). */
  qnodes = 0;
  private maxNodes = Infinity;
  private hard = Infinity;
  private now: () => number = () => 0;
  private stopped = false;
  seldepth = 0;

  constructor(ttBits = 18) {
    this.tt = new TransTable(ttBits);
  }

  private attach(b: Board): void {
    if (!this.geo || this.geo.size !== b.size) this.geo = new Geometry(b.size);
    this.b = b;
    this.ev = new Evaluator(b);
    this.gen = new MoveGen(b, this.geo);
  }

  /** Forget everything learnt (TT, history): for a new game. */
  clear(): void {
    this.tt.clear();
    this.history.fill(0);
  }

  search(b: Board, opts: AlphaBetaOptions = {}): AlphaBetaResult {
    this.attach(b);
    this.now = opts.now ?? (() => 0);
    const t0 = this.now();
    this.hard = opts.hardDeadline ?? Infinity;
    const soft = opts.softDeadline ?? Infinity;
    this.maxNodes = opts.maxNodes ?? Infinity;
    const maxDepth = Math.min(opts.maxDepth ?? 100, MAX_PLY - 20);
    this.nodes = 0;
    this.qnodes = 0;
    this.stopped = false;
    this.seldepth = 0;
    this.tt.newSearch();
    this.killers.fill(-1);
    for (let i = 0; i < this.history.length; i++) this.history[i] = this.history[i]! >> 3;

    // root moves
    let n: number;
    if (opts.rootMoves && opts.rootMoves.length > 0) {
      n = 0;
      for (const m of opts.rootMoves) if (b.cells[m] === 0) this.moves[n++] = m;
    } else {
      n = this.gen.generate(this.moves, this.scores, 0);
      if (n <= 0) {
        // lost anyway (or nothing near): fall back to every candidate near the stones
        n = 0;
        for (let q = 0; q < b.area; q++) if (b.cells[q] === 0 && (b.ply === 0 || this.gen.isNear(q))) this.moves[n++] = q;
      }
    }
    this.nRoot = n;
    const meShift = (b.toMove - 1) * 12;
    const oppShift = 12 - meShift;
    for (let i = 0; i < n; i++) {
      const m = this.moves[i]!;
      this.rootMoves[i] = m;
      const p = b.state[m]!;
      this.rootScores[i] = MOVE_VALUE[(p >>> meShift) & 0xfff]! + ((MOVE_VALUE[(p >>> oppShift) & 0xfff]! * 3) >> 2) + (opts.rootBias ? opts.rootBias[m]! : 0);
    }
    this.sortRoot();

    const out: AlphaBetaResult = {
      move: n > 0 ? this.rootMoves[0]! : -1,
      score: 0,
      depth: 0,
      nodes: 0,
      ms: 0,
      pv: n > 0 ? [this.rootMoves[0]!] : [],
      aborted: false,
      stop: 'depth',
    };
    if (n === 0) return out;
    // a five at the root needs no search
    const me = b.toMove;
    if (b.counts[(me - 1) * 16 + C_FIVE]! > 0) {
      for (let i = 0; i < n; i++) {
        const m = this.rootMoves[i]!;
        if (((b.state[m]! >>> (24 + 4 * (me - 1))) & 15) === C_FIVE) return { ...out, move: m, score: MATE - 1, depth: 1, pv: [m], nodes: 1 };
      }
    }
    let prev = 0;
    const verify = opts.verify;
    // one candidate: a short search for its score and line, no more
    const lastDepth = n === 1 ? Math.min(maxDepth, 3) : maxDepth;
    if (n === 1) out.stop = 'single';
    for (let depth = 1; depth <= lastDepth; depth++) {
      this.extendUntil = depth + HORIZON_EXTENSION;
      let window = 80;
      let alpha = depth >= 4 && Math.abs(prev) < MATE_BOUND ? prev - window : -SCORE_INF;
      let beta = depth >= 4 && Math.abs(prev) < MATE_BOUND ? prev + window : SCORE_INF;
      let score: number;
      for (;;) {
        score = this.root(alpha, beta, depth);
        if (this.stopped) break;
        if (score <= alpha) {
          window *= 3;
          alpha = Math.max(-SCORE_INF, score - window);
          beta = Math.min(SCORE_INF, Math.max(beta, score + 1));
        } else if (score >= beta) {
          window *= 3;
          beta = Math.min(SCORE_INF, score + window);
        } else break;
        if (window > 4000) {
          alpha = -SCORE_INF;
          beta = SCORE_INF;
        }
      }
      if (this.stopped) {
        // keep a better move found by the interrupted iteration (its PV move was searched first)
        const m = this.iterBest;
        if (m >= 0 && (m === out.move || verify === undefined || Math.abs(this.iterBestScore) >= MATE_BOUND || verify(m))) {
          out.move = m;
          out.score = this.iterBestScore;
          out.pv = this.copyPv();
        }
        out.aborted = true;
        out.stop = this.nodes >= this.maxNodes ? 'nodes' : 'hard';
        break;
      }
      const best = this.rootMoves[0]!;
      if (verify !== undefined && this.nRoot > 1 && Math.abs(score) < MATE_BOUND && !verify(best)) {
        this.dropRoot(best);
        if (out.move === best) {
          out.move = this.rootMoves[0]!;
          out.pv = [out.move];
        }
        depth--; // the same depth again without it
        continue;
      }
      prev = score;
      out.move = best;
      out.score = score;
      out.depth = depth;
      out.pv = this.copyPv();
      out.nodes = this.nodes;
      out.ms = this.now() - t0;
      opts.onIteration?.({ depth, score, nodes: this.nodes, ms: out.ms, pv: out.pv });
      // A mate score does not end the search early: the tree's defences are a selection
      // (movegen.ts), so a deeper iteration can still find the move that refutes it.
      if (this.now() > soft) {
        out.stop = 'soft';
        break;
      }
    }
    out.nodes = this.nodes;
    out.ms = this.now() - t0;
    return out;
  }

  /** Horizon threat extensions happen up to this ply (the iteration's depth plus a margin). */
  private extendUntil = 0;
  private iterBest = -1;
  private iterBestScore = -SCORE_INF;

  /** The root PV (see pv.ts for how it is completed past a table cut). */
  private copyPv(): number[] {
    return rootPv(this.b, this.tt, this.pv, this.pvLen[0]!);
  }

  /** Remove a root move (refuted by `verify`), keeping the others in order. */
  private dropRoot(m: number): void {
    let j = 0;
    for (let i = 0; i < this.nRoot; i++) {
      const q = this.rootMoves[i]!;
      if (q !== m) this.rootMoves[j++] = q;
    }
    this.nRoot = j;
  }

  private sortRoot(): void {
    // insertion sort, stable, descending by score
    for (let i = 1; i < this.nRoot; i++) {
      const m = this.rootMoves[i]!;
      const s = this.rootScores[i]!;
      let j = i - 1;
      while (j >= 0 && this.rootScores[j]! < s) {
        this.rootMoves[j + 1] = this.rootMoves[j]!;
        this.rootScores[j + 1] = this.rootScores[j]!;
        j--;
      }
      this.rootMoves[j + 1] = m;
      this.rootScores[j + 1] = s;
    }
  }

  private make(q: number): void {
    this.b.play(q);
    this.ev.onPlay(q);
    this.gen.onPlay(q);
  }

  private unmake(q: number): void {
    this.b.undo();
    this.gen.onUndo(q);
  }

  private checkLimits(): void {
    if (this.nodes >= this.maxNodes) this.stopped = true;
    else if ((this.nodes & 31) === 0 && this.now() > this.hard) this.stopped = true;
  }

  private root(alpha: number, beta: number, depth: number): number {
    const n = this.nRoot;
    let best = -SCORE_INF;
    this.iterBest = -1;
    this.iterBestScore = -SCORE_INF;
    this.pvLen[0] = 0;
    for (let i = 0; i < n; i++) {
      const m = this.rootMoves[i]!;
      this.make(m);
      let score: number;
      if (i === 0) score = -this.pvs(-beta, -alpha, depth - 1, 1, true, false);
      else {
        score = -this.pvs(-alpha - 1, -alpha, depth - 1, 1, false, true);
        if (score > alpha && score < beta && !this.stopped) score = -this.pvs(-beta, -alpha, depth - 1, 1, true, false);
      }
      this.unmake(m);
      if (this.stopped) break;
      if (score > best) {
        best = score;
        if (score > alpha) {
          alpha = score;
          this.iterBest = m;
          this.iterBestScore = score;
          this.updatePvAt(0, m);
          // move to the front, keep the others in order
          for (let j = i; j > 0; j--) {
            this.rootMoves[j] = this.rootMoves[j - 1]!;
          }
          this.rootMoves[0] = m;
          if (score >= beta) break;
        }
      }
    }
    return best;
  }

  /** Exact results from the threat counts, or 0 when none applies. */
  private terminal(ply: number): number {
    const b = this.b;
    const counts = b.counts;
    const mb = (b.toMove - 1) * 16;
    const ob = 16 - mb;
    if (counts[mb + C_FIVE]! > 0) return MATE - ply - 1;
    const of = counts[ob + C_FIVE]!;
    if (of >= 2) return -(MATE - ply - 2);
    if (of === 0 && counts[mb + C_OPEN_FOUR]! > 0 && counts[ob + C_FOUR]! + counts[ob + C_FOUR_THREE]! + counts[ob + C_OPEN_FOUR]! === 0) return MATE - ply - 3;
    return 0;
  }

  private pvs(alpha: number, beta: number, depth: number, ply: number, isPv: boolean, cutNode: boolean): number {
    this.pvLen[ply] = ply;
    const b = this.b;
    const t = this.terminal(ply);
    if (t !== 0) return t;
    if (depth <= 0) {
      // At the horizon an opponent threat that wins if ignored (an open three or a four-three
      // on the board) gets its exact defences searched instead of a stand-pat that ignores it.
      const ob = (2 - b.toMove) * 16;
      if (ply > this.extendUntil || b.counts[ob + C_OPEN_FOUR]! + b.counts[ob + C_FOUR_THREE]! === 0) return this.qsearch(alpha, beta, ply, QDEPTH);
      depth = 1;
    }
    this.nodes++;
    this.checkLimits();
    if (this.stopped) return 0;
    if (ply > this.seldepth) this.seldepth = ply;
    if (ply >= MAX_PLY - 24) return this.ev.evaluate();
    if (b.ply >= b.area) return 0;
    // mate distance pruning
    const ma = -(MATE - ply);
    if (alpha < ma) alpha = ma;
    const mb = MATE - ply - 1;
    if (beta > mb) beta = mb;
    if (alpha >= beta) return alpha;

    const tt = this.tt;
    const excluded = this.excluded[ply]!;
    let ttMove = -1;
    let ttDepth = -1;
    let ttBound = 0;
    let ttScore = 0;
    if (tt.probe(b.hashLo, b.hashHi, ply)) {
      ttMove = tt.hitMove;
      ttDepth = tt.hitDepth;
      ttBound = tt.hitBound;
      ttScore = tt.hitScore;
      if (!isPv && excluded < 0 && ttDepth >= depth) {
        if (ttBound === BOUND_EXACT || (ttBound === BOUND_LOWER && ttScore >= beta) || (ttBound === BOUND_UPPER && ttScore <= alpha)) return ttScore;
      }
    }

    // Internal iterative reduction: a node the table knows nothing about is searched a ply
    // shallower (its move ordering is poor; a later, deeper visit finds it in the table).
    if (depth >= IIR_DEPTH && ttMove < 0 && excluded < 0) depth--;

    // Futility: a calm node (the opponent has no five or open-four cell) far below alpha near
    // the horizon searches only its first move and the tactical ones; one far above beta (and
    // no four-three cell of his either) returns its static evaluation. (Null-move pruning was
    // tried here and cost nodes with this evaluation: the side to move's tempo bonus flips.)
    const counts = b.counts;
    const mbase = (b.toMove - 1) * 16;
    const obase = 16 - mbase;
    const calm = counts[obase + C_FIVE]! + counts[obase + C_OPEN_FOUR]! === 0;
    const staticEval = !isPv && calm && (depth <= RFP_DEPTH || cutNode) ? this.ev.evaluate() : 0;
    const futile = !isPv && calm && depth <= 2 && staticEval + FUTILITY[depth]! <= alpha && alpha > -MATE_BOUND;
    if (
      !isPv &&
      calm &&
      excluded < 0 &&
      depth <= RFP_DEPTH &&
      counts[obase + C_FOUR_THREE]! === 0 &&
      beta < MATE_BOUND &&
      beta > -MATE_BOUND &&
      staticEval - RFP_MARGIN * depth >= beta
    )
      return staticEval;

    // Singular extension, before this node's moves are generated (the test search at the same
    // ply reuses its buffers). Multi-cut: when a move beats beta even without the TT move, so
    // does this node.
    let ttExt = 0;
    if (
      excluded < 0 &&
      calm &&
      depth >= SE_DEPTH &&
      ttMove >= 0 &&
      ply < this.extendUntil &&
      ttDepth >= depth - 3 &&
      (ttBound & BOUND_LOWER) !== 0 &&
      Math.abs(ttScore) < MATE_BOUND
    ) {
      const sb = ttScore - SE_MARGIN * depth;
      this.excluded[ply] = ttMove;
      const v = this.pvs(sb - 1, sb, depth >> 1, ply, false, cutNode);
      this.excluded[ply] = -1;
      if (this.stopped) return 0;
      if (v < sb) ttExt = 1;
      else if (sb >= beta) return sb;
    }

    const base = ply * STRIDE;
    const moves = this.moves;
    const scores = this.scores;
    const n = this.gen.generate(moves, scores, base);
    if (n < 0) return -(MATE - ply - 4);
    const kind = this.gen.kind;
    const forced = kind === GEN_FORCED;
    const quiet = kind === GEN_QUIET;
    // Fail-high reduction: at an expected cut node whose static evaluation is well above beta,
    // the quiet moves are searched a ply shallower (one of them will most likely refute).
    const likelyFailHigh =
      cutNode && !isPv && calm && excluded < 0 && depth >= 2 && staticEval >= beta + FHR_MARGIN * depth - 10 && beta > -MATE_BOUND && beta < MATE_BOUND;
    let ttGenScore = 0;
    const k0 = this.killers[ply * 2]!;
    const k1 = this.killers[ply * 2 + 1]!;
    const hist = this.history;
    const hoff = (b.toMove - 1) * STRIDE;
    for (let i = base; i < base + n; i++) {
      const m = moves[i]!;
      if (m === ttMove) {
        ttGenScore = scores[i]!;
        scores[i] = 1 << 30;
      } else if (quiet) {
        let s = scores[i]!;
        if (s < TACTICAL_SCORE) {
          if (m === k0) s += 400;
          else if (m === k1) s += 300;
          s += hist[hoff + m]! >> 6;
          if (s >= TACTICAL_SCORE) s = TACTICAL_SCORE - 1;
          scores[i] = s;
        }
      }
    }

    const alpha0 = alpha;
    let best = -SCORE_INF;
    let bestMove = -1;
    const newDepth = forced ? depth : depth - 1;
    let searched = 0;
    for (let i = 0; i < n; i++) {
      // selection: bring the best remaining move to slot i
      let bi = base + i;
      let bs = scores[bi]!;
      for (let j = bi + 1; j < base + n; j++) {
        if (scores[j]! > bs) {
          bs = scores[j]!;
          bi = j;
        }
      }
      const m = moves[bi]!;
      moves[bi] = moves[base + i]!;
      scores[bi] = scores[base + i]!;
      moves[base + i] = m;
      scores[base + i] = bs;
      if (m === excluded) continue;
      const tactical = !quiet || bs >= TACTICAL_SCORE;
      if (quiet && !isPv && !tactical && best > -MATE_BOUND && (searched >= LMP[depth < LMP.length ? depth : LMP.length - 1]! || (futile && searched > 0)))
        break;

      this.make(m);
      let score: number;
      let d = m === ttMove ? newDepth + ttExt : newDepth;
      if (likelyFailHigh && (m === ttMove ? quiet && ttGenScore < TACTICAL_SCORE : !tactical)) d--;
      if (searched === 0) score = -this.pvs(-beta, -alpha, d, ply + 1, isPv, !isPv && !cutNode);
      else {
        let r = 0;
        if (quiet && !tactical && depth >= 3 && searched >= 2) {
          r = LMR[(depth < 32 ? depth : 31) * 64 + (searched < 64 ? searched : 63)]!;
          if (isPv) r--;
          if (r > d - 1) r = d - 1 > 0 ? d - 1 : 0;
        }
        score = -this.pvs(-alpha - 1, -alpha, d - r, ply + 1, false, r > 0 || !cutNode);
        if (score > alpha && r > 0 && !this.stopped) score = -this.pvs(-alpha - 1, -alpha, d, ply + 1, false, !cutNode);
        if (score > alpha && score < beta && isPv && !this.stopped) score = -this.pvs(-beta, -alpha, d, ply + 1, true, false);
      }
      this.unmake(m);
      if (this.stopped) return 0;
      searched++;
      if (score > best) {
        best = score;
        bestMove = m;
        if (score > alpha) {
          alpha = score;
          if (isPv) this.updatePvAt(ply, m);
          if (score >= beta) {
            if (quiet && bs < TACTICAL_SCORE) {
              if (this.killers[ply * 2] !== m) {
                this.killers[ply * 2 + 1] = this.killers[ply * 2]!;
                this.killers[ply * 2] = m;
              }
              const h = hist[hoff + m]! + depth * depth * 16;
              hist[hoff + m] = h > 1 << 20 ? 1 << 20 : h;
            }
            break;
          }
        }
      }
    }
    if (excluded >= 0) return best; // a test search without the TT move: not this node's value
    const bound = best >= beta ? BOUND_LOWER : best > alpha0 ? BOUND_EXACT : BOUND_UPPER;
    tt.store(b.hashLo, b.hashHi, ply, depth, bound, best, bestMove);
    return best;
  }

  private updatePvAt(ply: number, m: number): void {
    const pv = this.pv;
    const base = ply * MAX_PLY;
    const cbase = (ply + 1) * MAX_PLY;
    pv[base + ply] = m;
    const childLen = this.pvLen[ply + 1]!;
    let len = ply + 1;
    for (let i = ply + 1; i < childLen; i++) {
      pv[base + i] = pv[cbase + i]!;
      len = i + 1;
    }
    this.pvLen[ply] = len;
  }

  /** Four-threes and double fours only (plus forced blocks), with stand-pat. */
  private qsearch(alpha: number, beta: number, ply: number, qd: number): number {
    this.pvLen[ply] = ply;
    this.nodes++;
    this.qnodes++;
    this.checkLimits();
    if (this.stopped) return 0;
    const b = this.b;
    const t = this.terminal(ply);
    if (t !== 0) return t;
    if (ply > this.seldepth) this.seldepth = ply;
    if (ply >= MAX_PLY - 2) return this.ev.evaluate();
    const me = b.toMove;
    const counts = b.counts;
    const mb = (me - 1) * 16;
    const ob = 16 - mb;
    const state = b.state;
    const cells = b.cells;
    if (counts[ob + C_FIVE]! > 0) {
      let f = -1;
      const oo = 2 - me;
      for (let q = 0; q < b.area; q++) {
        if (cells[q] === 0 && ((state[q]! >>> (24 + 4 * oo)) & 15) === C_FIVE) {
          f = q;
          break;
        }
      }
      this.make(f);
      const s = -this.qsearch(-beta, -alpha, ply + 1, qd);
      this.unmake(f);
      if (s > alpha) this.updatePvAt(ply, f);
      return s;
    }
    const stand = this.ev.evaluate();
    if (stand >= beta || qd <= 0) return stand;
    // Plain fours continue a VCF only near our own last move (a four elsewhere starts a new
    // chain, which the main search and the solver stages cover). A set-up position's stones
    // need not alternate, hence the colour check.
    const prev = b.ply >= 2 ? b.history[b.ply - 2]! : -1;
    const last = prev >= 0 && b.cells[prev] === me ? prev : -1;
    const fours = last >= 0 ? counts[mb + C_FOUR]! : 0;
    if (counts[mb + C_FOUR_THREE]! + counts[mb + C_OPEN_FOUR]! + fours === 0) return stand;
    // mate distance pruning, and the table: four sequences transpose all the time
    const ma = -(MATE - ply);
    if (alpha < ma) alpha = ma;
    const mbeta = MATE - ply - 1;
    if (beta > mbeta) beta = mbeta;
    if (alpha >= beta) return alpha;
    const tt = this.tt;
    if (tt.probe(b.hashLo, b.hashHi, ply) && tt.hitDepth >= 0) {
      const s = tt.hitScore;
      const bound = tt.hitBound;
      if (bound === BOUND_EXACT || (bound === BOUND_LOWER && s >= beta) || (bound === BOUND_UPPER && s <= alpha)) return s;
    }
    const alpha0 = alpha;
    let bestMove = -1;
    let best = stand;
    if (stand > alpha) alpha = stand;
    const base = ply * STRIDE;
    const moves = this.moves;
    let n = base;
    const mo = me - 1;
    let strong = counts[mb + C_FOUR_THREE]! + counts[mb + C_OPEN_FOUR]! + counts[mb + C_FIVE]!;
    for (let q = 0; q < b.area && strong > 0; q++)
      if (cells[q] === 0 && ((state[q]! >>> (24 + 4 * mo)) & 15) > C_FOUR) {
        moves[n++] = q;
        strong--;
      }
    if (fours > 0) {
      const size = b.size;
      const lx = last % size;
      const ly = (last - lx) / size;
      for (let y = ly - QVCF_REACH < 0 ? 0 : ly - QVCF_REACH; y <= ly + QVCF_REACH && y < size; y++) {
        const dy = y > ly ? y - ly : ly - y;
        for (let x = lx - QVCF_REACH < 0 ? 0 : lx - QVCF_REACH; x <= lx + QVCF_REACH && x < size; x++) {
          const dx = x > lx ? x - lx : lx - x;
          const q = y * size + x;
          // the square of radius 2 around it, and its four lines out to the reach (4)
          if ((dx > 2 || dy > 2) && dx !== 0 && dy !== 0 && dx !== dy) continue; // threats.ts inWindow, with |dx|, |dy| <= 4 here
          if (cells[q] === 0 && ((state[q]! >>> (24 + 4 * mo)) & 15) === C_FOUR) moves[n++] = q;
        }
      }
    }
    for (let i = base; i < n; i++) {
      const m = moves[i]!;
      this.make(m);
      const s = -this.qsearch(-beta, -alpha, ply + 1, qd - 1);
      this.unmake(m);
      if (this.stopped) return 0;
      if (s > best) {
        best = s;
        bestMove = m;
        if (s > alpha) {
          alpha = s;
          this.updatePvAt(ply, m);
          if (s >= beta) break;
        }
      }
    }
    tt.store(b.hashLo, b.hashHi, ply, 0, best >= beta ? BOUND_LOWER : best > alpha0 ? BOUND_EXACT : BOUND_UPPER, best, bestMove);
    return best;
  }
}
