/**
 * The book builder's main thread: a job-level proof-number search (pn-tree.ts) over the
 * opening tree stored in the book. It is the only writer of the store; jobs (book/job.ts)
 * run elsewhere through `runJob` (a piscina pool in the CLI, in-process in tests) and come
 * back as plain results.
 *
 * Crash safety: every state change is written in one transaction as it happens (a job's
 * result together with the proof numbers it changes; an expansion with its children and
 * edges). A job handed out is recorded in `jobs`; after a crash those positions are still
 * unevaluated in the book, so a restart of the same command simply selects them again.
 * Nothing finished is lost.
 */
import type { Board } from '../core/board.js';
import { boardFromStones } from '../core/position.js';
import { BLACK, WHITE, type Color, type Rule } from '../core/types.js';
import { canonicalize, encodePoints, parsePositionKey, type Transform } from '../core/symmetry.js';
import { MATE } from '../search/types.js';
import type { BookJob, BookJobResult, PassTree } from './job.js';
import { openingRoots, regionCells, type OpeningKind } from './roots.js';
import { EXPAND_FULL, EXPAND_NEAR, EXPAND_NONE, EXPAND_ZONE, INF, PASS_MOVE, PnTree, type PnNode } from './pn-tree.js';
import { bookPositionOfStones, entryToCanonical, moveToCanonical } from './canonical.js';
import { assembleProof } from './proof.js';
import { parseCertificate } from '../proof/certificate.js';
import { verifyCertificate } from '../proof/verify.js';
import { parsePoint } from '../core/notation.js';
import { EVAL_SCORED, EVAL_SOLVED, PASS_ENTRY, PN_INF, type BookStore, type LockRefusal, type PositionRow } from './store.js';

/** buildBook could not become the book's writer: another builder holds it (see BookStore.acquireWriterLock). */
export class BookLockedError extends Error {
  constructor(readonly refusal: LockRefusal) {
    super(refusal.message);
    this.name = 'BookLockedError';
  }
}

/** How often a running build refreshes its writer lock (what a builder on another host reads as "last active"). */
const LOCK_REFRESH_MS = 10_000;

export interface BuildConfig {
  /** The opening kind (or, with `roots`, any label: it is stored as the positions' opening). */
  opening: OpeningKind | string;
  size: number;
  rule: Rule;
  region: number;
}

export interface BuildBudget {
  /** Stop handing out jobs after this many (this run). */
  jobs?: number;
  /** Stop handing out jobs after this much wall-clock time (this run). */
  ms?: number;
}

export interface BuildProgress {
  jobs: number;
  positions: number;
  proven: number;
  disproven: number;
  roots: number;
  openRoots: number;
  inFlight: number;
  elapsedMs: number;
  budget: BuildBudget;
}

export interface BuildSummary extends BuildProgress {
  resumedJobs: number;
  errors: number;
  /** Disproofs of pass-tree nodes the checker refused (each node then lists more replies). */
  zoneRejected: number;
  /** Disproofs of pass-tree nodes the checker could not decide in time (held open this run). */
  zoneHeld: number;
  stoppedBy: 'budget' | 'done' | 'stop';
}

export interface BuildOptions extends BuildConfig {
  store: BookStore;
  runJob: (job: BookJob) => Promise<BookJobResult>;
  /** Jobs in flight at once (about twice the number of workers); a function when workers come and go (the job queue). */
  concurrency: number | (() => number);
  budget: BuildBudget;
  solveNodes: number;
  scoreNodes: number;
  solveMs?: number;
  /**
   * Pass jobs (issue 24): where `passFor` is to move and the solve leaves the position
   * unknown, the job tries to prove it lost by pass and zone (pass.ts) with `passNodes` more
   * nodes. The proof is the job's own (entries and a pass entry with its zone), like a solve's.
   */
  passFor?: Color;
  passNodes?: number;
  passMs?: number;
  /**
   * A pass job that leaves its position open (no pass tree either) is run again, pass only,
   * with three times the nodes the position has taken so far, until it has taken this many
   * (default `passNodes`: no second try); only then is the position expanded reply by reply.
   */
  passMaxNodes?: number;
  now?: () => number;
  onProgress?: (p: BuildProgress) => void;
  shouldStop?: () => boolean;
  /** Explicit roots (canonical or not) instead of the openings of `opening`. */
  roots?: readonly { black: number[]; white: number[]; toMove: Color }[];
  /** Proof-number threshold under which selection is by proof numbers, else drop-out expansion. */
  provableBelow?: number;
  /**
   * Results already back are applied in one SQLite transaction, up to this many (default 1:
   * a transaction per result, the local build). The queue's results come in bursts; everything
   * is committed before the builder waits, so nothing applied is ever left uncommitted.
   */
  groupWrites?: number;
  /**
   * The checker's budget, ms, for the proof of a zone node before its disproof stands (default
   * 10 minutes; the build waits for it). One it cannot decide in time is held open.
   */
  checkMs?: number;
  /** And at most this many positions walked by the checker (default: no limit). */
  checkPositions?: number;
}

