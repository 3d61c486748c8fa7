/**
 * The server's searches: a piscina pool of `--max-searches` workers running serve-worker
 * tasks, a count of the searches under way (a search over the cap is refused, not queued),
 * and for each search a handle that stops it: a think reads a shared stop flag and returns its
 * best move; anything that does not return in time (and every solve or Swap2 decision) is
 * ended by aborting its task, which ends its worker thread.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import { createPool } from '../../workers/pool.js';
import type { Progress, ServeResult, ServeTask, SolveTask, Swap2Task, ThinkTask } from '../../workers/serve-worker.js';

export interface SearchLimits {
  /** Searches at once, over every page. */
  maxSearches: number;
  /** The longest search time a request may ask for (ms). */
  maxTimeMs: number;
}

/** How long a stopped think may take to return its move before its worker is ended. */
const STOP_GRACE_MS = 2000;
/** A search still running this long after its own time limit is ended (a checker's budget included). */
const OVERRUN_MS = 10_000;

export interface Running {
  readonly promise: Promise<ServeResult>;
  /** Ask for the result now (a think returns its best move so far; others are ended). */
  stop(): void;
  /** End it at once, result or not. */
  abort(): void;
}

export class BusyError extends Error {}

export class Searches {
  private pool: Piscina | undefined;
  private running = 0;

  constructor(readonly limits: SearchLimits) {}

  /** Start the worker threads (once a page has connected, so that they do not slow its loading). */
  warmUp(): void {
    this.pool ??= createPool('workers/serve-worker', { workers: this.limits.maxSearches });
  }

  get active(): number {
    return this.running;
  }

  think(task: Omit<ThinkTask, 'kind' | 'stop' | 'port'>, onProgress: (p: Progress) => void): Running {
    const stop = new SharedArrayBuffer(4);
    const flag = new Int32Array(stop);
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (p: Progress) => onProgress(p));
    const t: ThinkTask = { ...task, kind: 'think', stop, port: port2 };
    return this.start(
      t,
      task.timeMs,
      [port2],
      () => Atomics.store(flag, 0, 1),
      () => port1.close(),
    );
  }

  solve(task: Omit<SolveTask, 'kind'>): Running {
    return this.start({ kind: 'solve', ...task }, (task.job.timeMs ?? 0) * 2);
  }

  swap2(task: Omit<Swap2Task, 'kind'>): Running {
    return this.start({ kind: 'swap2', ...task }, task.budgetMs * 4);
  }

  private start(task: ServeTask, timeMs: number, transferList: MessagePort[] = [], softStop?: () => void, cleanup?: () => void): Running {
    if (this.running >= this.limits.maxSearches) {
      cleanup?.();
      throw new BusyError(
        `busy: ${this.running} search${this.running === 1 ? ' is' : 'es are'} running (the server allows ${this.limits.maxSearches} at once: --max-searches)`,
      );
    }
    this.warmUp();
    this.running++;
    const ac = new AbortController();
    const timers: NodeJS.Timeout[] = [];
    const abort = () => ac.abort(new Error('search ended'));
    const stop = () => {
      if (!softStop) return abort();
      softStop();
      timers.push(setTimeout(abort, STOP_GRACE_MS));
    };
    timers.push(setTimeout(stop, timeMs + OVERRUN_MS));
    const promise = (this.pool!.run(task, { transferList: transferList as never, signal: ac.signal }) as Promise<ServeResult>).finally(() => {
      for (const t of timers) clearTimeout(t);
      this.running--;
      cleanup?.();
    });
    return { promise, stop, abort };
  }

  async close(): Promise<void> {
    const p = this.pool;
    this.pool = undefined;
    if (p) await p.destroy();
  }
}
