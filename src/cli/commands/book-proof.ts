/**
 * `gomoku book proof POSITION --out FILE`: write a `gomoku-proof/1` certificate for a
 * position the book holds as won or lost (check it with `gomoku verify FILE`).
 */
import { writeFileSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { colorName } from '../../core/types.js';
import { positionArgs, usageError, withPositionArgument, withPositionOptions } from '../common.js';
import { BookStore } from '../../book/store.js';
import { assembleProof } from '../../book/proof.js';
import { defaultBookPath } from '../../book/paths.js';

export const command: CommandModule = {
  command: 'proof <position..>',
  describe: 'write a proof certificate for a position the book has decided',
  builder: (y) =>
    withPositionOptions(withPositionArgument(y))
      .option('out', { type: 'string', demandOption: true, describe: 'certificate file to write' })
      .option('book', { type: 'string', describe: 'book file (default: the shipped book)' })
      .epilog('Exit status: 0 written, 1 the book has no complete proof for the position, 2 bad input.'),
  handler: (argv) => {
    const a = argv as Record<string, unknown>;
    const lp = positionArgs(a);
    if (!lp.ok) return usageError(lp.error);
    const board = lp.value.board;
    const opened = BookStore.open(typeof a.book === 'string' ? a.book : defaultBookPath(), { readonly: true });
    if (!opened.ok) return usageError(opened.error);
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
        return usageError(`cannot write '${out}'${code ? ` (${code})` : ''}`);
      }
      process.stdout.write(
        `${colorName(r.value.winner)} wins: ${r.value.entries} entries${r.value.passes ? ` and ${r.value.passes} pass entr${r.value.passes === 1 ? 'y' : 'ies'}` : ''} from ${r.value.positions} book positions written to ${out}\n`,
      );
    } finally {
      opened.value.close();
    }
  },
};
