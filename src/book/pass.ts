/**
 * Proofs of quiet loser-to-move positions by pass and zone (issue 24, docs/formats.md 3.1-3.2).
 *
 * At a position where the loser L is to move and nothing forces him, the winner W is proven
 * to win in three steps, each on the ordinary solver (src/search), each checked by the
 * independent checker (src/proof):
 *  1. the **pass child** (same stones, W to move) is solved: its entries are the pass strategy;
 *  2. its **zone** is the support the checker computes for that strategy (zones.ts): every
 *     reply outside it is refuted by the same strategy without a walk;
 *  3. every reply **inside** the zone (and every reply making an L four, which a zone never
 *     covers) is tried against the pass strategy first; where that fails the strategy is
 *     *repaired* for it (the deepest W-to-move position of the failing line that a short
 *     solve wins gets that solve's entries, until the checker accepts or the repair budget
 *     runs out); what is left is solved on its own. Those entries join the certificate.
 * The result is a `gomoku-proof/2` certificate (a pass entry with its zone at the root, the pass
 * strategy's entries and the replies' entries) and it is reported as a win only when
 * `verifyCertificate` accepts the text as written. Anything short of that is `unknown`.
 *
 * Layering: book sits above search and proof (scripts/check-deps.mjs), so this module may
 * drive the solver and the checker; the builder (builder.ts) and the CLI both use it.
 */
import { Board } from '../core/board.js';
import { BLACK, WHITE, type Color } from '../core/types.js';
import { parsePoint } from '../core/notation.js';
import { Solver, type StrategyEntry as SolverEntry } from '../search/solver.js';
import { fiveCount, isFourMove } from '../search/threats.js';
import { CertificateBuilder, certificateOf, makeCertificate, parseCertificate, type RootPosition, type Strategy, type StrategyEntry } from '../proof/certificate.js';
import { verifyCertificate, verifyLearningZones, type VerifyReport } from '../proof/verify.js';
import { fitZones } from '../proof/zones.js';

export interface PassProofOptions {
  /** Wall-clock budget for the whole proof (solves and checks), ms. */
  timeMs?: number;
  /** Solver node budget for the whole proof. */
  nodes?: number;
  /** At most this many nodes / ms for one reply's own solve in one round (default: an equal share of what is left). */
  replyNodes?: number;
  replyMs?: number;
  /** A zone with more cells than this is dropped: every reply is then walked (formats.md 3.2). */
  maxZone?: number;
  /** Nodes for repairing the pass strategy for one reply (default 1,000,000; 0: no repairs). */
  repairNodes?: number;
  /** Checker budget for the final verification, ms (default max(10 s, timeMs)). */
  checkMs?: number;
  /** The root as the certificate header should name it (default: the board's stone set). */
  root?: RootPosition;
  solver?: Solver;
  now?: () => number;
  /** Called once the replies to walk are known, with their number (for progress output). */
  onReplies?: (n: number) => void;
  /** Called after each reply inside the zone is decided (for progress output). */
  onReply?: (r: PassReply) => void;
}

/** What became of one reply inside the zone. */
export interface PassReply {
  move: number;
  /**
   * `pass`: the pass strategy refutes it as it stands; `repaired`: it does with entries for a
   * few positions deeper in its lines; `proven`: solved on its own; `unknown`: none of these.
   */
  how: 'pass' | 'repaired' | 'proven' | 'unknown';
  nodes: number;
  ms: number;
}

export interface PassProof {
  /** `win` for the winner (the side not to move at the root), checked by verifyCertificate. */
  result: 'win' | 'unknown';
  winner: Color;
  /** Why it is unknown. */
  reason?: string;
  /** The pass child's first move and how the solver proved it. */
  passMove?: number;
  passMethod?: string;
  passNodes: number;
  /** The root's zone as written (null: none, every reply walked). */
  zone: number[] | null;
  /** The support the checker found for the pass strategy (cells), before any cap. */
  support: number;
  /** Replies the checker walks at the root (inside the zone, or L fours) and what became of each. */
  replies: PassReply[];
  /** The strategy and its certificate text (a win only). */
  strategy?: Strategy;
  certificate?: string;
  report?: VerifyReport;
  /**
   * When the pass child was won but not every reply was settled: what was proven, for the book
   * builder to keep as a tree (the pass child, the zone, and a child per reply left to prove).
   */
  partial?: PassPartial;
  nodes: number;
  ms: number;
}

