#!/usr/bin/env node
/**
 * Learn the alpha-beta move ordering of quiet moves (src/search/order-weights.ts) from a
 * teacher's moves: a softmax over the quiet candidates of each position (multinomial logistic
 * regression), fitted so the move the teacher played scores highest.
 *
 *   node scripts/tune-order.mjs LABELLED.jsonl [MORE.jsonl ...] [--out src/search/order-weights.ts]
 *       [--iterations 400] [--rate 0.05] [--prior 0.001] [--skip 2] [--validation 10]
 *       [--dry-run] [--json]
 *
 * Input: game records with `teacherMove` on their moves, as scripts/teacher-label.mjs writes
 * them (the move another engine answered in the position before that move). A position
 * counts when the move generator (src/search/movegen.ts) calls it quiet (no forced block or
 * defence) and the teacher's move is one of its quiet candidates (an ordering score below
 * TACTICAL_SCORE: tactical moves are searched first whatever the order). Features of a
 * candidate cell, as the move generator reads them: the combination of its four line patterns
 * for the side to move and for the opponent (eval.ts, 330 each), and its distance (Chebyshev:
 * 1, 2, 3, 4 or more) to the opponent's last move and to the side to move's own last move.
 * The model: score = the sum of the candidate's feature weights; P(move) = softmax over the
 * candidates. Fitted by full-batch Adam on the mean log-loss plus `--prior` x the mean square
 * of the weights; every `--validation`-th game is held out. Reported: held-out log-loss and
 * how often the teacher's move is first and in the first three, for the fitted order and for
 * today's (the order search/movegen.ts gives now). The module is written with the next version
 * number unless `--dry-run`: its weights are the fitted ones times SCALE, rounded.
 * Needs dist/ (npm run build). Exit status: 0 done, 2 bad usage.
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { helpOnRequest, readOptions } from './usage.mjs';

helpOnRequest(import.meta.url);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const {
  opts: a,
  positionals: files,
  die,
} = readOptions('tune-order', {
  '--out': 'string',
  '--iterations': 'int',
  '--rate': 'string',
  '--prior': 'string',
  '--skip': 'string',
  '--validation': 'int',
  '--dry-run': 'flag',
  '--json': 'flag',
});
const number = (name, v, fallback) => {
  if (v === undefined) return fallback;
  if (!/^\d+(\.\d+)?(e-?\d+)?$/.test(v)) die(`${name} must be a number >= 0, got '${v}'`);
  return Number(v);
};
const o = {
  out: a['--out'] !== undefined ? resolve(a['--out']) : join(root, 'src', 'search', 'order-weights.ts'),
  iterations: a['--iterations'] ?? 400,
  rate: number('--rate', a['--rate'], 0.05),
  prior: number('--prior', a['--prior'], 0.001),
  skip: number('--skip', a['--skip'], 2),
  validation: a['--validation'] ?? 10,
  dryRun: a['--dry-run'] ?? false,
  json: a['--json'] ?? false,
};
if (files.length === 0) die('give at least one labelled games file');
if (!existsSync(join(dist, 'search', 'movegen.js'))) die('dist/ is missing; run `npm run build` first');
const imp = (p) => import(pathToFileURL(join(dist, p)).href);
const { Board } = await imp('core/board.js');
const { parsePoint } = await imp('core/notation.js');
const { Geometry, COMBO_OF_WORD, COMBO_NONE, N_COMBOS } = await imp('search/eval.js');
const { MoveGen, GEN_QUIET, TACTICAL_SCORE } = await imp('search/movegen.js');
/** Units of the stored weights per unit of the fitted score, and the distance bins (1 .. ORDER_NEAR, the last one and beyond). */
const ORDER_SCALE = 50;
const ORDER_NEAR = 4;
/** The version now in the tree (0 before the first). */
const previous = existsSync(join(dist, 'search', 'order-weights.js')) ? (await imp('search/order-weights.js')).ORDER_WEIGHTS.version : 0;

// Feature layout: mover combos, opponent combos, distance bins to his last move, to our own.
const F_OPP = N_COMBOS;
const F_LAST = 2 * N_COMBOS;
const F_OWN = F_LAST + ORDER_NEAR;
const N_F = F_OWN + ORDER_NEAR;