export function buildStateName(c: BuildConfig): string {
  return `build:${c.opening}:${c.rule}:${c.size}:${c.region}`;
}

const toPnVerdict = (v: string): 'win' | 'loss' | 'draw' | null => (v === 'win' || v === 'loss' || v === 'draw' ? v : null);

class Builder {
  readonly tree: PnTree;
  private readonly store: BookStore;
  private readonly now: () => number;
  private readonly verdicts = new Map<number, 'win' | 'loss' | 'unknown'>();
  proven = 0;
  disproven = 0;
  jobs = 0;
  errors = 0;
  /** Zone nodes whose assembled proof the checker refused (each widened, see checkZoneNodes). */
  zoneRejected = 0;
  /** Zone nodes whose assembled proof the checker could not decide in time (held open). */
  zoneHeld = 0;
  private readonly toCheck: number[] = [];

  constructor(private readonly o: BuildOptions) {
    this.store = o.store;
    this.now = o.now ?? (() => Date.now());
    const treeOpts: { provableBelow?: number } = {};
    if (o.provableBelow !== undefined) treeOpts.provableBelow = o.provableBelow;
    this.tree = new PnTree(treeOpts);
  }

  /** Register roots and load the stored tree below them. */
  load(): number {
    const s = this.store;
    const resumed = s.jobsInFlight().length;
    const roots = this.o.roots
      ? this.o.roots.map((r) => {
          const key = canonicalize(this.o.size, r.black, r.white, r.toMove).key;
          return { key, black: r.black, white: r.white, toMove: r.toMove };
        })
      : openingRoots(this.o.opening as OpeningKind, this.o.size, this.o.region);
    const ids: number[] = [];
    s.transaction(() => {
      s.clearJobs();
      const name = buildStateName(this.o);
      if (s.getState(name) === undefined) s.setState(name, JSON.stringify({ ...this.config(), created: this.now() }));
      for (const r of roots) {
        const row = s.ensure({ rule: this.o.rule, size: this.o.size, key: r.key, stones: r.black.length + r.white.length, toMove: r.toMove, opening: this.o.opening }, this.now());
        ids.push(row.id);
      }
    });
    for (const id of ids) {
      this.tree.addRoot(id);
      this.loadSubtree(id);
    }
    this.tree.recomputeAll();
    // Zone nodes their children disprove but the store does not: an earlier run held them (its
    // check ran out of time). Held until checked again, below, so nothing above counts on them.
    const owed = [...this.tree.nodes.values()].filter((n) => n.expanded === EXPAND_ZONE && this.tree.verdictOf(n.id) === 'loss' && s.getById(n.id)?.verdict !== 'loss');
    for (const n of owed) n.held = true;
    if (owed.length > 0) this.tree.recomputeAll();
    for (const n of this.tree.nodes.values()) this.count(n.id, this.tree.verdictOf(n.id));
    if (owed.length > 0)
      s.transaction(() => {
        for (const n of owed) {
          n.held = false;
          this.writeChanged(this.tree.update(n.id));
        }
        this.checkZoneNodes();
      });
    return resumed;
  }

  private config(): BuildConfig {
    return { opening: this.o.opening, size: this.o.size, rule: this.o.rule, region: this.o.region };
  }

