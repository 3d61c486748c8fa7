/**
 * The solver: is the position a forced win for the side to move?
 *
 * Order: an immediate five, a VCF, a threat-space proof (VCT, df-pn: the plain space, the wide
 * one, the one with quiet twos), the same for the opponent (to prove a loss), then proof-number
 * search over the real game tree. Each stage gets a share of what is left (tuning.ts); the
 * cheap, often decisive stages come first (docs/solver.md tells each stage's part). Every `win`
 * and `loss` comes with its strategy: the winner's move at each winner-to-move position of the
 * proof tree that is not already a five, enough for an independent checker (formats.md sec. 3).
 */
import type { Board } from '../core/board.js';
import type { Color } from '../core/types.js';
import { VcfSearcher, type VcfOptions } from './vcf.js';
import { PnSearcher, type PnMode } from './dfpn.js';
import { findFive, fiveCount } from './threats.js';
import {
  EXTRACT_GRACE_MS,
  EXTRACT_NODES,
  OPP_PLAIN_VCT_SHARE,
  OPP_WIDE_VCT_SHARE,
  OWN_GAME_SHARE,
  OWN_PLAIN_VCT_SHARE,
  OWN_TWOS_VCT_SHARE,
  OWN_WIDE_VCT_SHARE,
  VCF_STAGE_NODES,
} from './tuning.js';

export type SolveMethod = 'five' | 'vcf' | 'vct' | 'dfpn';

export interface SolveOptions {
  maxNodes?: number;
  timeMs?: number;
  now?: () => number;
  /** Which stages to run (default all). */
  methods?: SolveMethod[];
  /** Collect the strategy entries (default true). */
  proof?: boolean;
}

export interface StrategyEntry {
  black: number[];
  white: number[];
  move: number;
}

/** The stages in the order they run (docs/solver.md); `extract` rebuilds a found proof. */
export type SolveStage = 'vcf' | 'vct' | 'vct-wide' | 'vct-twos' | 'opp-vct' | 'opp-vct-wide' | 'game' | 'opp-game' | 'extract';

/** What one stage of a solve spent and whether it proved its claim (for measurements). */
export interface StageReport {
  stage: SolveStage;
  nodes: number;
  ms: number;
  proved: boolean;
}

export interface SolveResult {
  result: 'win' | 'loss' | 'unknown';
  winner?: Color;
  move?: number;
  pv: number[];
  method?: SolveMethod;
  nodes: number;
  ms: number;
  entries?: StrategyEntry[];
  /** The stages that ran, in order (an immediate five runs none). */
  stages: StageReport[];
}

function snapshot(b: Board, move: number): StrategyEntry {
  const black: number[] = [];
  const white: number[] = [];
  for (let q = 0; q < b.area; q++) {
    const c = b.cells[q];
    if (c === 1) black.push(q);
    else if (c === 2) white.push(q);
  }
  return { black, white, move };
}

/** Entries for a VCF line (A to move at the start; A, D, A, D, ..., A's five). */
function vcfEntries(b: Board, line: number[]): StrategyEntry[] {
  const out: StrategyEntry[] = [];
  let played = 0;
  for (let i = 0; i + 1 < line.length; i += 2) {
    out.push(snapshot(b, line[i]!));
    b.play(line[i]!);
    b.play(line[i + 1]!);
    played += 2;
  }
  for (let i = 0; i < played; i++) b.undo();
  return out;
}

/**
 * A solver and what it learns: the VCF searcher (its table of failures) and the df-pn tables,
 * kept from one solve to the next, so a batch reuses what earlier positions taught it (each
 * solve makes the old entries replaceable). A result can depend on what the solver has seen
 * before: make one per thread of work, and a fresh one where it must not.
 */
export class Solver {
  private readonly vcfs = new VcfSearcher();
  /** Made on first use: its tables are large, and many positions end at the VCF stage. */
  private pn: PnSearcher | undefined;

