#!/usr/bin/env node
/**
 * npm run bench:queue [-- --redis URL --trivial-jobs N --jobs N --rounds R]
 *
 * The book build's job queue (gomoku book build --queue, gomoku book worker) against a local
 * build, with the real CLI (dist/) and a real Redis (default redis://127.0.0.1:6379; every
 * key under a prefix of its own, removed at the end):
 *  1. the builder alone: an in-process build with trivial jobs (no solver, no scoring), its writes
 *     grouped as the coordinator does, and no
 *     workers: the PN selection and SQLite write rate, the ceiling of any coordinator;
 *  2. trivial jobs through Redis: a coordinator and 2 workers of 8 threads each (so that 32
 *     jobs are in flight: the workers are not the limit), --trivial-jobs jobs (default
 *     5000): the jobs/s the coordinator sustains;
 *  3. real solver jobs (the default budgets, 20000 solver and 20000 scoring nodes), --jobs
 *     jobs (default 300) of the swap2 openings: a local build with --workers 2, then a
 *     coordinator with 2 workers of 1 thread each; jobs/s of each and their ratio,
 *     alternated --rounds times (default 2; medians).
 * Prints the machine's load (uptime) first: the rates depend on it, the ratio much less. The
 * CPU time per job of the coordinator (with /usr/bin/time) is what a dedicated core gives.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir, cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { helpOnRequest, pairedOptions } from './usage.mjs';

helpOnRequest(import.meta.url);

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');
const main = join(dist, 'cli', 'main.js');
if (!existsSync(main)) {
  console.error('bench-queue: dist/ is missing; run `npm run build` first');
  process.exit(2);
}
const opt = pairedOptions('bench-queue', ['--redis', '--trivial-jobs', '--jobs', '--rounds']);
const redis = opt('--redis', 'redis://127.0.0.1:6379');
const intOpt = (name, dflt, min) => {
  const v = Number(opt(name, String(dflt)));
  if (!Number.isInteger(v) || v < min) {
    console.error(`bench-queue: ${name} must be an integer of at least ${min}`);
    process.exit(2);
  }
  return v;
};
const trivialJobs = intOpt('--trivial-jobs', 5000, 100);
const jobs = intOpt('--jobs', 300, 20);
const rounds = intOpt('--rounds', 2, 1);

const { parseQueueUrl } = await import(join(dist, 'book', 'queue.js'));
const { probeRedis } = await import(join(dist, 'book', 'queue-redis.js'));
const url = parseQueueUrl(redis);
if (!url.ok) {
  console.error(`bench-queue: ${url.error}`);
  process.exit(2);
}
const down = await probeRedis(url.value);
if (down) {
  console.error(`bench-queue: ${down.message}`);
  process.exit(2);
}

const prefix = `gomoku-bench-${process.pid}`;
const tmp = mkdtempSync(join(tmpdir(), 'gomoku-bench-queue-'));
const uptime = () =>
  spawnSync('uptime', { encoding: 'utf8' }).stdout.trim() ||
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')}`;
console.log(`machine: ${cpus().length} cores; ${uptime()}`);
console.log(`redis: ${url.value.display}, prefix ${prefix}`);

/** jobs and seconds from a build's last line ("done: N jobs in S s, ..." or "budget spent: ..."). */
function parseSummary(out) {
  const m = /(\d+) jobs in ([\d.]+) s/.exec(out);
  if (!m) throw new Error(`no summary in: ${out}`);
  return { jobs: Number(m[1]), s: Number(m[2]) };
}

/** Start n workers and wait until each has registered (its first line), as long-lived workers would be. */
async function startWorkers(n, threads) {
  const ws = Array.from({ length: n }, () =>
    spawn(process.execPath, [main, 'book', 'worker', '--queue', redis, '--queue-prefix', prefix, '--threads', String(threads), '--quiet'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    }),
  );
  await Promise.all(
    ws.map(
      (w) =>
        new Promise((resolve, reject) => {
          let err = '';
          w.stderr.on('data', (d) => {
            err += d;
            if (/^gomoku: worker /m.test(err)) resolve();
          });
          w.once('exit', (code) => reject(new Error(`book worker exited ${code}: ${err.trim()}`)));
        }),
    ),
  );
  return ws;
}

async function stopWorkers(ws) {
  await Promise.all(
    ws.map((w) => {
      if (w.exitCode !== null) return null;
      const p = new Promise((r) => w.once('exit', r));
      w.kill('SIGINT');
      return p;
    }),
  );
}

