/**
 * The book build's job queue (issue 21): URL parsing, names and job ids (no Redis), then the
 * coordinator and a worker in this process against the real Redis of CI, with test doubles
 * of the worker's job runner (never of Redis): a worker that lies, one whose first answers
 * are garbage, and a Redis emptied in the middle of a build.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { baseJobId, checkPrefix, jobId, malformed, parseQueueUrl, queueName, redact, redoId } from '../../src/book/queue.js';
import { QueueCoordinator } from '../../src/book/queue-coordinator.js';
import { buildBook } from '../../src/book/builder.js';
import { runBookJob, type BookJob, type BookJobResult } from '../../src/book/job.js';
import { canonicalize, parsePositionKey } from '../../src/core/symmetry.js';
import { startQueueWorker, type QueueWorkerHandle } from '../../src/workers/queue-worker.js';
import { openStore, tempDir } from './helpers.js';
import { dropPrefix, keysUnder, queueRoots, redisUrl, testPrefix } from './queue-redis.js';

describe('the --queue URL', () => {
  test('redis and rediss URLs with port, database, user and password', () => {
    expect(parseQueueUrl('redis://127.0.0.1:6379')).toEqual({ ok: true, value: { host: '127.0.0.1', port: 6379, db: 0, tls: false, display: 'redis://127.0.0.1:6379' } });
    expect(parseQueueUrl('redis://cache.example')).toMatchObject({ ok: true, value: { host: 'cache.example', port: 6379, db: 0 } });
    expect(parseQueueUrl('redis://h:7000/3')).toMatchObject({ ok: true, value: { port: 7000, db: 3 } });
    expect(parseQueueUrl('redis://h/12/')).toMatchObject({ ok: true, value: { db: 12 } });
    expect(parseQueueUrl('rediss://u:p%40ss@h:6380/1')).toEqual({
      ok: true,
      value: { host: 'h', port: 6380, db: 1, tls: true, username: 'u', password: 'p@ss', display: 'rediss://u:***@h:6380/1' },
    });
    expect(parseQueueUrl('redis://:secret@h')).toMatchObject({ ok: true, value: { password: 'secret', display: 'redis://:***@h' } });
    expect(parseQueueUrl('redis://[::1]:6379')).toMatchObject({ ok: true, value: { host: '::1' } });
  });

  test('anything else is one line naming what is wrong, never echoing a password', () => {
    const bad = (u: string) => {
      const r = parseQueueUrl(u);
      expect(r.ok).toBe(false);
      return r.ok ? '' : r.error;
    };
    expect(bad('')).toMatch(/empty/);
    expect(bad('localhost:6379')).toMatch(/scheme 'localhost' is not redis/);
    expect(bad('http://h')).toMatch(/scheme 'http'/);
    expect(bad('redis://')).toMatch(/no host/);
    expect(bad('redis://h:0')).toMatch(/port '0'/);
    expect(bad('redis://h:99999')).toMatch(/not a URL/);
    expect(bad('redis://h/x')).toMatch(/'\/x' is not a database number/);
    expect(bad('redis://h/1?tls=1')).toMatch(/no query/);
    const e = bad('redis://u:hunter2@h/zz');
    expect(e).not.toContain('hunter2');
    expect(e).toContain('redis://u:***@h/zz');
    for (const u of ['', 'http://h', 'redis://h/x']) expect(bad(u).split('\n')).toHaveLength(1);
    expect(redact('redis://a:b@c:1/2')).toBe('redis://a:***@c:1/2');
  });

  test('queue names come from the book file; prefixes are checked', () => {
    expect(queueName('/data/books/gomoku-book.db')).toBe('book-gomoku-book');
    expect(queueName('my book:v2.sqlite')).toBe('book-my_book_v2');
    expect(queueName('.db')).toBe('book-book');
    expect(queueName('x'.repeat(200))).toHaveLength(5 + 64);
    expect(checkPrefix('gomoku')).toBeUndefined();
    expect(checkPrefix('a:b')).toMatch(/bad --queue-prefix/);
    expect(checkPrefix('')).toMatch(/bad --queue-prefix/);
  });
});

describe('job ids', () => {
  const job = (o: Partial<BookJob> = {}): BookJob => ({ id: 7, rule: 'freestyle', size: 15, black: [112], white: [], toMove: 2, solveNodes: 20000, scoreNodes: 500, ...o });
  test('canonical position + kind + budget: the same for a symmetric twin, different for another budget', () => {
    const k1 = canonicalize(15, [112, 113], [97], 2).key;
    const k2 = canonicalize(15, [112, 111], [127], 2).key; // the mirror image
    expect(k1).toBe(k2);
    expect(jobId(job(), k1)).toBe(`freestyle/${k1}/solve/20000/500`);
    expect(jobId(job({ id: 99 }), k1)).toBe(jobId(job(), k2)); // the row id is not part of it
    expect(jobId(job({ solveNodes: 1000 }), k1)).not.toBe(jobId(job(), k1));
    expect(jobId(job({ scoreNodes: 0 }), k1)).not.toBe(jobId(job(), k1));
    expect(jobId(job({ solveMs: 50 }), k1)).toBe(`freestyle/${k1}/solve/20000/500/50`);
    expect(jobId(job({ rule: 'standard' }), k1)).toMatch(/^standard\//);
    expect(jobId(job(), k1)).not.toContain(':'); // BullMQ refuses ':' in ids
  });
  test('a redo gets a new id that leads back to the first', () => {
    const b = 'freestyle/15.w.7h.7i/solve/1/2';
    expect(redoId(b, 1)).toBe(b);
    expect(redoId(b, 3)).toBe(`${b}~3`);
    expect(baseJobId(redoId(b, 3))).toBe(b);
    expect(baseJobId(b)).toBe(b);
  });
});

describe('a worker result is checked for shape', () => {
  const ok: BookJobResult = { id: 1, verdict: 'unknown', score: 3, depth: 2, bestMove: 5, method: 'score', nodes: 10, ms: 1, pv: [5, 6] };
  test('well-formed results pass', () => {
    expect(malformed(ok, 15)).toBeUndefined();
    expect(malformed({ ...ok, verdict: 'win', entries: [{ black: [1], white: [2], move: 3 }] }, 15)).toBeUndefined();
    // a pass job's proof: pass entries with and without a zone
    const passes = [{ black: [1], white: [2, 3], zone: [4, 5] }, { black: [1, 6], white: [2, 3] }];
    expect(malformed({ ...ok, verdict: 'loss', entries: [], passes }, 15)).toBeUndefined();
    // an unfinished one: its pass tree
    const e = { black: [1], white: [2], move: 3 };
    const passTree = { passEntries: [e], zone: [4], covered: [], own: [{ move: 4 }, { move: 6, entries: [e] }] };
    expect(malformed({ ...ok, passTree }, 15)).toBeUndefined();
    expect(malformed({ ...ok, passTree: { ...passTree, zone: null } }, 15)).toBeUndefined();
  });
  test('anything else is named', () => {
    expect(malformed(null, 15)).toBe('not an object');
    expect(malformed({ ...ok, verdict: 'draw' }, 15)).toMatch(/verdict/);
    expect(malformed({ ...ok, score: 'high' }, 15)).toBe('score');
    expect(malformed({ ...ok, bestMove: 225 }, 15)).toBe('bestMove');
    expect(malformed({ ...ok, pv: [1, -1] }, 15)).toBe('pv');
    expect(malformed({ ...ok, nodes: 1.5 }, 15)).toBe('nodes');
    expect(malformed({ ...ok, verdict: 'win' }, 15)).toMatch(/without its strategy/);
    expect(malformed({ ...ok, verdict: 'win', entries: [{ black: [1], white: [999], move: 3 }] }, 15)).toBe('entries');
    expect(malformed({ ...ok, verdict: 'loss', entries: [], passes: [{ black: [1], white: [2], zone: [-1] }] }, 15)).toBe('passes');
    expect(malformed({ ...ok, verdict: 'loss', entries: [], passes: {} }, 15)).toBe('passes');
    const e = { black: [1], white: [2], move: 3 };
    const passTree = { passEntries: [e], zone: [4], covered: [], own: [{ move: 4 }] };
    expect(malformed({ ...ok, passTree: { ...passTree, own: [{ move: 225 }] } }, 15)).toBe('passTree');
    expect(malformed({ ...ok, passTree: { ...passTree, covered: [{ ...e, move: -1 }] } }, 15)).toBe('passTree');
    expect(malformed({ ...ok, passTree: { ...passTree, zone: undefined } }, 15)).toBe('passTree');
    expect(malformed({ ...ok, passTree: 'tree' }, 15)).toBe('passTree');
  });
});

describe('coordinator and worker through the real Redis', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function setUp(name: string, runJob: (j: BookJob) => Promise<BookJobResult>, concurrency?: number) {
    const prefix = testPrefix(name);
    const tmp = tempDir();
    const file = tmp.file('q.db');
    const store = openStore(file);
    const logs: string[] = [];
    const url = redisUrl();
    const c = await QueueCoordinator.connect({ url, prefix, bookFile: file, bookId: 'test-book', version: 'test/q1', config: 'test', queue: 'book-q', log: (l) => logs.push(l) });
    if (!c.ok) throw new Error(c.error.message);
    const w = await startQueueWorker({ url, prefix, threads: 1, version: 'test/q1', lockMs: name === 'handback' ? 60_000 : 5000, runJob, log: (l) => logs.push(l), ...(concurrency ? { concurrency } : {}) });
    if (!w.ok) throw new Error(w.error.message);
    let stopped = false;
    cleanups.push(async () => {
      if (!stopped) await w.value.stop(true);
      await c.value.close(true);
      store.close();
      tmp.cleanup();
      await dropPrefix(prefix);
    });
    return { prefix, store, logs, coordinator: c.value, worker: w.value as QueueWorkerHandle, stopWorker: async (finish = true) => ((stopped = true), w.value.stop(finish)) };
  }

  const build = (s: Awaited<ReturnType<typeof setUp>>, roots: ReturnType<typeof queueRoots>, jobs: number) =>
    buildBook({
      store: s.store,
      opening: 'test',
      roots,
      size: 15,
      rule: 'freestyle',
      region: 3,
      concurrency: () => s.coordinator.capacity(),
      budget: { jobs },
      solveNodes: 300000,
      scoreNodes: 0,
      runJob: s.coordinator.run,
    });

  test('a worker that claims false wins and losses: the checker rejects every claim, nothing false reaches the book', async () => {
    const roots = queueRoots().slice(0, 4);
    // the double runs the real job, then turns each verdict into a false one, with the real strategy as "proof"
    const liar = async (j: BookJob): Promise<BookJobResult> => {
      const r = runBookJob(j);
      if (r.verdict === 'win') return { ...r, verdict: 'loss' };
      if (r.verdict === 'loss') return { ...r, verdict: 'win' };
      return { ...r, verdict: 'win', entries: [] };
    };
    const s = await setUp('liar', liar);
    const summary = await build(s, roots, roots.length);
    expect(summary.jobs).toBe(roots.length);
    const rows = [...s.store.positions()];
    expect(rows.filter((r) => r.verdict === 'win' || r.verdict === 'loss')).toEqual([]);
    const evaluated = rows.filter((r) => r.evaluated !== 0);
    expect(evaluated).toHaveLength(roots.length);
    for (const r of evaluated) expect(r.method).toBe('rejected');
    expect(summary.errors).toBe(roots.length);
    expect(s.coordinator.stats().rejected).toBe(3 * roots.length); // each job tried three times
    expect(s.logs.some((l) => /the checker rejects the (win|loss) from worker/.test(l))).toBe(true);
    expect(s.store.integrityCheck()).toBe('ok');
  });

  test('garbage first, the truth after: a malformed result is logged and its job redone', async () => {
    const roots = queueRoots().slice(4, 8);
    const seen = new Set<string>();
    const flaky = async (j: BookJob): Promise<BookJobResult> => {
      const k = `${j.black.join(',')}/${j.white.join(',')}`;
      if (!seen.has(k)) {
        seen.add(k);
        return { id: j.id, verdict: 'maybe', score: NaN } as unknown as BookJobResult;
      }
      return runBookJob(j);
    };
    const s = await setUp('flaky', flaky);
    const summary = await build(s, roots, 50);
    expect(summary.stoppedBy).toBe('done');
    expect(summary.jobs).toBe(roots.length);
    expect(s.coordinator.stats().malformed).toBe(roots.length);
    expect(s.logs.filter((l) => /malformed result from worker .* job redone/.test(l))).toHaveLength(roots.length);
    // the same verdicts as the jobs run here
    for (const r of roots) {
      const key = canonicalize(15, r.black, r.white, r.toMove).key;
      const want = runBookJob({ id: 0, rule: 'freestyle', size: 15, ...parseKeyJob(key), solveNodes: 300000, scoreNodes: 0 }).verdict;
      expect(s.store.get('freestyle', key)?.verdict).toBe(want);
    }
  });

  test('Redis emptied in the middle of a build: the coordinator notices and queues again what is missing', async () => {
    const roots = queueRoots().slice(0, 12);
    let gate: () => void = () => {};
    const opened = new Promise<void>((r) => (gate = r));
    let started = 0;
    const slow = async (j: BookJob): Promise<BookJobResult> => {
      started++;
      await opened;
      return runBookJob(j);
    };
    // one job at a time: the other queued job waits in Redis, and goes with it
    const s = await setUp('emptied', slow, 1);
    const done = build(s, roots, 50);
    // jobs queued and one taken by the worker: then everything under the prefix goes
    while (started === 0 || s.coordinator.stats().inFlight < 2) await new Promise((r) => setTimeout(r, 20));
    expect(await dropPrefix(s.prefix)).toBeGreaterThan(0);
    gate();
    const summary = await done;
    expect(summary.stoppedBy).toBe('done');
    expect(summary.jobs).toBe(roots.length);
    expect(s.coordinator.stats().requeued).toBeGreaterThan(0);
    expect(s.logs.some((l) => /vanished from Redis .* queued again/.test(l))).toBe(true);
    expect(s.store.jobsInFlight()).toEqual([]);
  }, 30_000);

  // a Redis of this test's own (a real redis-server on another port, nothing kept on disk), so
  // that restarting it disturbs nobody else
  const redisServer = spawnSync('sh', ['-c', 'command -v redis-cli >/dev/null && command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
  test.skipIf(!redisServer)('Redis restarted in the middle of a build: everyone reconnects, the lost jobs are queued again', async () => {
    const port = 20000 + (process.pid % 20000);
    const start = async (): Promise<ChildProcess> => {
      const p = spawn(redisServer, ['--port', String(port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'], { stdio: 'ignore' });
      for (let i = 0; i < 100; i++) {
        const r = spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' });
        if (r.stdout.trim() === 'PONG') return p;
        await new Promise((res) => setTimeout(res, 50));
      }
      throw new Error('redis-server did not start');
    };
    let server = await start();
    cleanups.push(async () => {
      server.kill('SIGKILL');
    });
    const u = parseQueueUrl(`redis://127.0.0.1:${port}`);
    if (!u.ok) throw new Error(u.error);
    const tmp = tempDir();
    const store = openStore(tmp.file('r.db'));
    const logs: string[] = [];
    let gate: () => void = () => {};
    const opened = new Promise<void>((r) => (gate = r));
    let started = 0;
    const c = await QueueCoordinator.connect({ url: u.value, prefix: 'gomoku', bookFile: 'r.db', bookId: 'b', version: 'test/q1', config: 't', queue: 'book-r', log: (l) => logs.push(l) });
    if (!c.ok) throw new Error(c.error.message);
    const w = await startQueueWorker({ url: u.value, prefix: 'gomoku', threads: 1, concurrency: 1, version: 'test/q1', lockMs: 5000, log: (l) => logs.push(l), runJob: async (j) => {
      started++;
      await opened;
      return runBookJob(j);
    } });
    if (!w.ok) throw new Error(w.error.message);
    cleanups.push(async () => {
      await w.value.stop(true);
      await c.value.close(true);
      store.close();
      tmp.cleanup();
    });
    const roots = queueRoots().slice(0, 8);
    const done = buildBook({ store, opening: 'test', roots, size: 15, rule: 'freestyle', region: 3, concurrency: () => c.value.capacity(), budget: { jobs: 50 }, solveNodes: 300000, scoreNodes: 0, runJob: c.value.run });
    while (started === 0 || c.value.stats().inFlight < 2) await new Promise((r) => setTimeout(r, 20));
    server.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 500));
    server = await start();
    gate();
    const summary = await done;
    expect(summary.stoppedBy).toBe('done');
    expect(summary.jobs).toBe(roots.length);
    expect(c.value.stats().requeued).toBeGreaterThan(0);
    expect(logs.some((l) => /vanished from Redis/.test(l))).toBe(true);
    expect(store.integrityCheck()).toBe('ok');
  }, 40_000);

  test('a worker stopped at once (a second Ctrl-C) hands its jobs back: another worker takes them at once, not after the lock', async () => {
    let taken = 0;
    // the first worker never finishes: it only takes jobs (its lock of 60 s would hold them a minute)
    const s = await setUp('handback', async () => {
      taken++;
      return new Promise<BookJobResult>(() => {});
    });
    const roots = queueRoots().slice(0, 2);
    const t0 = Date.now();
    const done = build(s, roots, 10);
    while (taken < 2) await new Promise((r) => setTimeout(r, 20));
    await s.stopWorker(false);
    const w2 = await startQueueWorker({ url: redisUrl(), prefix: s.prefix, threads: 1, version: 'test/q1', lockMs: 60_000, runJob: async (j) => runBookJob(j), log: () => {} });
    if (!w2.ok) throw new Error(w2.error.message);
    cleanups.push(() => w2.value.stop(true));
    const summary = await done;
    expect(summary.stoppedBy).toBe('done');
    expect(summary.jobs).toBe(2);
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(s.coordinator.stats().requeued).toBe(0); // handed back, not lost and found again
  }, 30_000);

  test('a clean end leaves nothing under the prefix', async () => {
    const s = await setUp('clean', async (j) => runBookJob(j));
    await build(s, queueRoots().slice(0, 2), 10);
    await s.stopWorker();
    await s.coordinator.close(true);
    expect(await keysUnder(s.prefix)).toEqual([]);
  });

  test('a queue of another book or another version is refused', async () => {
    const prefix = testPrefix('foreign');
    const r = new Redis(6379, '127.0.0.1');
    cleanups.push(async () => {
      r.disconnect();
      await dropPrefix(prefix);
    });
    await r.hset(`${prefix}:meta:book-q`, { book: 'another', file: '/elsewhere/q.db', host: 'far', version: 'test/q1' });
    const base = { url: redisUrl(), prefix, bookFile: 'q.db', version: 'test/q1', config: 'x', queue: 'book-q', log: () => {} };
    const a = await QueueCoordinator.connect({ ...base, bookId: 'mine' });
    expect(a.ok).toBe(false);
    if (!a.ok) expect(a.error).toMatchObject({ kind: 'foreign', message: expect.stringMatching(/belongs to another book \(\/elsewhere\/q.db on far\)/) });
    await r.hset(`${prefix}:meta:book-q`, { book: 'mine', version: 'old/q0' });
    const b = await QueueCoordinator.connect({ ...base, bookId: 'mine' });
    expect(b.ok).toBe(false);
    if (!b.ok) expect(b.error).toMatchObject({ kind: 'version', message: expect.stringMatching(/made by gomoku-tss old\/q0, this is test\/q1/) });
  });
});

function parseKeyJob(key: string): Pick<BookJob, 'black' | 'white' | 'toMove'> {
  const k = parsePositionKey(key)!;
  return { toMove: k.toMove, black: k.black, white: k.white };
}
