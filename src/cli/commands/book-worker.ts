/**
 * `gomoku book worker --queue redis://HOST[:PORT][/DB] [--threads N]`: run book build jobs
 * for the coordinators (`gomoku book build --queue`) on the same Redis, on this machine's
 * piscina pool (workers/queue-worker.ts). Start it before or after a coordinator; it serves
 * every build of its version on that Redis. Ctrl-C finishes the jobs in hand, a second
 * Ctrl-C hands them back to the queue at once.
 */
import type { CommandModule } from 'yargs';
import { EXIT_BUSY, EXIT_USAGE, printJson, usageError, withNumberOptions } from '../common.js';
import { defaultWorkers } from '../../workers/pool.js';
import { queueArgs, queueVersion, withQueuePrefixOption } from '../queue-option.js';

export const command: CommandModule = {
  command: 'worker',
  describe: 'run book build jobs from a job queue (for `book build --queue`), on any machine',
  builder: (y) =>
    withNumberOptions(withQueuePrefixOption(y), {
      threads: { kind: 'positive-int', max: 256, describe: 'solver threads (default: all cores)' },
      'lock-ms': {
        kind: 'positive-int',
        min: 1000,
        default: 30_000,
        describe:
          'BullMQ job lock, ms: a job of a worker that stopped answering (kill -9, a lost host) goes to another after this; renewed every half of it while the job runs',
      },
    })
      .option('queue', {
        type: 'string',
        demandOption: true,
        requiresArg: true,
        describe: 'the Redis of the coordinator: redis://[USER:PASSWORD@]HOST[:PORT][/DB], rediss:// for TLS',
      })
      .option('json', { type: 'boolean', default: false, describe: 'one JSON object a line on stdout for each event (queue joined, job started, job done)' })
      .option('quiet', { type: 'boolean', default: false, describe: 'no progress line' })
      .epilog(
        'Ctrl-C finishes the jobs in hand and stops; a second Ctrl-C hands them back to the queue at once. Exit status: 0 stopped, 2 bad usage or refused login, 75 Redis does not answer.',
      ),
  handler: async (argv) => {
    const a = argv as Record<string, unknown>;
    const q = queueArgs(a);
    if (typeof q === 'string') return usageError(q);
    const threads = a.threads === undefined ? defaultWorkers() : (a.threads as number);
    const json = a.json === true;
    const tty = Boolean(process.stderr.isTTY) && !json;
    const clear = tty ? '\r\x1b[K' : '';
    // bullmq and ioredis load only for this command
    const { startQueueWorker } = await import('../../workers/queue-worker.js');
    const started = await startQueueWorker({
      ...q,
      threads,
      version: queueVersion(),
      lockMs: a.lockMs as number,
      log: (line) => process.stderr.write(`${clear}gomoku: ${line}\n`),
      ...(json ? { onEvent: (e) => printJson(e) } : {}),
    });
    if (!started.ok) {
      process.stderr.write(`gomoku: ${started.error.message}\n`);
      process.exitCode = started.error.kind === 'auth' ? EXIT_USAGE : EXIT_BUSY;
      return;
    }
    const w = started.value;
    if (!json) process.stderr.write(`gomoku: worker ${w.id} on ${q.url.display} (prefix '${q.prefix}'), ${threads} thread${threads === 1 ? '' : 's'}\n`);
    const t0 = Date.now();
    const line = () => {
      const el = (Date.now() - t0) / 1000;
      const rate = el > 0 ? w.jobs() / el : 0;
      return `worker: queues ${w.queues().length} jobs ${w.jobs()} (${rate.toFixed(rate < 10 ? 2 : 0)}/s)`;
    };
    const show = a.quiet !== true && !json;
    const timer = show ? setInterval(() => process.stderr.write(tty ? `\r\x1b[K${line()}` : `${line()}\n`), tty ? 500 : 10_000) : undefined;
    await new Promise<void>((resolve) => {
      let asked = 0;
      const onSignal = () => {
        asked++;
        if (asked === 1) {
          process.stderr.write(`${clear}gomoku: stopping: finishing the jobs in hand (Ctrl-C again to hand them back at once)\n`);
          void w.stop(true).then(resolve);
        } else if (asked === 2) {
          process.stderr.write(`${clear}gomoku: handing the jobs in hand back to the queue\n`);
          void w.stop(false).then(resolve);
        } else process.exit(130);
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
    });
    if (timer) clearInterval(timer);
    if (show) process.stderr.write(`${clear}${line()}\n`);
  },
};
