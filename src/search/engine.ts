/**
 * The Engine facade used by every protocol adapter and CLI command. It never sees text and
 * does no I/O: positions come in as point indices, moves leave as a `MoveResult`, progress
 * leaves as typed `SearchInfo` events.
 *
 * The decision pipeline of go(), in order (each stage names itself in `source`):
 *  1. five      our own five (before the book: a stored move never outranks a win in one);
 *     book      a BookProbe hit that is a proven win with a legal best move, when a book is
 *               attached and the opponent has no five to block;
 *  2. vcf       our own VCF (victory by continuous fours);
 *  3. defence   the opponent's five is blocked (two fives: lost, block one anyway); an
 *               opponent VCF (found by passing the turn) restricts the root to the moves
 *               after which the opponent has no VCF any more (our own fours included);
 *  4. vct       our own VCT (threat-space proof search);
 *  5. defence   an opponent VCT (again by passing the turn) restricts the root to the moves
 *               that refute it, when some do;
 *  6. alphabeta principal-variation search on what is left of the time. Unless passing the
 *               turn showed that the opponent has neither a VCF nor a VCT (then no move of
 *               ours can give him one), every move alpha-beta is about to prefer is checked:
 *               after it, does the opponent win by a VCF or a VCT? A refuted move leaves the
 *               root and alpha-beta searches the same depth again without it.
 * Open threes need no stage of their own: alpha-beta's move generator answers them exactly.
 *
 * Time: one clock for every stage. `planTime` (timeman.ts) gives an optimum and a hard
 * maximum; each solver stage takes a share of what is left before the optimum, alpha-beta
 * iterates until the optimum and stops at the maximum (less the time of a last check). The
 * clock is injected (`EngineOptions.now`); `stop()` makes it read +Infinity so every stage
 * ends at its next check. With a node limit every stage gets a share of the nodes and the
 * clock is only a safety net, so the result is deterministic for a given seed.
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
  /** The clock in ms (the caller's: search code reads no clock of its own). */
  now: () => number;
  /** Skip the solver stages (VCF/VCT) and use alpha-beta alone (for benchmarks and tests). */
  alphaBetaOnly?: boolean;
}

/**
 * Stage budgets, as shares of the time left before the optimum (or of a node limit). The
 * solver stages and alpha-beta share one clock: what a stage does not use, the next gets.
 */
const VCF_SHARE = 0.1;
const OPP_VCF_SHARE = 0.1;
const VCT_SHARE = 0.15;
const OPP_VCT_SHARE = 0.15;
/** Node caps of the solver stages when only time limits the move. */
const VCF_CAP = 300_000;
const VCT_CAP = 2_000_000;
/**
 * Verification of alpha-beta's choice: after a move, may the opponent win by a VCF or a VCT?
 * Each check gets this share of the maximum time (or of a node limit).
 */
const VERIFY_VCF_SHARE = 0.03;
const VERIFY_VCT_SHARE = 0.08;
const VERIFY_VCF_CAP = 50_000;
/**
 * The share of the maximum held back from alpha-beta for checking a move that its last, cut
 * iteration prefers: a full VCF check and a short VCT one. That check is rarely needed, so
 * holding back the whole VCT share too would end every move before its optimum.
 */
const LATE_VERIFY_SHARE = VERIFY_VCF_SHARE + 0.03;
/** The share of an opponent-threat stage spent on finding the threat. */
const PASS_CHECK_SHARE = 0.4;
/** When he has a threat: the share of what is left (of the time before the optimum, or of a node limit) for checking our replies to it. */
const REPLY_SHARE = 0.5;
/**
 * Table sizes, as powers of two: `tt` buckets of the alpha-beta table (32 bytes each), `pn`
 * entries of the proof-number tables (the searcher keeps 3 tables of 2^pn entries and 4 of
 * 2^(pn-2), 23 bytes an entry: 92 * 2^pn bytes in all).
 */
export interface TableBits {
  tt: number;
  pn: number;
}

/** The sizes used unless a memory budget says otherwise: 8 MB + 11.5 MB. */
export const DEFAULT_TABLE_BITS: TableBits = { tt: 18, pn: 17 };
/** The smallest tables (still correct, just forgetful): 0.5 MB + 0.75 MB. */
export const MIN_TABLE_BITS: TableBits = { tt: 14, pn: 13 };
/** The largest: 128 MB + 96 MB (more only slows a new game's clearing down). */
export const MAX_TABLE_BITS: TableBits = { tt: 22, pn: 20 };

export function tableBytes(bits: TableBits): number {
  return 32 * 2 ** bits.tt + 92 * 2 ** bits.pn;
}

