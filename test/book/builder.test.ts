import { afterEach, describe, expect, test } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { BookLockedError, buildBook, type BuildOptions } from '../../src/book/builder.js';
import { runBookJob, type BookJob, type BookJobResult } from '../../src/book/job.js';
import { BookStore, EVAL_SOLVED } from '../../src/book/store.js';
import { queryBook } from '../../src/book/query.js';
import { parsePositionKey } from '../../src/core/symmetry.js';
import { boardOf, openStore, tempDir } from './helpers.js';
import { MATE } from '../../src/search/types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
let tmp = tempDir();
afterEach(() => {
  tmp.cleanup();
  tmp = tempDir();
});

function evaluatedCount(s: BookStore): number {
  let n = 0;
  for (const r of s.positions()) if (r.evaluated !== 0) n++;
  return n;
}

const inProcess = async (j: BookJob) => runBookJob(j);

function base(store: BookStore, over: Partial<BuildOptions> = {}): BuildOptions {
  return { store, opening: 'swap2', size: 15, rule: 'freestyle', region: 3, concurrency: 2, budget: { jobs: 12 }, solveNodes: 1500, scoreNodes: 300, runJob: inProcess, ...over };
}

describe('buildBook with real jobs (in process)', () => {
  test('spends exactly the job budget, writes every result, leaves no job in flight, and resumes', async () => {
    const s = openStore(tmp.file('b.db'));
    const progress: number[] = [];
    const first = await buildBook(base(s, { onProgress: (p) => progress.push(p.jobs) }));
    expect(first).toMatchObject({ jobs: 12, roots: 38, stoppedBy: 'budget', resumedJobs: 0, errors: 0 });
    expect(progress[progress.length - 1]).toBe(12);
    expect(s.jobsInFlight()).toEqual([]);
    expect(evaluatedCount(s)).toBe(12);
    for (const r of s.positions()) if (r.evaluated) expect(r.nodes).toBeGreaterThan(0);
    const state = s.getState('build:swap2:freestyle:15:3');
    expect(JSON.parse(state!)).toMatchObject({ opening: 'swap2', size: 15, region: 3 });
    s.compact(); // drops listed-only children; nothing evaluated is lost
    expect(evaluatedCount(s)).toBe(12);
    const second = await buildBook(base(s, { budget: { jobs: 7 } }));
    expect(second.jobs).toBe(7);
    expect(evaluatedCount(s)).toBe(19);
    expect(s.integrityCheck()).toBe('ok');
    s.close();
  }, 60_000);

  test('every builder takes the writer lock: a second buildBook on the same book is refused and changes nothing', async () => {
    const f = tmp.file('lock.db');
    const a = openStore(f);
    const b = openStore(f);
    let second: unknown;
    const first = buildBook(
      base(a, {
        budget: { jobs: 4 },
        // the second builder starts while the first has jobs in flight
        runJob: async (j) => {
          if (second === undefined) second = await buildBook(base(b)).catch((e: unknown) => e);
          return runBookJob(j);
        },
      }),
    );
    expect((await first).jobs).toBe(4);
    expect(second).toBeInstanceOf(BookLockedError);
    expect((second as BookLockedError).refusal.reason).toBe('alive');
    expect(a.jobsInFlight()).toEqual([]);
    expect(evaluatedCount(a)).toBe(4);
    // the first released it at the end: now the second may build
    expect((await buildBook(base(b, { budget: { jobs: 2 } }))).jobs).toBe(2);
    a.close();
    b.close();
  }, 60_000);

  test('a stop request hands out nothing new and drains what is in flight', async () => {
    const s = openStore(tmp.file('stop.db'));
    let results = 0;
    const r = await buildBook(base(s, { budget: { jobs: 1000 }, concurrency: 3, onProgress: (p) => (results = p.jobs), shouldStop: () => results >= 4 }));
    expect(r.stoppedBy).toBe('stop');
    expect(r.jobs).toBeGreaterThanOrEqual(4);
    expect(r.jobs).toBeLessThanOrEqual(6);
    expect(s.jobsInFlight()).toEqual([]);
    s.close();
  }, 60_000);
});

