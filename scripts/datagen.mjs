#!/usr/bin/env node
/**
 * Self-play games for tuning the evaluation (scripts/tune-eval.mjs reads them).
 *
 *   node scripts/datagen.mjs --out FILE [--games 2000] [--nodes 8000] [--threads 2]
 *       [--opening-stones 3] [--window 7] [--seed datagen] [--size 15] [--rule freestyle]
 *
 * Plays the engine (dist/, build first) against itself under a node limit per move, so a run
 * is reproducible whatever the machine's load: game k starts from the k-th seeded random
 * opening (`--opening-stones` stones inside the central `--window` square, as `gomoku match
 * --random-openings` makes them) and each side's engine is seeded with the game's number, so
 * the root's seeded tie-breaks vary the games. Games are appended to FILE in game order (the
 * same file from any number of threads) as JSON lines in the record shape of `gomoku match
 * --out` (`opening`, `moves` with the search's `score` of each, `result` "1-0" / "0-1" /
 * "1/2-1/2"), so match records against the sparring engines can be tuned on beside them.
 * A line `games N/M, R games/min` goes to stderr as it runs. Exit status: 0 done, 2 bad usage.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { helpOnRequest } from './usage.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const die = (msg) => {
  process.stderr.write(`datagen: ${msg} (see --help)\n`);
  process.exit(2);
};

async function playGame(o, k) {
  const { Engine } = await import(pathToFileURL(join(dist, 'search', 'engine.js')).href);
  const { makePoint } = await import(pathToFileURL(join(dist, 'core', 'notation.js')).href);
  const opening = o.openings[k];
  const engines = [1, 2].map((c) => new Engine({ size: o.size, rule: o.rule, seed: `${o.seed}-${k}-${c}`, now: () => performance.now() }));
  for (const q of opening) for (const e of engines) e.play(q);
  const board = engines[0].board;
  const moves = [];
  let winner = 0;
  while (!winner && board.ply < board.area) {
    const e = engines[board.toMove - 1];
    const r = e.go({ nodes: o.nodes });
    if (!e.isLegal(r.move)) throw new Error(`illegal move ${r.move} in game ${k}`);
    moves.push({ move: makePoint(r.move, o.size), score: r.score, source: r.source });
    for (const x of engines) x.play(r.move);
    winner = board.lastMoveWon();
  }
  const result = winner === 1 ? '1-0' : winner === 2 ? '0-1' : '1/2-1/2';
  return {
    game: k + 1,
    openingId: `datagen-${o.seed}-${k + 1}`,
    opening: opening.map((q) => makePoint(q, o.size)),
    size: o.size,
    rule: o.rule,
    nodes: o.nodes,
    moves,
    result,
  };
}

if (!isMainThread) {
  const o = workerData;
  parentPort.on('message', async (k) => {
    if (k < 0) process.exit(0);
    parentPort.postMessage(await playGame(o, k));
  });
} else {
  helpOnRequest(import.meta.url);
  const args = process.argv.slice(2);
  const o = { games: 2000, nodes: 8000, threads: 2, openingStones: 3, window: 7, seed: 'datagen', size: 15, rule: 'freestyle' };
  let out;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const val = () => (i + 1 < args.length ? args[++i] : die(`${a} needs a value`));
    const int = (name) => {
      const v = val();
      if (!/^\d+$/.test(v) || Number(v) < 1) die(`${name} must be a positive integer, got '${v}'`);
      return Number(v);
    };
    switch (a) {
      case '--out':
        out = val();
        break;
      case '--games':
        o.games = int(a);
        break;
      case '--nodes':
        o.nodes = int(a);
        break;
      case '--threads':
        o.threads = int(a);
        break;
      case '--opening-stones':
        o.openingStones = int(a);
        break;
      case '--window':
        o.window = int(a);
        break;
      case '--size':
        o.size = int(a);
        break;
      case '--seed':
        o.seed = val();
        break;
      case '--rule':
        o.rule = val();
        break;
      default:
        die(`unknown argument '${a}'`);
    }
  }
  if (!out) die('--out FILE is required');
  if (!existsSync(join(dist, 'search', 'engine.js'))) die('dist/ is missing; run `npm run build` first');
  const { randomOpenings } = await import(pathToFileURL(join(dist, 'match', 'opening-files.js')).href);
  const ops = randomOpenings(o.games, o.size, o.seed, o.openingStones, o.window);
  if (!ops.ok) die(ops.error);
  o.openings = ops.value.map((x) => x.moves);
  let next = 0;
  let done = 0;
  let written = 0;
  const finished = new Map();
  const t0 = performance.now();
  const progress = () => {
    const min = (performance.now() - t0) / 60000;
    process.stderr.write(`\rgames ${done}/${o.games}, ${(done / Math.max(min, 1e-9)).toFixed(1)} games/min `);
  };
  await Promise.all(
    Array.from(
      { length: Math.min(o.threads, o.games) },
      () =>
        new Promise((res, rej) => {
          const w = new Worker(fileURLToPath(import.meta.url), { workerData: o });
          const feed = () => w.postMessage(next < o.games ? next++ : -1);
          w.on('message', (rec) => {
            // records go out in game order whatever thread finishes first, so a run's file
            // (and the tuner's every-10th-game hold-out) is the same on every machine
            finished.set(rec.game, rec);
            while (finished.has(written + 1)) {
              appendFileSync(out, JSON.stringify(finished.get(written + 1)) + '\n');
              finished.delete(++written);
            }
            done++;
            progress();
            feed();
          });
          w.on('error', rej);
          w.on('exit', res);
          feed();
        }),
    ),
  );
  process.stderr.write('\n');
}
