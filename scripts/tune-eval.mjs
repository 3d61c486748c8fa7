#!/usr/bin/env node
/**
 * Tune the evaluation's weights (src/search/eval-weights.ts) by logistic regression on game
 * results and solver labels (Texel's method).
 *
 *   node scripts/tune-eval.mjs GAMES.jsonl [MORE.jsonl ...] [--out src/search/eval-weights.ts]
 *       [--iterations 600] [--rate 2] [--prior 0.0005] [--skip 2] [--solver-nodes 0]
 *       [--search-weight 0] [--teacher-weight 0] [--teacher-scale 0]
 *       [--teacher-mate 0]
 *       [--validation 10] [--dry-run] [--json]
 *
 * Input: game records as `gomoku match --out` writes them (games.jsonl) and as
 * scripts/datagen.mjs writes them: `opening`, `moves` (`{move}` each), `result`
 * (`1-0`, `0-1`, `1/2-1/2`; `*` is skipped), `size`, `rule`.
 * Positions: every position of a game from `--skip` plies after its opening to its end,
 * except those where a side can already make five (the search decides those, not the
 * evaluation). Label: the game's result for the side to move (1, 1/2, 0); with
 * `--solver-nodes N`, a position where the side to move has a VCF found within N nodes is
 * labelled 1 whatever the game's result (a proof beats a result). With `--search-weight W`
 * (0..1), the label of a position whose record carries the search's score of the move played
 * there (datagen's `score`, the side to move's view) is (1 - W) x result + W x
 * 1 / (1 + exp(-score / K)): the search's verdict on the position itself, where a result
 * comes many moves later. Records without scores (match games) keep the result.
 * `--teacher-weight W` does the same with another engine's evaluation of the position
 * (`teacher` on a move, written by scripts/teacher-label.mjs), on the teacher's own scale:
 * its K_t is `--teacher-scale` (the teacher's own, e.g. 200 for Rapfi's win rate =
 * sigmoid(eval / 200)), or with 0 fitted (the K that best predicts the game results from the
 * teacher's values), then the label is (1 - W) x result + W x 1 / (1 + exp(-teacher / K_t)).
 * `--teacher-mate V` leaves out positions the teacher values at V or more either way (its
 * forced wins: a static evaluation cannot see them, the search's threat stages do). (A lower
 * held-out loss is not an Elo gain: docs/benchmarks.md has where it was not.)
 * Features: exactly what evaluate() reads (src/search/eval.ts `evalFeatures`): the counts of
 * each of the 330 cell combinations for the side to move and for the opponent, and the two
 * threat tiers. The model: P(side to move wins) = 1 / (1 + exp(-eval / K)). K is fitted
 * first with today's weights (so the scale of the evaluation, which the search's margins
 * assume, stays; with a teacher, K is fitted again to the mixed labels, so the evaluation
 * keeps its scale against the teacher's), then the weights by full-batch Adam on the mean log-loss plus
 * `--prior` x the mean squared distance from today's weights (a prior that keeps rare
 * combinations where they were). Every `--validation`-th game is held out and its loss
 * reported before and after. The output module is written with the next version number
 * unless `--dry-run`; `--json` prints the report as one object.
 * Needs dist/ (npm run build). Exit status: 0 done, 2 bad usage.
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { helpOnRequest } from './usage.mjs';

helpOnRequest(import.meta.url);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const die = (msg) => {
  process.stderr.write(`tune-eval: ${msg} (see --help)\n`);
  process.exit(2);
};

const o = {
  out: join(root, 'src', 'search', 'eval-weights.ts'),
  iterations: 600,
  rate: 2,
  prior: 0.0005,
  skip: 2,
  solverNodes: 0,
  searchWeight: 0,
  teacherWeight: 0,
  teacherScale: 0,
  teacherMate: 0,
  validation: 10,
  dryRun: false,
  json: false,
};
const files = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const val = () => (i + 1 < args.length ? args[++i] : die(`${a} needs a value`));
  const num = (name) => {
    const v = val();
    if (!/^\d+(\.\d+)?(e-?\d+)?$/.test(v)) die(`${name} must be a number >= 0, got '${v}'`);
    return Number(v);
  };
  switch (a) {
    case '--out':
      o.out = resolve(val());
      break;
    case '--iterations':
      o.iterations = num(a);
      break;
    case '--rate':
      o.rate = num(a);
      break;
    case '--prior':
      o.prior = num(a);
      break;
    case '--skip':
      o.skip = num(a);
      break;
    case '--solver-nodes':
      o.solverNodes = num(a);
      break;
    case '--teacher-weight':
      o.teacherWeight = num(a);
      if (o.teacherWeight > 1) die(`--teacher-weight must be in 0..1, got ${o.teacherWeight}`);
      break;
    case '--teacher-mate':
      o.teacherMate = num(a);
      break;
    case '--teacher-scale':
      o.teacherScale = num(a);
      break;
    case '--search-weight':
      o.searchWeight = num(a);
      if (o.searchWeight > 1) die(`--search-weight must be in 0..1, got ${o.searchWeight}`);
      break;
    case '--validation':
      o.validation = num(a);
      break;
    case '--dry-run':
      o.dryRun = true;
      break;
    case '--json':
      o.json = true;
      break;
    default:
      if (a.startsWith('--')) die(`unknown option '${a}'`);
      files.push(a);
  }
}
if (files.length === 0) die('give at least one games file');
if (!existsSync(join(dist, 'search', 'eval.js'))) die('dist/ is missing; run `npm run build` first');
const imp = (p) => import(pathToFileURL(join(dist, ...p.split('/'))).href);
const { Board } = await imp('core/board.js');
const { parsePoint } = await imp('core/notation.js');
const { evalFeatures, N_COMBOS, COMBO_NONE } = await imp('search/eval.js');
const { EVAL_WEIGHTS } = await imp('search/eval-weights.js');
const { VcfSearcher } = await imp('search/vcf.js');
const { C_FIVE } = await imp('core/patterns.js');

/** Mate scores are clamped to a sure win or loss. */
const MATE_CLAMP = 5000;