describe('buildBook proof-number logic (scripted job results at the worker boundary)', () => {
  test('a node all of whose replies win for the opponent is widened to every move, then disproven', async () => {
    const s = openStore(tmp.file('pn.db'));
    // first stone in the centre of 9x9; white to move. Every reply "wins" for black.
    const scripted = async (j: BookJob): Promise<BookJobResult> => {
      const stones = j.black.length + j.white.length;
      const win = stones === 2;
      return { id: j.id, verdict: win ? 'win' : 'unknown', score: win ? MATE - 9 : 0, depth: 1, bestMove: null, method: win ? 'vct' : 'score', nodes: 1, ms: 0, pv: [], ...(win ? { entries: [] } : {}) };
    };
    const r = await buildBook(base(s, { opening: 'first-stone', size: 9, region: 1, budget: { jobs: 1000 }, runJob: scripted }));
    expect(r.stoppedBy).toBe('done');
    // 1 root + 14 canonical replies on 9x9 with a centre stone (the 15 cells of a fundamental triangle, less the centre)
    expect(r.jobs).toBe(1 + 14);
    expect(r.disproven).toBe(1);
    expect(r.proven).toBe(14);
    expect(parsePositionKey('9.w.18.')!.black).toEqual([40]); // e5, the centre
    const rootRow = s.get('freestyle', '9.w.18.')!;
    expect(rootRow).toMatchObject({ verdict: 'loss', dn: 0, expanded: 2 });
    expect(rootRow.evaluated & EVAL_SOLVED).toBe(0); // decided by its children, not by a job
    const q = queryBook(s, boardOf('e5', 9));
    expect(q.found && q.verdict).toBe('loss');
    expect(q.found && q.children).toHaveLength(14);
    // a rerun finds nothing to do, and a fresh load reaches the same verdicts
    const again = await buildBook(base(s, { opening: 'first-stone', size: 9, region: 1, budget: { jobs: 1000 }, runJob: scripted }));
    expect(again).toMatchObject({ jobs: 0, stoppedBy: 'done', disproven: 1, proven: 14, openRoots: 0 });
    s.close();
    // the same build with a budget of exactly the jobs it needs is done, not out of budget
    const exact = openStore(tmp.file('pn-exact.db'));
    const r2 = await buildBook(base(exact, { opening: 'first-stone', size: 9, region: 1, budget: { jobs: 15 }, runJob: scripted }));
    expect(r2).toMatchObject({ jobs: 15, stoppedBy: 'done', openRoots: 0 });
    exact.close();
  });

  test('one refuted reply proves the parent, and the proof reaches the book with the best move', async () => {
    const s = openStore(tmp.file('win.db'));
    const scripted = async (j: BookJob): Promise<BookJobResult> => {
      const stones = j.black.length + j.white.length;
      // white's reply at d4 (diagonal, canonical index 30 on 9x9) loses for black
      const lose = stones === 2 && j.white[0] === 30;
      return { id: j.id, verdict: lose ? 'loss' : 'unknown', score: lose ? -(MATE - 9) : 0, depth: 1, bestMove: null, method: lose ? 'vct' : 'score', nodes: 1, ms: 0, pv: [], ...(lose ? { entries: [{ black: [], white: [], move: 0 }] } : {}) };
    };
    const r = await buildBook(base(s, { opening: 'first-stone', size: 9, region: 1, budget: { jobs: 1000 }, runJob: scripted }));
    expect(r).toMatchObject({ stoppedBy: 'done', proven: 1, disproven: 1, openRoots: 0 });
    const rootRow = s.get('freestyle', '9.w.18.')!;
    expect(rootRow.verdict).toBe('win');
    expect(rootRow.bestMove).toBe(30);
    expect(rootRow.score).toBe(MATE - 9);
    expect(s.proofEntries(s.get('freestyle', '9.b.18.0u')!.id)).toHaveLength(1);
    s.close();
  });
});

