/**
 * `gomoku book build --book FILE --opening swap2|swap-after-3|first-stone|free --size N
 *   --rule R --region K --workers N --budget 10m|500`: grow the book by a job-level
 * proof-number search (book/builder.ts) with piscina workers (workers/book-worker.ts). Restarting the
 * same command after a crash or Ctrl-C resumes the build; nothing finished is lost.
 */
import type { CommandModule } from 'yargs';
import { EXIT_BUSY, EXIT_USAGE, usageError, withNumberOptions, withSizeOption } from '../common.js';
import { BookStore, describeHolder } from '../../book/store.js';
import { buildBook, buildStateName, type BuildBudget, type BuildProgress } from '../../book/builder.js';
// only types: bullmq and ioredis load when --queue is given (book query/stats start fast)
import type { QueueCoordinator, QueueStats } from '../../book/queue-coordinator.js';
import { queueName } from '../../book/queue.js';
import { queueArgs, queueVersion, withQueuePrefixOption } from '../queue-option.js';
import { OPENING_KINDS, type OpeningKind } from '../../book/roots.js';
import type { BookJob, BookJobResult } from '../../book/job.js';
import { createPool, defaultWorkers } from '../../workers/pool.js';
import type { Color, Rule } from '../../core/types.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parsePosition, resolveToMove } from '../../core/notation.js';
import { BLACK, WHITE } from '../../core/types.js';

/** Roots from a file: one position a line (formats.md section 1); blank lines and # comments skipped. */
export function parseRootsFile(text: string, size: number): { black: number[]; white: number[]; toMove: Color }[] | string {
  const out: { black: number[]; white: number[]; toMove: Color }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i]!.replace(/#.*$/, '').trim();
    if (t === '') continue;
    const spec = parsePosition(t, size);
    if (!spec.ok) return `line ${i + 1}: ${spec.error}`;
    const tm = resolveToMove(spec.value);
    if (!tm.ok) return `line ${i + 1}: ${tm.error}`;
    out.push({
      black: spec.value.moves.filter((m) => m.color === BLACK).map((m) => m.index),
      white: spec.value.moves.filter((m) => m.color === WHITE).map((m) => m.index),
      toMove: tm.value,
    });
  }
  return out.length > 0 ? out : 'no positions';
}

/** `10m`, `90s`, `1.5h`, `2000ms` -> time; `500` or `500j` -> jobs. */
export function parseBudget(text: string): BuildBudget | undefined {
  const t = text.trim().toLowerCase();
  const time = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(t);
  if (time) {
    const v = Number(time[1]);
    const mult = time[2] === 'ms' ? 1 : time[2] === 's' ? 1000 : time[2] === 'm' ? 60_000 : 3_600_000;
    return v > 0 ? { ms: Math.round(v * mult) } : undefined;
  }
  const jobs = /^(\d+)j?$/.exec(t);
  if (jobs && Number(jobs[1]) > 0) return { jobs: Number(jobs[1]) };
  return undefined;
}

function fmt(sec: number): string {
  if (!Number.isFinite(sec) || sec < 0) return '?';
  const s = Math.round(sec);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : m > 0 ? `${m}m${String(s % 60).padStart(2, '0')}s` : `${s % 60}s`;
}

/** One progress line: jobs/s, proven, disproven, open roots, ETA (of the budget); with a queue, its workers and jobs. */
export function progressLine(p: BuildProgress, q?: QueueStats): string {
  const el = p.elapsedMs / 1000;
  const rate = el > 0 ? p.jobs / el : 0;
  let eta = '?';
  let bar = '';
  if (p.budget.jobs !== undefined) {
    eta = rate > 0 ? fmt((p.budget.jobs - p.jobs) / rate) : '?';
    const w = 20;
    const f = Math.min(w, Math.round((p.jobs / p.budget.jobs) * w));
    bar = `[${'#'.repeat(f)}${'.'.repeat(w - f)}] `;
  } else if (p.budget.ms !== undefined) {
    eta = fmt((p.budget.ms - p.elapsedMs) / 1000);
    const w = 20;
    const f = Math.min(w, Math.round((p.elapsedMs / p.budget.ms) * w));
    bar = `[${'#'.repeat(f)}${'.'.repeat(w - f)}] `;
  }
  const queue = q ? ` workers ${q.workers} (${q.threads} thread${q.threads === 1 ? '' : 's'}) queued ${q.waiting} in flight ${q.active}` : '';
  return `book ${bar}jobs ${p.jobs} (${rate.toFixed(rate < 10 ? 2 : 0)}/s)${queue} proven ${p.proven} disproven ${p.disproven} roots open ${p.openRoots}/${p.roots} positions ${p.positions} eta ${eta}`;
}