  /** Is the position a forced win (or loss) for the side to move? The board is restored. */
  solve(b: Board, opts: SolveOptions = {}): SolveResult {
    const now = opts.now ?? (() => 0);
    const t0 = now();
    const deadline = opts.timeMs !== undefined ? t0 + opts.timeMs : Infinity;
    const maxNodes = opts.maxNodes ?? Infinity;
    const methods = new Set<SolveMethod>(opts.methods ?? ['five', 'vcf', 'vct', 'dfpn']);
    const wantProof = opts.proof !== false;
    const s = b.toMove;
    const o = (3 - s) as Color;
    let nodes = 0;
    const reports: StageReport[] = [];
    const done = (r: Omit<SolveResult, 'nodes' | 'ms' | 'stages'>): SolveResult => ({ ...r, nodes, ms: now() - t0, stages: reports });
    const left = () => maxNodes - nodes;
    const timeUp = () => now() > deadline || left() <= 0;

    // 1. fives
    const f = findFive(b, s);
    if (f >= 0) return done({ result: 'win', winner: s, move: f, pv: [f], method: 'five', entries: [] });
    if (fiveCount(b, o) >= 2) {
      const blocks = findFive(b, o);
      return done({ result: 'loss', winner: o, pv: [blocks], method: 'five', entries: [] });
    }

    // 2. VCF
    if (methods.has('vcf')) {
      const vopts: VcfOptions = { maxNodes: Math.max(1, Math.min(left(), VCF_STAGE_NODES)), deadline, now };
      const t = now();
      const r = this.vcfs.search(b, vopts);
      nodes += r.nodes;
      reports.push({ stage: 'vcf', nodes: r.nodes, ms: now() - t, proved: r.win });
      if (r.win) {
        return done({ result: 'win', winner: s, move: r.line[0], pv: r.line, method: 'vcf', entries: wantProof ? vcfEntries(b, r.line) : undefined });
      }
    }
    if (timeUp()) return done({ result: 'unknown', pv: [] });

    const pn = this.pnSearcher();
    pn.newSearch();
    const stages: { stage: SolveStage; mode: PnMode; attacker: Color; share: number; wide: boolean; twos?: boolean }[] = [];
    if (methods.has('vct')) {
      // the stages run one after the other, each on its own tables: interleaving them in slices
      // thrashes the caches and gives every stage a little of everything
      stages.push(
        { stage: 'vct', mode: 'vct', attacker: s, share: OWN_PLAIN_VCT_SHARE, wide: false },
        { stage: 'vct-wide', mode: 'vct', attacker: s, share: OWN_WIDE_VCT_SHARE, wide: true },
        { stage: 'vct-twos', mode: 'vct', attacker: s, share: OWN_TWOS_VCT_SHARE, wide: true, twos: true },
        { stage: 'opp-vct', mode: 'vct', attacker: o, share: OPP_PLAIN_VCT_SHARE, wide: false },
        { stage: 'opp-vct-wide', mode: 'vct', attacker: o, share: OPP_WIDE_VCT_SHARE, wide: true },
      );
    }
    if (methods.has('dfpn')) {
      stages.push(
        { stage: 'game', mode: 'game', attacker: s, share: OWN_GAME_SHARE, wide: true },
        { stage: 'opp-game', mode: 'game', attacker: o, share: 1, wide: true },
      );
    }
    for (const st of stages) {
      if (timeUp()) break;
      const tNow = now();
      const stageDeadline = deadline === Infinity ? Infinity : tNow + (deadline - tNow) * st.share;
      const stageNodes = left() === Infinity ? Infinity : Math.max(1, Math.floor(left() * st.share));
      const r = pn.solve(b, st.attacker, { mode: st.mode, maxNodes: stageNodes, deadline: stageDeadline, now, vcfThreats: st.wide, quietTwos: st.twos });
      nodes += r.nodes;
      reports.push({ stage: st.stage, nodes: r.nodes, ms: now() - tNow, proved: r.status === 'proven' });
      if (r.status !== 'proven') continue;
      const method: SolveMethod = st.mode === 'vct' ? 'vct' : 'dfpn';
      let entries: StrategyEntry[] | undefined;
      let extraNodes = 0;
      if (wantProof) {
        const t = now();
        const ex = new Extractor(b, pn, st.attacker, now, deadline === Infinity ? Infinity : Math.max(deadline, t + EXTRACT_GRACE_MS), st.twos ?? false);
        entries = ex.run(st.mode);
        extraNodes = ex.nodes;
        nodes += extraNodes;
        reports.push({ stage: 'extract', nodes: extraNodes, ms: now() - t, proved: entries !== undefined });
        if (!entries) continue; // could not rebuild the proof tree: claim nothing
      }
      const pv = mainLine(b, pn, st.attacker);
      if (st.attacker === s) return done({ result: 'win', winner: s, move: pv[0], pv, method, entries });
      return done({ result: 'loss', winner: o, pv, method, entries });
    }
    return done({ result: 'unknown', pv: [] });
  }

