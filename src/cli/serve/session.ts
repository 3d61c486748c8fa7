/**
 * One page's WebSocket: its searches, one at a time (a new request replaces the running one;
 * closing the page ends it). Requests and answers are JSON objects (docs in docs/serve.md,
 * "The API"):
 *
 *   -> {"type":"analyse"|"move"|"solve"|"swap2", "id":N, position fields, "timeMs":T, ...}
 *   -> {"type":"stop"}
 *   <- {"type":"hello", "version", "maxTimeMs", "maxSearches", "book"}
 *   <- {"type":"info", "id", "depth", "score", "nodes", "nps", "ms", "pv", "stage", "iteration"}
 *   <- {"type":"result", "id", "kind", ...}   <- {"type":"error", "id", "error"}
 *   <- {"type":"cancelled", "id"}
 */
import { makePoint } from '../../core/notation.js';
import { colorName, type Color } from '../../core/types.js';
import { type Result, err, ok } from '../../core/types.js';
import { gameOverReason } from '../board-view.js';
import { loadServed, readPositionRequest, positionText, type ServedPosition } from './position.js';
import { BusyError, type Running, type Searches } from './searches.js';
import type { Progress, ServeResult, Swap2Step } from '../../workers/serve-worker.js';
import { MATE, MATE_BOUND } from '../../search/types.js';
import type { ResultBody, ServerMessage } from '../../view/wire.js';

/** A score as words: "win in 5" (plies) for a mate score, "win" for a proof without a length, else the number. */
export function scoreText(score: number): string {
  const a = Math.abs(score);
  if (a < MATE_BOUND) return score > 0 ? `+${score}` : String(score);
  const word = score > 0 ? 'win' : 'loss';
  return a > MATE_BOUND ? `${word} in ${MATE - a}` : word;
}

export interface SessionContext {
  searches: Searches;
  /** The book file the engine uses (from the command line), or none. */
  book: string | undefined;
  seed: string;
  version: string;
  /** Progress reports per second of a think (at least 4). */
  updatesPerSecond: number;
}

type Kind = 'analyse' | 'move' | 'solve' | 'swap2';
const KINDS = new Set<string>(['analyse', 'move', 'solve', 'swap2']);
const STEPS = new Set<string>(['propose', 'after-three', 'after-five']);
/** Default time of a request that gives none (analysis: the server's cap). */
const DEFAULT_MS: Record<Exclude<Kind, 'analyse'>, number> = { move: 1000, solve: 10_000, swap2: 2000 };

interface Request {
  kind: Kind;
  id: number;
  sp: ServedPosition;
  timeMs: number;
  step?: Swap2Step;
}

export class Session {
  private current: { id: number; run: Running | undefined; done: Promise<void> } | undefined;
  private pending: Request | undefined;
  private pumping = false;
  private closed = false;

  constructor(
    private readonly ctx: SessionContext,
    private readonly send: (msg: ServerMessage) => void,
  ) {
    const l = ctx.searches.limits;
    send({ type: 'hello', version: ctx.version, maxTimeMs: l.maxTimeMs, maxSearches: l.maxSearches, book: ctx.book !== undefined });
  }

  /** One message from the page (text of at most the socket's payload limit). */
  onMessage(text: string): void {
    let o: unknown;
    try {
      o = JSON.parse(text);
    } catch {
      this.send({ type: 'error', id: null, error: 'not a JSON object' });
      return;
    }
    const idOf = (v: unknown) => (typeof v === 'object' && v !== null && Number.isSafeInteger((v as { id?: unknown }).id) ? (v as { id: number }).id : null);
    const id = idOf(o);
    if (typeof o === 'object' && o !== null && (o as { type?: unknown }).type === 'stop') {
      this.drop();
      this.current?.run?.stop();
      return;
    }
    const r = this.read(o);
    if (!r.ok) {
      this.send({ type: 'error', id, error: r.error });
      return;
    }
    // a new request replaces the page's running one (stopped, then awaited) and any waiting one
    this.drop();
    this.pending = r.value;
    this.current?.run?.stop();
    void this.pump();
  }