/** The queue's counters at the end of a build, for the summary line (only those that happened). */
function queueSummary(q: QueueStats): string {
  const parts: string[] = [];
  if (q.reused) parts.push(`${q.reused} results of an earlier run used`);
  if (q.requeued) parts.push(`${q.requeued} vanished jobs queued again`);
  if (q.rejected) parts.push(`${q.rejected} results rejected by the checker`);
  if (q.malformed) parts.push(`${q.malformed} malformed results`);
  if (q.unclaimed) parts.push(`${q.unclaimed} results not needed`);
  return parts.length ? `; queue: ${parts.join(', ')}` : '';
}

export const command: CommandModule = {
  command: 'build',
  describe: 'grow the opening book by job-level proof-number search (resumable)',
  builder: (y) =>
    withNumberOptions(withQueuePrefixOption(withSizeOption(y)), {
      region: { kind: 'positive-int', max: 22, default: 5, describe: 'roots use the central K x K region' },
      workers: { kind: 'positive-int', max: 256, describe: 'worker threads (default: all cores)' },
      'solve-nodes': { kind: 'count', default: 20000, describe: 'solver node budget per job' },
      'score-nodes': { kind: 'count', default: 20000, describe: 'engine node budget per scoring job' },
      'pass-nodes': {
        kind: 'count',
        default: 0,
        describe:
          'with --pass-for: node budget of a pass job (a proof by pass and zone, tried where the solve left the position unknown; one that wins the pass child but not every reply is kept as a pass tree)',
      },
      'pass-max-nodes': {
        kind: 'count',
        default: 0,
        describe:
          'with --pass-nodes: a pass job that settles nothing is run again, each time with 3x the nodes its position has taken and in another of the 8 orientations, until the position has taken this many; only then are its replies listed (default: --pass-nodes, no second try)',
      },
    })
      .option('pass-for', { choices: ['black', 'white'] as const, describe: "pass jobs at this side's nodes (the side expected to lose; needs --pass-nodes)" })
      .option('book', { type: 'string', demandOption: true, requiresArg: true, describe: 'book file (created if missing)' })
      .option('opening', { choices: OPENING_KINDS, default: 'swap2' as OpeningKind, describe: 'which openings are the roots' })
      .option('rule', { choices: ['freestyle', 'standard'] as const, default: 'freestyle' as const, describe: 'five or more wins, or exactly five' })
      .option('roots', { type: 'string', requiresArg: true, describe: 'build from the positions in FILE (one a line) instead of --opening' })
      .option('budget', {
        type: 'string',
        default: '500',
        requiresArg: true,
        describe: "this run's time ('10m', '90s', '1h') or number of jobs ('500'), counted from its start (a resumed build gets a fresh budget)",
      })
      .option('compact', {
        type: 'boolean',
        default: true,
        describe: 'at the end, drop children that were listed but never evaluated (--no-compact keeps them)',
      })
      .option('queue', {
        type: 'string',
        requiresArg: true,
        describe:
          'coordinate a build on many machines: jobs go to a BullMQ queue on this Redis (redis://HOST[:PORT][/DB], rediss:// for TLS), run by `gomoku book worker` processes',
      })
      .option('quiet', { type: 'boolean', default: false, describe: 'no progress bar' })
      .option('force-unlock', {
        type: 'boolean',
        default: false,
        describe: "take the book's writer lock even from a builder that looks alive or runs on another host (only when you know it has stopped)",
      })
      .epilog(
        'With --queue the jobs go to the queue and the results come back from it: start `gomoku book worker --queue URL` on any machine, before or after. ' +
          'Ctrl-C stops handing out jobs and writes the ones in flight; run the same command again to resume. ' +
          'One builder per book: a second one is refused at once, naming the first (exit 75); the lock of a builder that died is taken over.',
      ),
  handler: async (argv) => {
    const a = argv as Record<string, unknown>;
    const withQueue = typeof a.queue === 'string' ? queueArgs(a) : undefined;
    if (typeof withQueue === 'string') return usageError(withQueue);
    if (withQueue && a.workers !== undefined) return usageError('--workers is for a local build; with --queue each `gomoku book worker` takes --threads');
    const size = a.size as number;
    if (!Number.isInteger(size) || size < 5 || size > 22) return usageError(`board size ${String(a.size)} is not in 5..22`);
    const region = a.region as number;
    if (!Number.isInteger(region) || region < 1 || region > size) return usageError(`--region must be an integer in 1..${size}, got '${String(a.region)}'`);
    const workers = a.workers === undefined ? defaultWorkers() : (a.workers as number);
    if (!Number.isInteger(workers) || workers < 1 || workers > 256) return usageError(`--workers must be a positive integer, got '${String(a.workers)}'`);
    const budget = parseBudget(String(a.budget));
    if (!budget) return usageError(`bad --budget '${String(a.budget)}' (a time like 10m, 90s, 1h, or a number of jobs like 500)`);
    for (const f of ['solveNodes', 'scoreNodes'] as const) {
      const v = a[f];
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
        return usageError(`--${f === 'solveNodes' ? 'solve-nodes' : 'score-nodes'} must be a non-negative integer`);
    }
    const passNodes = a.passNodes as number;
    if ((a.passFor === undefined) !== (passNodes === 0)) return usageError('--pass-for and --pass-nodes go together');
    const passMaxNodes = a.passMaxNodes as number;
    if (passMaxNodes > 0 && passNodes === 0) return usageError('--pass-max-nodes needs --pass-nodes');
    let roots: { black: number[]; white: number[]; toMove: Color }[] | undefined;
    if (typeof a.roots === 'string') {
      let text: string;
      try {
        text = readFileSync(a.roots, 'utf8');
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        return usageError(`cannot read '${a.roots}'${code ? ` (${code})` : ''}`);
      }
      const parsed = parseRootsFile(text, size);
      if (typeof parsed === 'string') return usageError(`${a.roots}: ${parsed}`);
      roots = parsed;
    }
    const opened = BookStore.open(String(a.book));
    if (!opened.ok) return usageError(opened.error);
    const store = opened.value;
    // The lock is held from here to the end of the clean-up (compaction, VACUUM), not only the build.
    const command = `gomoku ${process.argv.slice(2).join(' ')}`;
    const lock = store.acquireWriterLock({ force: a.forceUnlock === true, command: command.length > 200 ? `${command.slice(0, 200)}…` : command });
    if (!lock.ok) {
      store.close();
      process.stderr.write(`gomoku: ${lock.error.message}\n`);
      process.exitCode = EXIT_BUSY;
      return;
    }
    if (lock.value.tookOver) {
      const how = a.forceUnlock === true ? 'forced' : 'it is no longer running';
      process.stderr.write(`gomoku: took over the book's writer lock from ${describeHolder(lock.value.tookOver)} (${how})\n`);
    }
    const config = { opening: roots ? `roots:${path.basename(String(a.roots))}` : (a.opening as OpeningKind), size, rule: a.rule as Rule, region };
    let pool: ReturnType<typeof createPool> | undefined;
    let coordinator: QueueCoordinator | undefined;
    if (withQueue) {
      // the book's own id tells its queue from another book's of the same file name
      const { QueueCoordinator, newBookId } = await import('../../book/queue-coordinator.js');
      let bookId = store.getState('queue-book-id');
      if (bookId === undefined) store.setState('queue-book-id', (bookId = newBookId()));
      const c = await QueueCoordinator.connect({
        ...withQueue,
        bookFile: path.resolve(String(a.book)),
        bookId,
        version: queueVersion(),
        config: buildStateName(config),
        queue: queueName(String(a.book)),
        log: (line) => process.stderr.write(`${process.stderr.isTTY ? '\r\x1b[K' : ''}gomoku: ${line}\n`),
      });
      if (!c.ok) {
        store.close();
        process.stderr.write(`gomoku: ${c.error.message}\n`);
        // Redis away, or the queue held by another book's build: try again later; a wrong password or version: fix the command
        process.exitCode = c.error.kind === 'unreachable' || c.error.kind === 'foreign' ? EXIT_BUSY : EXIT_USAGE;
        return;
      }
      coordinator = c.value;
    } else {
      try {
        pool = createPool('workers/book-worker', { workers });
      } catch (e) {
        store.close();
        return usageError(e instanceof Error ? e.message : String(e));
      }
    }
    let stop = false;
    const onSigint = () => {
      if (stop) process.exit(130);
      stop = true;
      process.stderr.write('\nstopping: finishing the jobs in flight (Ctrl-C again to quit at once)\n');
    };
    process.on('SIGINT', onSigint);
    const tty = Boolean(process.stderr.isTTY);
    let last = 0;
    const quiet = a.quiet === true;
    let drained = false;
    try {
      const summary = await buildBook({
        store,
        ...config,
        ...(roots ? { roots } : {}),
        concurrency: coordinator ? () => coordinator.capacity() : workers * 2,
        budget,
        solveNodes: a.solveNodes as number,
        scoreNodes: a.scoreNodes as number,
        ...(passNodes > 0 ? { passNodes, passFor: (a.passFor === 'black' ? BLACK : WHITE) as Color, ...(passMaxNodes > 0 ? { passMaxNodes } : {}) } : {}),
        runJob: coordinator ? coordinator.run : (job: BookJob) => pool!.run(job) as Promise<BookJobResult>,
        // the queue's results come in bursts: one SQLite commit for each (the local build keeps one a result)
        ...(coordinator ? { groupWrites: 256 } : {}),
        shouldStop: () => stop,
        // quiet: no callback at all, so the builder does not count open roots after every result
        onProgress: quiet
          ? undefined
          : (p) => {
              const t = Date.now();
              if (t - last < (tty ? 200 : 5000)) return;
              last = t;
              const line = progressLine(p, coordinator?.stats());
              process.stderr.write(tty ? `\r\x1b[K${line}` : line + '\n');
            },
      });
      drained = true;
      if (!quiet) process.stderr.write((tty ? `\r\x1b[K` : '') + progressLine(summary, coordinator?.stats()) + '\n');
      if (a.compact !== false) {
        const c = store.compact();
        if (!quiet && c.positions > 0) process.stderr.write(`compacted: ${c.positions} listed-only positions dropped (${c.parents} nodes to list again)\n`);
      }
      store.settle();
      process.stdout.write(
        `${summary.stoppedBy === 'done' ? 'done' : summary.stoppedBy === 'stop' ? 'stopped' : 'budget spent'}: ${summary.jobs} jobs in ${(summary.elapsedMs / 1000).toFixed(1)} s, ` +
          `${summary.proven} proven, ${summary.disproven} disproven, ${summary.openRoots}/${summary.roots} roots open, ${summary.positions} positions` +
          `${summary.resumedJobs ? `, ${summary.resumedJobs} interrupted jobs redone` : ''}${summary.errors ? `, ${summary.errors} job errors` : ''}${summary.zoneRejected ? `, ${summary.zoneRejected} pass-tree disproofs refused by the checker` : ''}${summary.zoneHeld ? `, ${summary.zoneHeld} held open (the checker ran out of time)` : ''}${coordinator ? queueSummary(coordinator.stats()) : ''}\n`,
      );
    } finally {
      process.off('SIGINT', onSigint);
      await pool?.destroy();
      // a build that ended normally leaves no queue behind; otherwise the same command resumes it
      await coordinator?.close(drained);
      store.close();
    }
  },
};
