/**
 * The coordinator's side of the book build's job queue (issue 21): a `runJob` for buildBook
 * that puts each job in a BullMQ queue named after the book and resolves it when a worker's
 * result comes back on the results stream (keys and ids: book/queue.ts). The PN selection and
 * the single SQLite writer stay in builder.ts; this only moves jobs.
 *
 * Nothing lost, nothing doubled, nothing false:
 *  - results are read from a Redis stream and trimmed only after the builder applied them (the
 *    builder applies a resolved result in the same turn of the event loop), so a coordinator
 *    killed at any moment finds the unapplied ones on restart;
 *  - a job id is position + kind + budget: a restart that selects a queued position again adds
 *    a job BullMQ already holds, a no-op; a result already there is used without queueing;
 *  - a job that vanished from Redis (restarted, emptied) is queued again once it has been
 *    missing at two checks in a row with no result (the gap covers a result on its way);
 *  - a result is a worker's claim: its shape is checked, and a win or loss is written only if
 *    this process's checker (proof/) accepts its certificate on the job's own board; otherwise
 *    the job is redone under a new id, and after MAX_ATTEMPTS it is written as unknown.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { Queue, type ConnectionOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { positionKey } from '../core/symmetry.js';
import { checkedPassTree, proofRejection, type BookJob, type BookJobResult } from './job.js';
import { baseJobId, jobId, keys, malformed, redoId, type QueueResult, type QueueUrl, type QueuedJob } from './queue.js';
import { probeRedis, redisOptions } from './queue-redis.js';

/** Attempts of one job before a result the checker keeps rejecting is written as unknown. */
const MAX_ATTEMPTS = 3;
/** How often the coordinator refreshes its registration, counts workers and checks its jobs. */
const TICK_MS = 1000;
/** A worker is counted while its heartbeat key lives (it refreshes it every second). */
export const WORKER_TTL_S = 5;
/** Results of earlier runs kept for a position selected again (beyond this, dropped: only work lost). */
const MAX_ORPHANS = 100_000;

export interface CoordinatorOptions {
  url: QueueUrl;
  prefix: string;
  bookFile: string;
  /** The book's own id (store state), so that another book's queue of the same name is refused. */
  bookId: string;
  /** gomoku-tss version + queue protocol: workers of another version do not serve this queue. */
  version: string;
  /** The build's configuration (buildStateName), for the queue's metadata. */
  config: string;
  queue: string;
  /** One line for the operator (rejected results, vanished jobs, lost connection). */
  log: (line: string) => void;
  /** Checker time limit per certificate, ms (default 2000). */
  checkMs?: number;
}

export type ConnectError = { kind: 'unreachable' | 'auth' | 'foreign' | 'version'; message: string };

export interface QueueStats {
  /** Workers seen (their heartbeats) and their threads. */
  workers: number;
  threads: number;
  /** BullMQ's counts: waiting for a worker, taken by one. */
  waiting: number;
  active: number;
  /** Jobs of this run not yet back. */
  inFlight: number;
  /** Results with no job of this run waiting for them (a job that ran twice, an earlier run's job). */
  unclaimed: number;
  requeued: number;
  rejected: number;
  malformed: number;
  reused: number;
}

interface Pending {
  job: BookJob;
  key: string;
  base: string;
  id: string;
  attempt: number;
  /** When the add was confirmed by Redis (0: not yet). */
  addedAt: number;
  /** Missing from Redis at the last check. */
  suspect: boolean;
  resolve: (r: BookJobResult) => void;
}

export class QueueCoordinator {
  private readonly k: ReturnType<typeof keys>;
  private readonly pending = new Map<string, Pending>();
  private readonly orphans = new Map<string, QueueResult>();
  private toAdd: Pending[] = [];
  private flushScheduled = false;
  private lastId = '0-0';
  private closed = false;
  private tick: NodeJS.Timeout | undefined;
  private reader: Promise<void> | undefined;
  private readonly s: QueueStats = { workers: 0, threads: 0, waiting: 0, active: 0, inFlight: 0, unclaimed: 0, requeued: 0, rejected: 0, malformed: 0, reused: 0 };
  private lastErr = '';

  private constructor(
    private readonly o: CoordinatorOptions,
    private readonly cmd: Redis,
    private readonly blocking: Redis,
    private readonly queue: Queue,
  ) {
    this.k = keys(o.prefix);
  }

