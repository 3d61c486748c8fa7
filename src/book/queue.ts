/**
 * What the book build's job queue (issue 21) agrees on between the coordinator
 * (book/queue-coordinator.ts) and the workers (workers/queue-worker.ts): the Redis URL, the
 * queue's name, job ids, the keys beside BullMQ's, and the shape of a result. No I/O here.
 *
 * Keys under the prefix P (default "gomoku"); BullMQ's own are P:<queue>:..., and a queue is
 * always named "book-...", so these cannot collide with them:
 *   P:queues           SET    the queues of running builds (what workers look for)
 *   P:meta:<queue>     HASH   the queue's book id, file, host, version (a build's sentinel)
 *   P:results:<queue>  STREAM results, one entry per finished job (the coordinator trims)
 *   P:workers          SET    worker ids; P:worker:<id> STRING (EX 5 s) its heartbeat
 */
import path from 'node:path';
import type { BookJob, BookJobResult } from './job.js';

/** Bump when a job, a result or a key above changes meaning: a worker serves only its own. */
export const QUEUE_PROTOCOL = 1;

export interface QueueUrl {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls: boolean;
  /** The URL with the password replaced by '***' (for messages). */
  display: string;
}

/** `redis://[user:pass@]HOST[:PORT][/DB]` or `rediss://...` (TLS); an error says what is wrong. */
export function parseQueueUrl(text: string): { ok: true; value: QueueUrl } | { ok: false; error: string } {
  const t = text.trim();
  const bad = (why: string) => ({ ok: false as const, error: `bad --queue '${redact(t)}': ${why} (expected redis://HOST[:PORT][/DB] or rediss://...)` });
  if (t === '') return bad('empty');
  let u: URL;
  try {
    u = new URL(t);
  } catch {
    return bad('not a URL');
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') return bad(`scheme '${u.protocol.replace(/:$/, '')}' is not redis or rediss`);
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') return bad('no host');
  let port = 6379;
  if (u.port !== '') {
    port = Number(u.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) return bad(`port '${u.port}' is not in 1..65535`);
  }
  let db = 0;
  const p = u.pathname;
  if (p !== '' && p !== '/') {
    const m = /^\/(\d{1,4})\/?$/.exec(p);
    if (!m) return bad(`'${p}' is not a database number`);
    db = Number(m[1]);
  }
  if (u.search !== '' || u.hash !== '') return bad('no query or fragment is allowed');
  const value: QueueUrl = { host, port, db, tls: u.protocol === 'rediss:', display: redact(t) };
  if (u.username !== '') value.username = decodeURIComponent(u.username);
  if (u.password !== '') value.password = decodeURIComponent(u.password);
  return { ok: true, value };
}

/** The URL as it may be shown: any password replaced by '***'. */
export function redact(url: string): string {
  return url.replace(/^(rediss?:\/\/[^:@/]*:)[^@/]*@/i, '$1***@');
}

/** The BullMQ queue of a book file: "book-" + its base name, in characters safe for Redis keys. */
export function queueName(bookFile: string): string {
  const base = path.basename(bookFile).replace(/\.(db|sqlite3?)$/i, '');
  const safe = base.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64);
  return `book-${safe || 'book'}`;
}

/** A queue prefix: letters, digits, `._-` (it starts every key, and BullMQ splits keys at ':'). */
export function checkPrefix(prefix: string): string | undefined {
  return /^[A-Za-z0-9._-]{1,64}$/.test(prefix) ? undefined : `bad --queue-prefix '${prefix}' (letters, digits, '.', '_', '-'; at most 64)`;
}

export const keys = (prefix: string) => ({
  queues: `${prefix}:queues`,
  meta: (queue: string) => `${prefix}:meta:${queue}`,
  results: (queue: string) => `${prefix}:results:${queue}`,
  workers: `${prefix}:workers`,
  worker: (id: string) => `${prefix}:worker:${id}`,
});

/**
 * The job id: canonical position + job kind + budget, so a restarted coordinator that selects
 * the same position again adds a job BullMQ already holds (a no-op) instead of a second one.
 * BullMQ refuses ':' in ids; a position key is `size.side.black.white` (core/symmetry.ts).
 */
