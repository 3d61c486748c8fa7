#!/usr/bin/env node
/**
 * Post-mortem of a match recorded by `gomoku match --out DIR`: where did one engine's moves
 * lose games it need not have lost, by its own solver's standard?
 *
 *   node scripts/postmortem.mjs DIR [--engine NAME] [--lost-ms 500] [--win-ms 1000]
 *       [--workers N] [--games 1,5,7] [--log FILE] [--json]
 *
 * For every move of the engine (default: the first engine of the match) it asks the solver
 * (src/search/solver.ts, every claim checked by the independent checker):
 *  - after the move, with the opponent to move, within --lost-ms: does the opponent win?
 *    A move after which he does, from a position that was not already proven lost, is a
 *    blunder (the move that let the win in);
 *  - before the move, within --win-ms: did the engine have a win, and does its move keep it
 *    (the opponent, to move after it, proven lost)? A win it did not keep is a missed win.
 * With --log (the match's `--log` transcript, our bot run with `--debug`, which sends a
 * `DEBUG depth D score S nodes N source SRC` line before each move), it also reports how much
 * of its turn the engine used on the moves it had to think about (source alphabeta or
 * defence at depth > 3: not a book move, a five or a proven win found by the solver
 * stages, nor a move with one candidate).
 * Prints one line per blunder and missed win, and per game the result and the first of
 * each; `--json` prints one object instead. Needs `npm run build` (it uses dist/).
 * Exit status: 0 (findings are data, not failures), 2 bad usage.
 */
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { helpOnRequest, readOptions } from './usage.mjs';

helpOnRequest(import.meta.url);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const {
  opts: o,
  positionals,
  die,
} = readOptions('postmortem', {
  '--engine': 'string',
  '--lost-ms': 'int',
  '--win-ms': 'int',
  '--workers': 'int',
  '--games': 'ints',
  '--log': 'string',
  '--json': 'flag',
});
const opt = {
  engine: o['--engine'],
  lostMs: o['--lost-ms'] ?? 500,
  winMs: o['--win-ms'] ?? 1000,
  workers: o['--workers'],
  games: o['--games'] && new Set(o['--games']),
  log: o['--log'],
  json: o['--json'] ?? false,
};
const [dir, extra] = positionals;
if (extra !== undefined) die(`unexpected argument '${extra}'`);
if (dir === undefined) die('give the match directory');
const file = join(dir, 'games.jsonl');
if (!existsSync(file)) die(`${file} does not exist`);
const dist = (p) => pathToFileURL(join(root, 'dist', p)).href;
if (!existsSync(join(root, 'dist', 'workers', 'pool.js'))) die("dist/ is missing: run 'npm run build' first");
const { MATE_BOUND } = await import(dist('search/types.js'));

const records = [];
for (const [n, line] of readFileSync(file, 'utf8').split('\n').entries()) {
  if (line.trim() === '') continue;
  try {
    records.push(JSON.parse(line));
  } catch {
    die(`${file}:${n + 1} is not JSON`);
  }
}
if (records.length === 0) die(`${file} has no games`);
if (opt.log !== undefined && !existsSync(opt.log)) die(`--log ${opt.log} does not exist`);
const engine = opt.engine ?? records[0].black;
if (!records.some((r) => r.black === engine || r.white === engine)) die(`no game has an engine named '${engine}'`);

const { createPool } = await import(dist('workers/pool.js'));
const pool = createPool('workers/solve-worker', opt.workers ? { workers: opt.workers } : {});