describe('the move a position stores', () => {
  test("an expanded position keeps its own search's move until that move's reply has a score, then takes the best scored reply", async () => {
    const s = openStore(tmp.file('own.db'));
    // the root's search likes d4 (canonical 30); a search of the position after d4 scores it +50
    // for black, after any other reply -40
    const scripted = async (j: BookJob): Promise<BookJobResult> => {
      const root = j.black.length + j.white.length === 1;
      const score = root ? 10 : j.white[0] === 30 ? 50 : -40;
      return { id: j.id, verdict: 'unknown', score, depth: 12, bestMove: root ? 30 : 0, method: 'score', nodes: 1, ms: 0, pv: [] };
    };
    const rootMove = () => s.get('freestyle', '9.w.18.')!.bestMove;
    const opts = (jobs: number) => base(s, { opening: 'first-stone', size: 9, region: 1, budget: { jobs }, runJob: scripted });
    // listed replies only (dropped again by the build's compaction), then one reply scored that is not d4
    for (const jobs of [1, 1]) {
      await buildBook(opts(jobs));
      expect(rootMove()).toBe(30);
    }
    const scored = () => s.children(s.get('freestyle', '9.w.18.')!.id).filter((e) => s.getById(e.child)!.evaluated);
    expect(scored().map((e) => e.move)).not.toContain(30);
    // every reply scored: the minimax over them, no longer d4
    await buildBook(opts(1000));
    expect(scored().map((e) => e.move)).toContain(30);
    expect(rootMove()).not.toBe(30);
    expect(s.get('freestyle', '9.w.18.')!.score).toBe(40);
    s.close();
  });

  test('no move is stored rather than one the opponent is proven to win against, while other replies are open', async () => {
    const s = openStore(tmp.file('lost.db'));
    // the root's search likes c3 (canonical 20, the first reply listed), which loses
    const scripted = async (j: BookJob): Promise<BookJobResult> => {
      if (j.black.length + j.white.length === 1) return { id: j.id, verdict: 'unknown', score: 10, depth: 12, bestMove: 20, method: 'score', nodes: 1, ms: 0, pv: [] };
      const lost = j.white[0] === 20;
      return { id: j.id, verdict: lost ? 'win' : 'unknown', score: lost ? MATE - 9 : -40, depth: 12, bestMove: null, method: lost ? 'vct' : 'score', nodes: 1, ms: 0, pv: [], ...(lost ? { entries: [] } : {}) };
    };
    await buildBook(base(s, { opening: 'first-stone', size: 9, region: 1, budget: { jobs: 2 }, runJob: scripted }));
    const root = s.get('freestyle', '9.w.18.')!;
    const replies = s.children(root.id).map((e) => ({ move: e.move, row: s.getById(e.child)! }));
    expect(replies.filter((r) => r.row.evaluated).map((r) => [r.move, r.row.verdict])).toEqual([[20, 'win']]);
    expect(root.bestMove).toBeNull();
    await buildBook(base(s, { opening: 'first-stone', size: 9, region: 1, budget: { jobs: 1000 }, runJob: scripted }));
    expect(s.get('freestyle', '9.w.18.')!.bestMove).not.toBe(20);
    expect(s.get('freestyle', '9.w.18.')!.bestMove).not.toBeNull();
    s.close();
  });
});

describe('crash safety of a build', () => {
  test('kill -9 during a build: integrity ok, finished jobs kept, the same build resumes and redoes the interrupted jobs', async () => {
    const file = tmp.file('crash.db');
    const child = spawn(process.execPath, [path.join(root, 'node_modules', 'vite-node', 'vite-node.mjs'), path.join(here, 'build-runner.ts'), file], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let errText = '';
    child.stderr.on('data', (d) => (errText += String(d)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += String(d);
        const done = [...out.matchAll(/^job (\d+)$/gm)].map((m) => Number(m[1]));
        if (done.length > 0 && Math.max(...done) >= 6) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', (code, sig) => {
        if (sig !== 'SIGKILL') reject(new Error(`runner exited early (${code}): ${errText}`));
      });
    });
    await new Promise((r) => child.once('exit', r));
    const s = openStore(file);
    expect(s.integrityCheck()).toBe('ok');
    const before = evaluatedCount(s);
    expect(before).toBeGreaterThanOrEqual(6);
    const interrupted = s.jobsInFlight().length;
    const r = await buildBook(base(s, { budget: { jobs: 5 } }));
    expect(r.resumedJobs).toBe(interrupted);
    expect(evaluatedCount(s)).toBe(before + 5);
    expect(s.jobsInFlight()).toEqual([]);
    s.close();
  }, 60_000);
});

const distWorker = path.join(root, 'dist', 'workers', 'book-worker.js');
describe.skipIf(!existsSync(distWorker))('the piscina worker (needs `npx tsc -p .`)', () => {
  test('gives the same results as the in-process job', async () => {
    const { createPool } = await import('../../src/workers/pool.js');
    const pool = createPool('workers/book-worker', { workers: 2 });
    try {
      const jobs: BookJob[] = [
        { id: 1, rule: 'freestyle', size: 15, black: [112, 113], white: [97], toMove: 2, solveNodes: 1000, scoreNodes: 200 },
        { id: 2, rule: 'freestyle', size: 15, black: [110, 111, 112, 113], white: [95, 96, 97], toMove: 1, solveNodes: 1000, scoreNodes: 200 },
      ];
      const got = (await Promise.all(jobs.map((j) => pool.run(j)))) as BookJobResult[];
      for (let i = 0; i < jobs.length; i++) {
        const want = runBookJob(jobs[i]!);
        expect({ ...got[i]!, ms: 0 }).toEqual({ ...want, ms: 0 });
      }
      expect(got[1]!.verdict).toBe('win'); // an open four's neighbour: five next move
    } finally {
      await pool.destroy();
    }
  });
});
