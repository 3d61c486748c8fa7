/**
 * The Engine facade used by every protocol adapter and CLI command. It never sees text and
 * does no I/O: positions come in as point indices, moves leave as a `MoveResult`, progress
 * leaves as typed `SearchInfo` events.
 *
 * The decision pipeline of go(), in order (each stage names itself in `source`):
 *  1. book      a BookProbe hit with a legal best move, when a book is attached;
 *  2. five      our own five;  vcf: our own VCF (victory by continuous fours);
 *  3. defence   the opponent's five is blocked (two fives: lost, block one anyway); an
 *               opponent VCF (found by passing the turn) restricts the root to the moves
 *               after which the opponent has no VCF any more (our own fours included);
 *               alpha-beta then chooses among them;
 *  4. vct       our own VCT (threat-space proof search) within a share of the time;
 *  5. defence   an opponent VCT (again by passing the turn) restricts the root to the moves
 *               that refute it, when some do;
 *  6. alphabeta principal-variation search on what is left of the time.
 * Open threes need no stage of their own: alpha-beta's move generator answers them exactly.
 *
 * Time: `planTime` (timeman.ts) gives an optimum and a hard maximum; the solver stages get
 * shares of the maximum, alpha-beta the rest. The clock is injected (`EngineOptions.now`);
 * `stop()` makes the clock read +Infinity so every stage ends at its next check.
 * With a node limit and no time limit every stage gets a node budget, so the result is
 * deterministic for a given seed.
 */
import seedrandom from 'seedrandom';
import { Board } from '../core/board.js';
import { type Color, type Rule, BLACK, EMPTY } from '../core/types.js';
import type { BookProbe, Limits, MoveResult, MoveSource, SearchInfo } from './types.js';
import { MATE, MATE_BOUND } from './types.js';
import { AlphaBeta } from './alphabeta.js';
import { planTime } from './timeman.js';
import { VcfSearcher } from './vcf.js';
import { PnSearcher } from './dfpn.js';
import { findFive, fiveCount } from './threats.js';
import { MoveGen } from './movegen.js';
import { Geometry } from './eval.js';

export interface EngineOptions {
  size?: number;
  rule?: Rule;
  /** Seed for every random choice (KoTH passes one); same seed + same limits = same moves. */
  seed?: string;
  book?: BookProbe;
  /** The clock in ms (default: performance.now). Search code reads time only through it. */
  now?: () => number;
  /** Skip the solver stages (VCF/VCT) and use alpha-beta alone (for benchmarks and tests). */
  alphaBetaOnly?: boolean;
}

/** Stage shares of the hard time limit and of a node limit. */
const VCF_SHARE = 0.1;
const OPP_VCF_SHARE = 0.1;
const VCT_SHARE = 0.15;
const OPP_VCT_SHARE = 0.15;
/** Node caps of the solver stages when only time limits the move. */
const VCF_CAP = 300_000;
const VCT_CAP = 400_000;
/** Book moves that are not proven wins are trusted only from searches at least this deep. */
const BOOK_MIN_DEPTH = 10;

/** A safe (low) rate of proof-number nodes per ms, to turn a time share into a node budget. */
const PN_NODES_PER_MS = 3;

export class Engine {
  board: Board;
  private rng: () => number;
  private readonly seed: string;
  book?: BookProbe;
  private readonly clock: () => number;
  private stopRequested = false;
  private readonly ab = new AlphaBeta();
  private pn?: PnSearcher;
  /** Our own VCF searcher: its table of failures is per engine, so runs are reproducible. */
  private readonly vcfs = new VcfSearcher();
  private readonly alphaBetaOnly: boolean;
  /** Elapsed ms when each stage 2..6 started in the last go() (for diagnostics). */
  readonly stageMs = new Float64Array(5);

  constructor(opts: EngineOptions = {}) {
    this.board = new Board(opts.size ?? 15, opts.rule ?? 'freestyle');
    this.seed = opts.seed ?? 'gomoku-tss';
    this.rng = seedrandom(this.seed);
    this.book = opts.book;
    this.clock = opts.now ?? (() => globalThis.performance.now());
    this.alphaBetaOnly = opts.alphaBetaOnly ?? false;
  }

  newGame(size = this.board.size, rule: Rule = this.board.rule): void {
    this.board = new Board(size, rule);
    this.rng = seedrandom(this.seed);
    this.ab.clear();
  }

