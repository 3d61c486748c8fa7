/**
 * A book build worker on any machine (issue 21): finds the queues of running builds on a
 * Redis server (book/queue.ts), takes their jobs with BullMQ, runs them on its own piscina
 * pool, and puts each result on the queue's results stream before completing the job.
 *
 * The jobs run in piscina threads, so this process's event loop stays free to renew BullMQ's
 * job locks (every lockMs / 2): a job of minutes is not taken for stalled. A worker killed
 * with kill -9 stops renewing; after lockMs another worker's stalled check puts its jobs back.
 * A job that ran twice (stalled, then finished anyway) gives two results: the coordinator
 * keeps one.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { Worker, type ConnectionOptions, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { BookJob, BookJobResult } from '../book/job.js';
import { keys, type QueueResult, type QueueUrl, type QueuedJob } from '../book/queue.js';
import { probeRedis, redisOptions, type ProbeFailure } from '../book/queue-redis.js';
import { WORKER_TTL_S } from '../book/queue-coordinator.js';
import { createPool } from './pool.js';

export interface QueueWorkerOptions {
  url: QueueUrl;
  prefix: string;
  threads: number;
  /** gomoku-tss version + queue protocol: only queues of the same are served. */
  version: string;
  /** BullMQ lock duration, ms: how long a silent worker's jobs wait before another takes them. */
  lockMs: number;
  /** Jobs taken at once (default twice the threads: one runs while the next is fetched). */
  concurrency?: number;
  /** Runs a job (default: a piscina pool of workers/book-worker); tests put a double here. */
  runJob?: (job: BookJob) => Promise<BookJobResult>;
  log: (line: string) => void;
  onEvent?: (e: WorkerEvent) => void;
}

export type WorkerEvent =
  | { event: 'queue' | 'left'; queue: string }
  | { event: 'start'; queue: string; job: string }
  | { event: 'done'; queue: string; job: string; verdict: string; nodes: number; ms: number };

export interface QueueWorkerHandle {
  id: string;
  jobs(): number;
  queues(): string[];
  /** Stop taking jobs. `finish`: let the jobs in hand end and report them; otherwise hand them back to the queue at once. */
  stop(finish: boolean): Promise<void>;
}

