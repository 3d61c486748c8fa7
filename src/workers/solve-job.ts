/**
 * One solve job as plain data, shared by `gomoku solve` and its piscina workers: parse the
 * position, run the solver, write the certificate and check it with the independent checker.
 * A result whose certificate the checker rejects is reported as `unknown` (and says why):
 * the solver never gets to claim a win the checker could not confirm.
 */
import { BLACK, WHITE, colorName, parseColor, type Color, type Rule } from '../core/types.js';
import { makePoint, parsePosition } from '../core/notation.js';
import { boardFromSpec } from '../core/position.js';
import type { Board } from '../core/board.js';
import { Solver } from '../search/solver.js';
import { makeCertificate, parseCertificate, type RootPosition } from '../proof/certificate.js';
import { verifyCertificate } from '../proof/verify.js';
import type { SolveResult } from '../view/wire.js';
import { provePass, type PassReply } from '../book/pass.js';

export interface SolveJob {
  position: string;
  size?: number;
  rule?: Rule;
  toMove?: 'black' | 'white';
  timeMs?: number;
  nodes?: number;
  /** Return the certificate text. */
  proof?: boolean;
  /** Check the certificate independently before claiming (default true). */
  check?: boolean;
  /** Checker budget in ms (default: the job's time, at least 2 s). */
  checkMs?: number;
  /**
   * Prove that the side to move loses by pass and zone (src/book/pass.ts) instead of the
   * plain solve; `replyNodes`/`replyMs` cap one reply's own solve, `maxZone` the zone.
   */
  pass?: boolean;
  replyNodes?: number;
  replyMs?: number;
  maxZone?: number;
}

/** This thread's solver: a batch's jobs share what it learns (see Solver). */
const solver = new Solver();

/** What a solve job answers (`gomoku solve --json` and the web board's solve share the type). */
export type SolveJobResult = SolveResult;

/** Progress of a long solve (only the pass route reports any: its replies as they are decided). */
export interface SolveHooks {
  onPassReplies?: (n: number) => void;
  onPassReply?: (how: PassReply['how']) => void;
}

export function solveJob(job: SolveJob, hooks: SolveHooks = {}): SolveJobResult {
  const t0 = Date.now();
  const size = job.size ?? 15;
  const rule = job.rule ?? 'freestyle';
  const spec = parsePosition(job.position, size);
  if (!spec.ok) return { result: 'unknown', pv: [], nodes: 0, ms: 0, error: spec.error };
  let explicit: Color | undefined;
  if (job.toMove !== undefined) {
    explicit = parseColor(job.toMove);
    if (explicit === undefined) return { result: 'unknown', pv: [], nodes: 0, ms: 0, error: `bad side to move '${job.toMove}'` };
  }
  const built = boardFromSpec(spec.value, rule, explicit);
  if (!built.ok) return { result: 'unknown', pv: [], nodes: 0, ms: 0, error: built.error };
  const b = built.value;
  const tm = { value: b.toMove };
  for (const m of spec.value.moves) {
    if (b.hasFiveAt(m.index))
      return {
        result: 'unknown',
        pv: [],
        nodes: 0,
        ms: 0,
        error: `the game is over: ${colorName(m.color)} already has five through ${makePoint(m.index, size)}`,
      };
  }
  if (job.pass) return passJob(job, b, spec.value.ordered ? spec.value.moves.map((m) => m.index) : undefined, t0, hooks);
  const r = solver.solve(b, { timeMs: job.timeMs, maxNodes: job.nodes, now: () => Date.now() });
  const out: SolveJobResult = {
    result: r.result,
    toMove: colorName(tm.value),
    pv: r.pv.map((q) => makePoint(q, size)),
    nodes: r.nodes,
    ms: 0,
  };
  if (r.move !== undefined && r.result === 'win') out.move = makePoint(r.move, size);
  if (r.method) out.method = r.method;
  if (r.result !== 'unknown' && r.entries && r.winner) {
    out.proofEntries = r.entries.length;
    const root: RootPosition = spec.value.ordered
      ? { kind: 'moves', moves: spec.value.moves.map((m) => m.index) }
      : { kind: 'stones', black: b.stones(BLACK), white: b.stones(WHITE), toMove: tm.value };
    const text = makeCertificate({ size, rule, root, winner: r.winner, entries: r.entries });
    if (job.check !== false) {
      const cert = parseCertificate(text);
      const rep = cert.ok ? verifyCertificate(cert.value, { maxMs: job.checkMs ?? Math.max(2000, job.timeMs ?? 0) }) : undefined;
      if (!rep || rep.result === 'failed') {
        const why = rep ? `${rep.reason}; line from root: ${rep.line.join(' ')}` : 'certificate did not parse';
        return { result: 'unknown', toMove: out.toMove, pv: [], nodes: r.nodes, ms: Date.now() - t0, error: `solver proof rejected by the checker (${why})` };
      }
      out.verified = rep.result === 'verified';
    }
    if (job.proof) out.certificate = text;
  }
  out.ms = Date.now() - t0;
  return out;
}

/**
 * The pass route: a `loss` for the side to move, only with a certificate the checker verified
 * inside provePass (the checker is what computes the zone, so `check` cannot turn it off).
 */
function passJob(job: SolveJob, b: Board, moves: number[] | undefined, t0: number, hooks: SolveHooks): SolveJobResult {
  const size = b.size;
  const p = provePass(b, {
    timeMs: job.timeMs,
    nodes: job.nodes,
    replyNodes: job.replyNodes,
    replyMs: job.replyMs,
    maxZone: job.maxZone,
    checkMs: job.checkMs,
    root: moves ? { kind: 'moves', moves } : undefined,
    solver,
    now: () => Date.now(),
    onReplies: hooks.onPassReplies,
    onReply: hooks.onPassReply ? (r) => hooks.onPassReply!(r.how) : undefined,
  });
  const out: SolveJobResult = {
    result: p.result === 'win' ? 'loss' : 'unknown',
    toMove: colorName(b.toMove),
    pv: [],
    nodes: p.nodes,
    ms: 0,
    pass: {
      zone: p.zone === null ? null : p.zone.length,
      replies: p.replies.length,
      byPass: p.replies.filter((r) => r.how === 'pass').length,
      repaired: p.replies.filter((r) => r.how === 'repaired').length,
      proven: p.replies.filter((r) => r.how === 'proven').length,
      unproven: p.replies.filter((r) => r.how === 'unknown').map((r) => makePoint(r.move, size)),
      passNodes: p.passNodes,
    },
  };
  if (p.passMove !== undefined) out.pass!.move = makePoint(p.passMove, size);
  if (p.result === 'win' && p.strategy) {
    out.method = 'pass';
    out.proofEntries = p.strategy.entries.length + (p.strategy.passes?.length ?? 0);
    out.verified = true;
    if (job.proof) out.certificate = p.certificate;
  } else if (p.reason) out.error = p.reason;
  out.ms = Date.now() - t0;
  return out;
}