  private drop(): void {
    if (this.pending) this.send({ type: 'cancelled', id: this.pending.id });
    this.pending = undefined;
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.pending && !this.closed) {
        const r = this.pending;
        this.pending = undefined;
        await this.run(r);
      }
    } finally {
      this.pumping = false;
    }
  }

  /** The page went away: end its search at once. */
  close(): void {
    this.closed = true;
    this.pending = undefined;
    this.current?.run?.abort();
  }

  private read(o: unknown): Result<Request> {
    if (typeof o !== 'object' || o === null || Array.isArray(o)) return err('expected a JSON object');
    const m = o as Record<string, unknown>;
    if (typeof m.type !== 'string' || !KINDS.has(m.type)) return err(`unknown type '${String(m.type)}' (expected analyse, move, solve, swap2 or stop)`);
    const kind = m.type as Kind;
    if (!Number.isSafeInteger(m.id)) return err("'id' must be an integer");
    const { type: _t, id: _i, timeMs: _m, step: _s, ...fields } = m;
    if (kind !== 'swap2' && m.step !== undefined) return err("'step' is only for swap2");
    const req = readPositionRequest(fields);
    if (!req.ok) return req;
    const sp = loadServed(req.value);
    if (!sp.ok) return sp;
    const cap = this.ctx.searches.limits.maxTimeMs;
    let timeMs = kind === 'analyse' ? cap : DEFAULT_MS[kind];
    if (m.timeMs !== undefined) {
      const t = m.timeMs;
      if (typeof t !== 'number' || !Number.isFinite(t) || t <= 0) return err(`'timeMs' must be a positive number of ms, got ${JSON.stringify(t)}`);
      if (t > cap) return err(`'timeMs' ${t} is over the server's limit of ${cap} ms (--max-time)`);
      timeMs = t;
    }
    const out: Request = { kind, id: m.id as number, sp: sp.value, timeMs };
    if (kind === 'swap2') {
      if (typeof m.step !== 'string' || !STEPS.has(m.step)) return err("'step' must be propose, after-three or after-five");
      out.step = m.step as Swap2Step;
      const want = out.step === 'propose' ? 0 : out.step === 'after-three' ? 3 : 5;
      const ms = sp.value.moves;
      if (sp.value.setup.length > 0 || ms.length !== want)
        return err(`swap2 ${out.step} needs a move list of ${want} stones, got ${sp.value.setup.length + ms.length}`);
    } else {
      const over = gameOverReason(sp.value.pos.board);
      if (over) return err(over);
    }
    return ok(out);
  }

  private async run(req: Request): Promise<void> {
    if (this.closed) return;
    const { id, sp } = req;
    const size = sp.pos.size;
    const pt = (q: number) => makePoint(q, size);
    const where = { size, rule: sp.pos.rule, stones: [...sp.setup, ...sp.moves], seed: this.ctx.seed, ...(this.ctx.book ? { book: this.ctx.book } : {}) };
    let run: Running;
    try {
      if (req.kind === 'analyse' || req.kind === 'move') {
        const everyMs = Math.floor(1000 / this.ctx.updatesPerSecond);
        // analysis searches: the book has its own overlay, and its hit would end the search at once
        const task = { ...where, toMove: sp.pos.board.toMove, timeMs: req.timeMs, everyMs };
        if (req.kind === 'analyse') delete task.book;
        run = this.ctx.searches.think(task, (p: Progress) => {
          if (this.current?.id !== id) return;
          const nps = p.ms > 0 ? Math.round((p.nodes * 1000) / p.ms) : 0;
          this.send({
            type: 'info',
            id,
            depth: p.depth,
            score: p.score,
            scoreText: scoreText(p.score),
            nodes: p.nodes,
            nps,
            ms: p.ms,
            pv: p.pv.map(pt),
            stage: p.stage,
            iteration: p.iteration,
          });
        });
      } else if (req.kind === 'solve') {
        const t = positionText(sp);
        run = this.ctx.searches.solve({
          job: { position: t.text, size, rule: sp.pos.rule, ...(t.toMove ? { toMove: t.toMove } : {}), timeMs: req.timeMs, proof: true },
        });
      } else {
        run = this.ctx.searches.swap2({ ...where, step: req.step!, budgetMs: req.timeMs });
      }
    } catch (e) {
      this.send({ type: 'error', id, error: e instanceof BusyError ? e.message : `internal error: ${(e as Error).message}` });
      return;
    }
    const done = run.promise.then(
      (r) => this.send({ type: 'result', id, ...this.resultJson(req.kind, r, pt) }),
      (e: unknown) => {
        if (this.closed) return;
        const aborted = e instanceof Error && (e.name === 'AbortError' || /aborted|search ended/i.test(e.message));
        if (aborted) this.send({ type: 'cancelled', id });
        else this.send({ type: 'error', id, error: `internal error: ${e instanceof Error ? e.message : String(e)}` });
      },
    );
    this.current = { id, run, done };
    await done;
    if (this.current?.id === id) this.current = undefined;
  }

  private resultJson(kind: Kind, r: ServeResult, pt: (q: number) => string): ResultBody {
    if (r.kind === 'think') {
      return {
        kind: kind === 'analyse' ? 'analyse' : 'move',
        move: r.move >= 0 ? pt(r.move) : null,
        score: r.score,
        scoreText: scoreText(r.score),
        depth: r.depth,
        nodes: r.nodes,
        ms: r.ms,
        pv: r.pv.map(pt),
        source: r.source,
        stopped: r.stopped,
      };
    }
    if (r.kind === 'solve') return r;
    const stones = (l: { index: number; color: Color }[]) => l.map((s) => ({ point: pt(s.index), color: colorName(s.color) }));
    if (r.step === 'propose') return { kind: 'swap2', step: r.step, stones: stones(r.stones) };
    if (r.choice === 'add2') return { kind: 'swap2', step: r.step, choice: r.choice, stones: stones(r.stones) };
    if (r.choice === 'white') return { kind: 'swap2', step: r.step, choice: r.choice, move: pt(r.move) };
    return { kind: 'swap2', step: r.step, choice: r.choice };
  }
}
