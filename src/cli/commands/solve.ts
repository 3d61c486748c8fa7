/**
 * `gomoku solve POSITION` and `gomoku solve --batch FILE.jsonl --workers N`.
 *
 * Prints `win`/`loss`/`unknown` (or one JSON object with --json, formats.md section 2). Every
 * win/loss is checked by the independent certificate checker before it is printed.
 * Exit status: 0 done (whatever the result), 2 bad input.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { usageError } from '../common.js';
import { solveJob, type SolveJob, type SolveJobResult } from '../../workers/solve-job.js';
import { createPool } from '../../workers/pool.js';
import { Progress } from '../progress.js';
import type { Rule } from '../../core/types.js';

function publicJson(r: SolveJobResult): Record<string, unknown> {
  const o: Record<string, unknown> = { result: r.result, toMove: r.toMove };
  if (r.move) o.move = r.move;
  o.pv = r.pv;
  if (r.method) o.method = r.method;
  o.nodes = r.nodes;
  o.ms = r.ms;
  if (r.proofEntries !== undefined) o.proofEntries = r.proofEntries;
  if (r.verified !== undefined) o.verified = r.verified;
  if (r.error) o.error = r.error;
  return o;
}

/** A batch line: {"position": "...", ...} or the puzzle form {"black": "H8 ...", "white": "...", "toMove": "black"}. */
function jobFromLine(line: string, defaults: Partial<SolveJob>): SolveJob | string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return 'not a JSON object';
  }
  if (typeof o !== 'object' || o === null) return 'not a JSON object';
  let position: string;
  if (typeof o.position === 'string') position = o.position;
  else if (typeof o.black === 'string' && typeof o.white === 'string') {
    const list = (s: string) => s.split(/[\s,]+/).filter(Boolean).join(',');
    position = `B:${list(o.black)};W:${list(o.white)}`;
  } else return "needs 'position' or 'black' and 'white'";
  const job: SolveJob = { ...defaults, position };
  if (typeof o.size === 'number') job.size = o.size;
  if (o.rule === 'freestyle' || o.rule === 'standard') job.rule = o.rule;
  if (o.toMove === 'black' || o.toMove === 'white') job.toMove = o.toMove;
  return job;
}

async function runBatch(file: string, workers: number, defaults: Partial<SolveJob>, json: boolean): Promise<void> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    usageError(`cannot read ${file}: ${(e as Error).message}`);
    return;
  }
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const jobs: (SolveJob | string)[] = lines.map((l) => jobFromLine(l, defaults));
  const pool = createPool('workers/solve-worker', { workers });
  const counts = { win: 0, loss: 0, unknown: 0 };
  const bar = new Progress({ label: 'solve', total: jobs.length, unit: 'pos', extra: () => `win ${counts.win} loss ${counts.loss} unknown ${counts.unknown}` });
  const results: (SolveJobResult | undefined)[] = new Array(jobs.length);
  let next = 0;
  const emit = () => {
    while (next < jobs.length && results[next] !== undefined) {
      const r = results[next]!;
      const line = { index: next, ...publicJson(r) };
      process.stdout.write((json ? JSON.stringify(line) : `${next}\t${r.result}\t${r.move ?? ''}\t${r.method ?? ''}${r.error ? '\t' + r.error : ''}`) + '\n');
      next++;
    }
  };
  await Promise.all(
    jobs.map(async (job, i) => {
      const r: SolveJobResult = typeof job === 'string' ? { result: 'unknown', pv: [], nodes: 0, ms: 0, error: `line ${i + 1}: ${job}` } : await pool.run(job);
      results[i] = r;
      counts[r.result]++;
      bar.tick();
      emit();
    }),
  );
  bar.finish();
  await pool.destroy();
}

export const command: CommandModule = {
  command: 'solve [position]',
  describe: 'is the position a forced win? (VCF, VCT, proof-number search; checked certificates)',
  builder: (y) =>
    y
      .positional('position', { type: 'string', describe: 'move list (h8 i9 h9) or stone set (B:h8,h9;W:i9)' })
      .option('size', { type: 'number', default: 15, describe: 'board size (5..22)' })
      .option('rule', { choices: ['freestyle', 'standard'] as const, default: 'freestyle' as const, describe: 'five or more wins, or exactly five' })
      .option('to-move', { choices: ['black', 'white'] as const, describe: 'side to move (needed when the stone counts do not fix it)' })
      .option('time', { type: 'number', default: 10000, describe: 'time limit per position in ms' })
      .option('nodes', { type: 'number', describe: 'node limit per position' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON object (JSON lines in batch mode)' })
      .option('proof', { type: 'string', describe: 'write the certificate of a win/loss to FILE' })
      .option('check', { type: 'boolean', default: true, describe: 'verify every win/loss with the independent checker (--no-check to skip)' })
      .option('batch', { type: 'string', describe: 'solve every line of a JSON-lines file ({"position": ...} or {"black","white","toMove"})' })
      .option('workers', { type: 'number', default: 1, describe: 'worker threads for --batch' })
      .example('$0 solve "h8 h9 i8 i9 j8 j9" --json', 'black to move has a four-three')
      .example('$0 solve --batch puzzles.jsonl --workers 2 --json', 'many positions, results in input order'),
  handler: async (argv) => {
    const a = argv as Record<string, unknown>;
    const time = a.time as number;
    const nodes = a.nodes as number | undefined;
    if (!Number.isFinite(time) || time <= 0) return usageError(`--time must be a positive number of ms, got '${String(a.time)}'`);
    if (nodes !== undefined && (!Number.isInteger(nodes) || nodes <= 0)) return usageError(`--nodes must be a positive integer, got '${String(a.nodes)}'`);
    const size = a.size as number;
    if (!Number.isInteger(size) || size < 5 || size > 22) return usageError(`board size ${String(a.size)} is not in 5..22`);
    const defaults: Partial<SolveJob> = { size, rule: a.rule as Rule, timeMs: time, nodes, check: a.check as boolean };
    if (typeof a.batch === 'string') {
      const workers = a.workers as number;
      if (!Number.isInteger(workers) || workers < 1) return usageError(`--workers must be a positive integer, got '${String(a.workers)}'`);
      return runBatch(a.batch, workers, defaults, a.json as boolean);
    }
    if (typeof a.position !== 'string') return usageError('give a POSITION, or --batch FILE');
    const r = solveJob({ ...defaults, position: a.position, toMove: a.toMove as 'black' | 'white' | undefined, proof: typeof a.proof === 'string' });
    if (r.error && r.nodes === 0) return usageError(r.error);
    if (typeof a.proof === 'string' && r.certificate) {
      try {
        writeFileSync(a.proof, r.certificate);
      } catch (e) {
        return usageError(`cannot write ${a.proof}: ${(e as Error).message}`);
      }
    }
    if (a.json) process.stdout.write(JSON.stringify(publicJson(r)) + '\n');
    else {
      const head = r.result === 'unknown' ? 'unknown' : `${r.result} for ${r.toMove}${r.move ? ` by ${r.move}` : ''} (${r.method})`;
      process.stdout.write(`${head}\n`);
      if (r.pv.length) process.stdout.write(`line: ${r.pv.join(' ')}\n`);
      process.stdout.write(`nodes ${r.nodes}, ${r.ms} ms${r.proofEntries !== undefined ? `, ${r.proofEntries} proof entries${r.verified ? ', verified' : ''}` : ''}\n`);
      if (r.error) process.stderr.write(`gomoku: ${r.error}\n`);
    }
  },
};