/** Every move of `engine` as a pair of solver jobs; the records keep the moves in order. */
const tasks = [];
for (const r of records) {
  if (r.result === '*' || (opt.games && !opt.games.has(r.game))) continue;
  const ourColor = r.black === engine ? 'black' : r.white === engine ? 'white' : undefined;
  if (!ourColor) continue;
  const moves = [...r.opening, ...r.moves.map((m) => m.move)];
  const first = r.opening.length;
  for (let i = first; i < moves.length; i++) {
    const mover = i % 2 === 0 ? 'black' : 'white';
    if (mover !== ourColor) continue;
    const before = moves.slice(0, i).join(' ');
    const after = moves.slice(0, i + 1).join(' ');
    const base = { size: r.size, rule: r.rule };
    tasks.push({
      game: r.game,
      ply: i + 1,
      move: moves[i],
      before: pool.run({ ...base, position: before, toMove: mover, timeMs: opt.winMs }),
      after:
        i + 1 < moves.length || r.reason !== 'five'
          ? pool.run({ ...base, position: after, toMove: mover === 'black' ? 'white' : 'black', timeMs: opt.lostMs })
          : Promise.resolve({ result: 'loss' }),
    });
  }
}

const t0 = Date.now();
let done = 0;
const isTTY = process.stderr.isTTY;
const progress = () => {
  const el = (Date.now() - t0) / 1000;
  const rate = done / Math.max(el, 0.001);
  const eta = rate > 0 ? Math.round((tasks.length - done) / rate) : '?';
  const line = `postmortem: ${done}/${tasks.length} moves  ${rate.toFixed(1)}/s  eta ${eta}s`;
  if (isTTY) process.stderr.write(`\r${line}`);
  else if (done === tasks.length || done % 50 === 0) process.stderr.write(`${line}\n`);
};
for (const t of tasks) {
  [t.before, t.after] = await Promise.all([t.before, t.after]);
  done++;
  progress();
}
if (isTTY) process.stderr.write('\n');
await pool.destroy();

const findings = [];
const perGame = new Map();
for (const t of tasks) {
  const g = perGame.get(t.game) ?? { game: t.game, blunder: undefined, missed: undefined };
  perGame.set(t.game, g);
  const alreadyLost = t.before.result === 'loss';
  if (t.after.result === 'win' && !alreadyLost) {
    const f = { kind: 'blunder', game: t.game, ply: t.ply, move: t.move, opponentWins: t.after.move, method: t.after.method, ms: t.after.ms };
    findings.push(f);
    g.blunder ??= f;
  }
  // the solver's own winning move is kept even when the proof after it outruns --lost-ms
  if (t.before.result === 'win' && t.after.result !== 'loss' && t.move !== t.before.move) {
    const f = { kind: 'missed-win', game: t.game, ply: t.ply, move: t.move, winningMove: t.before.move, method: t.before.method, ms: t.before.ms };
    findings.push(f);
    g.missed ??= f;
  }
}

const games = records
  .filter((r) => perGame.has(r.game))
  .map((r) => {
    const ours = r.black === engine ? 'black' : 'white';
    const won = (r.result === '1-0' && ours === 'black') || (r.result === '0-1' && ours === 'white');
    const lost = (r.result === '1-0' && ours === 'white') || (r.result === '0-1' && ours === 'black');
    const g = perGame.get(r.game);
    return { game: r.game, colour: ours, result: won ? 'win' : lost ? 'loss' : 'draw', reason: r.reason, firstBlunder: g.blunder, firstMissedWin: g.missed };
  });
const lostByBlunder = games.filter((g) => g.result === 'loss' && g.firstBlunder).length;
const summary = {
  engine,
  games: games.length,
  movesExamined: tasks.length,
  lostMs: opt.lostMs,
  winMs: opt.winMs,
  losses: games.filter((g) => g.result === 'loss').length,
  lostAfterBlunder: lostByBlunder,
  gamesWithMissedWin: games.filter((g) => g.firstMissedWin).length,
  blunders: findings.filter((f) => f.kind === 'blunder').length,
  missedWins: findings.filter((f) => f.kind === 'missed-win').length,
};

