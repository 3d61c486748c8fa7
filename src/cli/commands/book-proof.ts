/**
 * `gomoku book proof POSITION --out FILE`: write a `gomoku-proof/1` certificate for a
 * position the book holds as won or lost (check it with `gomoku verify FILE`).
 */
import { writeFileSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { colorName, parseColor, type Color, type Rule } from '../../core/types.js';
import { loadPosition } from '../common.js';
import { BookStore } from '../../book/store.js';
import { assembleProof } from '../../book/proof.js';
import { defaultBookPath } from '../../book/paths.js';

function fail(msg: string): void {
  process.stderr.write(`gomoku: ${msg}\n`);
  process.exitCode = 2;
}

export const command: CommandModule = {
  command: 'proof <position>',
  describe: 'write a proof certificate for a position the book has decided',
  builder: (y) =>
    y
      .positional('position', { type: 'string', describe: "move list ('h8 i9 h9') or stone set ('B:h8,h9;W:i9')" })
      .option('out', { type: 'string', demandOption: true, describe: 'certificate file to write' })
      .option('book', { type: 'string', describe: 'book file (default: the shipped book)' })
      .option('size', { type: 'number', default: 15, describe: 'board size (5..22)' })
      .option('rule', { choices: ['freestyle', 'standard'] as const, default: 'freestyle' as const, describe: 'five or more wins, or exactly five' })
      .option('to-move', { choices: ['black', 'white'] as const, describe: 'side to move (needed when the stone counts do not fix it)' })
      .epilog('Exit status: 0 written, 1 the book has no complete proof for the position, 2 bad input.'),
  handler: (argv) => {
    const a = argv as Record<string, unknown>;
    const size = a.size as number;
    if (!Number.isInteger(size) || size < 5 || size > 22) return fail(`board size ${String(a.size)} is not in 5..22`);
    const explicit: Color | undefined = a.toMove !== undefined ? parseColor(String(a.toMove)) : undefined;
    const lp = loadPosition(String(a.position ?? ''), { size, rule: a.rule as Rule, toMove: explicit });
    if (!lp.ok) return fail(lp.error);
    const board = lp.value.board;
    const opened = BookStore.open(typeof a.book === 'string' ? a.book : defaultBookPath(), { readonly: true });
    if (!opened.ok) return fail(opened.error);
    try {
      const r = assembleProof(opened.value, board);
      if (!r.ok) {
        process.stderr.write(`gomoku: ${r.error}\n`);
        process.exitCode = 1;
        return;
      }
      const out = String(a.out);
      try {
        writeFileSync(out, r.value.certificate);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        return fail(`cannot write '${out}'${code ? ` (${code})` : ''}`);
      }
      process.stdout.write(`${colorName(r.value.winner)} wins: ${r.value.entries} entries from ${r.value.positions} book positions written to ${out}\n`);
    } finally {
      opened.value.close();
    }
  },
};