  /** Bring a stored node and everything stored below it into the tree. */
  private loadSubtree(id: number): void {
    const queue = [id];
    const seen = new Set<number>();
    while (queue.length > 0) {
      const x = queue.pop()!;
      if (seen.has(x)) continue;
      seen.add(x);
      const row = this.store.getById(x);
      if (!row) continue;
      const n = this.tree.add(x);
      this.fromRow(n, row);
      for (const e of this.store.children(x)) {
        const known = this.tree.nodes.has(e.child);
        this.tree.link(x, e.move, e.child);
        if (!known) queue.push(e.child);
      }
    }
  }

  private fromRow(n: PnNode, row: PositionRow): void {
    n.evaluated = (row.evaluated & (EVAL_SCORED | EVAL_SOLVED)) !== 0;
    n.solved = (row.evaluated & EVAL_SOLVED) !== 0 ? toPnVerdict(row.verdict) : null;
    n.score = row.score;
    n.expanded = row.expanded;
    n.retry = this.wantsRetry(row, n);
  }

  private count(id: number, v: 'win' | 'loss' | 'unknown'): void {
    const old = this.verdicts.get(id) ?? 'unknown';
    if (old === v) return;
    if (old === 'win') this.proven--;
    if (old === 'loss') this.disproven--;
    if (v === 'win') this.proven++;
    if (v === 'loss') this.disproven++;
    this.verdicts.set(id, v);
  }

  job(id: number): BookJob {
    const row = this.store.getById(id)!;
    const k = parsePositionKey(row.key)!;
    const job: BookJob = { id, rule: row.rule, size: row.size, black: k.black, white: k.white, toMove: k.toMove, solveNodes: this.o.solveNodes, scoreNodes: this.o.scoreNodes };
    if (this.o.solveMs !== undefined) job.solveMs = this.o.solveMs;
    if (this.o.passNodes && k.toMove === this.o.passFor) {
      job.passNodes = this.o.passNodes;
      if (this.o.passMs !== undefined) job.passMs = this.o.passMs;
      if (this.tree.node(id).retry) {
        // solved and scored already: only the pass proof, with a bigger budget
        job.solveNodes = 0;
        job.scoreNodes = 0;
        job.passNodes = Math.max(1, Math.min(3 * row.nodes, this.passMaxNodes() - row.nodes));
        // and in another orientation: df-pn's cost varies with it by 10x and more (a fresh
        // draw, chosen from the stored node count so that a resumed build makes the same job)
        job.orient = (1 + (row.nodes % 7)) as Transform;
      }
    }
    return job;
  }

  private passMaxNodes(): number {
    return Math.max(this.o.passNodes ?? 0, this.o.passMaxNodes ?? 0);
  }

  /** Is `row` a pass-side position whose pass proof failed and that may take a bigger pass job? */
  private wantsRetry(row: PositionRow, n: PnNode): boolean {
    if (!this.o.passNodes || row.toMove !== this.o.passFor) return false;
    return n.evaluated && n.solved === null && n.expanded === EXPAND_NONE && row.method !== 'error' && row.nodes < this.passMaxNodes();
  }

  /** Write the numbers of the nodes a change touched (inside the caller's transaction). */
  private writeChanged(ids: readonly number[], except?: number): void {
    const t = this.now();
    for (const id of ids) {
      const v = this.tree.verdictOf(id);
      if (v === 'loss' && this.verdicts.get(id) !== 'loss' && this.tree.node(id).expanded === EXPAND_ZONE) this.toCheck.push(id);
      this.count(id, v);
      if (id === except) continue;
      const n = this.tree.node(id);
      if (n.solved !== null) continue; // a job's own verdict is already stored
      const move = this.tree.moveToStore(id, this.store.getById(id)?.bestMove ?? null);
      this.store.updateProofNumbers(id, Math.min(n.pn, PN_INF), Math.min(n.dn, PN_INF), v, move, n.score, this.proofSize(n), t);
    }
  }

