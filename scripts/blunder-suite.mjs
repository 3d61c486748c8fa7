#!/usr/bin/env node
/**
 * Replay the blunders a post-mortem found, against a build of the bot: does it still play a
 * move after which the opponent has a proven win?
 *
 *   node scripts/blunder-suite.mjs --postmortem PM.json --match DIR [--build DIST]
 *       [--nodes 300000] [--check-nodes 1500000] [--seed s1] [--json]
 *
 * PM.json is `scripts/postmortem.mjs DIR --engine NAME --json` of the match in DIR (its
 * games.jsonl gives the positions). For every blunder, the position before it is given to
 * the Engine of DIST (default: this checkout's dist/; any build with the same
 * search/engine.js API, e.g. an older one exported with `git archive`) with a node limit, so
 * the answer is the same on any machine. The move it plays is then checked with this
 * checkout's solver (VCF, then threat-space stages, `--check-nodes` nodes, a fresh solver per
 * position, every claimed win verified by the independent checker): "refuted" means the
 * opponent's win is proven after it. The post-mortem's budget is time (0.5 s), this one's is
 * nodes, so a blunder of the match may come out "held" here with the very same move.
 *
 * Many blunders are moves in positions that were already lost (the post-mortem proves a loss
 * only within its 1 s): a build that plays another refuted move there is no worse. To tell
 * them apart, `--alternatives` also counts, for each position, the moves the solver does not
 * refute among the bot's candidates (slow: a solve per candidate).
 * Exit status: 0 (the counts are data), 2 bad usage.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { helpOnRequest, readOptions } from './usage.mjs';

helpOnRequest(import.meta.url);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const {
  opts: o,
  positionals,
  die,
} = readOptions('blunder-suite', {
  '--postmortem': 'string',
  '--match': 'string',
  '--build': 'string',
  '--nodes': 'int',
  '--check-nodes': 'int',
  '--seed': 'string',
  '--json': 'flag',
  '--alternatives': 'flag',
});
if (positionals.length > 0) die(`unexpected argument '${positionals[0]}'`);
const opt = {
  pm: o['--postmortem'],
  match: o['--match'],
  build: o['--build'] !== undefined ? resolve(o['--build']) : join(root, 'dist'),
  nodes: o['--nodes'] ?? 300_000,
  checkNodes: o['--check-nodes'] ?? 1_500_000,
  seed: o['--seed'] ?? 's1',
  json: o['--json'] ?? false,
  alternatives: o['--alternatives'] ?? false,
};
if (!opt.pm || !opt.match) die('give --postmortem and --match');
for (const f of [opt.pm, join(opt.match, 'games.jsonl')]) if (!existsSync(f)) die(`${f} does not exist`);
const here = (p) => pathToFileURL(join(root, 'dist', p)).href;
if (!existsSync(join(root, 'dist', 'workers', 'solve-job.js'))) die("dist/ is missing: run 'npm run build' first");
if (!existsSync(join(opt.build, 'search', 'engine.js'))) die(`${opt.build} has no search/engine.js`);

const { Engine } = await import(pathToFileURL(join(opt.build, 'search', 'engine.js')).href);
const { solveJob } = await import(here('workers/solve-job.js'));
const { parsePosition, makePoint } = await import(here('core/notation.js'));
const { boardFromSpec } = await import(here('core/position.js'));
const { MoveGen } = await import(here('search/movegen.js'));
const { Geometry } = await import(here('search/eval.js'));

let pm;
try {
  pm = JSON.parse(readFileSync(opt.pm, 'utf8'));
} catch {
  die(`${opt.pm} is not postmortem.mjs --json output`);
}
if (!Array.isArray(pm.findings)) die(`${opt.pm} is not postmortem.mjs --json output`);
const games = new Map();
for (const line of readFileSync(join(opt.match, 'games.jsonl'), 'utf8').split('\n')) {
  if (line.trim() === '') continue;
  const r = JSON.parse(line);
  games.set(r.game, r);
}

const colour = (c) => (c === 1 ? 'black' : 'white');
/** Does the side to move after `moves` win (solver + checker, a node budget)? */
function wins(moves, toMove, size, rule) {
  const r = solveJob({ position: moves.join(' '), toMove: colour(toMove), size, rule, nodes: opt.checkNodes });
  return r.result === 'win';
}

const rows = [];
for (const f of pm.findings.filter((x) => x.kind === 'blunder')) {
  const g = games.get(f.game);
  if (!g) die(`game ${f.game} of ${opt.pm} is not in ${opt.match}`);
  const moves = [...g.opening, ...g.moves.map((m) => m.move)].slice(0, f.ply - 1);
  const me = (f.ply - 1) % 2 === 0 ? 1 : 2;
  const spec = parsePosition(moves.join(' '), g.size);
  if (!spec.ok) die(`game ${f.game}: ${spec.error}`);
  const b = boardFromSpec(spec.value, g.rule, me === 1 ? 1 : 2);
  if (!b.ok) die(`game ${f.game}: ${b.error}`);
  const stones = [];
  for (let q = 0; q < b.value.area; q++) if (b.value.cells[q]) stones.push({ index: q, color: b.value.cells[q] });
  const e = new Engine({ now: () => performance.now(), seed: opt.seed, size: g.size, rule: g.rule });
  e.setPosition(stones, me);
  const res = e.go({ nodes: opt.nodes });
  const move = makePoint(res.move, g.size);
  const row = { game: f.game, ply: f.ply, played: f.move, now: move, source: res.source, refuted: wins([...moves, move], 3 - me, g.size, g.rule) };
  if (opt.alternatives) {
    const buf = new Int16Array(b.value.area);
    const n = new MoveGen(b.value, new Geometry(g.size)).generate(buf, new Int32Array(b.value.area), 0);
    row.held = [];
    for (let i = 0; i < n; i++) {
      const m = makePoint(buf[i], g.size);
      if (!wins([...moves, m], 3 - me, g.size, g.rule)) row.held.push(m);
    }
  }
  rows.push(row);
  if (!opt.json) {
    const alt = row.held ? `; not refuted: ${row.held.join(' ') || 'none (already lost)'}` : '';
    console.log(`game ${row.game} ply ${row.ply}: played ${row.played}, now ${row.now} (${row.source}) ${row.refuted ? 'refuted' : 'held'}${alt}`);
  }
}
const refuted = rows.filter((r) => r.refuted).length;
const lostAnyway = rows.filter((r) => r.held && r.held.length === 0).length;
if (opt.json)
  console.log(
    JSON.stringify({
      build: opt.build,
      nodes: opt.nodes,
      checkNodes: opt.checkNodes,
      positions: rows.length,
      refuted,
      lostAnyway: opt.alternatives ? lostAnyway : undefined,
      rows,
    }),
  );
else console.log(`${rows.length} blunder positions, ${refuted} still refuted${opt.alternatives ? `, ${lostAnyway} with no move held (already lost)` : ''}`);