  /** Reach Redis, refuse another book's or version's queue, register, and read what earlier runs left. */
  static async connect(o: CoordinatorOptions): Promise<{ ok: true; value: QueueCoordinator } | { ok: false; error: ConnectError }> {
    const probe = await probeRedis(o.url);
    if (probe) return { ok: false, error: { kind: probe.kind, message: `cannot ${probe.kind === 'auth' ? 'log in to' : 'reach'} Redis at ${o.url.display}: ${probe.message}` } };
    const cmd = new Redis(redisOptions(o.url));
    const k = keys(o.prefix);
    const meta = await cmd.hgetall(k.meta(o.queue));
    const where = `queue '${o.queue}' at ${o.url.display} (prefix '${o.prefix}')`;
    if (meta.book !== undefined && meta.book !== o.bookId) {
      cmd.disconnect();
      return {
        ok: false,
        error: { kind: 'foreign', message: `${where} belongs to another book (${meta.file ?? '?'} on ${meta.host ?? '?'}); use another Redis database (/DB) or --queue-prefix` },
      };
    }
    if (meta.version !== undefined && meta.version !== o.version) {
      cmd.disconnect();
      return {
        ok: false,
        error: { kind: 'version', message: `${where} was made by gomoku-tss ${meta.version}, this is ${o.version}; finish it with that version, or use another database or --queue-prefix` },
      };
    }
    const blocking = new Redis(redisOptions(o.url));
    const queue = new Queue(o.queue, { connection: redisOptions(o.url) as ConnectionOptions, prefix: o.prefix });
    const c = new QueueCoordinator(o, cmd, blocking, queue);
    for (const r of [cmd, blocking]) r.on('error', (e: Error) => c.warn(`redis: ${e.message}; retrying`));
    queue.on('error', (e: Error) => c.warn(`redis: ${e.message}; retrying`));
    await c.register();
    await c.readLeftovers();
    c.reader = c.readLoop();
    c.tick = setInterval(() => void c.onTick(), TICK_MS);
    await c.onTick();
    return { ok: true, value: c };
  }

  /** A warning line, not repeated while the same error persists. */
  private warn(line: string): void {
    if (line === this.lastErr) return;
    this.lastErr = line;
    this.o.log(line);
  }

  private async register(): Promise<void> {
    const o = this.o;
    // rewritten every tick: after Redis was emptied the sentinel comes back and workers find the queue
    await this.cmd
      .multi()
      .hset(this.k.meta(o.queue), { book: o.bookId, file: o.bookFile, host: hostname(), pid: String(process.pid), version: o.version, config: o.config, seen: String(Date.now()) })
      .sadd(this.k.queues, o.queue)
      .exec();
  }

  /** Results already on the stream (a killed coordinator's jobs that finished): kept for the positions selected again. */
  private async readLeftovers(): Promise<void> {
    for (;;) {
      const start = this.lastId === '0-0' ? '-' : `(${this.lastId}`;
      const batch = (await this.cmd.xrange(this.k.results(this.o.queue), start, '+', 'COUNT', 1000)) as [string, string[]][];
      if (batch.length === 0) return;
      for (const [id, fields] of batch) {
        this.lastId = id;
        const e = parseEntry(fields);
        if (e && this.orphans.size < MAX_ORPHANS) this.orphans.set(baseJobId(e.jobId), e);
      }
    }
  }

  /** Jobs the builder may have in flight: about twice the worker threads seen (at least 2, so work is ready for the first). */
  capacity(): number {
    return Math.max(2, 2 * this.s.threads);
  }

  stats(): QueueStats {
    return { ...this.s, inFlight: this.pending.size };
  }

  /** buildBook's runJob: queue the job (batched), resolve with its checked result. */
  run = (job: BookJob): Promise<BookJobResult> => {
    // the builder's jobs are in the book's canonical orientation already: their key is the stored one
    const key = positionKey(job.size, job.black, job.white, job.toMove);
    // the coordinator checks every win or loss itself: the worker need not
    const j: BookJob = { ...job, check: false };
    const base = jobId(j, key);
    return new Promise<BookJobResult>((resolve) => {
      const p: Pending = { job: j, key, base, id: base, attempt: 1, addedAt: 0, suspect: false, resolve };
      this.pending.set(base, p);
      const left = this.orphans.get(base);
      if (left) {
        this.orphans.delete(base);
        this.s.reused++;
        this.accept(p, left);
        return;
      }
      this.enqueue(p);
    });
  };

