#!/usr/bin/env node
// npm run bench:solver [-- --time MS | --nodes N  --limit N | --sample N --workers N
//                         --set positive|negative|fixtures --task VCF|VCT|WIN_IN_3 --side black|white
//                         --failures --list]
// --nodes N limits each puzzle to N solver nodes and, unless --time is also given, lifts the time
// limit: the run is then deterministic (same code, same puzzles, same order: the same nodes), so
// anyone can rerun a node-limited experiment. Without either, 1000 ms a puzzle.
// --list prints every puzzle: id, result, method, nodes (diff two runs to see what changed).
// --failures lists the puzzles not solved (id, result, time).
// --limit N takes the first N puzzles of each group; --sample N takes N spread evenly over it.
// Solves the third-party puzzle sets in ../shared/testdata/puzzles (skipped politely when absent)
// and the project's own fixtures, checks every certificate with the independent checker, and
// prints solved %, median / p95 time per task type, nodes per second and the count of wrong claims.
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { solveJob } from '../dist/workers/solve-job.js';
import { createPool } from '../dist/workers/pool.js';
import { helpOnRequest } from './usage.mjs';
import { quantile as q } from './stats.mjs';

helpOnRequest(import.meta.url);

let parsed;
try {
  parsed = parseArgs({
    options: {
      time: { type: 'string' },
      nodes: { type: 'string' },
      limit: { type: 'string', default: '0' },
      sample: { type: 'string', default: '0' },
      workers: { type: 'string' },
      set: { type: 'string', multiple: true },
      task: { type: 'string', multiple: true },
      side: { type: 'string' },
      failures: { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
    },
  });
} catch (e) {
  console.error(`bench-solver: ${e.message} (see --help)`);
  process.exit(2);
}
const opt = parsed.values;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const shared = path.resolve(root, '..', 'shared', 'testdata', 'puzzles');
const maxNodes = opt.nodes !== undefined ? Number(opt.nodes) : undefined;
if (maxNodes !== undefined && !(Number.isInteger(maxNodes) && maxNodes > 0)) {
  console.error(`bench-solver: --nodes wants a positive integer, not '${opt.nodes}' (see --help)`);
  process.exit(2);
}
// a node limit alone is the whole budget (deterministic); a time limit is 1000 ms unless given
const timeMs = opt.time !== undefined ? Number(opt.time) : maxNodes !== undefined ? undefined : 1000;
const limit = Number(opt.limit);
const sample = Number(opt.sample);
const workers = Number(opt.workers ?? 1);
const sets = opt.set ?? ['fixtures', 'positive', 'negative'];

function load(name) {
  if (name === 'fixtures') {
    const f = path.join(root, 'test', 'fixtures', 'solver-fixtures.jsonl');
    return existsSync(f)
      ? readFileSync(f, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
      : [];
  }
  const f = path.join(shared, `freestyle-${name}.jsonl`);
  if (!existsSync(f)) {
    console.log(`(skipping ${name}: ${f} not found)`);
    return [];
  }
  return readFileSync(f, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

function toJob(p) {
  const list = (s) =>
    s
      .split(/[\s,]+/)
      .filter(Boolean)
      .join(',');
  const position = p.position ?? `B:${list(p.black)};W:${list(p.white)}`;
  const job = { position, toMove: p.toMove, size: p.size ?? 15, rule: p.rule ?? 'freestyle', checkMs: 20000 };
  if (timeMs !== undefined) job.timeMs = timeMs;
  if (maxNodes !== undefined) job.nodes = maxNodes;
  return job;
}

const pct = (a, b) => (b ? ((100 * a) / b).toFixed(1) : '-');

// --workers N (even 1) runs the jobs on a piscina pool like `gomoku solve --batch`, so the
// 1- and 2-worker figures compare the same machinery; without it they run in this thread.
const pool = opt.workers !== undefined ? createPool('workers/solve-worker', { workers }) : undefined;
const t0 = Date.now();
let totalNodes = 0;
let totalMs = 0;
let wrong = 0;
let disputed = 0;
let rejected = 0;
for (const set of sets) {
  let items = load(set);
  if (opt.task) items = items.filter((p) => opt.task.includes(p.task));
  if (opt.side) items = items.filter((p) => p.toMove === opt.side);
  const groups = new Map();
  for (const p of items) {
    const k = `${set}/${p.task ?? 'fixture'}/${p.toMove}`;
    if (!groups.has(k)) groups.set(k, []);
    if (!limit || groups.get(k).length < limit) groups.get(k).push(p);
  }
  if (sample > 0) {
    for (const [k, ps] of groups) {
      if (ps.length > sample)
        groups.set(
          k,
          Array.from({ length: sample }, (_, i) => ps[Math.floor((i * ps.length) / sample)]),
        );
    }
  }
  for (const [k, ps] of groups) {
    const results = pool ? await Promise.all(ps.map((p) => pool.run(toJob(p)))) : ps.map((p) => solveJob(toJob(p)));
    const expected = set === 'negative' ? 'loss' : (ps[0].label ?? 'win');
    let solved = 0,
      claimsWrong = 0,
      unverified = 0,
      disputedHere = 0;
    const times = [];
    results.forEach((r, i) => {
      totalNodes += r.nodes;
      totalMs += r.ms;
      if (r.error && r.error.startsWith('solver proof rejected')) rejected++;
      const exp = ps[i].label ?? expected;
      if (r.result !== 'unknown' && r.result !== exp) {
        // a claim against the label whose certificate the independent checker accepts: the
        // label is in doubt, not the claim (e.g. a renju puzzle whose freestyle reading differs)
        if (r.verified === true) {
          disputedHere++;
          console.log(`  label disputed: ${ps[i].id ?? i} is labelled ${exp}, solver proved ${r.result} (certificate verified)`);
        } else claimsWrong++;
      }
      if (opt.list) console.log(`  ${ps[i].id ?? i} ${r.result} ${r.method ?? '-'} nodes ${r.nodes}`);
      if (r.result !== exp && opt.failures) console.log(`  not solved: ${ps[i].id ?? i} (${r.result}, ${r.ms} ms)`);
      if (r.result === exp) {
        solved++;
        times.push(r.ms);
        if (r.verified === false) unverified++;
      }
    });
    wrong += claimsWrong;
    disputed += disputedHere;
    console.log(
      `${k.padEnd(28)} n=${String(ps.length).padStart(5)}  ${expected} ${pct(solved, ps.length).padStart(5)}%  median ${String(q(times, 0.5)).padStart(5)} ms  p95 ${String(q(times, 0.95)).padStart(5)} ms  wrong ${claimsWrong}${disputedHere ? ` (+${disputedHere} label disputed)` : ''}  checker-undecided ${unverified}`,
    );
  }
}
await pool?.destroy();
const wall = (Date.now() - t0) / 1000;
const budget = `${maxNodes !== undefined ? `${maxNodes} nodes` : ''}${maxNodes !== undefined && timeMs !== undefined ? ' and ' : ''}${timeMs !== undefined ? `${timeMs} ms` : ''} a puzzle`;
console.log(
  `total: ${wall.toFixed(1)} s wall, ${budget}, ${totalNodes} nodes, ${workers} worker(s), ${(totalNodes / Math.max(1, totalMs)).toFixed(0)}k nodes/s per worker, wrong claims ${wrong}${disputed ? ` (label disputed, certificate verified: ${disputed})` : ''}, proofs rejected by the checker ${rejected}`,
);
process.exitCode = wrong || rejected ? 1 : 0;
