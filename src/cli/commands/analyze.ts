/**
 * `gomoku analyze POSITION [--time MS] [--json]`: streams the engine's iterations.
 *
 * One line per completed iteration (and one per solver stage that decides the move):
 *   depth 9  score -2  nodes 462691  nps 297251  ms 1557  pv i11 g11 ...
 * then `bestmove i11 (source alphabeta)`. With --json each line is a JSON object
 * {"depth":9,"score":-2,"nodes":462691,"nps":297251,"ms":1557,"pv":["i11","g11"]} and the last
 * one is the result object of `gomoku move --json`.
 */
import type { CommandModule } from 'yargs';
import { makePoint } from '../../core/notation.js';
import { fail, positionFromArgs, printJson, withNumberOptions, withPositionArgument, withPositionOptions } from '../common.js';
import { commandLimits, engineFor, positiveInt } from './move.js';
import { BOOK_OPTION } from '../book-option.js';

export const command: CommandModule = {
  command: 'analyze [position..]',
  describe: 'search the position and stream each iteration (depth, score, nodes, nps, line)',
  builder: (y) =>
    withNumberOptions(withPositionOptions(withPositionArgument(y)), {
      time: { kind: 'positive', unit: 'of ms', default: 5000, describe: 'time in ms' },
      nodes: { kind: 'positive-int', describe: 'node limit' },
      depth: { kind: 'positive-int', describe: 'depth limit' },
    })
      .option('book', BOOK_OPTION)
      .option('seed', { type: 'string', requiresArg: true, describe: 'seed for tie-breaks' })
      .option('json', { type: 'boolean', default: false, describe: 'JSON lines' })
      .example('$0 analyze "h8 i9 h9" --time 3000', 'three seconds of analysis'),
  handler: (argv) => {
    const a = argv as Record<string, unknown>;
    const time = Number(a.time);
    if (!Number.isFinite(time) || time <= 0) fail(`--time must be a positive number of ms, got '${String(a.time)}'`);
    const nodes = positiveInt('nodes', a.nodes);
    const depth = positiveInt('depth', a.depth);
    const pos = positionFromArgs(a);
    const engine = engineFor(pos, a.seed === undefined ? undefined : String(a.seed), a.book === undefined ? undefined : String(a.book));
    const pt = (q: number) => makePoint(q, pos.size);
    const json = a.json === true;
    const r = engine.go(commandLimits(time, nodes, depth), (info) => {
      const nps = info.ms > 0 ? Math.round((info.nodes * 1000) / info.ms) : info.nodes;
      if (json) printJson({ depth: info.depth, score: info.score, nodes: info.nodes, nps, ms: info.ms, pv: info.pv.map(pt) });
      else
        process.stdout.write(
          `depth ${String(info.depth).padEnd(3)} score ${String(info.score).padEnd(6)} nodes ${String(info.nodes).padEnd(9)} nps ${String(nps).padEnd(8)} ms ${String(info.ms).padEnd(6)} pv ${info.pv.map(pt).join(' ')}\n`,
        );
    });
    if (json) printJson({ move: pt(r.move), score: r.score, depth: r.depth, nodes: r.nodes, ms: r.ms, pv: r.pv.map(pt), source: r.source });
    else process.stdout.write(`bestmove ${pt(r.move)} (source ${r.source}, score ${r.score}, depth ${r.depth})\n`);
  },
};
