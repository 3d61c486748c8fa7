/**
 * The searches of `gomoku serve`, one piscina task each, so the server's event loop never
 * runs the (synchronous) engine:
 *  - think: the engine's move with live progress (analysis, and the engine's moves in play);
 *  - solve: `solveJob`, the same job as `gomoku solve` (certificate checked, text returned);
 *  - swap2: one Swap2 decision of the bot's swap advisor (src/bot/swap-advisor.ts).
 *
 * Stopping a think: the server sets `stop[0]` (a SharedArrayBuffer); the engine's injected
 * clock then reads +Infinity, so the engine returns its best move at its next clock check.
 * The same clock posts a progress message every `everyMs` (iterative deepening reports once
 * per depth, which gets rare as depths grow). solve and swap2 are stopped by ending the
 * worker (the server aborts the task).
 */
import type { MessagePort } from 'node:worker_threads';
import { Engine } from '../search/engine.js';
import type { BookProbe, SearchInfo } from '../search/types.js';
import type { Color, Rule } from '../core/types.js';
import { openBookProbe } from '../book/probe.js';
import { solveJob, type SolveJob, type SolveJobResult } from './solve-job.js';
import { BotGame, type Stone } from '../bot/game.js';
import { SwapAdvisor } from '../bot/swap-advisor.js';
import { useSavedTables } from './tables.js';

useSavedTables();

interface Where {
  size: number;
  rule: Rule;
  stones: Stone[];
  /** The shipped or given book file (from the server's command line), or none. */
  book?: string;
  seed: string;
}

export interface ThinkTask extends Where {
  kind: 'think';
  toMove: Color;
  timeMs: number;
  /** Int32Array view [stop flag]. */
  stop: SharedArrayBuffer;
  port: MessagePort;
  everyMs: number;
}

export interface SolveTask {
  kind: 'solve';
  job: SolveJob;
}

export type Swap2Step = 'propose' | 'after-three' | 'after-five';

export interface Swap2Task extends Where {
  kind: 'swap2';
  step: Swap2Step;
  budgetMs: number;
}

export type ServeTask = ThinkTask | SolveTask | Swap2Task;

/** A progress report: the last completed iteration and how far the search has got since. */
export interface Progress {
  depth: number;
  score: number;
  nodes: number;
  ms: number;
  pv: number[];
  /** The stage the engine is in (book, vcf, defence, vct, alphabeta). */
  stage: string;
  /** True for the report of a completed iteration (or of the deciding stage). */
  iteration: boolean;
}

export interface ThinkResult {
  kind: 'think';
  move: number;
  score: number;
  depth: number;
  nodes: number;
  ms: number;
  pv: number[];
  source: string;
  stopped: boolean;
}

export type Swap2Result =
  | { kind: 'swap2'; step: 'propose'; stones: Stone[] }
  | { kind: 'swap2'; step: 'after-three' | 'after-five'; choice: 'black' }
  | { kind: 'swap2'; step: 'after-three' | 'after-five'; choice: 'white'; move: number }
  | { kind: 'swap2'; step: 'after-three'; choice: 'add2'; stones: Stone[] };

export type ServeResult = ThinkResult | ({ kind: 'solve' } & SolveJobResult) | Swap2Result;

const books = new Map<string, BookProbe | undefined>();

/** The book probe of a file, opened once per worker (a file that does not open: no book). */
function bookOf(path: string | undefined): BookProbe | undefined {
  if (path === undefined) return undefined;
  if (!books.has(path)) books.set(path, openBookProbe(path)?.probe);
  return books.get(path);
}

/** engine.stageMs[i] >= 0 once stage i has started (engine.ts: stages 2..6 of go()). */
const STAGES = ['vcf', 'defence', 'vct', 'defence', 'alphabeta'];

function think(t: ThinkTask): ThinkResult {
  const flag = new Int32Array(t.stop);
  const book = bookOf(t.book);
  // eslint-disable-next-line prefer-const -- the progress closures below may run before it is set
  let engine: Engine | undefined;
  let last: SearchInfo = { depth: 0, score: 0, nodes: 0, ms: 0, pv: [] };
  /** Nodes spent before the alpha-beta stage (known once it reports its first iteration). */
  let before = 0;
  let sentNodes = 0;
  const t0 = performance.now();
  let nextAt = t0 + t.everyMs;
  const stage = (): string => {
    if (!engine) return 'book';
    let s = 'book';
    for (let i = 0; i < STAGES.length; i++) if (engine.stageMs[i]! >= 0) s = STAGES[i]!;
    return s;
  };
  const post = (iteration: boolean, now: number) => {
    const st = stage();
    const nodes = Math.max(sentNodes, last.nodes, st === 'alphabeta' && engine ? before + engine.searchNodes : 0);
    sentNodes = nodes;
    const p: Progress = { depth: last.depth, score: last.score, nodes, ms: Math.round(now - t0), pv: last.pv, stage: st, iteration };
    t.port.postMessage(p);
  };
  const clock = (): number => {
    if (Atomics.load(flag, 0) !== 0) return Infinity;
    const now = performance.now();
    if (now >= nextAt) {
      nextAt = now + t.everyMs;
      post(false, now);
    }
    return now;
  };
  engine = new Engine({ size: t.size, rule: t.rule, seed: t.seed, now: clock, ...(book ? { book } : {}) });
  engine.setPosition(t.stones, t.toMove);
  const e = engine;
  const r = e.go({ turnMs: t.timeMs }, (info) => {
    last = info;
    if (stage() === 'alphabeta') before = Math.max(0, info.nodes - e.searchNodes);
    post(true, performance.now());
  });
  return {
    kind: 'think',
    move: r.move,
    score: r.score,
    depth: r.depth,
    nodes: r.nodes,
    ms: r.ms,
    pv: r.pv,
    source: r.source,
    stopped: Atomics.load(flag, 0) !== 0,
  };
}

function swap2(t: Swap2Task): Swap2Result {
  const book = bookOf(t.book);
  const game = new BotGame(t.size, t.rule, { seed: t.seed, book });
  game.setStones(t.stones);
  const advisor = new SwapAdvisor(game, { seed: t.seed, budgetMs: t.budgetMs });
  if (t.step === 'propose') return { kind: 'swap2', step: 'propose', stones: advisor.proposeThree() };
  if (t.step === 'after-three') {
    const d = advisor.chooseAfterThree(t.stones);
    if (d.kind === 'add2') return { kind: 'swap2', step: 'after-three', choice: 'add2', stones: d.stones };
    return d.kind === 'black' ? { kind: 'swap2', step: 'after-three', choice: 'black' } : { kind: 'swap2', step: 'after-three', choice: 'white', move: d.move };
  }
  const d = advisor.chooseAfterFive(t.stones);
  return d.kind === 'black' ? { kind: 'swap2', step: 'after-five', choice: 'black' } : { kind: 'swap2', step: 'after-five', choice: 'white', move: d.move };
}

export default function run(task: ServeTask): ServeResult {
  if (task.kind === 'think') {
    try {
      return think(task);
    } finally {
      task.port.close();
    }
  }
  if (task.kind === 'solve') return { kind: 'solve', ...solveJob(task.job) };
  return swap2(task);
}