/** Positions: per position its candidates' feature offsets (4 per candidate, -1 = none), the teacher's index, today's order. */
const train = [];
const held = [];
let seen = 0;
let notQuiet = 0;
let notCandidate = 0;
for (const f of files) {
  let text;
  try {
    text = readFileSync(f, 'utf8');
  } catch (e) {
    die(`cannot read '${f}' (${e.code ?? 'error'})`);
  }
  let game = 0;
  for (const [ln, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    let rec;
    try {
      rec = JSON.parse(line);
    } catch {
      die(`${f}:${ln + 1}: not JSON`);
    }
    game++;
    const size = rec.size ?? 15;
    const b = new Board(size, rec.rule ?? 'freestyle');
    const gen = new MoveGen(b, new Geometry(size));
    const buf = new Int16Array(b.area);
    const sc = new Int32Array(b.area);
    const pt = (s) => {
      const p = parsePoint(s, size);
      if (!p.ok) die(`${f}:${ln + 1}: ${p.error}`);
      return p.value;
    };
    for (const s of rec.opening ?? []) b.play(pt(s));
    gen.reset();
    const moves = rec.moves ?? [];
    for (let i = 0; i < moves.length; i++) {
      const m = moves[i];
      if (i >= o.skip && typeof m.teacherMove === 'string') {
        seen++;
        const t = pt(m.teacherMove);
        const n = gen.generate(buf, sc, 0);
        if (gen.kind !== GEN_QUIET || n <= 0) notQuiet++;
        else {
          const pos = positionOf(b, buf, sc, n, t);
          if (pos === undefined) notCandidate++;
          else (game % o.validation === 0 ? held : train).push(pos);
        }
      }
      const q = pt(m.move);
      if (b.cells[q] !== 0) die(`${f}:${ln + 1}: move ${i + 1} (${m.move}) is on a stone`);
      b.play(q);
      gen.onPlay(q);
      if (b.lastMoveWon()) break;
    }
  }
}
if (train.length === 0)
  die(`no usable positions (${seen} labelled: ${notQuiet} not quiet, ${notCandidate} with the teacher's move tactical or not a candidate)`);

/** The quiet candidates' features, the teacher's move among them, and today's scores. */
function positionOf(b, buf, sc, n, t) {
  const me = b.toMove;
  const meShift = (me - 1) * 12;
  const oppShift = 12 - meShift;
  const size = b.size;
  const last = b.ply >= 1 ? b.history[b.ply - 1] : -1;
  const own = b.ply >= 2 && b.cells[b.history[b.ply - 2]] === me ? b.history[b.ply - 2] : -1;
  const dist = (p, q) => Math.max(Math.abs((p % size) - (q % size)), Math.abs(Math.floor(p / size) - Math.floor(q / size)));
  const feats = [];
  const today = [];
  let target = -1;
  for (let i = 0; i < n; i++) {
    if (sc[i] >= TACTICAL_SCORE) continue;
    const q = buf[i];
    const w = b.state[q];
    const k = today.length;
    if (q === t) target = k;
    feats.push(COMBO_OF_WORD[(w >>> meShift) & 0xfff], F_OPP + COMBO_OF_WORD[(w >>> oppShift) & 0xfff]);
    feats.push(last >= 0 ? F_LAST + Math.min(dist(q, last), ORDER_NEAR) - 1 : -1, own >= 0 ? F_OWN + Math.min(dist(q, own), ORDER_NEAR) - 1 : -1);
    today.push(sc[i]);
  }
  if (target < 0 || today.length < 2) return undefined;
  return { feats: Int16Array.from(feats), target, today };
}

// --- fitting -------------------------------------------------------------------------------------
const W = new Float64Array(N_F);
const scoreOf = (pos, k, w) => {
  let s = 0;
  for (let j = 0; j < 4; j++) {
    const f = pos.feats[k * 4 + j];
    if (f >= 0) s += w[f];
  }
  return s;
};
/** Mean log-loss over `set` (and its gradient into `grad` when given). */
function loss(set, w, grad) {
  let total = 0;
  const z = new Float64Array(512);
  for (const pos of set) {
    const n = pos.today.length;
    let max = -Infinity;
    for (let k = 0; k < n; k++) max = Math.max(max, (z[k] = scoreOf(pos, k, w)));
    let sum = 0;
    for (let k = 0; k < n; k++) sum += z[k] = Math.exp(z[k] - max);
    total -= Math.log(z[pos.target] / sum);
    if (!grad) continue;
    for (let k = 0; k < n; k++) {
      const g = z[k] / sum - (k === pos.target ? 1 : 0);
      for (let j = 0; j < 4; j++) {
        const f = pos.feats[k * 4 + j];
        if (f >= 0) grad[f] += g;
      }
    }
  }
  return total / Math.max(1, set.length);
}
/** How often the teacher's move is first / in the first three by `rank` (higher first, the earlier candidate on a tie, as the search's selection takes it). */
function hits(set, rank) {
  let top1 = 0;
  let top3 = 0;
  for (const pos of set) {
    const v = rank(pos);
    const t = v[pos.target];
    let above = 0;
    for (let k = 0; k < v.length; k++) if (v[k] > t || (v[k] === t && k < pos.target)) above++;
    if (above === 0) top1++;
    if (above < 3) top3++;
  }
  return { top1: top1 / Math.max(1, set.length), top3: top3 / Math.max(1, set.length) };
}
const fitted = (pos) => pos.today.map((_, k) => scoreOf(pos, k, W));
const todays = (pos) => pos.today;
const before = { held: hits(held, todays), train: hits(train, todays) };
const m1 = new Float64Array(N_F);
const m2 = new Float64Array(N_F);
const grad = new Float64Array(N_F);
for (let it = 1; it <= o.iterations; it++) {
  grad.fill(0);
  loss(train, W, grad);
  for (let f = 0; f < N_F; f++) {
    const g = grad[f] / train.length + (2 * o.prior * W[f]) / N_F;
    m1[f] = 0.9 * m1[f] + 0.1 * g;
    m2[f] = 0.999 * m2[f] + 0.001 * g * g;
    W[f] -= (o.rate * (m1[f] / (1 - 0.9 ** it))) / (Math.sqrt(m2[f] / (1 - 0.999 ** it)) + 1e-9);
  }
  if (!o.json && it % 50 === 0) process.stderr.write(`iteration ${it}: train log-loss ${loss(train, W).toFixed(4)}\n`);
}
// the weights as the module stores them: the mover's and opponent's tables shifted so the
// all-empty combination (most of the board) is 0, rounded at SCALE per unit of score
// (softmax is blind to a constant added to every candidate, and each has one weight of each
// kind, so the shifts change nothing but the range)
const ints = (from, n, zero) => Array.from({ length: n }, (_, i) => Math.round((W[from + i] - W[from + zero]) * ORDER_SCALE));
const out = {
  mover: ints(0, N_COMBOS, COMBO_NONE),
  opponent: ints(F_OPP, N_COMBOS, COMBO_NONE),
  nearLast: ints(F_LAST, ORDER_NEAR, ORDER_NEAR - 1),
  nearOwn: ints(F_OWN, ORDER_NEAR, ORDER_NEAR - 1),
};
const intW = Float64Array.from([...out.mover, ...out.opponent, ...out.nearLast, ...out.nearOwn], (v) => v / ORDER_SCALE);
const report = {
  files,
  labelled: seen,
  notQuiet,
  notCandidate,
  train: train.length,
  held: held.length,
  candidates: Math.round(train.reduce((s, p) => s + p.today.length, 0) / train.length),
  today: before,
  fitted: { held: hits(held, (pos) => pos.today.map((_, k) => scoreOf(pos, k, intW))), train: hits(train, fitted) },
  heldLogLoss: loss(held, intW),
  /** Percentiles (10, 50, 90, 99) of the stored scores of all held-out candidates, as movegen sums them. */
  scores: (() => {
    const all = held.flatMap((pos) => pos.today.map((_, k) => Math.round(scoreOf(pos, k, intW) * ORDER_SCALE))).sort((x, y) => x - y);
    return [0.1, 0.5, 0.9, 0.99].map((p) => all[Math.floor(p * (all.length - 1))] ?? 0);
  })(),
  trainLogLoss: loss(train, W),
  uniformLogLoss: held.reduce((s, p) => s + Math.log(p.today.length), 0) / Math.max(1, held.length),
  version: previous + 1,
};
if (o.json) process.stdout.write(`${JSON.stringify(report)}\n`);
else {
  const pc = (x) => `${(100 * x).toFixed(1)}%`;
  process.stdout.write(
    `${report.train} positions to fit, ${report.held} held out (${seen} labelled; ${notQuiet} not quiet, ${notCandidate} with a tactical or no candidate teacher move), ${report.candidates} quiet candidates a position\n` +
      `held out: teacher's move first ${pc(before.held.top1)} -> ${pc(report.fitted.held.top1)}, in the first three ${pc(before.held.top3)} -> ${pc(report.fitted.held.top3)}\n` +
      `held-out log-loss ${report.heldLogLoss.toFixed(4)} (uniform ${report.uniformLogLoss.toFixed(4)}); candidates' scores, percentiles 10/50/90/99: ${report.scores.join(' ')}\n`,
  );
}
if (!o.dryRun) {
  const fmt = (xs) => xs.map((v) => String(v)).join(', ');
  writeFileSync(
    o.out,
    `/**
 * Quiet-move ordering weights, version ${report.version}: written by scripts/tune-order.mjs (do not edit by
 * hand; rerun it). Data: ${files.map((f) => f.split('/').pop()).join(', ')}: ${report.train} positions fitted, ${report.held} held out;
 * held out, the teacher's move first ${(100 * before.held.top1).toFixed(1)}% -> ${(100 * report.fitted.held.top1).toFixed(1)}%, in the first three ${(100 * before.held.top3).toFixed(1)}% -> ${(100 * report.fitted.held.top3).toFixed(1)}%.
 * A quiet candidate's score (movegen.ts) is the sum of: mover / opponent, the weight of its
 * cell combination (eval.ts) for the side to move and for the opponent; nearLast / nearOwn,
 * its distance (1 .. ORDER_NEAR and beyond) to the opponent's last move and to its own.
 * ORDER_SCALE units are one unit of the fitted softmax score.
 */
export const ORDER_SCALE = ${ORDER_SCALE};
export const ORDER_NEAR = ${ORDER_NEAR};
export const ORDER_WEIGHTS = {
  version: ${report.version},
  mover: [${fmt(out.mover)}],
  opponent: [${fmt(out.opponent)}],
  nearLast: [${fmt(out.nearLast)}],
  nearOwn: [${fmt(out.nearOwn)}],
};
`,
  );
  process.stderr.write(`wrote ${o.out} (version ${report.version}); run prettier on it\n`);
}
