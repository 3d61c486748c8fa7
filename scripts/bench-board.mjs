#!/usr/bin/env node
// Board throughput: play+undo pairs per second with incremental pattern updates, on random
// games (moves mostly near the stones, like a search). Runs on the built dist/ (npm run build).
// Prints the median of several timed runs per configuration and a checksum of the work done
// (same seed, same code => same checksum).
//
//   npm run bench [-- --runs 7 --ms 400 --size 15 --rule freestyle]
import { existsSync } from 'node:fs';
import { helpOnRequest } from './usage.mjs';

helpOnRequest(import.meta.url);

const dist = new URL('../dist/core/board.js', import.meta.url);
if (!existsSync(dist)) {
  console.error('bench: dist/ is missing; run `npm run build` first');
  process.exit(2);
}
const { Board } = await import(dist.href);

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
};
const RUNS = Number(opt('runs', 7));
const MS = Number(opt('ms', 400));
const sizes = opt('size', '15').split(',').map(Number);
const rules = opt('rule', 'freestyle,standard').split(',');

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random games as Int16Array move lists, stopping at a five or at maxLen moves. */
function makeGames(size, rule, count, seed) {
  const r = rng(seed);
  const games = [];
  for (let g = 0; g < count; g++) {
    const b = new Board(size, rule);
    const len = 20 + Math.floor(r() * 100);
    const moves = [];
    while (moves.length < len && b.ply < b.area) {
      let q;
      if (moves.length === 0) q = (size >> 1) * size + (size >> 1);
      else {
        // near the last few stones
        const base = moves[moves.length - 1 - Math.floor(r() * Math.min(4, moves.length))];
        const x = (base % size) + Math.floor(r() * 5) - 2;
        const y = Math.floor(base / size) + Math.floor(r() * 5) - 2;
        q = y * size + x;
        if (x < 0 || y < 0 || x >= size || y >= size || b.cells[q] !== 0) {
          do q = Math.floor(r() * b.area);
          while (b.cells[q] !== 0);
        }
      }
      b.play(q);
      moves.push(q);
      if (b.lastMoveWon()) break;
    }
    games.push(Int16Array.from(moves));
  }
  return games;
}

/** One timed run: replay every game forward and back until `ms` have passed. */
function run(board, games, ms) {
  let pairs = 0;
  let check = 0; // keeps the work observable; not part of the output
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < ms) {
    for (const g of games) {
      for (let i = 0; i < g.length; i++) board.play(g[i]);
      check = (check + board.hashLo + board.count(1, 9) + board.count(2, 8)) | 0;
      for (let i = 0; i < g.length; i++) board.undo();
      pairs += g.length;
    }
    t = performance.now();
  }
  return { rate: pairs / ((t - t0) / 1000), check };
}

/** A checksum of one full replay: hash and threat counts after every game. */
function checksum(board, games) {
  let c = 0;
  for (const g of games) {
    for (let i = 0; i < g.length; i++) board.play(g[i]);
    c = (Math.imul(c, 31) + board.hashLo + board.hashHi + board.count(1, 9) * 7 + board.count(2, 8)) | 0;
    for (let i = 0; i < g.length; i++) board.undo();
  }
  return c >>> 0;
}

const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
console.log(`node ${process.version}; ${RUNS} runs of ${MS} ms each; median play+undo pairs per second`);
for (const size of sizes) {
  for (const rule of rules) {
    const games = makeGames(size, rule, 200, 12345 + size);
    const moves = games.reduce((n, g) => n + g.length, 0);
    const board = new Board(size, rule);
    run(board, games, 200); // warm-up (JIT)
    const rates = [];
    let sink = 0;
    for (let i = 0; i < RUNS; i++) {
      const r = run(board, games, MS);
      rates.push(r.rate);
      sink ^= r.check;
    }
    const check = checksum(board, games);
    if (sink === 0.5) console.log(sink);
    const m = median(rates);
    console.log(
      `board ${size}x${size} ${rule}: ${(m / 1e6).toFixed(2)} M pairs/s` +
        `  (runs ${rates.map((x) => (x / 1e6).toFixed(2)).join(' ')}; ${games.length} games, ${moves} moves; checksum ${check})`,
    );
  }
}
