/**
 * `gomoku book query POSITION [--json]`: what the book knows about a position (formats.md
 * section 4). Moves are printed in the caller's orientation.
 */
import type { CommandModule } from 'yargs';
import { makePoint } from '../../core/notation.js';
import { positionArgs, usageError, withPositionArgument, withPositionOptions } from '../common.js';
import { BookStore } from '../../book/store.js';
import { queryBook, queryJson } from '../../book/query.js';
import { defaultBookPath } from '../../book/paths.js';

export const command: CommandModule = {
  command: 'query <position..>',
  describe: 'look a position up in the opening book',
  builder: (y) =>
    withPositionOptions(withPositionArgument(y))
      .option('book', { type: 'string', describe: 'book file (default: the shipped book)' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON object (formats.md section 4)' }),
  handler: (argv) => {
    const a = argv as Record<string, unknown>;
    const lp = positionArgs(a);
    if (!lp.ok) return usageError(lp.error);
    const board = lp.value.board;
    const file = typeof a.book === 'string' ? a.book : defaultBookPath();
    const opened = BookStore.open(file, { readonly: true });
    if (!opened.ok) return usageError(opened.error);
    const store = opened.value;
    try {
      const r = queryBook(store, board);
      const pt = (q: number) => makePoint(q, lp.value.size);
      if (a.json) {
        process.stdout.write(JSON.stringify(queryJson(r, pt)) + '\n');
      } else if (!r.found) {
        process.stdout.write('not in the book (verdict unknown)\n');
      } else {
        const lines = [
          `verdict ${r.verdict}  score ${r.score}  depth ${r.depth}${r.bestMove !== undefined ? `  best ${pt(r.bestMove)}` : ''}  (${r.opening || 'no opening'}, ${r.method ?? 'no job'}, ${r.nodes} nodes)`,
        ];
        // a decided position says how: proven (win) or disproven (loss), and its proof's size
        if (r.verdict === 'win' || r.verdict === 'loss')
          lines.push(
            `proven: ${r.verdict === 'win' ? 'the side to move wins' : 'the side to move loses'}${r.byPass ? ' (by pass and zone)' : ''}, proof size ${r.proofSize}`,
          );
        for (const c of r.children) lines.push(`  ${pt(c.move).padEnd(4)} ${c.verdict.padEnd(7)} ${c.score}`);
        process.stdout.write(lines.join('\n') + '\n');
      }
    } finally {
      store.close();
    }
  },
};