/** The largest tables within `bytes`, shared half and half (never below the minimum). */
export function tableBitsFor(bytes: number): TableBits {
  const fit = (unit: number, lo: number, hi: number) => {
    let b = lo;
    while (b < hi && unit * 2 ** (b + 1) <= bytes / 2) b++;
    return b;
  };
  return { tt: fit(32, MIN_TABLE_BITS.tt, MAX_TABLE_BITS.tt), pn: fit(92, MIN_TABLE_BITS.pn, MAX_TABLE_BITS.pn) };
}

export class Engine {
  board: Board;
  private rng: () => number;
  private readonly seed: string;
  book?: BookProbe;
  private readonly clock: () => number;
  private stopRequested = false;
  private ab = new AlphaBeta(DEFAULT_TABLE_BITS.tt);
  private pn?: PnSearcher;
  private bits: TableBits = DEFAULT_TABLE_BITS;
  /** Our own VCF searcher: its table of failures is per engine, so runs are reproducible. */
  private readonly vcfs = new VcfSearcher();
  private readonly alphaBetaOnly: boolean;
  /** Elapsed ms when each stage 2..6 started in the last go() (for diagnostics). */
  readonly stageMs = new Float64Array(5);

  constructor(opts: EngineOptions) {
    this.board = new Board(opts.size ?? 15, opts.rule ?? 'freestyle');
    this.seed = opts.seed ?? 'gomoku-tss';
    this.rng = seedrandom(this.seed);
    this.book = opts.book;
    this.clock = opts.now;
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
    /**
     * Deadline for a stage taking `share` of the time left before the optimum. Under a node
     * limit the nodes decide (same seed and limits, same move) and the hard limit is only a
     * safety net.
     */
    const stageDeadline = (share: number) => {
      if (nodeLimited || softAt === Infinity) return hardAt;
      const t = this.clock();
      return Math.min(hardAt, t + Math.max(0, softAt - t) * share);
    };
    /** A stage's node budget: a share of the node limit, else a cap (time limits it). */
    const stageNodes = (share: number, cap: number) => (nodeLimited ? Math.max(1, Math.floor(plan.nodes * share)) : cap);

    if (b.ply >= b.area) return finish(-1, 0, 'alphabeta', [], 0);

    // 1. our five, then the book (his five is blocked below, whatever a book says)
    const five = findFive(b, me);
    if (five >= 0) return finish(five, MATE - 1, 'five', [five], 1);
    const oppFives = fiveCount(b, opp);
    if (this.book && oppFives === 0) {
      const hit = this.book.probe(b);
      // Only a proven win is played from the book. An evaluated move is the best of its
      // children's separate searches, so the most overestimated one; this move's own search
      // compares them in one tree.
      if (hit && hit.verdict === 'win' && hit.bestMove !== undefined && this.isLegal(hit.bestMove))
        return finish(hit.bestMove, hit.score, 'book', [hit.bestMove], hit.depth);
    }

    this.stageMs[0] = this.clock() - t0;
    // 2. our VCF
    if (!this.alphaBetaOnly && oppFives === 0) {
      const r = this.vcfs.search(b, { maxNodes: stageNodes(VCF_SHARE, VCF_CAP), deadline: stageDeadline(VCF_SHARE), now });
      nodesUsed += r.nodes;
      if (r.win && r.line.length > 0) return finish(r.line[0]!, MATE - r.line.length, 'vcf', r.line, r.line.length);
    }

    this.stageMs[1] = this.clock() - t0;
    // 3. the opponent's five and VCF
    let rootMoves: number[] | undefined;
    let source: MoveSource = 'alphabeta';
    /** What passing the turn showed of the opponent's threats (verification skips a `none`). */
    let oppVcf: 'none' | 'unknown' | 'threat' = 'unknown';
    let oppVct: 'none' | 'unknown' | 'threat' = 'unknown';
    if (oppFives > 0) {
      const block = findFive(b, opp);
      if (oppFives >= 2) return finish(block, -(MATE - 2), 'defence', [block], 2);
      rootMoves = [block];
      source = 'defence';
    } else if (!this.alphaBetaOnly) {
      const t = this.refuteOpponent(
        'vcf',
        stageNodes(OPP_VCF_SHARE, VCF_CAP),
        stageDeadline(OPP_VCF_SHARE),
        { nodes: stageNodes(REPLY_SHARE, VCF_CAP), deadline: () => stageDeadline(REPLY_SHARE) },
        (n) => (nodesUsed += n),
      );
      oppVcf = t.status;
      if (t.defences) {
        rootMoves = t.defences;
        source = 'defence';
      }
    }

    this.stageMs[2] = this.clock() - t0;
    // 4. our VCT
    if (!this.alphaBetaOnly && rootMoves === undefined && (nodeLimited || now() < softAt)) {
      const pn = this.pnSearcher();
      pn.newSearch(); // earlier moves' entries stay readable but may be replaced
      const r = pn.solve(b, me, { mode: 'vct', maxNodes: stageNodes(VCT_SHARE, VCT_CAP), deadline: stageDeadline(VCT_SHARE), now });
      nodesUsed += r.nodes;
      if (r.status === 'proven' && this.isLegal(r.move)) return finish(r.move, MATE_BOUND, 'vct', [r.move], 0);
    }

    this.stageMs[3] = this.clock() - t0;
    // 5. the opponent's VCT
    if (!this.alphaBetaOnly && rootMoves === undefined && (nodeLimited || now() < softAt)) {
      const t = this.refuteOpponent(
        'vct',
        stageNodes(OPP_VCT_SHARE, VCT_CAP),
        stageDeadline(OPP_VCT_SHARE),
        { nodes: stageNodes(REPLY_SHARE, VCT_CAP), deadline: () => stageDeadline(REPLY_SHARE) },
        (n) => (nodesUsed += n),
      );
      oppVct = t.status;
      if (t.defences) {
        rootMoves = t.defences;
        source = 'defence';
      }
    }

    this.stageMs[4] = this.clock() - t0;
    // 6. alpha-beta, each new best move verified against the opponent's VCF and VCT
    const bias = new Int32Array(b.area);
    for (let q = 0; q < b.area; q++) bias[q] = Math.floor(this.rng() * 4);
    const verifyMs = plan.maximumMs === Infinity ? Infinity : plan.maximumMs * LATE_VERIFY_SHARE;
    const verdicts = new Map<number, boolean>();
    const verify =
      this.alphaBetaOnly || (oppVcf === 'none' && oppVct === 'none')
        ? undefined
        : (m: number): boolean => {
            let ok = verdicts.get(m);
            if (ok === undefined) {
              ok = !this.opponentWinsAfter(m, {
                vcfNodes: oppVcf === 'none' ? 0 : nodeLimited ? Math.max(1, Math.floor(plan.nodes * VERIFY_VCF_SHARE)) : VERIFY_VCF_CAP,
                vctNodes: oppVct === 'none' ? 0 : nodeLimited ? Math.max(1, Math.floor(plan.nodes * VERIFY_VCT_SHARE)) : VCT_CAP,
                vcfMs: nodeLimited ? Infinity : plan.maximumMs * VERIFY_VCF_SHARE,
                vctMs: nodeLimited ? Infinity : plan.maximumMs * VERIFY_VCT_SHARE,
                hardAt,
                spent: (n) => (nodesUsed += n),
              });
              verdicts.set(m, ok);
            }
            return ok;
          };
    const before = nodesUsed;
    const r = this.ab.search(b, {
      now,
      hardDeadline: verify && !nodeLimited && hardAt !== Infinity ? Math.max(now(), hardAt - verifyMs) : hardAt,
      softDeadline: nodeLimited ? Infinity : softAt, // under a node limit the nodes pace the search
      maxNodes: nodeLimited ? Math.max(1, plan.nodes - nodesUsed) : Infinity,
      maxDepth: plan.depth === Infinity ? undefined : plan.depth,
      rootMoves,
      rootBias: bias,
      verify,
      onIteration: (it) => onInfo?.({ depth: it.depth, score: it.score, nodes: before + it.nodes, ms: Math.round(elapsed()), pv: it.pv }),
    });
    nodesUsed += r.nodes;
    const result: MoveResult = {
      move: r.move,
      score: r.score,
      depth: r.depth,
      nodes: nodesUsed,
      ms: Math.round(elapsed()),
      pv: r.pv,
      source,
      stop: r.stop,
      searchFromMs: Math.round(this.stageMs[4]!),
    };
    return result;
  }

