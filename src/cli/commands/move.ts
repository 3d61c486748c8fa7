/**
 * `gomoku move POSITION --time MS [--nodes N] [--depth D] [--json] [--seed S]`
 *
 * The engine's move for the side to move. Text output:
 *   move h8
 *   score 35, depth 12, nodes 845123, 998 ms, source alphabeta
 *   line: h8 i9
 * With --json one object (formats.md section 5):
 *   {"move":"h8","score":35,"depth":12,"nodes":845123,"ms":998,"pv":["h8","i9"],"source":"alphabeta"}
 * --time is the whole budget of the command: the time Node took to start is taken off it,
 * and the engine keeps its own safety margin inside the rest.
 */
import type { CommandModule } from 'yargs';
import { makePoint } from '../../core/notation.js';
import { Engine } from '../../search/engine.js';
import type { Limits } from '../../search/types.js';
import { BOOK_OPTION, openBookOption } from '../book-option.js';
import { gameOverReason } from '../board-view.js';
import { fail, positionFromArgs, printJson, withNumberOptions, withPositionArgument, withPositionOptions, type LoadedPosition } from '../common.js';

export function positiveInt(name: string, v: unknown): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) fail(`--${name} must be a positive integer, got '${String(v)}'`);
  return n;
}

/** An engine holding the loaded position (fails with one line when the game is already over). */
export function engineFor(pos: LoadedPosition, seed: string | undefined, book?: string): Engine {
  const b = pos.board;
  const over = gameOverReason(b);
  if (over) fail(over);
  const probe = openBookOption(book);
  const engine = new Engine({ size: pos.size, rule: pos.rule, seed, now: () => performance.now(), ...(probe ? { book: probe } : {}) });
  engine.setPosition(pos.spec.moves, b.toMove);
  return engine;
}

/** Limits for a command whose `--time` counts Node's start-up too (already spent: the overhead). */
export function commandLimits(timeMs: number | undefined, nodes: number | undefined, depth: number | undefined): Limits {
  const l: Limits = {};
  if (timeMs !== undefined) {
    l.turnMs = timeMs;
    l.overheadMs = process.uptime() * 1000;
  }
  if (nodes !== undefined) l.nodes = nodes;
  if (depth !== undefined) l.depth = depth;
  return l;
}

export const command: CommandModule = {
  command: 'move [position..]',
  describe: "the engine's move for the side to move",
  builder: (y) =>
    withNumberOptions(withPositionOptions(withPositionArgument(y)), {
      time: {
        kind: 'positive',
        unit: 'of ms',
        describe:
          'time for the whole command in ms, Node start-up included (default 1000, or none with --nodes/--depth: then the result depends only on the seed)',
      },
      nodes: { kind: 'positive-int', describe: 'node limit (deterministic with --seed)' },
      depth: { kind: 'positive-int', describe: 'alpha-beta depth limit' },
    })
      .option('seed', { type: 'string', requiresArg: true, describe: 'seed for tie-breaks (same seed + --nodes = same move)' })
      .option('json', { type: 'boolean', default: false, describe: 'one JSON object: move, score, depth, nodes, ms, pv, source' })
      .option('book', BOOK_OPTION)
      .example('$0 move "h8 i9 h9" --time 1000', 'white to move, one second')
      .example('$0 move "h8 i9 h9" --nodes 200000 --seed 1 --json', 'reproducible'),
  handler: (argv) => {
    const a = argv as Record<string, unknown>;
    const nodes = positiveInt('nodes', a.nodes);
    const depth = positiveInt('depth', a.depth);
    const time = a.time === undefined ? (nodes === undefined && depth === undefined ? 1000 : undefined) : Number(a.time);
    if (time !== undefined && (!Number.isFinite(time) || time <= 0)) fail(`--time must be a positive number of ms, got '${String(a.time)}'`);
    const pos = positionFromArgs(a);
    const engine = engineFor(pos, a.seed === undefined ? undefined : String(a.seed), a.book === undefined ? undefined : String(a.book));
    const r = engine.go(commandLimits(time, nodes, depth));
    const size = pos.size;
    const pt = (q: number) => makePoint(q, size);
    if (a.json === true) {
      printJson({ move: pt(r.move), score: r.score, depth: r.depth, nodes: r.nodes, ms: r.ms, pv: r.pv.map(pt), source: r.source });
    } else {
      process.stdout.write(`move ${pt(r.move)}\n`);
      process.stdout.write(`score ${r.score}, depth ${r.depth}, nodes ${r.nodes}, ${r.ms} ms, source ${r.source}\n`);
      if (r.pv.length > 0) process.stdout.write(`line: ${r.pv.map(pt).join(' ')}\n`);
    }
  },
};