  private proofSize(n: PnNode): number {
    if (n.pn === 0) return 1 + Math.min(...n.children.map((e) => (this.tree.node(e.child).dn === 0 ? 1 : INF)));
    if (n.dn === 0) return 1 + n.children.length;
    return 0;
  }

  applyResult(r: BookJobResult): void {
    const s = this.store;
    const n = this.tree.node(r.id);
    n.inFlight = false;
    this.jobs++;
    if (r.error) this.errors++;
    // a second pass job that settles nothing keeps the first job's score, move and method
    const kept: Pick<PositionRow, 'score' | 'depth' | 'bestMove' | 'method'> = n.retry && r.verdict === 'unknown' ? s.getById(r.id)! : r;
    n.retry = false;
    s.transaction(() => {
      const verdict = r.verdict;
      const solved = verdict !== 'unknown';
      s.update(
        r.id,
        {
          verdict,
          score: kept.score,
          depth: kept.depth,
          bestMove: kept.bestMove,
          pn: verdict === 'win' ? 0 : verdict === 'loss' ? PN_INF : 1,
          dn: verdict === 'loss' ? 0 : verdict === 'win' ? PN_INF : 1,
          proofSize: (r.entries?.length ?? 0) + (r.passes?.length ?? 0),
          addNodes: r.nodes,
          method: kept.method,
          evaluated: solved ? EVAL_SCORED | EVAL_SOLVED : EVAL_SCORED,
        },
        this.now(),
      );
      if (solved && r.entries) {
        s.setProofEntries(r.id, [
          ...r.entries.map((e) => ({ black: encodePoints(e.black), white: encodePoints(e.white), move: e.move })),
          ...(r.passes ?? []).map((p) => ({ black: encodePoints(p.black), white: encodePoints(p.white), move: PASS_ENTRY, zone: p.zone ? encodePoints(p.zone) : null })),
        ]);
      }
      s.jobFinished(r.id);
      this.tree.setLeaf(r.id, verdict, kept.score);
      if (!solved && r.passTree && n.expanded === EXPAND_NONE) this.plantPassTree(r.id, r.passTree);
      // the row is read again only where a second pass job could follow
      n.retry = !solved && this.o.passNodes !== undefined && this.wantsRetry(s.getById(r.id)!, n);
      this.writeChanged(this.tree.update(r.id), r.id);
      this.checkZoneNodes();
    });
  }

  /**
   * Keep an unfinished pass proof as a tree (inside the caller's transaction): the pass child
   * (the same stones, the winner to move) as a solved child on a pass edge, the pass entry with
   * its zone and the repairs as the node's own proof entries, and a child for every reply the
   * pass strategy does not refute, solved where the job proved it. The node becomes EXPAND_ZONE.
   */
  private plantPassTree(id: number, t: PassTree): void {
    const s = this.store;
    const row = s.getById(id)!;
    const k = parsePositionKey(row.key)!;
    const L = k.toMove;
    const W: Color = L === BLACK ? WHITE : BLACK;
    const size = row.size;
    const now = this.now();
    const here = bookPositionOfStones(size, k.black, k.white, L);
    const node = this.tree.node(id);
    const solve = (childId: number, stones: { black: number[]; white: number[] }, entries: PassTree['passEntries'], method: string) => {
      const pos = bookPositionOfStones(size, stones.black, stones.white, W);
      const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((q) => b.includes(q));
      const first = entries.find((e) => same(e.black, stones.black) && same(e.white, stones.white));
      s.update(
        childId,
        {
          verdict: 'win',
          score: MATE - 3,
          depth: 3,
          bestMove: first ? moveToCanonical(pos, first.move) : null,
          pn: 0,
          dn: PN_INF,
          proofSize: entries.length,
          addNodes: 0,
          method,
          evaluated: EVAL_SCORED | EVAL_SOLVED,
        },
        now,
      );
      s.setProofEntries(childId, entries.map((e) => entryToCanonical(pos, e)));
      this.tree.setLeaf(childId, 'win', MATE - 3);
      this.tree.recompute(childId);
      this.count(childId, 'win');
    };
    const fresh: number[] = [];
    const place = (move: number, black: number[], white: number[]): number => this.linkChild(row, move, black, white, W, fresh);
    const pass = place(PASS_MOVE, k.black, k.white);
    if (!this.tree.nodes.get(pass)?.solved) solve(pass, k, t.passEntries, 'pass-child');
    s.setProofEntries(id, [
      { black: encodePoints(k.black), white: encodePoints(k.white), move: PASS_ENTRY, zone: t.zone ? encodePoints(t.zone) : null },
      ...t.covered.map((e) => entryToCanonical(here, e)),
    ]);
    for (const o of t.own) {
      const after = withMove(k, L, o.move);
      const child = place(o.move, after.black, after.white);
      const c = this.tree.node(child);
      if (o.entries && c.solved === null && (s.getById(child)!.evaluated & EVAL_SOLVED) === 0) solve(child, after, o.entries, 'pass-reply');
    }
    s.setExpanded(id, EXPAND_ZONE);
    node.expanded = EXPAND_ZONE;
    this.loadFresh(fresh);
  }

