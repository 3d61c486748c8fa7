#!/usr/bin/env node
/**
 * Label the positions of recorded games with another engine's evaluation (a teacher), for
 * scripts/tune-eval.mjs --teacher-weight.
 *
 *   node scripts/teacher-label.mjs GAMES.jsonl [MORE.jsonl ...] --engine "CMD" --out OUT.jsonl
 *       [--nodes 20000] [--workers 2] [--skip 2] [--every 1] [--gap 20]
 *
 * Input: game records as `gomoku match --out` (games.jsonl) and scripts/datagen.mjs write
 * them. Every position from `--skip` plies after the opening to the game's end (each
 * `--every`-th of them) is sent to the engine, a pbrain (Gomocup) brain started with
 * `sh -c CMD`, as `BOARD` with the side to move as the brain's own stones, after
 * `INFO max_node N` and `INFO show_detail 1`. The engine's last `MESSAGE ... Eval V` line
 * (Rapfi's form; also `ev V`; `+M n` / `-M n` are mates) before its move is the label: the
 * side to move's view, in the teacher's own units. OUT is the input with `teacher: V` on each
 * labelled move (the position before that move) and `teacherMove`, the move the engine
 * answered there (notation, e.g. "h8"; scripts/tune-order.mjs learns move ordering from it),
 * in the input's order; tune-eval takes the
 * teacher's scale (--teacher-scale) or fits it. `--workers` engines run side by side. Progress (rate, ETA) goes to
 * stderr. `--gap` waits that many ms after an answer before the next command (Rapfi drops a
 * command that comes within a few ms of its answer). Exit status: 0 done, 1 the engine failed, 2 bad usage.
 *
 * Example (Rapfi built outside the project, run from a folder without config.toml):
 *   node scripts/teacher-label.mjs runs/a/games.jsonl --out a-rapfi.jsonl \
 *     --engine /path/to/pbrain-rapfi --nodes 20000
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createInterface } from 'node:readline';
import { helpOnRequest } from './usage.mjs';

helpOnRequest(import.meta.url);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const die = (msg, code = 2) => {
  process.stderr.write(`teacher-label: ${msg}\n`);
  process.exit(code);
};

const o = { nodes: 20000, workers: 2, skip: 2, every: 1, gap: 20, engine: undefined, out: undefined };
const files = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const val = () => (i + 1 < args.length ? args[++i] : die(`${a} needs a value (see --help)`));
  const int = (min) => {
    const v = val();
    if (!/^\d+$/.test(v) || Number(v) < min) die(`${a} must be a whole number >= ${min}, got '${v}'`);
    return Number(v);
  };
  if (a === '--engine') o.engine = val();
  else if (a === '--out') o.out = resolve(val());
  else if (a === '--nodes') o.nodes = int(1);
  else if (a === '--workers') o.workers = int(1);
  else if (a === '--every') o.every = int(1);
  else if (a === '--gap') o.gap = int(0);
  else if (a === '--skip') o.skip = int(0);
  else if (a.startsWith('--')) die(`unknown option '${a}' (see --help)`);
  else files.push(a);
}
if (files.length === 0) die('give at least one games file (see --help)');
if (!o.engine) die('--engine is required (see --help)');
if (!o.out) die('--out is required (see --help)');
if (!existsSync(join(dist, 'core', 'notation.js'))) die('dist/ is missing; run `npm run build` first');
const { parsePoint, makePoint } = await import(pathToFileURL(join(dist, 'core', 'notation.js')).href);

// --- the positions -----------------------------------------------------------------------------
const records = [];
/** Jobs: [record, move index, size, the game's points, stones before the move]. */
const jobs = [];
for (const f of files) {
  let text;
  try {
    text = readFileSync(f, 'utf8');
  } catch (e) {
    die(`cannot read '${f}' (${e.code ?? 'error'})`);
  }
  for (const [ln, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    let rec;
    try {
      rec = JSON.parse(line);
    } catch {
      die(`${f}:${ln + 1}: not JSON`);
    }
    records.push(rec);
    const size = rec.size ?? 15;
    const opening = rec.opening ?? [];
    const seq = [...opening, ...(rec.moves ?? []).map((m) => m.move)];
    const pts = [];
    for (const s of seq) {
      const p = parsePoint(s, size);
      if (!p.ok) die(`${f}:${ln + 1}: ${p.error}`);
      pts.push(p.value);
    }
    for (let k = opening.length + o.skip; k < seq.length; k += o.every) jobs.push([rec, k - opening.length, size, pts, k]);
  }
}
process.stderr.write(`${records.length} games, ${jobs.length} positions, ${o.workers} engine(s) at ${o.nodes} nodes\n`);

// --- the engines -------------------------------------------------------------------------------
const EVAL = /\b(?:Eval|ev)\s+([+-]?M\s*\d+|[+-]?\d+)/;
const MATE = 30000;
function parseEval(s) {
  const t = s.replace(/\s+/g, '');
  if (t.includes('M')) return t.startsWith('-') ? -MATE : MATE;
  return Number(t);
}

function engine(id) {
  const child = spawn('sh', ['-c', o.engine], { stdio: ['pipe', 'pipe', 'ignore'] });
  const rl = createInterface({ input: child.stdout });
  let waiting = null;
  let last = NaN;
  let size = -1;
  let gone = null;
  child.on('exit', (code) => {
    gone = new Error(`engine ${id} exited (${code})`);
    waiting?.reject(gone);
  });
  child.on('error', (e) => waiting?.reject(e));
  child.stdin.on('error', () => {}); // a write after the engine died: the exit says so
  rl.on('line', (raw) => {
    const line = raw.trim();
    if (!waiting) return;
    if (line.startsWith('MESSAGE')) {
      const m = EVAL.exec(line);
      if (m) last = parseEval(m[1]);
    } else if (line.startsWith('ERROR')) waiting.reject(new Error(`engine ${id}: ${line}`));
    else if (waiting.want(line)) {
      const w = waiting;
      waiting = null;
      w.resolve({ value: last, answer: line });
    }
  });
  const ask = (cmds, want) =>
    new Promise((res, rej) => {
      if (gone) return rej(gone);
      last = NaN;
      waiting = { resolve: res, reject: rej, want };
      child.stdin.write(cmds.map((c) => `${c}\n`).join(''));
    });
  return {
    /** The evaluation of the position of the first k points (NaN when the engine printed none) and the engine's answer line. */
    async label(sz, pts, k) {
      if (sz !== size) {
        await ask([`START ${sz}`], (l) => l === 'OK');
        size = sz;
        child.stdin.write(`INFO max_node ${o.nodes}\nINFO show_detail 1\n`);
      }
      const lines = ['BOARD'];
      // the last stone played is the opponent's (2); the side to move's are 1
      for (let j = 0; j < k; j++) lines.push(`${pts[j] % sz},${Math.floor(pts[j] / sz)},${(k - j) % 2 === 1 ? 2 : 1}`);
      lines.push('DONE');
      return ask(lines, (l) => /^\d+,\d+$/.test(l));
    },
    close() {
      child.stdin.end('END\n');
    },
  };
}

let next = 0;
let done = 0;
let missing = 0;
const t0 = Date.now();
let lastReport = 0;
function progress(force) {
  const now = Date.now();
  if (!force && now - lastReport < 2000) return;
  lastReport = now;
  const rate = done / Math.max((now - t0) / 1000, 1e-3);
  const eta = rate > 0 ? Math.round((jobs.length - done) / rate) : 0;
  process.stderr.write(`\r${done}/${jobs.length} positions  ${rate.toFixed(1)}/s  ETA ${Math.floor(eta / 60)}m${String(eta % 60).padStart(2, '0')}s `);
}
async function run(id) {
  const e = engine(id);
  try {
    while (next < jobs.length) {
      const [rec, mi, size, pts, k] = jobs[next++];
      await new Promise((r) => setTimeout(r, o.gap));
      const { value: v, answer } = await e.label(size, pts, k);
      if (Number.isFinite(v)) rec.moves[mi].teacher = v;
      else missing++;
      const [x, y] = answer.split(',').map(Number);
      if (x < size && y < size) rec.moves[mi].teacherMove = makePoint(y * size + x, size);
      done++;
      progress(false);
    }
  } finally {
    e.close();
  }
}
try {
  await Promise.all(Array.from({ length: o.workers }, (_, i) => run(i + 1)));
} catch (e) {
  process.stderr.write('\n');
  die(e.message, 1);
}
progress(true);
process.stderr.write(`\n${missing} positions without an evaluation line\n`);
writeFileSync(o.out, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
process.stderr.write(`wrote ${o.out}\n`);
process.exit(0);
