#!/usr/bin/env node
/**
 * node scripts/solver-stages.mjs [--nodes N | --time MS] [--sample N] [--set positive|negative]
 *                                [--task VCF|VCT|WIN_IN_3] [--side black|white]   (runs on dist/)
 *
 * Where the solver's work goes, stage by stage (docs/solver.md): solves puzzles of
 * ../shared/testdata/puzzles with one Solver (as a worker thread does) and prints, for each
 * stage in the order it runs, how many solves reached it, how many it proved, and its share of
 * all nodes and all time. Default: --nodes 1000000, --sample 40 of each group (spread evenly
 * over it), every set, task and side. A node limit makes the counts deterministic; the times
 * are this machine's, under its load.
 */
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { helpOnRequest } from './usage.mjs';

helpOnRequest(import.meta.url);

let opt;
try {
  opt = parseArgs({
    options: {
      nodes: { type: 'string' },
      time: { type: 'string' },
      sample: { type: 'string', default: '40' },
      set: { type: 'string', multiple: true },
      task: { type: 'string', multiple: true },
      side: { type: 'string' },
    },
  }).values;
} catch (e) {
  console.error(`solver-stages: ${e.message} (see --help)`);
  process.exit(2);
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
if (!existsSync(path.join(dist, 'search', 'solver.js'))) {
  console.error('solver-stages: dist/ is missing; run `npx tsc -p .` first');
  process.exit(2);
}
const { Solver } = await import(path.join(dist, 'search', 'solver.js'));
const { parsePosition } = await import(path.join(dist, 'core', 'notation.js'));
const { boardFromSpec } = await import(path.join(dist, 'core', 'position.js'));

const timeMs = opt.time !== undefined ? Number(opt.time) : undefined;
const maxNodes = opt.nodes !== undefined ? Number(opt.nodes) : timeMs === undefined ? 1_000_000 : undefined;
const sample = Number(opt.sample);
const puzzles = path.resolve(root, '..', 'shared', 'testdata', 'puzzles');

const groups = new Map();
for (const set of opt.set ?? ['positive', 'negative']) {
  const f = path.join(puzzles, `freestyle-${set}.jsonl`);
  if (!existsSync(f)) {
    console.log(`(skipping ${set}: ${f} not found)`);
    continue;
  }
  for (const p of readFileSync(f, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))) {
    if (opt.task && !opt.task.includes(p.task)) continue;
    if (opt.side && p.toMove !== opt.side) continue;
    const k = `${set}/${p.task}/${p.toMove}`;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(p);
  }
}

const order = ['vcf', 'vct', 'vct-wide', 'vct-twos', 'opp-vct', 'opp-vct-wide', 'game', 'opp-game', 'extract'];
const per = new Map(order.map((s) => [s, { runs: 0, proved: 0, nodes: 0, ms: 0 }]));
const solver = new Solver();
const now = () => performance.now();
let solves = 0;
let fives = 0;
let allNodes = 0;
let allMs = 0;
for (const [k, ps] of groups) {
  const picked = ps.length > sample ? Array.from({ length: sample }, (_, i) => ps[Math.floor((i * ps.length) / sample)]) : ps;
  for (const p of picked) {
    const list = (s) =>
      s
        .split(/[\s,]+/)
        .filter(Boolean)
        .join(',');
    const spec = parsePosition(`B:${list(p.black)};W:${list(p.white)}`, 15);
    const built = spec.ok ? boardFromSpec(spec.value, 'freestyle', p.toMove === 'black' ? 1 : 2) : spec;
    if (!built.ok) throw new Error(`${k} ${p.id}: ${built.error}`);
    const r = solver.solve(built.value, { maxNodes, timeMs, now });
    solves++;
    if (r.stages.length === 0) fives++;
    allNodes += r.nodes;
    allMs += r.ms;
    for (const s of r.stages) {
      const e = per.get(s.stage);
      e.runs++;
      if (s.proved) e.proved++;
      e.nodes += s.nodes;
      e.ms += s.ms;
    }
  }
}
const pct = (a, b) => `${b ? ((100 * a) / b).toFixed(1) : '-'}%`.padStart(6);
console.log(
  `${solves} solves (${[...groups.keys()].length} groups, up to ${sample} each), ${maxNodes !== undefined ? `${maxNodes} nodes` : ''}${maxNodes !== undefined && timeMs !== undefined ? ' and ' : ''}${timeMs !== undefined ? `${timeMs} ms` : ''} each; ${fives} ended at an immediate five`,
);
console.log('stage          reached  proved   nodes    time');
for (const [s, e] of per) {
  if (e.runs === 0) continue;
  console.log(`${s.padEnd(14)} ${String(e.runs).padStart(7)} ${String(e.proved).padStart(7)}  ${pct(e.nodes, allNodes)}  ${pct(e.ms, allMs)}`);
}
console.log(`total: ${allNodes} nodes, ${(allMs / 1000).toFixed(1)} s`);
