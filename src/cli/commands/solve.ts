/**
 * `gomoku solve POSITION` and `gomoku solve --batch FILE.jsonl --workers N`.
 *
 * Prints `win`/`loss`/`unknown` (or one JSON object with --json, formats.md section 2). Every
 * win/loss is checked by the independent certificate checker before it is printed.
 * Exit status: 0 decided (win or loss), 3 unknown (the budget ran out first), 2 bad input.
 * A batch: 2 when a line was bad (that line's output is `"result":"error"` with the reason;
 * the other lines are still solved), else 3 when a position was left unknown, else 0.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import {
  EXIT_UNDECIDED,
  EXIT_USAGE,
  loadPosition,
  positionArgs,
  positionText,
  usageError,
  withNumberOptions,
  withPositionArgument,
  withPositionOptions,
  parseSize,
} from '../common.js';
import { solveJob, type SolveHooks, type SolveJob, type SolveJobResult } from '../../workers/solve-job.js';
import { createPool } from '../../workers/pool.js';
import { Progress } from '../progress.js';
import { gameOverReason } from '../board-view.js';
import { colorName, type Rule } from '../../core/types.js';

/** A batch line's outcome: the solver's result, or why the line could not be read. */
type BatchResult = SolveJobResult | { result: 'error'; error: string };

function publicJson(r: BatchResult): Record<string, unknown> {
  if (r.result === 'error') return { result: 'error', error: r.error };
  const o: Record<string, unknown> = { result: r.result, toMove: r.toMove };
  if (r.move) o.move = r.move;
  o.pv = r.pv;
  if (r.method) o.method = r.method;
  o.nodes = r.nodes;
  o.ms = r.ms;
  if (r.proofEntries !== undefined) o.proofEntries = r.proofEntries;
  if (r.verified !== undefined) o.verified = r.verified;
  if (r.error) o.error = r.error;
  if (r.pass) o.pass = r.pass;
  return o;
}

/**
 * A batch line: {"position": "...", ...} or the puzzle form {"black": "H8 ...", "white": "...",
 * "toMove": "black"}, checked here in full (position, size, rule, side to move, a game not
 * already over) so that a bad line is reported as an error and never reaches a worker.
 * Other keys (ids, labels) are ignored.
 */
export function jobFromLine(line: string, defaults: Partial<SolveJob>): SolveJob | string {
  let o: unknown;
  try {
    o = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return 'not a JSON object';
  const f = o as Record<string, unknown>;
  let position: string;
  if (typeof f.position === 'string') position = f.position;
  else if (f.position !== undefined) return "'position' must be a string";
  else if (typeof f.black === 'string' && typeof f.white === 'string') {
    const list = (s: string) =>
      s
        .split(/[\s,]+/)
        .filter(Boolean)
        .join(',');
    position = `B:${list(f.black)};W:${list(f.white)}`;
  } else return "needs 'position', or 'black' and 'white'";
  const job: SolveJob = { ...defaults, position };
  if (f.size !== undefined) {
    const s = parseSize(f.size);
    if (!s.ok || typeof f.size !== 'number') return `bad 'size' ${JSON.stringify(f.size)} (expected 5..22)`;
    job.size = s.value;
  }
  if (f.rule !== undefined) {
    if (f.rule !== 'freestyle' && f.rule !== 'standard') return `bad 'rule' ${JSON.stringify(f.rule)} (expected freestyle or standard)`;
    job.rule = f.rule;
  }
  if (f.toMove !== undefined) {
    if (f.toMove !== 'black' && f.toMove !== 'white') return `bad 'toMove' ${JSON.stringify(f.toMove)} (expected black or white)`;
    job.toMove = f.toMove;
  }
  const lp = loadPosition(position, {
    size: job.size ?? 15,
    rule: job.rule ?? 'freestyle',
    toMove: job.toMove === undefined ? undefined : job.toMove === 'black' ? 1 : 2,
  });
  if (!lp.ok) return lp.error;
  const over = gameOverReason(lp.value.board);
  if (over) return over;
  return job;
}

/** Solve every line of `file`; resolves to the exit status. */
async function runBatch(file: string, workers: number, defaults: Partial<SolveJob>, json: boolean): Promise<number> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    usageError(`cannot read '${file}'${code ? ` (${code})` : ''}`);
    return EXIT_USAGE;
  }
  // Blank lines are skipped, but a bad line is named by its number in the file.
  const lines = text
    .split('\n')
    .map((l, i) => ({ text: l.trim(), number: i + 1 }))
    .filter((l) => l.text !== '');
  const jobs = lines.map((l) => {
    const j = jobFromLine(l.text, defaults);
    return typeof j === 'string' ? `line ${l.number}: ${j}` : j;
  });
  const pool = createPool('workers/solve-worker', { workers });
  const counts = { win: 0, loss: 0, unknown: 0, error: 0 };
  const bar = new Progress({
    label: 'solve',
    total: jobs.length,
    unit: 'pos',
    extra: () => `win ${counts.win} loss ${counts.loss} unknown ${counts.unknown}${counts.error ? ` error ${counts.error}` : ''}`,
  });
  const results: (BatchResult | undefined)[] = new Array(jobs.length);
  let next = 0;
  const emit = () => {
    while (next < jobs.length && results[next] !== undefined) {
      const r = results[next]!;
      const line = { index: next, ...publicJson(r) };
      const move = r.result === 'error' ? '' : (r.move ?? '');
      const method = r.result === 'error' ? '' : (r.method ?? '');
      process.stdout.write((json ? JSON.stringify(line) : `${next}\t${r.result}\t${move}\t${method}${r.error ? '\t' + r.error : ''}`) + '\n');
      next++;
    }
  };
  try {
    await Promise.all(
      jobs.map(async (job, i) => {
        const r: BatchResult = typeof job === 'string' ? { result: 'error', error: job } : ((await pool.run(job)) as SolveJobResult);
        results[i] = r;
        counts[r.result]++;
        bar.tick();
        emit();
      }),
    );
  } finally {
    bar.finish();
    await pool.destroy();
  }
  if (counts.error > 0) {
    const first = results.find((r): r is { result: 'error'; error: string } => r?.result === 'error')!;
    usageError(`${counts.error} bad line${counts.error === 1 ? '' : 's'} in ${file} (the first: ${first.error}); the other lines were solved`);
    return EXIT_USAGE;
  }
  return counts.unknown > 0 ? EXIT_UNDECIDED : 0;
}