  /** The current table sizes. */
  get tableBits(): TableBits {
    return this.bits;
  }

  /**
   * Resize the search tables (a referee's memory limit, Gomocup `INFO max_memory`). What
   * they held is forgotten; the proof-number tables are made when first needed.
   */
  setTableBits(bits: TableBits): void {
    if (bits.tt === this.bits.tt && bits.pn === this.bits.pn) return;
    this.bits = { ...bits };
    this.ab = new AlphaBeta(bits.tt);
    this.pn = undefined;
  }

  private pnSearcher(): PnSearcher {
    return (this.pn ??= new PnSearcher(this.bits.pn));
  }

  /**
   * After our move `m`, does the opponent win by a VCF or (within its budget) a VCT? A proof
   * found here is a real threat-space proof; "no" means none was found.
   */
  private opponentWinsAfter(
    m: number,
    o: { vcfNodes: number; vctNodes: number; vcfMs: number; vctMs: number; hardAt: number; spent: (n: number) => void },
  ): boolean {
    const b = this.board;
    const opp = (3 - b.toMove) as Color;
    const now = this.now;
    const deadline = (ms: number) => (ms === Infinity ? o.hardAt : Math.min(o.hardAt, this.clock() + ms));
    b.play(m);
    try {
      if (b.lastMoveWon()) return false;
      if (findFive(b, opp) >= 0) return true;
      if (o.vcfNodes > 0) {
        const v = this.vcfs.search(b, { maxNodes: o.vcfNodes, deadline: deadline(o.vcfMs), now });
        o.spent(v.nodes);
        if (v.win) return true;
      }
      if (o.vctNodes <= 0) return false;
      const pn = this.pnSearcher();
      const r = pn.solve(b, opp, { mode: 'vct', maxNodes: o.vctNodes, deadline: deadline(o.vctMs), now });
      o.spent(r.nodes);
      return r.status === 'proven';
    } finally {
      b.undo();
    }
  }