  private enqueue(p: Pending): void {
    p.addedAt = 0;
    p.suspect = false;
    this.toAdd.push(p);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // one addBulk for all the jobs the builder hands out in this turn of the event loop
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const batch = this.toAdd;
    this.toAdd = [];
    if (batch.length === 0 || this.closed) return;
    try {
      await this.queue.addBulk(
        batch.map((p) => ({
          name: 'job',
          data: { key: p.key, job: p.job } satisfies QueuedJob,
          // a job that failed for good (its worker could not reach Redis) vanishes and is queued again
          opts: { jobId: p.id, removeOnComplete: true, removeOnFail: true, attempts: 3, backoff: { type: 'fixed', delay: 1000 } },
        })),
      );
      const t = Date.now();
      for (const p of batch) if (p.addedAt === 0) p.addedAt = t;
    } catch (e) {
      // left with addedAt 0: the next check queues them again
      this.warn(`redis: could not queue ${batch.length} jobs (${e instanceof Error ? e.message : String(e)}); retrying`);
      for (const p of batch) p.addedAt = 1;
    }
  }

  /** Read results as they come (blocking read on its own connection). */
  private async readLoop(): Promise<void> {
    const stream = this.k.results(this.o.queue);
    while (!this.closed) {
      let got: [string, [string, string[]][]][] | null;
      try {
        got = (await this.blocking.xread('COUNT', 1000, 'BLOCK', 1000, 'STREAMS', stream, this.lastId)) as [string, [string, string[]][]][] | null;
      } catch (e) {
        if (this.closed) return;
        this.warn(`redis: ${e instanceof Error ? e.message : String(e)}; retrying`);
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      if (!got || got.length === 0) continue;
      const entries = got[0]![1];
      for (const [id, fields] of entries) {
        this.lastId = id;
        this.onEntry(fields);
      }
      // the builder applies a resolved result in microtasks, before this macrotask boundary ends
      await new Promise((r) => setImmediate(r));
      await this.trim();
    }
  }

  /** Drop the stream entries read so far (all applied, or kept in memory as orphans). */
  private async trim(): Promise<void> {
    const [ms, seq] = this.lastId.split('-').map(Number) as [number, number];
    try {
      await this.cmd.xtrim(this.k.results(this.o.queue), 'MINID', `${ms}-${seq + 1}`);
    } catch {
      // trimmed at the next batch; a re-read entry is a duplicate, and duplicates are dropped
    }
  }

  private onEntry(fields: string[]): void {
    const e = parseEntry(fields);
    if (!e) {
      this.s.malformed++;
      this.o.log(`a result that does not parse was dropped (its job is queued again when found missing)`);
      return;
    }
    const base = baseJobId(e.jobId);
    const p = this.pending.get(base);
    if (!p) {
      // a second result of a job that stalled and ran twice, or of an earlier run's job
      this.s.unclaimed++;
      if (this.orphans.size < MAX_ORPHANS && !this.orphans.has(base)) this.orphans.set(base, e);
      return;
    }
    this.accept(p, e);
  }

  /** Check a worker's result; resolve the builder's job with it, or redo the job. */
  private accept(p: Pending, e: QueueResult): void {
    const bad = malformed(e.result, p.job.size);
    if (bad) {
      this.s.malformed++;
      this.o.log(`malformed result from worker ${e.worker} for ${p.id} (${bad}): job redone`);
      return this.redo(p, `malformed result (${bad})`, 0);
    }
    const r = e.result;
    if (r.method === 'error') {
      // the worker's thread failed (out of memory, a crash): perhaps not the job's fault
      this.o.log(`worker ${e.worker} failed on ${p.id} (${r.error ?? 'no reason given'}): job redone`);
      return this.redo(p, `worker error (${r.error ?? '?'})`, 0);
    }
    const rejected = proofRejection(p.job, r, this.o.checkMs ?? 2000);
    if (rejected) {
      this.s.rejected++;
      this.o.log(`the checker rejects the ${r.verdict} from worker ${e.worker} for ${p.id}: ${rejected}; job redone`);
      return this.redo(p, `rejected ${r.verdict} (${rejected})`, r.nodes);
    }
    this.pending.delete(p.base);
    // the row id is the coordinator's own, not the worker's echo
    const { passTree, ...rest } = r;
    const kept = passTree && r.verdict === 'unknown' ? checkedPassTree(p.job, passTree, this.o.checkMs ?? 2000) : undefined;
    if (passTree && !kept) this.o.log(`the checker rejects the pass child from worker ${e.worker} for ${p.id}: pass tree dropped`);
    p.resolve({ ...rest, id: p.job.id, ...(kept ? { passTree: kept } : {}) });
  }

  private redo(p: Pending, why: string, nodes: number): void {
    if (p.attempt >= MAX_ATTEMPTS) {
      this.pending.delete(p.base);
      p.resolve({ id: p.job.id, verdict: 'unknown', score: 0, depth: 0, bestMove: null, method: 'rejected', nodes, ms: 0, pv: [], error: `${why}, ${p.attempt} times` });
      return;
    }
    p.attempt++;
    p.id = redoId(p.base, p.attempt);
    this.enqueue(p);
  }

  private async onTick(): Promise<void> {
    if (this.closed) return;
    try {
      await this.register();
      await this.countWorkers();
      await this.checkVanished();
      const c = await this.queue.getJobCounts('waiting', 'active', 'prioritized');
      this.s.waiting = (c.waiting ?? 0) + (c.prioritized ?? 0);
      this.s.active = c.active ?? 0;
      this.lastErr = '';
    } catch (e) {
      if (!this.closed) this.warn(`redis: ${e instanceof Error ? e.message : String(e)}; retrying`);
    }
  }

  private async countWorkers(): Promise<void> {
    const ids = await this.cmd.smembers(this.k.workers);
    if (ids.length === 0) {
      this.s.workers = this.s.threads = 0;
      return;
    }
    const beats = await this.cmd.mget(ids.map((id) => this.k.worker(id)));
    let workers = 0;
    let threads = 0;
    const dead: string[] = [];
    for (let i = 0; i < ids.length; i++) {
      const b = beats[i];
      if (b === null || b === undefined) {
        dead.push(ids[i]!);
        continue;
      }
      try {
        const w = JSON.parse(b) as { threads?: number; version?: string };
        if (w.version !== this.o.version || typeof w.threads !== 'number') continue;
        workers++;
        threads += w.threads;
      } catch {
        // not a worker of ours
      }
    }
    if (dead.length) await this.cmd.srem(this.k.workers, ...dead);
    this.s.workers = workers;
    this.s.threads = threads;
  }

  /** Queue again the jobs missing from Redis at two checks in a row with no result meanwhile. */
  private async checkVanished(): Promise<void> {
    const t = Date.now();
    const due: Pending[] = [];
    for (const p of this.pending.values()) if (p.addedAt !== 0 && t - p.addedAt >= TICK_MS) due.push(p);
    if (due.length === 0) return;
    const ids = due.map((p) => p.id);
    const pipe = this.cmd.pipeline();
    for (const id of ids) pipe.exists(`${this.o.prefix}:${this.o.queue}:${id}`);
    const res = (await pipe.exec()) ?? [];
    let again = 0;
    for (let i = 0; i < due.length; i++) {
      const p = due[i]!;
      if (this.pending.get(p.base) !== p || p.id !== ids[i] || p.addedAt === 0) continue; // answered or redone meanwhile
      if (p.addedAt === 1) {
        this.enqueue(p); // its add failed
        continue;
      }
      if (res[i]?.[1] === 1) {
        p.suspect = false;
        continue;
      }
      if (!p.suspect) {
        p.suspect = true; // perhaps finished, its result on the way: look again next tick
        continue;
      }
      again++;
      this.s.requeued++;
      this.enqueue(p);
    }
    if (again > 0) this.o.log(`${again} queued job${again === 1 ? '' : 's'} vanished from Redis (restarted or emptied?): queued again`);
  }

  /**
   * Stop. `clean` (the build ended and drained): remove the queue, its results and its
   * registration. Otherwise (stopped at once) leave them for the next run of the same command.
   */
  async close(clean: boolean): Promise<void> {
    this.closed = true;
    if (this.tick) clearInterval(this.tick);
    try {
      if (clean && this.pending.size === 0) {
        // unregister first and give the workers a tick to let go, so that none of them
        // writes the queue's keys again after it is removed
        await this.cmd.multi().del(this.k.meta(this.o.queue)).srem(this.k.queues, this.o.queue).exec();
        await new Promise((r) => setTimeout(r, TICK_MS + 500));
        await this.queue.obliterate({ force: true });
        await this.cmd.del(this.k.results(this.o.queue));
      }
    } catch (e) {
      this.o.log(`redis: could not remove the queue (${e instanceof Error ? e.message : String(e)})`);
    } finally {
      this.blocking.disconnect();
      await this.reader?.catch(() => {});
      await this.queue.close().catch(() => {});
      this.cmd.disconnect();
    }
  }
}

/** A results stream entry's fields (`r`, JSON), or undefined when it is not one. */
function parseEntry(fields: string[]): QueueResult | undefined {
  const i = fields.indexOf('r');
  if (i < 0 || i + 1 >= fields.length) return undefined;
  try {
    const v = JSON.parse(fields[i + 1]!) as Partial<QueueResult>;
    if (typeof v.jobId !== 'string' || typeof v.worker !== 'string' || v.result === undefined) return undefined;
    return v as QueueResult;
  } catch {
    return undefined;
  }
}

/** A new book's id for its queue metadata (stored once in the book). */
export function newBookId(): string {
  return randomUUID();
}