  private pnSearcher(): PnSearcher {
    this.pn ??= new PnSearcher();
    return this.pn;
  }
}

/** Follow the proof: the attacker's proving moves and the defender's first listed reply. */
function mainLine(b: Board, pn: PnSearcher, a: Color): number[] {
  const line: number[] = [];
  let played = 0;
  for (let guard = 0; guard < 120; guard++) {
    if (b.toMove === a) {
      const f = findFive(b, a);
      if (f >= 0) {
        line.push(f);
        break;
      }
      const v = pn.lookup(b, 'vct', a);
      const g = pn.lookup(b, 'game', a);
      const m = v && v[0] === 0 && v[2] >= 0 ? v[2] : g && g[0] === 0 && g[2] >= 0 ? g[2] : -1;
      if (m < 0) break;
      line.push(m);
      b.play(m);
      played++;
    } else {
      const f = findFive(b, a);
      let r = f;
      if (r < 0) {
        // the defender's reply whose position has the largest proof (most resistant)
        r = -1;
        let bestWork = -1;
        for (let q = 0; q < b.area; q++) {
          if (b.cells[q] !== 0) continue;
          b.play(q);
          const v = pn.lookup(b, 'vct', a) ?? pn.lookup(b, 'game', a);
          b.undo();
          if (v && v[0] === 0) {
            // prefer replies the search actually examined deeply: approximate with move order
            if (bestWork < 0) {
              bestWork = 0;
              r = q;
            }
          }
        }
      }
      if (r < 0) break;
      line.push(r);
      b.play(r);
      played++;
    }
  }
  for (let i = 0; i < played; i++) b.undo();
  return line;
}

/**
 * Rebuilds the proof tree from the tables, re-searching any position whose entry was
 * evicted, and records the attacker's move at every attacker-to-move node.
 */
class Extractor {
  nodes = 0;
  private readonly seen = new Set<string>();
  private readonly entries: StrategyEntry[] = [];
  private failed = false;

  constructor(
    private readonly b: Board,
    private readonly pn: PnSearcher,
    private readonly a: Color,
    private readonly now: () => number,
    private readonly deadline: number,
    private readonly quietTwos: boolean,
  ) {}

  run(mode: PnMode): StrategyEntry[] | undefined {
    this.walk(mode, 0);
    return this.failed ? undefined : this.entries;
  }

  private proven(mode: PnMode): { mode: PnMode; best: number } | undefined {
    const v = this.pn.lookup(this.b, 'vct', this.a);
    if (v && v[0] === 0) return { mode: 'vct', best: v[2] };
    if (mode === 'game') {
      const g = this.pn.lookup(this.b, 'game', this.a);
      if (g && g[0] === 0) return { mode: 'game', best: g[2] };
    }
    return undefined;
  }

  /** Make sure the current position is proven (re-search if evicted). */
  private ensure(mode: PnMode): { mode: PnMode; best: number } | undefined {
    let p = this.proven(mode);
    if (p) return p;
    if (this.now() > this.deadline) return undefined;
    const r = this.pn.solve(this.b, this.a, {
      mode,
      maxNodes: EXTRACT_NODES,
      deadline: this.deadline,
      now: this.now,
      vcfThreats: true,
      quietTwos: this.quietTwos,
    });
    this.nodes += r.nodes;
    p = this.proven(mode);
    return p;
  }

  private walk(mode: PnMode, depth: number): void {
    if (this.failed) return;
    const b = this.b;
    const a = this.a;
    const key = `${b.hashLo},${b.hashHi}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (depth > 200) {
      this.failed = true;
      return;
    }
    if (b.toMove === a) {
      if (findFive(b, a) >= 0) return;
      const p = this.ensure(mode);
      if (!p) {
        this.failed = true;
        return;
      }
      const m = p.best;
      if (m < 0) {
        this.failed = true;
        return;
      }
      this.entries.push(snapshot(b, m));
      b.play(m);
      this.walk(p.mode, depth + 1);
      b.undo();
      return;
    }
    // defender to move: the replies that can matter in the mode the node was proven in
    const p = this.ensure(mode);
    if (!p) {
      this.failed = true;
      return;
    }
    const replies = this.pn.children(b, a, false, p.mode);
    if (replies === undefined) {
      this.failed = true;
      return;
    }
    for (const r of replies) {
      b.play(r);
      this.walk(p.mode, depth + 1);
      b.undo();
      if (this.failed) return;
    }
  }
}