  /**
   * Insert (or find) the child position and its edge, in the store and the tree. A child the
   * store had but the tree did not goes to `fresh`: its subtree is loaded by loadFresh.
   */
  private linkChild(
    parent: PositionRow,
    move: number,
    black: number[],
    white: number[],
    toMove: Color,
    fresh: number[],
    key = canonicalize(parent.size, black, white, toMove).key,
  ): number {
    const s = this.store;
    const before = s.get(parent.rule, key);
    const child = before
      ? before.id
      : s.insertAbsent({ rule: parent.rule, size: parent.size, key, stones: black.length + white.length, toMove, opening: parent.opening }, this.now());
    s.addEdge(parent.id, move, child);
    const known = this.tree.nodes.has(child);
    this.tree.link(parent.id, move, child);
    if (before && !known) fresh.push(child);
    return child;
  }

  private loadFresh(fresh: readonly number[]): void {
    for (const c of fresh) this.loadSubtree(c);
    if (fresh.length) this.tree.recomputeAll();
  }

  /**
   * A zone node just disproven by its children stands only if the certificate assembled for
   * it verifies; otherwise the reply its failing line starts with becomes a child (a reply the
   * pass strategy was thought to refute), or, when there is none, the node lists every reply.
   */
  private checkZoneNodes(): void {
    for (let round = 0; round < 1000 && this.toCheck.length > 0; round++) {
      const id = this.toCheck.shift()!;
      const n = this.tree.node(id);
      if (n.expanded !== EXPAND_ZONE || this.tree.verdictOf(id) !== 'loss') continue;
      const failure = this.zoneFailure(id);
      if (failure === undefined) continue;
      if (failure.undecided) {
        // not refuted, not verified: the claim waits (a later run checks it again)
        n.held = true;
        this.zoneHeld++;
        this.writeChanged(this.tree.update(id));
        continue;
      }
      this.zoneRejected++;
      const row = this.store.getById(id)!;
      const k = parsePositionKey(row.key)!;
      const q = failure.reply;
      if (q !== undefined && !n.children.some((e) => e.move === q)) {
        const after = withMove(k, k.toMove, q);
        const fresh: number[] = [];
        this.linkChild(row, q, after.black, after.white, k.toMove === BLACK ? WHITE : BLACK, fresh);
        this.loadFresh(fresh);
        this.writeChanged(this.tree.update(id));
      } else {
        this.expand(id, EXPAND_FULL);
      }
    }
  }

  /** Why the certificate assembled for a zone node does not verify (undefined: it does). */
  private zoneFailure(id: number): { reason: string; reply?: number; undecided?: boolean } | undefined {
    const row = this.store.getById(id)!;
    const k = parsePositionKey(row.key)!;
    const board = boardFromStones(row.size, row.rule, k.black, k.white, k.toMove);
    const maxMs = this.o.checkMs ?? 600_000;
    const maxPositions = this.o.checkPositions;
    const a = assembleProof(this.store, board, maxPositions === undefined ? { fitMs: maxMs } : { fitMs: maxMs, fitPositions: maxPositions });
    if (!a.ok) return { reason: a.error };
    const c = parseCertificate(a.value.certificate);
    if (!c.ok) return { reason: c.error.message };
    const v = verifyCertificate(c.value, maxPositions === undefined ? { maxMs } : { maxMs, maxPositions });
    if (v.result === 'verified') return undefined;
    if (v.result === 'unknown') return { reason: v.reason ?? 'unknown', undecided: true };
    const first = v.line[0] !== undefined ? parsePoint(v.line[0], row.size) : undefined;
    return first && first.ok ? { reason: v.reason ?? v.result, reply: first.value } : { reason: v.reason ?? v.result };
  }