  /** Replace the position: stones in move order (or any order for a stone set) and the side to move. */
  setPosition(stones: readonly { index: number; color: Color }[], toMove: Color): void {
    const b = new Board(this.board.size, this.board.rule);
    for (const s of stones) b.put(s.index, s.color);
    b.setToMove(toMove);
    this.board = b;
  }

  /** Play a move for the side to move (the caller has checked that it is legal). */
  play(index: number): void {
    this.board.play(index);
  }

  undo(): void {
    this.board.undo();
  }

  isLegal(index: number): boolean {
    return Number.isInteger(index) && index >= 0 && index < this.board.area && this.board.cells[index] === EMPTY;
  }

  /** Nodes of the running go()'s alpha-beta stage so far: live progress, read from the injected clock. */
  get searchNodes(): number {
    return this.ab.nodes;
  }

  /** Ask a running go() (from an onInfo callback or another task) to return as soon as it can. */
  stop(): void {
    this.stopRequested = true;
  }

  private now = (): number => (this.stopRequested ? Infinity : this.clock());

  go(limits: Limits = {}, onInfo?: (info: SearchInfo) => void): MoveResult {
    this.stopRequested = false;
    this.stageMs.fill(-1);
    const now = this.now;
    const t0 = this.clock();
    const b = this.board;
    const me = b.toMove;
    const opp = (3 - me) as Color;
    const plan = planTime(limits, b.ply);
    const hardAt = t0 + plan.maximumMs;
    const softAt = t0 + plan.optimumMs;
    const nodeLimited = plan.nodes !== Infinity;
    let nodesUsed = 0;
    const elapsed = () => this.clock() - t0;
    const finish = (move: number, score: number, source: MoveSource, pv: number[], depth: number): MoveResult => {
      const info: SearchInfo = { depth, score, nodes: nodesUsed, ms: Math.round(elapsed()), pv };
      onInfo?.(info);
      return { ...info, move, source };
    };
    /** Deadline for a stage taking `share` of the time left before the hard limit. */
    const stageDeadline = (share: number) => {
      const t = this.clock();
      return hardAt === Infinity ? Infinity : t + Math.max(0, hardAt - t) * share;
    };
    const stageNodes = (share: number, cap: number) => (nodeLimited ? Math.max(1, Math.floor(plan.nodes * share)) : cap);
    /**
     * Proof-number stages check the clock only every 1024 nodes and one node can cost 0.1 ms
     * or more, so with a time limit their node budget is also tied to the time share.
     */
    const pnNodes = (share: number) => {
      const n = stageNodes(share, VCT_CAP);
      // with a node limit the budget is the nodes alone (same seed + nodes = same move);
      // the hard time limit stays as a safety net inside each stage
      if (hardAt === Infinity || nodeLimited) return n;
      const ms = Math.max(0, hardAt - this.clock()) * share;
      return Math.max(1, Math.min(n, Math.floor(ms * PN_NODES_PER_MS)));
    };

    if (b.ply >= b.area) return finish(-1, 0, 'alphabeta', [], 0);

    // 1. book
    if (this.book) {
      const hit = this.book.probe(b);
      // A proven win is played at once; an evaluated move only when the book searched it
      // deeper than this move's own search would go.
      const trusted = hit && (hit.verdict === 'win' || hit.depth >= BOOK_MIN_DEPTH);
      if (hit && trusted && hit.bestMove !== undefined && this.isLegal(hit.bestMove)) return finish(hit.bestMove, hit.score, 'book', [hit.bestMove], hit.depth);
    }

    this.stageMs[0] = this.clock() - t0;
    // 2. our five, our VCF
    const five = findFive(b, me);
    if (five >= 0) return finish(five, MATE - 1, 'five', [five], 1);
    const oppFives = fiveCount(b, opp);
    if (!this.alphaBetaOnly && oppFives === 0) {
      const r = this.vcfs.search(b, { maxNodes: stageNodes(VCF_SHARE, VCF_CAP), deadline: stageDeadline(VCF_SHARE), now });
      nodesUsed += r.nodes;
      if (r.win && r.line.length > 0) return finish(r.line[0]!, MATE - r.line.length, 'vcf', r.line, r.line.length);
    }

    this.stageMs[1] = this.clock() - t0;
    // 3. the opponent's five and VCF
    let rootMoves: number[] | undefined;
    let source: MoveSource = 'alphabeta';
    if (oppFives > 0) {
      const block = findFive(b, opp);
      if (oppFives >= 2) return finish(block, -(MATE - 2), 'defence', [block], 2);
      rootMoves = [block];
      source = 'defence';
    } else if (!this.alphaBetaOnly) {
      const defences = this.refuteOpponent('vcf', stageNodes(OPP_VCF_SHARE, VCF_CAP), stageDeadline(OPP_VCF_SHARE), (n) => (nodesUsed += n));
      if (defences) {
        rootMoves = defences;
        source = 'defence';
      }
    }

    this.stageMs[2] = this.clock() - t0;
    // 4. our VCT
    if (!this.alphaBetaOnly && rootMoves === undefined && (nodeLimited || now() < softAt)) {
      const pn = (this.pn ??= new PnSearcher(17));
      pn.newSearch(); // earlier moves' entries stay readable but may be replaced
      const r = pn.solve(b, me, { mode: 'vct', maxNodes: pnNodes(VCT_SHARE), deadline: stageDeadline(VCT_SHARE), now });
      nodesUsed += r.nodes;
      if (r.status === 'proven' && this.isLegal(r.move)) return finish(r.move, MATE_BOUND, 'vct', [r.move], 0);
    }

    this.stageMs[3] = this.clock() - t0;
    // 5. the opponent's VCT
    if (!this.alphaBetaOnly && rootMoves === undefined && (nodeLimited || now() < softAt)) {
      const defences = this.refuteOpponent('vct', pnNodes(OPP_VCT_SHARE), stageDeadline(OPP_VCT_SHARE), (n) => (nodesUsed += n));
      if (defences) {
        rootMoves = defences;
        source = 'defence';
      }
    }

    this.stageMs[4] = this.clock() - t0;
    // 6. alpha-beta
    const bias = new Int32Array(b.area);
    for (let q = 0; q < b.area; q++) bias[q] = Math.floor(this.rng() * 4);
    const before = nodesUsed;
    const r = this.ab.search(b, {
      now,
      hardDeadline: hardAt,
      softDeadline: softAt,
      maxNodes: nodeLimited ? Math.max(1, plan.nodes - nodesUsed) : Infinity,
      maxDepth: plan.depth === Infinity ? undefined : plan.depth,
      rootMoves,
      rootBias: bias,
      onIteration: (it) => onInfo?.({ depth: it.depth, score: it.score, nodes: before + it.nodes, ms: Math.round(elapsed()), pv: it.pv }),
    });
    nodesUsed += r.nodes;
    const result: MoveResult = { move: r.move, score: r.score, depth: r.depth, nodes: nodesUsed, ms: Math.round(elapsed()), pv: r.pv, source };
    return result;
  }

