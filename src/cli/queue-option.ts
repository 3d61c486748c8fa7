/** The job queue options shared by `book build --queue` and `book worker` (issue 21). */
import type { Argv } from 'yargs';
import { QUEUE_PROTOCOL, checkPrefix, parseQueueUrl, type QueueUrl } from '../book/queue.js';
import { packageVersion } from './version.js';

/** What a queue's jobs and workers must agree on: the package version and the queue protocol. */
export function queueVersion(): string {
  return `${packageVersion()}/q${QUEUE_PROTOCOL}`;
}

export function withQueuePrefixOption<T>(y: Argv<T>): Argv<T & { queuePrefix: string }> {
  return y.option('queue-prefix', {
    type: 'string',
    default: 'gomoku',
    requiresArg: true,
    describe: 'the Redis key prefix of the queues (coordinator and workers must agree; one Redis can hold several)',
  }) as unknown as Argv<T & { queuePrefix: string }>;
}

/** The --queue URL and --queue-prefix, checked: the values, or the one-line error. */
export function queueArgs(a: Record<string, unknown>): { url: QueueUrl; prefix: string } | string {
  const u = parseQueueUrl(String(a.queue ?? ''));
  if (!u.ok) return u.error;
  const prefix = String(a.queuePrefix ?? 'gomoku');
  const bad = checkPrefix(prefix);
  if (bad) return bad;
  return { url: u.value, prefix };
}
