/**
 * One book job as plain data (what crosses into a piscina worker and back). A job looks at
 * one position, in the book's canonical orientation: it first tries to solve it within a
 * node budget (solver.ts: five, VCF, VCT, df-pn), and otherwise scores it with the engine.
 * No database handle, no I/O: the main thread writes the result.
 */
import type { Board } from '../core/board.js';
import { boardFromStones } from '../core/position.js';
import type { Color, Rule } from '../core/types.js';
import { Solver } from '../search/solver.js';
import { Engine } from '../search/engine.js';
import { MATE } from '../search/types.js';
import { makeCertificate, parseCertificate, type PassEntry } from '../proof/certificate.js';
import { verifyCertificate } from '../proof/verify.js';
import { provePass } from './pass.js';
import { inverse, transformPoint, transformPoints, type Transform } from '../core/symmetry.js';

export interface BookJob {
  /** The position's row id (echoed back). */
  id: number;
  rule: Rule;
  size: number;
  black: number[];
  white: number[];
  toMove: Color;
  /** Solver node budget (0: do not try to solve). */
  solveNodes: number;
  /** Engine node budget for scoring (0: do not score). */
  scoreNodes: number;
  /** Optional wall-clock cap for the solver, ms. */
  solveMs?: number;
  /**
   * Check a solver proof with the independent checker before claiming it (default true);
   * a proof the checker rejects, or cannot decide within `checkMs` (default 2000), is
   * reported as unknown with `error` saying why.
   */
  check?: boolean;
  checkMs?: number;
  /**
   * When the solve leaves the position unknown: try to prove it lost for the side to move by
   * pass and zone (pass.ts) with this node budget (0 or absent: do not); `passMs` caps its time.
   */
  passNodes?: number;
  passMs?: number;
  /**
   * Search the position turned by this symmetry (core/symmetry.ts); the result comes back in
   * the job's own orientation. df-pn's cost depends on the orientation (its ties break by
   * cell order) by 10x and more, so a job run again can try another one.
   */
  orient?: Transform;
}

export interface BookJobResult {
  id: number;
  verdict: 'win' | 'loss' | 'unknown';
  /** From the side to move. */
  score: number;
  depth: number;
  bestMove: number | null;
  method: string;
  nodes: number;
  ms: number;
  pv: number[];
  /** Strategy entries of the winner (solved positions only), canonical orientation. */
  entries?: { black: number[]; white: number[]; move: number }[];
  /** Pass entries of a proof by pass and zone (formats.md 3.1-3.2), canonical orientation. */
  passes?: { black: number[]; white: number[]; zone?: number[] }[];
  /**
   * A pass proof the job left unfinished, though its pass child was won (pass.ts PassPartial),
   * canonical orientation: the builder keeps it as a pass child and a child per open reply.
   */
  passTree?: PassTree;
  error?: string;
}

type Entry = { black: number[]; white: number[]; move: number };

export interface PassTree {
  passEntries: Entry[];
  zone: number[] | null;
  covered: Entry[];
  own: { move: number; entries?: Entry[] }[];
}

const plain = (es: readonly { black: readonly number[]; white: readonly number[]; move: number }[]): Entry[] =>
  es.map((e) => ({ black: [...e.black], white: [...e.white], move: e.move }));

/** This thread's solver: the jobs of one worker share what it learns (see Solver). */
const threadSolver = new Solver();

/** Run one job; `solver` (default: this thread's) is what the job's solves learn in. */
export function runBookJob(job: BookJob, solver: Solver = threadSolver): BookJobResult {
  const t = job.orient ?? 0;
  if (t === 0) return runInOrientation(job, solver);
  const r = runInOrientation({ ...job, black: transformPoints(t, job.black, job.size), white: transformPoints(t, job.white, job.size), orient: 0 }, solver);
  return resultTurned(r, inverse(t), job.size);
}