/** A build through the CLI; with /usr/bin/time, also the CPU seconds of the coordinator process. */
function build(book, extra) {
  const timed = existsSync('/usr/bin/time');
  const argv = [main, 'book', 'build', '--book', book, '--size', '15', '--quiet', '--no-compact', ...extra];
  return new Promise((resolve, reject) => {
    const c = timed
      ? spawn('/usr/bin/time', ['-f', 'CPU %U %S', process.execPath, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    c.stdout.on('data', (d) => (out += d));
    c.stderr.on('data', (d) => (err += d));
    c.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`book build exited ${code}: ${err.trim()}`));
      const cpu = /CPU ([\d.]+) ([\d.]+)/.exec(err);
      resolve({ ...parseSummary(out), cpu: cpu ? Number(cpu[1]) + Number(cpu[2]) : undefined });
    });
  });
}

let n = 0;
const fresh = () => join(tmp, `b${n++}.db`);
const rate = (r) => r.jobs / r.s;
const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};

try {
  // 1. the builder and SQLite alone, in process
  {
    const { BookStore } = await import(join(dist, 'book', 'store.js'));
    const { buildBook } = await import(join(dist, 'book', 'builder.js'));
    const { runBookJob } = await import(join(dist, 'book', 'job.js'));
    const o = BookStore.open(fresh());
    if (!o.ok) throw new Error(o.error);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const s = await buildBook({
      store: o.value,
      opening: 'swap2',
      size: 15,
      rule: 'freestyle',
      region: 5,
      concurrency: 8,
      budget: { jobs: trivialJobs },
      solveNodes: 0,
      scoreNodes: 0,
      runJob: async (j) => runBookJob(j),
      groupWrites: 256,
    });
    const sec = (performance.now() - t0) / 1000;
    const c1 = process.cpuUsage(c0);
    const cpu = (c1.user + c1.system) / 1e6;
    o.value.close();
    console.log(
      `builder alone (in process, trivial jobs): ${s.jobs} jobs in ${sec.toFixed(2)} s = ${(s.jobs / sec).toFixed(0)} jobs/s; ${((1000 * cpu) / s.jobs).toFixed(2)} ms CPU a job = ${(s.jobs / cpu).toFixed(0)} jobs per CPU second (PN selection + SQLite, writes grouped as with --queue)`,
    );
  }

  // 2. trivial jobs through Redis
  {
    const ws = await startWorkers(2, 8);
    const r = await build(fresh(), ['--budget', String(trivialJobs), '--solve-nodes', '0', '--score-nodes', '0', '--queue', redis, '--queue-prefix', prefix]);
    await stopWorkers(ws);
    const cpu =
      r.cpu !== undefined
        ? `; the coordinator's CPU ${((1000 * r.cpu) / r.jobs).toFixed(2)} ms a job = ${(r.jobs / r.cpu).toFixed(0)} jobs per CPU second (start-up included)`
        : '';
    console.log(`queue, trivial jobs (coordinator + 2 workers x 8 threads): ${r.jobs} jobs in ${r.s} s = ${rate(r).toFixed(0)} jobs/s${cpu}`);
  }

  // 3. real solver jobs: local piscina vs queue, alternated
  const locals = [];
  const queued = [];
  for (let i = 0; i < rounds; i++) {
    const l = await build(fresh(), ['--budget', String(jobs), '--workers', '2']);
    locals.push(rate(l));
    const lcpu = l.cpu !== undefined ? ` (CPU of the process and its threads ${l.cpu.toFixed(1)} s)` : '';
    console.log(`round ${i + 1}: local --workers 2: ${l.jobs} jobs in ${l.s} s = ${rate(l).toFixed(2)} jobs/s${lcpu}`);
    const ws = await startWorkers(2, 1);
    const q = await build(fresh(), ['--budget', String(jobs), '--queue', redis, '--queue-prefix', prefix]);
    await stopWorkers(ws);
    queued.push(rate(q));
    const qcpu = q.cpu !== undefined ? ` (CPU of the coordinator ${q.cpu.toFixed(1)} s)` : '';
    console.log(`round ${i + 1}: queue, 2 workers x 1 thread: ${q.jobs} jobs in ${q.s} s = ${rate(q).toFixed(2)} jobs/s${qcpu}`);
  }
  const lm = median(locals);
  const qm = median(queued);
  console.log(`real jobs (median of ${rounds}): local ${lm.toFixed(2)} jobs/s, queue ${qm.toFixed(2)} jobs/s, queue/local ${((100 * qm) / lm).toFixed(0)}%`);
  console.log(`machine after: ${uptime()}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
  const { Redis } = await import('ioredis');
  const { redisOptions } = await import(join(dist, 'book', 'queue-redis.js'));
  const r = new Redis(redisOptions(url.value));
  let cursor = '0';
  do {
    const [next, found] = await r.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (found.length) await r.del(...found);
  } while (cursor !== '0');
  r.disconnect();
}