/** The settled part of an unfinished pass proof (see PassProof.partial). */
export interface PassPartial {
  /** The pass child's strategy (the winner to move at the root's stones). */
  passEntries: StrategyEntry[];
  /** The zone of the pass strategy (null: none, every reply walked). */
  zone: number[] | null;
  /** The repairs: entries the checker needs, besides the pass strategy, for the replies it covers. */
  covered: StrategyEntry[];
  /** Replies the pass strategy does not cover: with their own entries when proven, without when open. */
  own: { move: number; entries?: StrategyEntry[] }[];
}

const keyOf = (e: { black: readonly number[]; white: readonly number[] }): string => `${e.black.join(',')}/${e.white.join(',')}`;

/**
 * The pass strategy as it reads after a reply r at the root: the checker looks up the real
 * stones first, then the stones without r (formats.md 3.1), so each entry is re-keyed with r
 * added to the loser's stones, and an entry that already holds r keeps its key and wins.
 * An entry on r's cell or with a winner stone there cannot be met after r.
 */
function afterReply(entries: readonly StrategyEntry[], r: number, loser: Color): StrategyEntry[] {
  const out = new Map<string, StrategyEntry>();
  const own = (e: StrategyEntry) => (loser === WHITE ? e.white : e.black);
  for (const e of entries) if (own(e).includes(r)) out.set(keyOf(e), e);
  for (const e of entries) {
    if (e.black.includes(r) || e.white.includes(r)) continue;
    const add = (xs: readonly number[]) => [...xs, r].sort((a, b) => a - b);
    const k = loser === WHITE ? { black: e.black, white: add(e.white), move: e.move } : { black: add(e.black), white: e.white, move: e.move };
    if (!out.has(keyOf(k))) out.set(keyOf(k), k);
  }
  return [...out.values()];
}

/**
 * Repair the pass strategy for the reply `r` (L to move at `board`): check it after r as the
 * checker reads it (`afterReply`); on a failing line, solve the W-to-move positions of that
 * line from the deepest one up (excluding the line's first, which is the reply's own proof)
 * and add the first win's entries, keyed with r; again until the checker accepts. Returns the
 * added entries (null when the budget ran out first) and the nodes spent. The board is restored.
 */
function repairFor(
  board: Board,
  r: number,
  passEntries: readonly StrategyEntry[],
  o: { solver: Solver; nodes: number; deadline: number; checkMs: number; now: () => number },
): { entries: StrategyEntry[] | null; nodes: number } {
  const size = board.size;
  const L = board.toMove;
  const W = (3 - L) as Color;
  const entries = afterReply(passEntries, r, L);
  const added: StrategyEntry[] = [];
  let nodes = 0;
  board.play(r);
  const rroot: RootPosition = { kind: 'stones', black: board.stones(BLACK), white: board.stones(WHITE), toMove: W };
  try {
    // Each round adds one position's entries; a reply that needs many is better proven whole.
    for (let round = 0; round < 24; round++) {
      const v = verifyCertificate(certificateOf({ size, rule: board.rule, root: rroot, winner: W, entries: [...entries, ...added] }), {
        maxMs: Math.max(1, Math.min(o.checkMs, o.deadline - o.now())),
      });
      if (v.result === 'verified') return { entries: added, nodes };
      if (v.result !== 'failed') return { entries: null, nodes };
      const line: number[] = [];
      for (const p of v.line) {
        const q = parsePoint(p, size);
        if (!q.ok) return { entries: null, nodes };
        line.push(q.value);
      }
      let fixed = false;
      for (let k = line.length & ~1; k >= 2 && !fixed; k -= 2) {
        const left = o.nodes - nodes;
        if (left <= 0 || o.deadline - o.now() <= 0) return { entries: null, nodes };
        for (let j = 0; j < k; j++) board.play(line[j]!);
        const sr = o.solver.solve(board, { maxNodes: Math.min(left, 250_000), now: o.now });
        for (let j = 0; j < k; j++) board.undo();
        nodes += sr.nodes;
        if (sr.result === 'win' && sr.entries) {
          added.push(...entriesOf(sr.entries));
          fixed = true;
        }
      }
      if (!fixed) return { entries: null, nodes };
    }
    return { entries: null, nodes };
  } finally {
    board.undo();
  }
}

function entriesOf(es: readonly SolverEntry[]): StrategyEntry[] {
  return es.map((e) => ({ black: e.black, white: e.white, move: e.move }));
}

