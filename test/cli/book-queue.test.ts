/**
 * `gomoku book build --queue` end to end with the real CLI (dist/cli/main.js) and the real
 * Redis of CI: a coordinator and three `book worker` processes build the roots of
 * test/book/queue-roots.txt (one job each); a worker is killed with kill -9 in the middle of
 * a job, then the coordinator; both are started again with the same commands. The book must
 * end with the verdicts of a local build, pass integrity_check, and hold each job's result
 * once (its node count is that of one run of the job, not a sum of two).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BookStore } from '../../src/book/store.js';
import { canonicalize } from '../../src/core/symmetry.js';
import { tempDir } from '../book/helpers.js';
import { REDIS_URL, dropPrefix, keysUnder, queueRoots, rootsFile, testPrefix } from '../book/queue-redis.js';
import { ensureBuilt, entry } from './run.js';

const prefix = testPrefix('e2e');
const tmp = tempDir();
beforeAll(() => ensureBuilt(), 180_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  tmp.cleanup();
  await dropPrefix(prefix);
});

const children: ChildProcess[] = [];
const BUDGET = ['--size', '15', '--region', '3', '--roots', rootsFile, '--solve-nodes', '300000', '--score-nodes', '0', '--budget', '500', '--quiet'];

interface Done {
  worker: number;
  job: string;
  nodes: number;
  verdict: string;
}
const started: { worker: number; job: string }[] = [];
const done: Done[] = [];
let onEvent: () => void = () => {};

function worker(n: number): ChildProcess {
  const c = spawn(
    process.execPath,
    [entry, 'book', 'worker', '--queue', REDIS_URL, '--queue-prefix', prefix, '--threads', '1', '--lock-ms', '1000', '--json'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(c);
  createInterface({ input: c.stdout! }).on('line', (line) => {
    const e = JSON.parse(line) as { event: string; job?: string; nodes?: number; verdict?: string };
    if (e.event === 'start') started.push({ worker: n, job: e.job! });
    if (e.event === 'done') done.push({ worker: n, job: e.job!, nodes: e.nodes!, verdict: e.verdict! });
    onEvent();
  });
  c.stderr!.resume();
  return c;
}

function coordinator(book: string): { child: ChildProcess; out: () => string; err: () => string; exit: Promise<number | null> } {
  const c = spawn(process.execPath, [entry, 'book', 'build', '--book', book, ...BUDGET, '--queue', REDIS_URL, '--queue-prefix', prefix], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(c);
  let out = '';
  let err = '';
  c.stdout!.on('data', (d) => (out += String(d)));
  c.stderr!.on('data', (d) => (err += String(d)));
  return { child: c, out: () => out, err: () => err, exit: new Promise((r) => c.once('exit', (code) => r(code))) };
}

const until = (cond: () => boolean, what: string, ms = 30_000) =>
  new Promise<void>((resolve, reject) => {
    if (cond()) return resolve();
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    const prev = onEvent;
    onEvent = () => {
      prev();
      if (cond()) {
        clearTimeout(timer);
        onEvent = prev;
        resolve();
      }
    };
  });

const verdicts = (file: string) => {
  const o = BookStore.open(file, { readonly: true });
  if (!o.ok) throw new Error(o.error);
  const s = o.value;
  const out = new Map<string, { verdict: string; nodes: number; evaluated: number }>();
  for (const r of s.positions()) out.set(r.key, { verdict: r.verdict, nodes: r.nodes, evaluated: r.evaluated });
  const integrity = s.integrityCheck();
  const jobs = s.stats().jobsInFlight;
  s.close();
  return { out, integrity, jobs };
};

test('coordinator + 3 workers, kill -9 a worker mid-job and the coordinator, restart both: the verdicts of a local build, nothing lost or written twice', async () => {
  const t0 = Date.now();
  // the local build of the same tree
  const local = tmp.file('local.db');
  const l = spawnSync(process.execPath, [entry, 'book', 'build', '--book', local, ...BUDGET, '--workers', '2'], { encoding: 'utf8', timeout: 60_000 });
  expect(l.stderr).toBe('');
  expect(l.stdout).toMatch(/^done: /);

  // the slow roots (100-300 ms a job): a kill right after one starts is a kill mid-job
  const roots = queueRoots();
  const slow = new Set(roots.slice(-5).map((r) => canonicalize(15, r.black, r.white, r.toMove).key));
  const isSlow = (job: string) => slow.has(job.split('/')[1]!);

  const book = tmp.file('queued.db');
  const w = [worker(0), worker(1), worker(2)];
  let c = coordinator(book);
  await until(() => started.some((s) => isSlow(s.job)), 'a slow job to start');
  const victim = started.find((s) => isSlow(s.job))!;
  w[victim.worker]!.kill('SIGKILL');
  const killedJob = victim.job;
  expect(done.some((d) => d.worker === victim.worker && d.job === killedJob)).toBe(false);

  await until(() => done.length >= 15, '15 results');
  c.child.kill('SIGKILL');
  expect(await c.exit).toBe(null);
  await new Promise((r) => setTimeout(r, 300));
  const mid = verdicts(book);
  expect(mid.integrity).toBe('ok');

  // the same commands again
  w[victim.worker] = worker(victim.worker + 3);
  c = coordinator(book);
  const code = await c.exit;
  expect(c.err()).toMatch(/took over the book's writer lock/);
  expect(code).toBe(0);
  expect(c.out()).toMatch(/^done: \d+ jobs in [\d.]+ s, 44 proven, 9 disproven, 0\/53 roots open/);
  for (const x of w) x.kill('SIGINT');
  await Promise.all(w.map((x) => (x.exitCode !== null || x.signalCode !== null ? null : new Promise((r) => x.once('exit', r)))));

  // the job of the killed worker was taken again by another
  expect(done.some((d) => d.job.split('~')[0] === killedJob && d.worker !== victim.worker)).toBe(true);

  const a = verdicts(local);
  const b = verdicts(book);
  expect(b.integrity).toBe('ok');
  expect(b.jobs).toBe(0);
  const decided = (m: typeof a.out, v: string) => new Set([...m].filter(([, r]) => r.verdict === v).map(([k]) => k));
  expect(decided(b.out, 'win')).toEqual(decided(a.out, 'win'));
  expect(decided(b.out, 'loss')).toEqual(decided(a.out, 'loss'));
  expect(b.out.size).toBe(roots.length);
  // each position's nodes are those of one run of its job (a result written twice would add up)
  for (const [key, r] of b.out) {
    const runs = done.filter((d) => d.job.split('/')[1] === key).map((d) => d.nodes);
    expect(runs.length).toBeGreaterThan(0);
    expect(runs).toContain(r.nodes);
  }
  // a clean end leaves no queue behind (the heartbeat of the killed worker expires in 5 s)
  expect((await keysUnder(prefix)).filter((k) => !/:workers?(:|$)/.test(k))).toEqual([]);
  expect(Date.now() - t0).toBeLessThan(60_000);
}, 90_000);

test("a bad URL, an unreachable Redis, another book's queue: one line and the exit status of the README", async () => {
  const run = (...args: string[]) => spawnSync(process.execPath, [entry, 'book', ...args], { encoding: 'utf8', timeout: 30_000 });
  const book = tmp.file('errors.db');
  const oneLine = (r: ReturnType<typeof run>, code: number, msg: RegExp) => {
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(msg);
    expect(r.stderr).not.toMatch(/^\s+at /m); // no stack trace
    expect(r.status).toBe(code);
  };
  oneLine(run('build', '--book', book, '--queue', 'http://127.0.0.1:6379'), 2, /^gomoku: bad --queue 'http:\/\/127.0.0.1:6379': scheme 'http'/);
  oneLine(run('worker', '--queue', 'redis://127.0.0.1:6379/x'), 2, /^gomoku: bad --queue .* is not a database number/);
  oneLine(run('worker', '--queue', 'redis://127.0.0.1:6379', '--queue-prefix', 'a:b'), 2, /^gomoku: bad --queue-prefix 'a:b'/);
  oneLine(run('worker', '--queue', 'redis://127.0.0.1:1'), 75, /^gomoku: cannot reach Redis at redis:\/\/127.0.0.1:1: connect ECONNREFUSED/);
  oneLine(run('build', '--book', book, '--queue', 'redis://127.0.0.1:1', '--quiet'), 75, /^gomoku: cannot reach Redis/);
  const { Redis } = await import('ioredis');
  const r = new Redis(6379, '127.0.0.1');
  await r.hset(`${prefix}:meta:book-errors`, { book: 'someone-else', file: '/far/errors.db', host: 'far', version: 'x' });
  r.disconnect();
  oneLine(
    run('build', '--book', book, '--queue', REDIS_URL, '--queue-prefix', prefix, '--quiet'),
    75,
    /^gomoku: queue 'book-errors' .* belongs to another book \(\/far\/errors.db on far\)/,
  );
});