export const command: CommandModule = {
  command: 'solve [position..]',
  describe: 'is the position a forced win? (VCF, VCT, proof-number search; checked certificates)',
  builder: (y) => {
    return withNumberOptions(withPositionOptions(withPositionArgument(y)), {
      time: { kind: 'positive', unit: 'of ms', default: 10000, describe: 'time limit per position in ms' },
      nodes: { kind: 'positive-int', describe: 'node limit per position' },
      workers: { kind: 'positive-int', max: 256, default: 1, describe: 'worker threads for --batch' },
      'reply-nodes': { kind: 'positive-int', describe: "--pass: node limit for one reply's own proof (default: an equal share of what is left)" },
      'reply-time': { kind: 'positive', unit: 'of ms', describe: "--pass: time limit for one reply's own proof in ms (default: an equal share)" },
      'max-zone': { kind: 'positive-int', describe: '--pass: a zone with more cells is dropped and every reply is walked' },
    })
      .option('pass', {
        type: 'boolean',
        default: false,
        describe:
          'prove that the side to move loses by pass and zone: the winner wins even if it passes, and every reply inside the zone of that proof is proven too (docs/solver.md)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON object (JSON lines in batch mode)' })
      .option('proof', { type: 'string', requiresArg: true, describe: 'write the certificate of a win/loss to FILE' })
      .option('check', { type: 'boolean', default: true, describe: 'verify every win/loss with the independent checker (--no-check to skip)' })
      .option('batch', {
        type: 'string',
        requiresArg: true,
        describe: 'solve every line of a JSON-lines file ({"position": ...} or {"black","white","toMove"}); a bad line gets "result":"error"',
      })
      .example('$0 solve "h8 h9 i8 i9 j8 j9" --json', 'black to move has a four-three')
      .example('$0 solve h8 h9 i8 i9 j8 j9', 'the same position given as several words')
      .example('$0 solve --batch puzzles.jsonl --workers 2 --json', 'many positions, results in input order')
      .example('$0 solve "h8 h9 i9" --pass --time 600000 --proof kagetsu.jsonl', 'white to move loses? (a gomoku-proof/2 certificate with a zone)')
      .epilog(
        'Exit status: 0 win or loss, 3 unknown (the budget ran out), 2 bad input. --batch: 2 if a line was bad, else 3 if a position was left unknown, else 0.',
      );
  },
  handler: async (argv) => {
    const a = argv as Record<string, unknown>;
    const defaults: Partial<SolveJob> = { timeMs: a.time as number, nodes: a.nodes as number | undefined, check: a.check as boolean };
    if (a.pass) {
      defaults.pass = true;
      defaults.replyNodes = a.replyNodes as number | undefined;
      defaults.replyMs = a.replyTime as number | undefined;
      defaults.maxZone = a.maxZone as number | undefined;
    } else if (a.replyNodes !== undefined || a.replyTime !== undefined || a.maxZone !== undefined)
      return usageError('--reply-nodes, --reply-time and --max-zone go with --pass');
    const text = positionText(a);
    // no words at all; `solve ""` is the empty board, a question like any other
    const given = Array.isArray(a.position) ? a.position.length > 0 : a.position !== undefined;
    if (typeof a.batch === 'string') {
      if (given) return usageError('give a POSITION or --batch FILE, not both');
      if (typeof a.proof === 'string') return usageError('--proof writes the certificate of one position; it does not go with --batch');
      // The batch's own lines may give size, rule and side to move; the options are the defaults.
      defaults.size = a.size as number;
      defaults.rule = a.rule as Rule;
      if (a.toMove !== undefined) defaults.toMove = colorName(a.toMove as 1 | 2);
      process.exitCode = await runBatch(a.batch, a.workers as number, defaults, a.json as boolean);
      return;
    }
    if (!given) return usageError('give a POSITION, or --batch FILE');
    const lp = positionArgs(a);
    if (!lp.ok) return usageError(lp.error);
    const over = gameOverReason(lp.value.board);
    if (over) return usageError(over);
    // A pass proof can take many minutes: on a terminal, a bar over the replies it walks.
    let bar: Progress | undefined;
    const how = { pass: 0, repaired: 0, proven: 0, unknown: 0 };
    const hooks: SolveHooks =
      a.pass && process.stderr.isTTY
        ? {
            onPassReplies: (n) => {
              bar = new Progress({
                label: 'pass: replies',
                total: n,
                unit: 'replies',
                extra: () => `(by the pass strategy ${how.pass}, repaired ${how.repaired}, proven ${how.proven}, open ${how.unknown})`,
              });
            },
            onPassReply: (h) => {
              how[h]++;
              bar?.tick();
            },
          }
        : {};
    const r = solveJob(
      {
        ...defaults,
        position: text,
        size: lp.value.size,
        rule: lp.value.rule,
        toMove: colorName(lp.value.board.toMove),
        proof: typeof a.proof === 'string',
      },
      hooks,
    );
    bar?.finish();
    if (r.error && r.nodes === 0) return usageError(r.error);
    if (typeof a.proof === 'string' && r.certificate) {
      try {
        writeFileSync(a.proof, r.certificate);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        return usageError(`cannot write '${a.proof}'${code ? ` (${code})` : ''}`);
      }
    }
    if (a.json) process.stdout.write(JSON.stringify(publicJson(r)) + '\n');
    else {
      const head = r.result === 'unknown' ? 'unknown' : `${r.result} for ${r.toMove}${r.move ? ` by ${r.move}` : ''} (${r.method})`;
      process.stdout.write(`${head}\n`);
      if (r.pv.length) process.stdout.write(`line: ${r.pv.join(' ')}\n`);
      if (r.pass) {
        const p = r.pass;
        const zone = p.zone === null ? 'no zone (every reply walked)' : `zone ${p.zone} cells`;
        const after = p.move ? `after a pass ${p.move} wins (${p.passNodes} nodes)` : `the pass child not proven (${p.passNodes} nodes)`;
        const left = p.unproven.length ? `, unproven: ${p.unproven.join(' ')}` : '';
        process.stdout.write(
          `pass: ${after}; ${zone}, ${p.replies} replies walked: ${p.byPass} by the pass strategy, ${p.repaired} repaired, ${p.proven} proven${left}\n`,
        );
      }
      process.stdout.write(
        `nodes ${r.nodes}, ${r.ms} ms${r.proofEntries !== undefined ? `, ${r.proofEntries} proof entries${r.verified ? ', verified' : ''}` : ''}\n`,
      );
      if (r.error) process.stderr.write(`gomoku: ${r.error}\n`);
    }
    // "unknown" is not an answer: the budget ran out first (README, Exit status).
    if (r.result === 'unknown') process.exitCode = EXIT_UNDECIDED;
  },
};
