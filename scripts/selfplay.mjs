#!/usr/bin/env node
/**
 * Self-play stability run (runs on dist/: build first with `npx tsc -p .`).
 *
 *   node scripts/selfplay.mjs [--games 200] [--ms 100] [--size 15] [--rule freestyle] [--seed S]
 *
 * Plays engine-vs-engine games (two Engine instances, one per colour) from varied openings:
 * the Gomocup 2026 freestyle openings in ../shared/testdata/openings when present, else random
 * 3-stone openings near the centre. Every move is checked for legality and timed on the wall
 * clock around go(). Reports results, illegal moves, crashes (exceptions), the maximum and the
 * 99th percentile time per move, and the moves over the limit. Exit status 1 if any illegal
 * move, crash or move over its time happened.
 */
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { helpOnRequest } from './usage.mjs';

helpOnRequest(import.meta.url);

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');
if (!existsSync(join(dist, 'search', 'engine.js'))) {
  console.error('selfplay: dist/ is missing; run `npx tsc -p .` first');
  process.exit(2);
}
const { Engine } = await import(join(dist, 'search', 'engine.js'));
const { makePoint } = await import(join(dist, 'core', 'notation.js'));

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
};
const GAMES = Number(opt('games', 200));
const MS = Number(opt('ms', 100));
const SIZE = Number(opt('size', 15));
const RULE = opt('rule', 'freestyle');
const SEED = opt('seed', 'selfplay');

function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

const openings = [];
const file = join(here, '..', '..', 'shared', 'testdata', 'openings', 'gomocup-2026-freestyle-15x15.json');
if (SIZE === 15 && existsSync(file)) {
  for (const o of JSON.parse(readFileSync(file, 'utf8')).openings) openings.push(o.coordinates.map(([x, y]) => (7 - y) * 15 + (7 + x)));
}
const r = rng(12345);
while (openings.length < 20) {
  const c = (SIZE >> 1) * SIZE + (SIZE >> 1);
  const set = new Set([c]);
  while (set.size < 3) set.add(c + (Math.floor(r() * 5) - 2) * SIZE + Math.floor(r() * 5) - 2);
  openings.push([...set]);
}

let illegal = 0;
let crashes = 0;
let over = 0;
let maxMs = 0;
const times = [];
const results = { black: 0, white: 0, draw: 0 };
const sources = {};
const t0 = performance.now();
for (let g = 0; g < GAMES; g++) {
  const opening = openings[g % openings.length];
  const engines = [1, 2].map((c) => new Engine({ size: SIZE, rule: RULE, seed: `${SEED}-${g}-${c}`, now: () => performance.now() }));
  for (const e of engines) for (const q of opening) e.play(q);
  const board = engines[0].board;
  let winner = 0;
  try {
    while (!winner && board.ply < board.area) {
      const side = board.toMove;
      const e = engines[side - 1];
      const s = performance.now();
      const cpu0 = process.cpuUsage();
      const res = e.go({ turnMs: MS });
      const dt = performance.now() - s;
      const cpu = process.cpuUsage(cpu0);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      times.push(dt);
      if (dt > maxMs) maxMs = dt;
      if (dt > MS) {
        over++;
        console.log(
          `game ${g + 1} ply ${board.ply}: ${dt.toFixed(1)} ms (source ${res.source}, depth ${res.depth}, nodes ${res.nodes}; cpu ${cpuMs.toFixed(0)} ms; stage starts ${Array.from(e.stageMs, (x) => x.toFixed(0)).join(' ')})`,
        );
      }
      sources[res.source] = (sources[res.source] ?? 0) + 1;
      if (!e.isLegal(res.move)) {
        illegal++;
        console.log(`game ${g + 1}: illegal move ${res.move} at ply ${board.ply}`);
        break;
      }
      for (const x of engines) x.play(res.move);
      winner = board.lastMoveWon();
    }
  } catch (err) {
    crashes++;
    console.log(`game ${g + 1}: crash: ${err instanceof Error ? err.stack : String(err)}`);
  }
  if (winner === 1) results.black++;
  else if (winner === 2) results.white++;
  else results.draw++;
  const moves = Array.from(board.history.subarray(0, board.ply), (q) => makePoint(q, SIZE)).join(' ');
  if (args.includes('--verbose'))
    console.log(`game ${g + 1}: ${winner ? (winner === 1 ? 'black' : 'white') + ' wins' : 'draw'} in ${board.ply} plies: ${moves}`);
  else if ((g + 1) % 10 === 0) console.log(`${g + 1} games, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}
times.sort((a, b) => a - b);
const p99 = times.length ? times[Math.min(times.length - 1, Math.floor(times.length * 0.99))] : 0;
console.log(`games ${GAMES} at ${MS} ms/move: black ${results.black}, white ${results.white}, draw ${results.draw}`);
console.log(`moves ${times.length}; sources ${JSON.stringify(sources)}`);
console.log(`illegal moves ${illegal}, crashes ${crashes}, moves over ${MS} ms: ${over}; max ${maxMs.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
process.exit(illegal || crashes || over ? 1 : 0);