  /** List the children of a node (near moves, or all the rest). */
  expand(id: number, stage: number): void {
    const s = this.store;
    const row = s.getById(id)!;
    const k = parsePositionKey(row.key)!;
    const board = boardFromStones(row.size, row.rule, k.black, k.white, k.toMove);
    const mover: Color = k.toMove;
    const node = this.tree.node(id);
    const existing = new Set(node.children.map((e) => e.move));
    const candidates = stage === EXPAND_NEAR ? nearCells(board, this.o.region) : allEmpty(board);
    // a five on the board for the mover: the node is a win, nothing to expand
    for (const q of candidates) {
      if (board.makesFive(q, mover)) {
        s.transaction(() => {
          s.update(id, { verdict: 'win', score: MATE - 1, depth: 1, bestMove: q, pn: 0, dn: PN_INF, proofSize: 0, addNodes: 0, method: 'five', evaluated: EVAL_SCORED | EVAL_SOLVED }, this.now());
          this.tree.setLeaf(id, 'win', MATE - 1);
          this.writeChanged(this.tree.update(id), id);
        });
        return;
      }
    }
    const seenKeys = new Set<string>(node.children.map((e) => s.getById(e.child)?.key ?? ''));
    const fresh: number[] = [];
    s.transaction(() => {
      const toMove: Color = mover === BLACK ? WHITE : BLACK;
      for (const q of candidates) {
        if (existing.has(q)) continue;
        const { black, white } = withMove(k, mover, q);
        const key = canonicalize(row.size, black, white, toMove).key;
        if (seenKeys.has(key)) continue; // a symmetric twin of a listed move
        seenKeys.add(key);
        this.linkChild(row, q, black, white, toMove, fresh, key);
      }
      s.setExpanded(id, stage);
      node.expanded = stage;
      this.loadFresh(fresh);
      this.writeChanged(this.tree.update(id));
    });
  }

  progress(inFlight: number, elapsedMs: number): BuildProgress {
    return {
      jobs: this.jobs,
      positions: this.tree.nodes.size,
      proven: this.proven,
      disproven: this.disproven,
      roots: this.tree.roots.length,
      openRoots: this.tree.openRootCount(),
      inFlight,
      elapsedMs,
      budget: this.o.budget,
    };
  }
}

/** The stones after `mover` plays q (the lists of a parsed key; neither is changed). */
function withMove(k: { black: number[]; white: number[] }, mover: Color, q: number): { black: number[]; white: number[] } {
  return mover === BLACK ? { black: [...k.black, q], white: k.white } : { black: k.black, white: [...k.white, q] };
}

/** Empty cells within distance 2 of a stone (the region on an empty board). */
function nearCells(b: Board, region: number): number[] {
  const n = b.size;
  const out: number[] = [];
  let any = false;
  for (let q = 0; q < b.area; q++) if (b.cells[q] !== 0) any = true;
  if (!any) return regionCells(n, region);
  for (let q = 0; q < b.area; q++) {
    if (b.cells[q] !== 0) continue;
    const x = q % n;
    const y = (q - x) / n;
    let near = false;
    for (let dy = -2; dy <= 2 && !near; dy++) {
      for (let dx = -2; dx <= 2; dx++) {
        const xx = x + dx;
        const yy = y + dy;
        if (xx >= 0 && yy >= 0 && xx < n && yy < n && b.cells[yy * n + xx] !== 0) {
          near = true;
          break;
        }
      }
    }
    if (near) out.push(q);
  }
  return out;
}

function allEmpty(b: Board): number[] {
  const out: number[] = [];
  for (let q = 0; q < b.area; q++) if (b.cells[q] === 0) out.push(q);
  return out;
}