export async function startQueueWorker(o: QueueWorkerOptions): Promise<{ ok: true; value: QueueWorkerHandle } | { ok: false; error: ProbeFailure }> {
  const probe = await probeRedis(o.url);
  if (probe)
    return {
      ok: false,
      error: { kind: probe.kind, message: `cannot ${probe.kind === 'auth' ? 'log in to' : 'reach'} Redis at ${o.url.display}: ${probe.message}` },
    };
  const k = keys(o.prefix);
  const id = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const cmd = new Redis(redisOptions(o.url));
  let lastErr = '';
  const warn = (line: string) => {
    if (line !== lastErr) o.log((lastErr = line));
  };
  cmd.on('error', (e: Error) => warn(`redis: ${e.message}; retrying`));
  const pool = o.runJob ? undefined : createPool('workers/book-worker', { workers: o.threads });
  const runJob = o.runJob ?? ((j: BookJob) => pool!.run(j) as Promise<BookJobResult>);
  const workers = new Map<string, Worker>();
  const skipped = new Set<string>();
  const active = new Map<string, { job: Job; token: string | undefined }>();
  let done = 0;
  let stopping = false;
  let handedBack = false;

  const process1 =
    (queue: string) =>
    async (job: Job<QueuedJob>, token?: string): Promise<null> => {
      const jid = job.id!;
      active.set(`${queue}/${jid}`, { job, token });
      o.onEvent?.({ event: 'start', queue, job: jid });
      try {
        let result: BookJobResult;
        try {
          result = await runJob(job.data.job);
        } catch (e) {
          // a thread that died: the coordinator logs it and redoes the job
          result = {
            id: job.data.job.id,
            verdict: 'unknown',
            score: 0,
            depth: 0,
            bestMove: null,
            method: 'error',
            nodes: 0,
            ms: 0,
            pv: [],
            error: e instanceof Error ? e.message : String(e),
          };
        }
        if (handedBack) return null; // stopped at once: the job is back in the queue, its result is not ours to give
        const entry: QueueResult = { jobId: jid, worker: id, result };
        // the result goes out before the job completes: a worker dying in between leaves a job
        // that stalls and runs again, a duplicate the coordinator drops; never a lost result
        await cmd.xadd(k.results(queue), '*', 'r', JSON.stringify(entry));
        done++;
        o.onEvent?.({ event: 'done', queue, job: jid, verdict: result.verdict, nodes: result.nodes, ms: result.ms });
        return null;
      } finally {
        active.delete(`${queue}/${jid}`);
      }
    };

  const serve = (queue: string) => {
    const w = new Worker<QueuedJob, null>(queue, process1(queue), {
      connection: redisOptions(o.url) as ConnectionOptions,
      prefix: o.prefix,
      concurrency: o.concurrency ?? Math.max(1, 2 * o.threads),
      lockDuration: o.lockMs,
      stalledInterval: o.lockMs,
      // a stalled job is redone, never failed: killed workers must not cost the build a position
      maxStalledCount: 1_000_000,
    });
    w.on('error', (e: Error) => {
      // BullMQ cannot finish a job Redis lost (restarted, emptied): the coordinator queues it again
      const lost = /^Missing (key|lock) for job (\S+)/.exec(e.message);
      warn(lost ? `job ${lost[2]} vanished from Redis (restarted or emptied?): its coordinator queues it again` : `redis (${queue}): ${e.message}; retrying`);
    });
    workers.set(queue, w);
    o.onEvent?.({ event: 'queue', queue });
  };

  const beat = async () => {
    await cmd
      .multi()
      .set(k.worker(id), JSON.stringify({ threads: o.threads, version: o.version, host: hostname(), pid: process.pid }), 'EX', WORKER_TTL_S)
      .sadd(k.workers, id)
      .exec();
  };

  /** Serve every registered queue of our version; say once which ones are not. */
  const discover = async () => {
    const names = await cmd.smembers(k.queues);
    // a build that ended (or a Redis emptied, until its coordinator registers again): let go of its queue
    for (const [q, w] of workers) {
      if (names.includes(q)) continue;
      workers.delete(q);
      void w.close().catch(() => {});
      o.onEvent?.({ event: 'left', queue: q });
    }
    for (const q of names) {
      if (workers.has(q) || skipped.has(q)) continue;
      const v = await cmd.hget(k.meta(q), 'version');
      if (v === null) continue;
      if (v !== o.version) {
        skipped.add(q);
        o.log(`queue '${q}' was made by gomoku-tss ${v}, this worker is ${o.version}: not served`);
        continue;
      }
      serve(q);
    }
  };

  const tick = async () => {
    if (stopping) return;
    try {
      await beat();
      await discover();
      lastErr = '';
    } catch (e) {
      warn(`redis: ${e instanceof Error ? e.message : String(e)}; retrying`);
    }
  };
  await tick();
  const timer = setInterval(() => void tick(), 1000);

  const handle: QueueWorkerHandle = {
    id,
    jobs: () => done,
    queues: () => [...workers.keys()],
    stop: async (finish) => {
      stopping = true;
      clearInterval(timer);
      if (!finish) {
        handedBack = true;
        // hand the jobs in hand back: the next worker takes them now, not after lockMs
        await Promise.all([...active.values()].map(({ job, token }) => job.moveToWait(token).catch(() => {})));
      }
      await Promise.all([...workers.values()].map((w) => w.close(!finish).catch(() => {})));
      await cmd
        .multi()
        .del(k.worker(id))
        .srem(k.workers, id)
        .exec()
        .catch(() => {});
      cmd.disconnect();
      await pool?.destroy();
    },
  };
  return { ok: true, value: handle };
}