/**
 * Prove that the side to move at `board` loses, by pass and zone. The board is restored.
 * Returns `win` (for the other side) only with a certificate the checker has verified.
 */
export function provePass(board: Board, opts: PassProofOptions = {}): PassProof {
  const now = opts.now ?? (() => Date.now());
  const t0 = now();
  const deadline = opts.timeMs !== undefined ? t0 + opts.timeMs : Infinity;
  const maxNodes = opts.nodes ?? Infinity;
  const solver = opts.solver ?? new Solver();
  const L = board.toMove;
  const W = (3 - L) as Color;
  const size = board.size;
  const rule = board.rule;
  const black = board.stones(BLACK);
  const white = board.stones(WHITE);
  const root: RootPosition = opts.root ?? { kind: 'stones', black, white, toMove: L };
  let nodes = 0;
  const out: PassProof = { result: 'unknown', winner: W, passNodes: 0, zone: null, support: 0, replies: [], nodes: 0, ms: 0 };
  const finish = (reason?: string): PassProof => {
    if (reason !== undefined) out.reason = reason;
    out.nodes = nodes;
    out.ms = now() - t0;
    return out;
  };
  const timeLeft = () => deadline - now();
  const nodesLeft = () => maxNodes - nodes;

  // A pass is no argument where either side has a five cell: the plain solver decides those.
  if (fiveCount(board, W) > 0 || fiveCount(board, L) > 0) return finish('not a quiet position (a side has a five cell)');

  // 1. The pass child.
  const child = board.clone();
  child.setToMove(W);
  const pr = solver.solve(child, { timeMs: Number.isFinite(deadline) ? Math.max(1, timeLeft()) : undefined, maxNodes: nodesLeft(), now });
  nodes += pr.nodes;
  out.passNodes = pr.nodes;
  if (pr.result !== 'win' || !pr.entries) return finish(`the pass child is ${pr.result === 'loss' ? 'lost' : 'not proven'}`);
  out.passMove = pr.move;
  out.passMethod = pr.method;
  const passEntries = entriesOf(pr.entries);

  // 2. The zone: one learning verification (the pass strategy is checked first, so the zone
  // is whole even when a reply inside it fails later in the same run).
  const checkMs = opts.checkMs ?? Math.max(10000, opts.timeMs ?? 0);
  const learning = verifyLearningZones(
    certificateOf({ size, rule, root, winner: W, entries: passEntries, passes: [{ black, white, zone: [] }] }),
    { maxMs: checkMs },
  );
  const rep = learning.report;
  if (rep.result === 'unknown' || (rep.result === 'failed' && (rep.line.length === 0 || rep.line[0] === 'pass')))
    return finish(`the pass strategy was not verified (${rep.reason ?? rep.result})`);
  const support = learning.zones[0] ?? [];
  out.support = support.length;
  const zone = support.length > (opts.maxZone ?? Infinity) ? null : support;

  // 3. The replies the checker walks: the zone's cells and every L four (never covered).
  const inZone = new Uint8Array(board.area);
  if (zone === null) inZone.fill(1);
  else for (const q of zone) inZone[q] = 1;
  const replies: number[] = [];
  for (let q = 0; q < board.area; q++) if (board.cells[q] === 0 && (inZone[q] === 1 || isFourMove(board, q, L))) replies.push(q);

  // First the pass strategy itself, looked up as the checker would after the reply; where it
  // fails, repairs: a far reply usually spoils only a few lines of it, deep down (a loser
  // four it helps to make), and a short solve there fixes each one.
  opts.onReplies?.(replies.length);
  const builder = new CertificateBuilder(size, rule, root, W);
  for (const e of passEntries) builder.addStones(e.black, e.white, e.move);
  const need: number[] = [];
  const covered: StrategyEntry[] = [];
  const ownEntries = new Map<number, StrategyEntry[]>();
  const repairNodes = opts.repairNodes ?? 1_000_000;
  for (const r of replies) {
    if (timeLeft() <= 0) {
      need.push(r);
      continue;
    }
    const t = now();
    const rep = repairFor(board, r, passEntries, {
      solver,
      nodes: Math.max(0, Math.min(repairNodes, nodesLeft())),
      deadline,
      checkMs: Math.max(1, Math.min(checkMs, timeLeft())),
      now,
    });
    nodes += rep.nodes;
    if (rep.entries) {
      for (const e of rep.entries) builder.addStones(e.black, e.white, e.move);
      covered.push(...rep.entries);
      const rr: PassReply = { move: r, how: rep.entries.length === 0 ? 'pass' : 'repaired', nodes: rep.nodes, ms: now() - t };
      out.replies.push(rr);
      opts.onReply?.(rr);
    } else need.push(r);
  }

  // Then an own proof for each reply still open.
  // In rounds: each pending reply gets an equal share of what is left; the ones that fail
  // go round again with the larger share the proven ones leave, until a round proves none
  // (an equal split alone starves the few hard replies and leaves most of the budget unused).
  let pending = need;
  const spent = new Map<number, { nodes: number; ms: number }>();
  while (pending.length > 0) {
    const failed: number[] = [];
    const ms = Math.min(opts.replyMs ?? Infinity, timeLeft() / pending.length);
    const nn = Math.min(opts.replyNodes ?? Infinity, nodesLeft() / pending.length);
    for (const r of pending) {
      const t = now();
      const used = spent.get(r) ?? { nodes: 0, ms: 0 };
      spent.set(r, used);
      if (ms < 1 || nn < 1) {
        failed.push(r);
        continue;
      }
      board.play(r);
      const sr = solver.solve(board, { timeMs: Number.isFinite(ms) ? ms : undefined, maxNodes: Number.isFinite(nn) ? Math.floor(nn) : undefined, now });
      nodes += sr.nodes;
      used.nodes += sr.nodes;
      let ok = sr.result === 'win' && sr.entries !== undefined;
      if (ok) {
        // Its own certificate first: an entry that fails here would only fail the whole later.
        const rroot: RootPosition = { kind: 'stones', black: board.stones(BLACK), white: board.stones(WHITE), toMove: W };
        const es = entriesOf(sr.entries!);
        const v = verifyCertificate(certificateOf({ size, rule, root: rroot, winner: W, entries: es }), { maxMs: Math.max(2000, ms) });
        ok = v.result === 'verified';
        if (ok) {
          for (const e of es) builder.addStones(e.black, e.white, e.move);
          ownEntries.set(r, es);
        }
      }
      board.undo();
      used.ms += now() - t;
      if (ok) {
        const rr: PassReply = { move: r, how: 'proven', nodes: used.nodes, ms: used.ms };
        out.replies.push(rr);
        opts.onReply?.(rr);
      } else failed.push(r);
    }
    if (failed.length === pending.length || (opts.replyNodes !== undefined && opts.replyMs !== undefined)) {
      // no progress (or both caps fixed: another round would repeat this one)
      for (const r of failed) {
        const rr: PassReply = { move: r, how: 'unknown', nodes: spent.get(r)!.nodes, ms: spent.get(r)!.ms };
        out.replies.push(rr);
        opts.onReply?.(rr);
      }
      break;
    }
    pending = failed;
  }
  const unproven = out.replies.filter((r) => r.how === 'unknown').length;
  out.replies.sort((a, b) => a.move - b.move);
  if (unproven > 0 || out.replies.length < replies.length) {
    out.zone = zone;
    const settled = new Set(out.replies.filter((r) => r.how === 'pass' || r.how === 'repaired').map((r) => r.move));
    out.partial = {
      passEntries,
      zone,
      covered,
      own: replies.filter((r) => !settled.has(r)).map((r) => (ownEntries.has(r) ? { move: r, entries: ownEntries.get(r)! } : { move: r })),
    };
    return finish(`${unproven} of the ${replies.length} replies the zone leaves were not proven`);
  }

  // 4. The whole: fit the zone again (the replies' entries may meet the pass strategy's
  // positions), then verify the text exactly as written.
  const whole = builder.strategy();
  whole.passes = [zone === null ? { black, white } : { black, white, zone }];
  const fit = fitZones(whole, { maxMs: checkMs, maxZone: opts.maxZone, keepWithoutZone: true });
  if (fit.report.result !== 'verified') return finish(`the certificate was not verified (${fit.report.reason ?? fit.report.result})`);
  const text = makeCertificate(fit.strategy);
  const parsed = parseCertificate(text);
  const final = parsed.ok ? verifyCertificate(parsed.value, { maxMs: checkMs }) : undefined;
  if (!final || final.result !== 'verified') return finish(`the certificate was not verified (${final?.reason ?? 'it did not parse'})`);
  out.zone = fit.strategy.passes?.[0]?.zone ? [...fit.strategy.passes[0].zone] : null;
  out.result = 'win';
  out.strategy = fit.strategy;
  out.certificate = text;
  out.report = final;
  return finish();
}