export function jobId(job: Pick<BookJob, 'rule' | 'solveNodes' | 'scoreNodes' | 'solveMs'>, key: string): string {
  return `${job.rule}/${key}/solve/${job.solveNodes}/${job.scoreNodes}${job.solveMs !== undefined ? `/${job.solveMs}` : ''}`;
}

/** The id of the n-th redo of a job (n >= 2): a new id, as the first may still be active at a worker. */
export function redoId(base: string, attempt: number): string {
  return attempt <= 1 ? base : `${base}~${attempt}`;
}

/** The base job id of a (possibly redone) id. */
export function baseJobId(id: string): string {
  const i = id.indexOf('~');
  return i < 0 ? id : id.slice(0, i);
}

/** What the coordinator puts in a BullMQ job: the job, and the canonical key it is about. */
export interface QueuedJob {
  key: string;
  job: BookJob;
}

/** One entry of the results stream. */
export interface QueueResult {
  jobId: string;
  worker: string;
  result: BookJobResult;
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isPoints = (v: unknown, area: number): v is number[] => Array.isArray(v) && v.every((q) => isInt(q) && q >= 0 && q < area);

/**
 * A result from a worker (not trusted) checked for shape: the fields the builder writes, with
 * types and ranges, points on the board. Returns the error, or undefined when well formed.
 * (Whether a win or loss is true is for the checker: see proofRejection in job.ts.)
 */
export function malformed(r: unknown, size: number): string | undefined {
  if (typeof r !== 'object' || r === null) return 'not an object';
  const o = r as Record<string, unknown>;
  const area = size * size;
  if (o.verdict !== 'win' && o.verdict !== 'loss' && o.verdict !== 'unknown') return `verdict ${JSON.stringify(o.verdict)}`;
  if (!isNum(o.score) || Math.abs(o.score) > 1e9) return 'score';
  if (!isInt(o.depth) || o.depth < 0) return 'depth';
  if (!(o.bestMove === null || (isInt(o.bestMove) && o.bestMove >= 0 && o.bestMove < area))) return 'bestMove';
  if (typeof o.method !== 'string' || o.method.length > 64) return 'method';
  if (!isInt(o.nodes) || o.nodes < 0) return 'nodes';
  if (!isNum(o.ms) || o.ms < 0) return 'ms';
  if (!isPoints(o.pv, area)) return 'pv';
  if (o.error !== undefined && typeof o.error !== 'string') return 'error';
  if (o.entries !== undefined && !isEntries(o.entries, area)) return 'entries';
  if (o.passes !== undefined) {
    if (!Array.isArray(o.passes)) return 'passes';
    for (const e of o.passes as unknown[]) {
      if (typeof e !== 'object' || e === null) return 'passes';
      const x = e as Record<string, unknown>;
      if (!isPoints(x.black, area) || !isPoints(x.white, area) || !(x.zone === undefined || isPoints(x.zone, area))) return 'passes';
    }
  }
  if (o.passTree !== undefined) {
    const t = o.passTree as Record<string, unknown>;
    if (typeof t !== 'object' || t === null) return 'passTree';
    if (!isEntries(t.passEntries, area) || !isEntries(t.covered, area) || !(t.zone === null || isPoints(t.zone, area)) || !Array.isArray(t.own)) return 'passTree';
    for (const e of t.own as unknown[]) {
      if (typeof e !== 'object' || e === null) return 'passTree';
      const x = e as Record<string, unknown>;
      if (!isInt(x.move) || x.move < 0 || x.move >= area || !(x.entries === undefined || isEntries(x.entries, area))) return 'passTree';
    }
  }
  if (o.verdict !== 'unknown' && o.entries === undefined) return 'a win or loss without its strategy';
  return undefined;
}

function isEntries(v: unknown, area: number): boolean {
  if (!Array.isArray(v)) return false;
  for (const e of v as unknown[]) {
    if (typeof e !== 'object' || e === null) return false;
    const x = e as Record<string, unknown>;
    if (!isPoints(x.black, area) || !isPoints(x.white, area) || !isInt(x.move) || x.move < 0 || x.move >= area) return false;
  }
  return true;
}