  /**
   * Pass the turn and look for an opponent VCF/VCT. If there is one, return the moves after
   * which it is gone (checked one by one with the same search), or undefined when the
   * opponent has none or nothing refutes it (then alpha-beta gets the full move list).
   */
  private refuteOpponent(kind: 'vcf' | 'vct', maxNodes: number, deadline: number, spent: (n: number) => void): number[] | undefined {
    const b = this.board;
    const me = b.toMove;
    const opp = (3 - me) as Color;
    const now = this.now;
    const threat = (nodes: number): boolean => {
      // the opponent to move in the current position: does it win by `kind`?
      if (kind === 'vcf') {
        const r = this.vcfs.search(b, { maxNodes: nodes, deadline, now });
        spent(r.nodes);
        return r.win;
      }
      const pn = (this.pn ??= new PnSearcher(17));
      const r = pn.solve(b, opp, { mode: 'vct', maxNodes: nodes, deadline, now });
      spent(r.nodes);
      return r.status === 'proven';
    };
    b.setToMove(opp);
    const has = threat(Math.max(1, Math.floor(maxNodes / 4)));
    b.setToMove(me);
    if (!has) return undefined;
    // candidates: alpha-beta's own root moves (exact defences against open threes, else near cells)
    const geo = new Geometry(b.size);
    const gen = new MoveGen(b, geo);
    const buf = new Int16Array(b.area);
    const sc = new Int32Array(b.area);
    const n = gen.generate(buf, sc, 0);
    if (n <= 0) return undefined;
    const per = Math.max(1, Math.floor((maxNodes * 3) / 4 / n));
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const m = buf[i]!;
      b.play(m);
      const still = fiveCount(b, opp) === 0 && threat(per);
      b.undo();
      if (!still) out.push(m);
      if (now() > deadline) {
        // out of time: keep the moves not yet checked too (we cannot rule them out)
        for (let j = i + 1; j < n; j++) out.push(buf[j]!);
        break;
      }
    }
    return out.length > 0 && out.length < n ? out : undefined;
  }
}

export { BLACK };