/** A result with every cell it names turned by `t`. */
function resultTurned(r: BookJobResult, t: Transform, size: number): BookJobResult {
  const q = (c: number) => (c >= 0 && c < size * size ? transformPoint(t, c, size) : c);
  const qs = (cs: readonly number[]) => cs.map(q);
  const entry = (e: Entry): Entry => ({ black: qs(e.black), white: qs(e.white), move: q(e.move) });
  const out: BookJobResult = { ...r, bestMove: r.bestMove === null ? null : q(r.bestMove), pv: qs(r.pv) };
  if (r.entries) out.entries = r.entries.map(entry);
  if (r.passes) out.passes = r.passes.map((p) => ({ black: qs(p.black), white: qs(p.white), ...(p.zone ? { zone: qs(p.zone) } : {}) }));
  if (r.passTree) {
    const pt = r.passTree;
    out.passTree = {
      passEntries: pt.passEntries.map(entry),
      zone: pt.zone ? qs(pt.zone) : null,
      covered: pt.covered.map(entry),
      own: pt.own.map((o) => (o.entries ? { move: q(o.move), entries: o.entries.map(entry) } : { move: q(o.move) })),
    };
  }
  return out;
}

function runInOrientation(job: BookJob, solver: Solver): BookJobResult {
  const t0 = Date.now();
  const now = () => Date.now();
  try {
    const b = boardFromStones(job.size, job.rule, job.black, job.white, job.toMove);
    let nodes = 0;
    if (job.solveNodes > 0) {
      const opts: { maxNodes: number; now: () => number; timeMs?: number } = { maxNodes: job.solveNodes, now };
      if (job.solveMs !== undefined) opts.timeMs = job.solveMs;
      const r = solver.solve(b, opts);
      nodes += r.nodes;
      const rejected = r.result !== 'unknown' && job.check !== false ? checkProof(b, r.winner, r.entries, job.checkMs ?? 2000) : undefined;
      if (rejected) {
        return { id: job.id, verdict: 'unknown', score: 0, depth: 0, bestMove: null, method: 'rejected', nodes, ms: Date.now() - t0, pv: [], error: rejected };
      }
      if (r.result !== 'unknown') {
        const plies = Math.max(1, r.pv.length);
        const win = r.result === 'win';
        return {
          id: job.id,
          verdict: r.result,
          score: win ? MATE - plies : -(MATE - plies),
          depth: plies,
          bestMove: win && r.move !== undefined ? r.move : null,
          method: r.method ?? 'solver',
          nodes,
          ms: Date.now() - t0,
          pv: r.pv,
          entries: plain(r.entries ?? []),
        };
      }
    }
    let passTree: PassTree | undefined;
    if ((job.passNodes ?? 0) > 0) {
      // provePass reports a win only with a certificate the checker has verified
      const p = provePass(b, { nodes: job.passNodes, timeMs: job.passMs, solver, now, checkMs: job.checkMs });
      nodes += p.nodes;
      if (p.result === 'win' && p.strategy) {
        return {
          id: job.id,
          verdict: 'loss',
          score: -(MATE - 2),
          depth: 2,
          bestMove: null,
          method: 'pass',
          nodes,
          ms: Date.now() - t0,
          pv: [],
          entries: plain(p.strategy.entries),
          passes: (p.strategy.passes ?? []).map((q) => (q.zone ? { black: [...q.black], white: [...q.white], zone: [...q.zone] } : { black: [...q.black], white: [...q.white] })),
        };
      }
      if (p.partial) {
        const q = p.partial;
        passTree = {
          passEntries: plain(q.passEntries),
          zone: q.zone ? [...q.zone] : null,
          covered: plain(q.covered),
          own: q.own.map((o) => (o.entries ? { move: o.move, entries: plain(o.entries) } : { move: o.move })),
        };
      }
    }
    const tree = passTree ? { passTree } : {};
    if (job.scoreNodes > 0) {
      const e = new Engine({ size: job.size, rule: job.rule, now: () => performance.now() });
      const stones = [...job.black.map((index) => ({ index, color: 1 as Color })), ...job.white.map((index) => ({ index, color: 2 as Color }))];
      e.setPosition(stones, job.toMove);
      const m = e.go({ nodes: job.scoreNodes });
      nodes += m.nodes;
      return { id: job.id, verdict: 'unknown', score: m.score, depth: m.depth, bestMove: m.move >= 0 ? m.move : null, method: 'score', nodes, ms: Date.now() - t0, pv: m.pv, ...tree };
    }
    return { id: job.id, verdict: 'unknown', score: 0, depth: 0, bestMove: null, method: 'none', nodes, ms: Date.now() - t0, pv: [], ...tree };
  } catch (e) {
    return { id: job.id, verdict: 'unknown', score: 0, depth: 0, bestMove: null, method: 'error', nodes: 0, ms: Date.now() - t0, pv: [], error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Why the independent checker does not accept a result's win or loss for the job's position,
 * or undefined if it does (or the result claims neither). The board comes from the job, never
 * from the result: this is how a coordinator checks a result from a worker it does not trust.
 */
export function proofRejection(job: BookJob, r: Pick<BookJobResult, 'verdict' | 'entries' | 'passes'>, maxMs = job.checkMs ?? 2000): string | undefined {
  if (r.verdict === 'unknown') return undefined;
  const b = boardFromStones(job.size, job.rule, job.black, job.white, job.toMove);
  const winner: Color = r.verdict === 'win' ? job.toMove : job.toMove === 1 ? 2 : 1;
  try {
    return checkProof(b, winner, r.entries, maxMs, r.passes);
  } catch (e) {
    return `checker: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/**
 * A pass tree from a worker the coordinator does not trust, as the checker leaves it: the
 * pass child's strategy must prove its position (the job's stones, the other side to move),
 * or the whole is dropped; a reply's own entries that do not prove the position after it are
 * dropped (the reply stays open). Zone and repairs are claims of nothing: the builder checks
 * the node's whole certificate before its disproof stands.
 */
export function checkedPassTree(job: BookJob, t: PassTree, maxMs = job.checkMs ?? 2000): PassTree | undefined {
  const L = job.toMove;
  const W: Color = L === 1 ? 2 : 1;
  const proves = (black: number[], white: number[], entries: Entry[]): boolean => {
    try {
      const b = boardFromStones(job.size, job.rule, black, white, W);
      return checkProof(b, W, entries, maxMs) === undefined;
    } catch {
      return false;
    }
  };
  if (!proves(job.black, job.white, t.passEntries)) return undefined;
  const own = t.own.map((o) => {
    if (!o.entries) return { move: o.move };
    const black = L === 1 ? [...job.black, o.move] : job.black;
    const white = L === 2 ? [...job.white, o.move] : job.white;
    return proves(black, white, o.entries) ? o : { move: o.move };
  });
  return { ...t, own };
}

/** Why the independent checker does not accept the solver's proof, or undefined if it does. */
function checkProof(
  b: Board,
  winner: Color | undefined,
  entries: readonly { black: readonly number[]; white: readonly number[]; move: number }[] | undefined,
  maxMs: number,
  passes?: readonly PassEntry[],
): string | undefined {
  if (winner === undefined || entries === undefined) return 'the solver gave no strategy';
  const text = makeCertificate({
    size: b.size,
    rule: b.rule,
    root: { kind: 'stones', black: b.stones(1), white: b.stones(2), toMove: b.toMove },
    winner,
    entries,
    ...(passes && passes.length > 0 ? { passes } : {}),
  });
  const cert = parseCertificate(text);
  if (!cert.ok) return 'the certificate does not parse';
  const rep = verifyCertificate(cert.value, { maxMs });
  if (rep.result === 'verified') return undefined;
  return `checker: ${rep.result}${rep.reason ? ` (${rep.reason})` : ''}`;
}