// --- positions -----------------------------------------------------------------------------
/** Sparse features, one position after another: [nMover, (combo, count)..., nOpp, (combo, count)...]. */
const sparse = [];
const start = []; // offset of each position in `sparse`
const tiers = []; // moverTier, opponentTier per position
const labels = [];
/** The recorded search score per position (NaN: none). */
const searchScores = [];
/** The teacher's value per position, its own scale (NaN: none). */
const teacherScores = [];
const holdout = [];
let games = 0;
let solverLabels = 0;
let mateSkipped = 0;
const mover = new Int32Array(N_COMBOS);
const opponent = new Int32Array(N_COMBOS);
const vcf = new VcfSearcher();
const log = (s) => o.json || process.stderr.write(s);
for (const f of files) {
  for (const line of readFileSync(f, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let rec;
    try {
      rec = JSON.parse(line);
    } catch {
      die(`${f}: a line is not JSON`);
    }
    const score = rec.result === '1-0' ? 1 : rec.result === '0-1' ? 0 : rec.result === '1/2-1/2' ? 0.5 : undefined;
    if (score === undefined) continue;
    const size = rec.size ?? 15;
    const b = new Board(size, rec.rule ?? 'freestyle');
    const seq = [...(rec.opening ?? []), ...rec.moves.map((m) => m.move)];
    const held = o.validation > 0 && games % o.validation === 0;
    games++;
    for (let k = 0; k < seq.length; k++) {
      if (k >= (rec.opening?.length ?? 0) + o.skip) {
        const me = b.toMove;
        const c = b.counts;
        const played = rec.moves[k - (rec.opening?.length ?? 0)];
        const tv = played?.teacher;
        const teacherMate = o.teacherMate > 0 && typeof tv === 'number' && Math.abs(tv) >= o.teacherMate;
        if (teacherMate) mateSkipped++;
        if (!teacherMate && c[(me - 1) * 16 + C_FIVE] === 0 && c[(2 - me) * 16 + C_FIVE] === 0) {
          const t = evalFeatures(b, mover, opponent);
          let label = me === 1 ? score : 1 - score;
          let proven = false;
          if (o.solverNodes > 0 && label < 1 && vcf.search(b, { maxNodes: o.solverNodes }).win) {
            label = 1;
            proven = true;
            solverLabels++;
          }
          start.push(sparse.length);
          for (const v of [mover, opponent]) {
            const at = sparse.length;
            sparse.push(0);
            for (let i = 0; i < N_COMBOS; i++) {
              if (i !== COMBO_NONE && v[i] !== 0) {
                sparse.push(i, v[i]);
                sparse[at]++;
              }
            }
          }
          tiers.push(t.moverTier, t.opponentTier);
          labels.push(label);
          const sc = played?.score;
          teacherScores.push(typeof tv === 'number' && !proven ? tv : NaN);
          searchScores.push(typeof sc === 'number' && !proven ? Math.max(-MATE_CLAMP, Math.min(MATE_CLAMP, sc)) : NaN);
          holdout.push(held);
        }
      }
      const p = parsePoint(seq[k], size);
      if (!p.ok) die(`${f}: game ${rec.game ?? games}: ${p.error}`);
      b.play(p.value);
    }
  }
}
const N = labels.length;
if (N === 0) die('no positions');
const S = Int32Array.from(sparse);
const P0 = Int32Array.from(start);
const T = Int8Array.from(tiers);
const Y = Float64Array.from(labels);
const H = Uint8Array.from(holdout, Boolean);
log(
  `${games} games, ${N} positions (${H.reduce((a, x) => a + x, 0)} held out), ${solverLabels} solver labels${mateSkipped ? `, ${mateSkipped} left out as the teacher's mates` : ''}\n`,
);

// --- the model -------------------------------------------------------------------------------
// w: mover[0..N_COMBOS), opponent[N_COMBOS..2 N_COMBOS), then moverTier (4) and opponentTier (2)
const MT = 2 * N_COMBOS;
const OT = MT + 4;
const NW = OT + 2;
const w0 = Float64Array.from([...EVAL_WEIGHTS.mover, ...EVAL_WEIGHTS.opponent, ...EVAL_WEIGHTS.moverTier, ...EVAL_WEIGHTS.opponentTier]);
const evalOf = (w, i) => {
  let p = P0[i];
  let v = 0;
  for (let side = 0; side < 2; side++) {
    const n = S[p++];
    const off = side * N_COMBOS;
    const sign = side === 0 ? 1 : -1;
    for (let j = 0; j < n; j++, p += 2) v += sign * w[off + S[p]] * S[p + 1];
  }
  if (T[2 * i] >= 0) v += w[MT + T[2 * i]];
  if (T[2 * i + 1] >= 0) v -= w[OT + T[2 * i + 1]];
  return v;
};
const clampP = (p) => Math.min(1 - 1e-9, Math.max(1e-9, p));
/** Mean log-loss of 1 / (1 + exp(-valueOf(i) / K)) against the labels, on the held-out or the training positions; a NaN value leaves its position out. */
function logLoss(valueOf, K, held) {
  let l = 0;
  let n = 0;
  for (let i = 0; i < N; i++) {
    if (H[i] !== held) continue;
    const v = valueOf(i);
    if (Number.isNaN(v)) continue;
    const p = clampP(1 / (1 + Math.exp(-v / K)));
    l -= Y[i] * Math.log(p) + (1 - Y[i]) * Math.log(1 - p);
    n++;
  }
  return l / Math.max(n, 1);
}
const loss = (w, K, held) => logLoss((i) => evalOf(w, i), K, held);

// K with today's weights (golden-section search on the training loss)
/** The minimum of a unimodal f on [lo, hi] by golden-section search. */
function goldenMin(f, lo, hi, iterations) {
  const g = (Math.sqrt(5) - 1) / 2;
  for (let it = 0; it < iterations; it++) {
    const a = hi - g * (hi - lo);
    const c = lo + g * (hi - lo);
    if (f(a) < f(c)) hi = c;
    else lo = a;
  }
  return (lo + hi) / 2;
}
const fitK = () => goldenMin((k) => loss(w0, k, 0), 10, 5000, 40);
let K = fitK();
let searchLabels = 0;
if (o.searchWeight > 0) {
  for (let i = 0; i < N; i++) {
    const sc = searchScores[i];
    if (Number.isNaN(sc)) continue;
    Y[i] = (1 - o.searchWeight) * Y[i] + o.searchWeight / (1 + Math.exp(-sc / K));
    searchLabels++;
  }
  log(`${searchLabels} labels mixed with the search's score (weight ${o.searchWeight})\n`);
}
let teacherLabels = 0;
if (o.teacherWeight > 0) {
  // K_t: the teacher's own scale, or fitted to the training positions' labels so far
  let Kt = o.teacherScale;
  if (!(Kt > 0)) Kt = goldenMin((k) => logLoss((i) => teacherScores[i], k, 0), 10, 20000, 50);
  for (let i = 0; i < N; i++) {
    const tv = teacherScores[i];
    if (Number.isNaN(tv)) continue;
    Y[i] = (1 - o.teacherWeight) * Y[i] + o.teacherWeight / (1 + Math.exp(-tv / Kt));
    teacherLabels++;
  }
  log(`${teacherLabels} labels mixed with the teacher's value (weight ${o.teacherWeight}, K_t ${Kt.toFixed(1)})\n`);
  // today's evaluation mapped onto the teacher's labels: its scale, not the results', is kept
  K = fitK();
}
const before = { train: loss(w0, K, 0), validation: loss(w0, K, 1) };
log(`K ${K.toFixed(1)}; log-loss with today's weights: train ${before.train.toFixed(5)}, validation ${before.validation.toFixed(5)}\n`);

// Adam on mean log-loss + prior * mean squared distance from w0
const w = Float64Array.from(w0);
const m = new Float64Array(NW);
const v2 = new Float64Array(NW);
const grad = new Float64Array(NW);
const fixed = (k) => k === COMBO_NONE || k === N_COMBOS + COMBO_NONE;
let ntrain = 0;
for (let i = 0; i < N; i++) if (!H[i]) ntrain++;
for (let it = 1; it <= o.iterations; it++) {
  grad.fill(0);
  for (let i = 0; i < N; i++) {
    if (H[i]) continue;
    const e = (1 / (1 + Math.exp(-evalOf(w, i) / K)) - Y[i]) / K / ntrain;
    let p = P0[i];
    for (let side = 0; side < 2; side++) {
      const n = S[p++];
      const off = side * N_COMBOS;
      const sign = side === 0 ? 1 : -1;
      for (let j = 0; j < n; j++, p += 2) grad[off + S[p]] += sign * e * S[p + 1];
    }
    if (T[2 * i] >= 0) grad[MT + T[2 * i]] += e;
    if (T[2 * i + 1] >= 0) grad[OT + T[2 * i + 1]] -= e;
  }
  for (let k = 0; k < NW; k++) {
    if (fixed(k)) continue;
    const gk = grad[k] + (2 * o.prior * (w[k] - w0[k])) / NW;
    m[k] = 0.9 * m[k] + 0.1 * gk;
    v2[k] = 0.999 * v2[k] + 0.001 * gk * gk;
    const mh = m[k] / (1 - 0.9 ** it);
    const vh = v2[k] / (1 - 0.999 ** it);
    w[k] -= (o.rate * mh) / (Math.sqrt(vh) + 1e-12);
  }
  if (it % 100 === 0 || it === o.iterations) log(`iteration ${it}: train ${loss(w, K, 0).toFixed(5)}, validation ${loss(w, K, 1).toFixed(5)}\n`);
}
const wr = Array.from(w, Math.round);
const after = { train: loss(wr, K, 0), validation: loss(wr, K, 1) };

const version = EVAL_WEIGHTS.version + 1;
const report = {
  version,
  games,
  positions: N,
  solverLabels,
  searchLabels,
  searchWeight: o.searchWeight,
  teacherWeight: o.teacherWeight,
  teacherLabels,
  K: +K.toFixed(1),
  before,
  after,
  files: files.map((f) => f.replace(/^.*\//, '')),
};
if (!o.dryRun) {
  const rows = (xs) => xs.map((x, i) => (i % 22 === 0 ? '\n    ' : ' ') + x + ',').join('');
  writeFileSync(
    o.out,
    `/**
 * Evaluation weights, version ${version}: written by scripts/tune-eval.mjs (do not edit by
 * hand; rerun it). Data: ${files.map((f) => f.replace(/^.*\//, '')).join(', ')}: ${games} games, ${N} positions
 * (${solverLabels} solver labels, ${searchLabels} mixed with the search's score at weight ${o.searchWeight}, ${teacherLabels} with a teacher's value at weight ${o.teacherWeight}); K ${K.toFixed(1)}; held-out log-loss ${before.validation.toFixed(5)} -> ${after.validation.toFixed(5)}.
 * mover / opponent: the value of each cell combination (eval.ts) for the side to move and for
 * the opponent; moverTier / opponentTier: the threat tiers (eval.ts moverTier, opponentTier).
 */
export const EVAL_WEIGHTS = {
  version: ${version},
  mover: [${rows(wr.slice(0, N_COMBOS))}
  ],
  opponent: [${rows(wr.slice(N_COMBOS, 2 * N_COMBOS))}
  ],
  moverTier: [${wr.slice(MT, OT).join(', ')}],
  opponentTier: [${wr.slice(OT, NW).join(', ')}],
};
`,
  );
}
if (o.json) process.stdout.write(JSON.stringify(report) + '\n');
else {
  process.stdout.write(
    `log-loss (K ${K.toFixed(1)}): train ${before.train.toFixed(5)} -> ${after.train.toFixed(5)}, validation ${before.validation.toFixed(5)} -> ${after.validation.toFixed(5)}\n`,
  );
  process.stdout.write(o.dryRun ? 'dry run: nothing written\n' : `wrote ${o.out} (version ${version})\n`);
}
