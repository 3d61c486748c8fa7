#!/usr/bin/env node
/**
 * npm run bench  (runs on dist/: build first with `npx tsc -p .`)
 *
 *  (a) board play+undo throughput with pattern updates on random 15x15 games, in millions of
 *      play+undo pairs per second (median of several runs): scripts/bench-board.mjs;
 *  (b) alpha-beta on a fixed set of positions searched to fixed depths: nodes per second
 *      (median of runs) and a node-count signature (the sum of nodes), which changes only
 *      when search behaviour changes. Positions: the Gomocup 2026 freestyle openings from
 *      ../shared/testdata/openings when present, plus middle games built here;
 *  (c) the solver signature: df-pn and VCF node counts on a fixed set of positions under node
 *      limits, which change only when solver behaviour changes: scripts/solver-signature.mjs.
 *
 * Options: --quick (fewer runs, shallower), --depth N (override the fixed depth),
 *          --time MS (also report the depth an engine move reaches with MS per move, per opening).
 */
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { helpOnRequest } from './usage.mjs';
import { median } from './stats.mjs';

helpOnRequest(import.meta.url);

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');
if (!existsSync(join(dist, 'search', 'alphabeta.js'))) {
  console.error('bench: dist/ is missing; run `npx tsc -p .` first');
  process.exit(2);
}
const { Board, countIndex } = await import(join(dist, 'core', 'board.js'));
const { C_FIVE, C_OPEN_FOUR, C_FOUR_THREE } = await import(join(dist, 'core', 'patterns.js'));
const { AlphaBeta } = await import(join(dist, 'search', 'alphabeta.js'));

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const argValue = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : undefined;
};

// ---- (a) play/undo throughput: scripts/bench-board.mjs (random games near the stones) ----
{
  const { spawnSync } = await import('node:child_process');
  const boardArgs = quick ? ['--runs', '3', '--ms', '250', '--rule', 'freestyle'] : ['--runs', '7', '--ms', '400'];
  const r = spawnSync(process.execPath, [join(here, 'bench-board.mjs'), ...boardArgs], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// ---- (b) search ----------------------------------------------------------------------
const positions = [];
const openingsFile = join(here, '..', '..', 'shared', 'testdata', 'openings', 'gomocup-2026-freestyle-15x15.json');
if (existsSync(openingsFile)) {
  const data = JSON.parse(readFileSync(openingsFile, 'utf8'));
  for (const o of data.openings.slice(0, quick ? 6 : 12)) {
    positions.push({ name: o.id, moves: o.coordinates.map(([x, y]) => (7 - y) * 15 + (7 + x)) });
  }
}
// middle games built here: from the first openings, up to 16 more plies of alpha-beta at a
// fixed node budget (deterministic); the position kept is the last calm one (no five, open-four
// or four-three cell for either side), so these are real, undecided 15x15 middle games
function midgame(opening) {
  const b = new Board(15, 'freestyle');
  for (const m of opening) b.play(m);
  const ab = new AlphaBeta(14);
  const moves = [...opening];
  let calm = moves.length;
  const isCalm = () => [1, 2].every((c) => [C_FIVE, C_OPEN_FOUR, C_FOUR_THREE].every((k) => b.counts[countIndex(c, k)] === 0));
  for (let i = 0; i < 16; i++) {
    ab.clear();
    const r = ab.search(b, { maxNodes: 4000 });
    if (r.move < 0 || Math.abs(r.score) > 20000) break;
    b.play(r.move);
    moves.push(r.move);
    if (isCalm()) calm = moves.length;
  }
  return moves.slice(0, calm);
}
const openingsForMid = positions.length > 0 ? positions.slice(0, quick ? 3 : 6).map((p) => p.moves) : [[112], [112, 96], [112, 98, 126]];
openingsForMid.forEach((o, i) => positions.push({ name: `midgame-${i + 1}`, moves: midgame(o) }));

const depth = argValue('--depth') ?? (quick ? 7 : 9);
const runsB = quick ? 2 : 3;
const ab = new AlphaBeta();
const now = () => performance.now();
let signature = 0;
let qSignature = 0;
const npsRuns = [];
const cpuNpsRuns = [];
const midNps = [];
for (let run = 0; run < runsB; run++) {
  let nodes = 0;
  let qnodes = 0;
  let ms = 0;
  let midNodes = 0;
  let midMs = 0;
  const cpu0 = process.cpuUsage();
  for (const p of positions) {
    const b = new Board(15, 'freestyle');
    for (const m of p.moves) b.play(m);
    ab.clear();
    const t0 = now();
    const r = ab.search(b, { maxDepth: depth, now });
    const dt = now() - t0;
    nodes += r.nodes;
    qnodes += ab.qnodes;
    ms += dt;
    if (p.name.startsWith('midgame')) {
      midNodes += r.nodes;
      midMs += dt;
    }
    if (run === 0 && args.includes('--verbose'))
      console.log(`  ${p.name} (${p.moves.length} stones): depth ${r.depth} score ${r.score} nodes ${r.nodes} ${dt.toFixed(0)} ms`);
  }
  signature = nodes;
  qSignature = qnodes;
  const cpu = process.cpuUsage(cpu0);
  cpuNpsRuns.push((nodes / ((cpu.user + cpu.system) / 1000)) * 1000);
  npsRuns.push((nodes / ms) * 1000);
  midNps.push((midNodes / midMs) * 1000);
}
console.log(
  `alpha-beta: ${positions.length} positions to depth ${depth}: ${Math.round(median(npsRuns)).toLocaleString('en')} nodes/s wall clock (median of ${runsB}; per CPU second ${Math.round(median(cpuNpsRuns)).toLocaleString('en')}); middle games ${Math.round(median(midNps)).toLocaleString('en')} nodes/s`,
);
console.log(`signature: ${signature} (quiescence nodes ${((100 * qSignature) / signature).toFixed(1)}%)`);

// ---- (c) the solver signature (its own process: fresh solver tables) ---------------------
{
  const { spawnSync } = await import('node:child_process');
  const r = spawnSync(process.execPath, [join(here, 'solver-signature.mjs')], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const timeMs = argValue('--time');
if (timeMs) {
  // (d) depth in a game move: the whole engine (its solver stages first, then alpha-beta
  // under the time manager: hard limit = MS minus the safety margin), a fresh Engine per
  // opening in this already-running process (a game's later moves; the first move of a new
  // process is slower while V8 compiles). Also the raw alpha-beta depth in MS.
  const { Engine } = await import(join(dist, 'search', 'engine.js'));
  const engineDepths = [];
  const abDepths = [];
  for (const p of positions) {
    if (!p.name.startsWith('gomocup')) continue;
    const e = new Engine({ size: 15, rule: 'freestyle', now });
    for (const m of p.moves) e.play(m);
    engineDepths.push(e.go({ turnMs: timeMs }).depth);
    const b = new Board(15, 'freestyle');
    for (const m of p.moves) b.play(m);
    ab.clear();
    const t0 = now();
    abDepths.push(ab.search(b, { now, hardDeadline: t0 + timeMs, softDeadline: t0 + timeMs }).depth);
  }
  const line = (ds) => `median ${median(ds)}, min ${Math.min(...ds)}, max ${Math.max(...ds)} (${ds.join(' ')})`;
  console.log(`engine move with ${timeMs} ms per move from the openings: depth ${line(engineDepths)}`);
  console.log(`alpha-beta alone for ${timeMs} ms from the openings: depth ${line(abDepths)}`);
}
