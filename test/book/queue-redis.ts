/**
 * Helpers for the job queue tests: the real Redis of CI (127.0.0.1:6379, see .ci/run), a
 * prefix of the test's own, and the removal of every key under it afterwards.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { parseQueueUrl, type QueueUrl } from '../../src/book/queue.js';
import { parsePosition, resolveToMove } from '../../src/core/notation.js';
import { BLACK, WHITE, type Color } from '../../src/core/types.js';

export const REDIS_URL = 'redis://127.0.0.1:6379';

export function redisUrl(): QueueUrl {
  const u = parseQueueUrl(REDIS_URL);
  if (!u.ok) throw new Error(u.error);
  return u.value;
}

/** A prefix no other test (or run) uses. */
export function testPrefix(name: string): string {
  return `gomoku-test-${name}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/** Delete every key under the prefix (SCAN, not KEYS: the Redis may be shared). */
export async function dropPrefix(prefix: string): Promise<number> {
  const r = new Redis(6379, '127.0.0.1');
  let n = 0;
  try {
    let cursor = '0';
    do {
      const [next, found] = await r.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (found.length) n += await r.del(...found);
    } while (cursor !== '0');
  } finally {
    r.disconnect();
  }
  return n;
}

export async function keysUnder(prefix: string): Promise<string[]> {
  const r = new Redis(6379, '127.0.0.1');
  const out: string[] = [];
  try {
    let cursor = '0';
    do {
      const [next, found] = await r.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      out.push(...found);
    } while (cursor !== '0');
  } finally {
    r.disconnect();
  }
  return out;
}

export const rootsFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'queue-roots.txt');

/** The roots of queue-roots.txt as stone sets. */
export function queueRoots(): { text: string; black: number[]; white: number[]; toMove: Color }[] {
  const out: { text: string; black: number[]; white: number[]; toMove: Color }[] = [];
  for (const line of readFileSync(rootsFile, 'utf8').split('\n')) {
    const t = line.replace(/#.*$/, '').trim();
    if (!t) continue;
    const spec = parsePosition(t, 15);
    if (!spec.ok) throw new Error(spec.error);
    const tm = resolveToMove(spec.value);
    if (!tm.ok) throw new Error(tm.error);
    out.push({
      text: t,
      black: spec.value.moves.filter((m) => m.color === BLACK).map((m) => m.index),
      white: spec.value.moves.filter((m) => m.color === WHITE).map((m) => m.index),
      toMove: tm.value,
    });
  }
  return out;
}
