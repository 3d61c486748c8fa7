/**
 * `gomoku book query POSITION [--json]`: what the book knows about a position (formats.md
 * section 4). Moves are printed in the caller's orientation.
 */
import type { CommandModule } from 'yargs';
import { makePoint } from '../../core/notation.js';
import { parseColor, type Color, type Rule } from '../../core/types.js';
import { loadPosition } from '../common.js';
import { BookStore } from '../../book/store.js';
import { queryBook, queryJson } from '../../book/query.js';
import { defaultBookPath } from '../../book/paths.js';

function fail(msg: string): void {
  process.stderr.write(`gomoku: ${msg}\n`);
  process.exitCode = 2;
}

export const command: CommandModule = {
  command: 'query <position>',
  describe: 'look a position up in the opening book',
  builder: (y) =>
    y
      .positional('position', { type: 'string', describe: "move list ('h8 i9 h9') or stone set ('B:h8,h9;W:i9')" })
      .option('book', { type: 'string', describe: 'book file (default: the shipped book)' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON object (formats.md section 4)' })
      .option('size', { type: 'number', default: 15, describe: 'board size (5..22)' })
      .option('rule', { choices: ['freestyle', 'standard'] as const, default: 'freestyle' as const, describe: 'five or more wins, or exactly five' })
      .option('to-move', { choices: ['black', 'white'] as const, describe: 'side to move (needed when the stone counts do not fix it)' }),
  handler: (argv) => {
    const a = argv as Record<string, unknown>;
    const size = a.size as number;
    if (!Number.isInteger(size) || size < 5 || size > 22) return fail(`board size ${String(a.size)} is not in 5..22`);
    const explicit: Color | undefined = a.toMove !== undefined ? parseColor(String(a.toMove)) : undefined;
    const lp = loadPosition(String(a.position ?? ''), { size, rule: a.rule as Rule, toMove: explicit });
    if (!lp.ok) return fail(lp.error);
    const board = lp.value.board;
    const file = typeof a.book === 'string' ? a.book : defaultBookPath();
    const opened = BookStore.open(file, { readonly: true });
    if (!opened.ok) return fail(opened.error);
    const store = opened.value;
    try {
      const r = queryBook(store, board);
      const pt = (q: number) => makePoint(q, size);
      if (a.json) {
        process.stdout.write(JSON.stringify(queryJson(r, pt)) + '\n');
      } else if (!r.found) {
        process.stdout.write('not in the book (verdict unknown)\n');
      } else {
        const lines = [`verdict ${r.verdict}  score ${r.score}  depth ${r.depth}${r.bestMove !== undefined ? `  best ${pt(r.bestMove)}` : ''}  (${r.opening || 'no opening'}, ${r.method ?? 'no job'}, ${r.nodes} nodes)`];
        for (const c of r.children) lines.push(`  ${pt(c.move).padEnd(4)} ${c.verdict.padEnd(7)} ${c.score}`);
        process.stdout.write(lines.join('\n') + '\n');
      }
    } finally {
      store.close();
    }
  },
};