/** Time use from the transcript: the DEBUG line before each of our moves says how it was found. */
let timeUse;
if (opt.log !== undefined) {
  const debug = new Map(); // game -> [{source, depth}] in move order
  for (const line of readFileSync(opt.log, 'utf8').split('\n')) {
    const [, game, eng, dir, text] = line.split('\t');
    if (eng !== engine || dir !== '<' || text === undefined) continue;
    const m = /^DEBUG depth (-?\d+) score (-?\d+) nodes (\d+) source (\w+)(?: ms \d+ search-from (\d+) stop (\w+))?/.exec(text);
    if (!m) continue;
    const g = Number(game);
    if (!debug.has(g)) debug.set(g, []);
    debug.get(g).push({ depth: Number(m[1]), score: Number(m[2]), source: m[4], searchFrom: m[5] === undefined ? undefined : Number(m[5]), stop: m[6] });
  }
  const shares = [];
  const early = {};
  let moves = 0;
  for (const r of records) {
    const d = debug.get(r.game);
    if (!d || !(r.tc?.turnMs > 0) || (r.black !== engine && r.white !== engine)) continue;
    const ourColor = r.black === engine ? 0 : 1;
    let k = 0;
    for (let i = 0; i < r.moves.length; i++) {
      if ((r.opening.length + i) % 2 !== ourColor) continue;
      const info = d[k++];
      moves++;
      if (!info || !(info.source === 'alphabeta' || info.source === 'defence') || info.depth <= 3) continue;
      const share = r.moves[i].ms / r.tc.turnMs;
      shares.push(share);
      // why a move ended early: how alpha-beta stopped (newer builds say), and whether the
      // solver stages before it had used half the turn
      if (share < 0.85) {
        const why = `${info.stop ?? (Math.abs(info.score) >= MATE_BOUND ? 'mate?' : 'unknown')}${info.searchFrom !== undefined && info.searchFrom >= r.tc.turnMs / 2 ? ' (solver stages over half the turn)' : ''}`;
        early[why] = (early[why] ?? 0) + 1;
      }
    }
  }
  shares.sort((x, y) => x - y);
  const q = (f) => (shares.length ? Math.round(shares[Math.min(shares.length - 1, Math.floor(f * shares.length))] * 1000) / 10 : undefined);
  timeUse = {
    moves,
    thought: shares.length,
    medianPercent: q(0.5),
    p10Percent: q(0.1),
    atLeast85Percent: shares.length ? Math.round((shares.filter((x) => x >= 0.85).length / shares.length) * 1000) / 10 : undefined,
    over100Percent: shares.filter((x) => x > 1).length,
    under85ByStop: early,
  };
  summary.timeUse = timeUse;
}

if (opt.json) {
  process.stdout.write(`${JSON.stringify({ summary, games, findings })}\n`);
} else {
  for (const f of findings) {
    if (f.kind === 'blunder')
      process.stdout.write(
        `game ${f.game} ply ${f.ply}: ${f.move} lets the opponent win by ${f.opponentWins} (${f.method}; solved and checked in ${f.ms} ms)\n`,
      );
    else process.stdout.write(`game ${f.game} ply ${f.ply}: ${f.move} misses the win by ${f.winningMove} (${f.method}; solved and checked in ${f.ms} ms)\n`);
  }
  process.stdout.write(
    `${engine}: ${summary.games} games, ${summary.movesExamined} moves examined; ${summary.losses} lost, ${summary.lostAfterBlunder} of them after a blunder ` +
      `(the opponent's win proved within ${opt.lostMs} ms after our move); ${summary.missedWins} missed wins (proved within ${opt.winMs} ms) in ${summary.gamesWithMissedWin} games\n`,
  );
  if (timeUse) {
    process.stdout.write(
      `time use: ${timeUse.thought} of ${timeUse.moves} moves thought about: median ${timeUse.medianPercent}% of the turn, 10th percentile ${timeUse.p10Percent}%, ` +
        `${timeUse.atLeast85Percent}% of them used at least 85%, ${timeUse.over100Percent} over the turn\n`,
    );
    const early = Object.entries(timeUse.under85ByStop).sort((x, y) => y[1] - x[1]);
    if (early.length > 0) process.stdout.write(`under 85%, by how the search stopped: ${early.map(([k, n]) => `${k} ${n}`).join(', ')}\n`);
  }
}