  /**
   * Pass the turn and look for an opponent VCF/VCT. `none`: the search finished and found
   * none (then no move of ours can give him one: our extra stone only blocks him);
   * `unknown`: it ran out of budget; `threat`: he has one, and `defences` are the moves after
   * which it is gone (checked one by one with the same search; undefined when none or every
   * move refutes it: then alpha-beta gets the full move list).
   */
  private refuteOpponent(
    kind: 'vcf' | 'vct',
    maxNodes: number,
    deadline: number,
    replies: { nodes: number; deadline: () => number },
    spent: (n: number) => void,
  ): { status: 'none' | 'unknown' | 'threat'; defences?: number[] } {
    const b = this.board;
    const me = b.toMove;
    const opp = (3 - me) as Color;
    const now = this.now;
    const threat = (nodes: number, until: number): 'none' | 'unknown' | 'threat' => {
      // the opponent to move in the current position: does it win by `kind`?
      if (kind === 'vcf') {
        const r = this.vcfs.search(b, { maxNodes: nodes, deadline: until, now });
        spent(r.nodes);
        return r.win ? 'threat' : r.aborted ? 'unknown' : 'none';
      }
      const r = this.pnSearcher().solve(b, opp, { mode: 'vct', maxNodes: nodes, deadline: until, now });
      spent(r.nodes);
      return r.status === 'proven' ? 'threat' : r.status === 'disproven' ? 'none' : 'unknown';
    };
    const t = this.clock();
    b.setToMove(opp);
    const status = threat(Math.max(1, Math.floor(maxNodes * PASS_CHECK_SHARE)), deadline === Infinity ? Infinity : t + (deadline - t) * PASS_CHECK_SHARE);
    b.setToMove(me);
    if (status !== 'threat') return { status };
    // A threat found: the rest of the move hangs on answering it, so our replies get a budget
    // of their own. Candidates: alpha-beta's own root moves (exact defences against open
    // threes and four-threes, else near cells), the most valuable first, each with a fair
    // slice of what is left.
    const geo = new Geometry(b.size);
    const gen = new MoveGen(b, geo);
    const buf = new Int16Array(b.area);
    const sc = new Int32Array(b.area);
    const n = gen.generate(buf, sc, 0);
    if (n <= 0) return { status };
    const order = Array.from(buf.subarray(0, n)).map((m, i) => ({ m, s: sc[i]! }));
    order.sort((x, y) => y.s - x.s);
    const until = replies.deadline();
    const per = Math.max(1, Math.floor(replies.nodes / n));
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const m = order[i]!.m;
      const t1 = this.clock();
      const slice = until === Infinity ? Infinity : Math.min(until, t1 + Math.max(1, ((until - t1) * 2) / (n - i)));
      b.play(m);
      const still = fiveCount(b, opp) === 0 && threat(per, slice) === 'threat';
      b.undo();
      if (!still) out.push(m);
      if (now() > until) {
        // out of time: keep the moves not yet checked too (we cannot rule them out)
        for (let j = i + 1; j < n; j++) out.push(order[j]!.m);
        break;
      }
    }
    return out.length > 0 && out.length < n ? { status, defences: out } : { status };
  }
}

export { BLACK };