/**
 * Run a build until the budget is spent, everything is decided, or `shouldStop` says so.
 * Whoever builds must hold the book's writer lock: a caller that took it (the CLI holds it
 * through its clean-up after the build) keeps it; otherwise it is taken here, and released
 * at the end. A lock held by a live builder throws BookLockedError.
 */
export async function buildBook(o: BuildOptions): Promise<BuildSummary> {
  const own = !o.store.holdsWriterLock();
  if (own) {
    const l = o.store.acquireWriterLock({ command: `build ${buildStateName(o)}` });
    if (!l.ok) throw new BookLockedError(l.error);
  }
  try {
    return await runBuild(o);
  } finally {
    if (own) o.store.releaseWriterLock();
  }
}

async function runBuild(o: BuildOptions): Promise<BuildSummary> {
  const now = o.now ?? (() => Date.now());
  let refreshed = Date.now();
  const t0 = now();
  const b = new Builder(o);
  const resumedJobs = b.load();
  // results land in `ready` as they settle; the loop applies them in that order
  const inFlight = new Set<number>();
  const ready: BookJobResult[] = [];
  let wake: (() => void) | null = null;
  const group = Math.max(1, o.groupWrites ?? 1);
  let grouped = 0;
  const commit = () => {
    if (grouped > 0) o.store.commitGroup();
    grouped = 0;
  };
  let dispatched = 0;
  let stoppedBy: BuildSummary['stoppedBy'] = 'done';
  const budgetLeft = () => (o.budget.jobs === undefined || dispatched < o.budget.jobs) && (o.budget.ms === undefined || now() - t0 < o.budget.ms);
  const report = () => o.onProgress?.(b.progress(inFlight.size, now() - t0));
  report();
  try {
    for (;;) {
      let exhausted: 'budget' | 'stop' | undefined;
      const cap = Math.max(1, typeof o.concurrency === 'function' ? o.concurrency() : o.concurrency);
      while (inFlight.size < cap) {
        if (o.shouldStop?.()) exhausted = 'stop';
        else if (!budgetLeft()) exhausted = 'budget';
        if (exhausted) break;
        const a = b.tree.next();
        if (!a) break;
        if (a.kind === 'expand') {
          b.expand(a.node, a.stage === EXPAND_FULL ? EXPAND_FULL : EXPAND_NEAR);
          continue;
        }
        b.tree.node(a.node).inFlight = true;
        o.store.jobStarted(a.node, 'solve', now());
        dispatched++;
        const id = a.node;
        inFlight.add(id);
        // the catch turns every failure into a result, so the chain cannot reject
        void o
          .runJob(b.job(id))
          .catch((e: unknown): BookJobResult => ({ id, verdict: 'unknown', score: 0, depth: 0, bestMove: null, method: 'error', nodes: 0, ms: 0, pv: [], error: e instanceof Error ? e.message : String(e) }))
          .then((r) => {
            ready.push(r);
            wake?.();
          });
      }
      if (inFlight.size === 0) {
        // a budget that ran out with the last open root decides nothing: the build is done
        stoppedBy = exhausted === 'budget' && b.tree.openRootCount() === 0 ? 'done' : (exhausted ?? 'done');
        break;
      }
      // with the budget spent (or a stop asked) nothing new is handed out: this drains
      if (ready.length === 0) {
        commit(); // never wait with a group open
        await new Promise<void>((r) => (wake = r));
        wake = null;
      }
      const r = ready.shift()!;
      inFlight.delete(r.id);
      if (group > 1 && grouped === 0) o.store.beginGroup();
      b.applyResult(r);
      if (group > 1 && ++grouped >= group) commit();
      if (Date.now() - refreshed >= LOCK_REFRESH_MS) {
        refreshed = Date.now();
        o.store.touchWriterLock(refreshed);
      }
      report();
    }
  } finally {
    commit();
  }
  const summary: BuildSummary = { ...b.progress(0, now() - t0), resumedJobs, errors: b.errors, zoneRejected: b.zoneRejected, zoneHeld: b.zoneHeld, stoppedBy };
  return summary;
}
