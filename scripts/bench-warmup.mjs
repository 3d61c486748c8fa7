#!/usr/bin/env node
/**
 * npm run bench:warmup [-- --budgets 0,1000 --ms 200,1000 --runs 3]
 *
 * What a fresh process searches in its first moves, with and without the JIT warm-up that
 * `gomoku play` does at start-up (src/search/warmup.ts). For each warm-up budget B (ms) and
 * move time T (ms), each run is a new Node process that warms up for B ms, then plays the
 * engine's move at T ms in 5 fixed positions (other positions than the warm-up's), each with
 * fresh tables; it prints the nodes of each of the 5 moves. Per (B, T): the median over the
 * runs of each move's nodes. Needs dist/ (npm run build).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { helpOnRequest, pairedOptions } from './usage.mjs';
import { median } from './stats.mjs';

helpOnRequest(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
if (!existsSync(join(dist, 'search', 'warmup.js'))) {
  console.error('bench-warmup: dist/ is missing; run `npm run build` first');
  process.exit(2);
}

if (process.argv[2] === '--child') {
  // one fresh process: warm up for B ms, then the 5 moves at T ms
  const [B, T] = [Number(process.argv[3]), Number(process.argv[4])];
  const { Engine } = await import(pathToFileURL(join(dist, 'search', 'engine.js')).href);
  const { WarmUp } = await import(pathToFileURL(join(dist, 'search', 'warmup.js')).href);
  const { parsePoint } = await import(pathToFileURL(join(dist, 'core', 'notation.js')).href);
  const now = () => performance.now();
  const w = new WarmUp(B, now);
  while (w.step());
  const line = 'h8 h9 i10 g8 j11 k12 i8 i11 j9'.split(' ').map((m) => parsePoint(m, 15).value);
  const e = new Engine({ now, seed: 'bench' });
  const nodes = [];
  for (let k = 0; k < 5; k++) {
    e.newGame(15);
    for (const q of line.slice(0, 4 + k)) e.play(q);
    nodes.push(e.go({ turnMs: T }).nodes);
  }
  console.log(JSON.stringify({ moves: w.moves, nodes }));
  process.exit(0);
}

const opt = pairedOptions('bench-warmup', ['--budgets', '--ms', '--runs']);
const list = (s) => s.split(',').map(Number);
const budgets = list(opt('--budgets', '0,1000'));
const times = list(opt('--ms', '200,1000'));
const runs = Number(opt('--runs', '3'));
if (![...budgets, ...times].every((n) => Number.isInteger(n) && n >= 0) || !Number.isInteger(runs) || runs < 1) {
  console.error('bench-warmup: --budgets and --ms take integers (ms) separated by commas, --runs a positive integer (see --help)');
  process.exit(2);
}

for (const T of times) {
  for (const B of budgets) {
    const per = [[], [], [], [], []];
    let moves = 0;
    for (let r = 0; r < runs; r++) {
      const c = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', String(B), String(T)], { encoding: 'utf8' });
      if (c.status !== 0) {
        console.error(`bench-warmup: a run failed: ${c.stderr.trim().split('\n')[0]}`);
        process.exit(1);
      }
      const o = JSON.parse(c.stdout);
      moves += o.moves;
      o.nodes.forEach((n, i) => per[i].push(n));
    }
    const med = per.map((a) => Math.round(median(a)));
    console.log(
      `moves at ${String(T).padStart(4)} ms, warm-up ${String(B).padStart(4)} ms (${Math.round(moves / runs)} scratch moves): nodes ${med.map((n) => n.toLocaleString('en')).join(' / ')}  (median of ${runs} processes)`,
    );
  }
}
