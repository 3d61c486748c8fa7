/**
 * `gomoku book verify [--json]`: assemble and independently check the certificate of every
 * won or lost position in the book. Exit 0 when all verify, 1 when any fails, else 3 when
 * the checker's budget ran out on any (README, Exit status: undecided is not a failure).
 */
import type { CommandModule } from 'yargs';
import { BookStore } from '../../book/store.js';
import { defaultBookPath } from '../../book/paths.js';
import { verifyBook, type BookVerifyReport } from '../../book/verify-all.js';
import { EXIT_NEGATIVE, EXIT_UNDECIDED, withNumberOptions } from '../common.js';

/** The exit status of a report: a failure outweighs a certificate the budget left undecided. */
export function bookVerifyStatus(r: Pick<BookVerifyReport, 'failed' | 'unknown'>): number {
  return r.failed > 0 ? EXIT_NEGATIVE : r.unknown > 0 ? EXIT_UNDECIDED : 0;
}

export const command: CommandModule = {
  command: 'verify',
  describe: 'check the certificate of every decided position in the book',
  builder: (y) =>
    withNumberOptions(y, { time: { kind: 'positive-int', default: 60000, describe: 'checker budget per certificate, ms' } })
      .option('book', { type: 'string', requiresArg: true, describe: 'book file (default: the shipped book)' })
      .option('json', { type: 'boolean', default: false, describe: 'print the report as one JSON object' })
      .epilog('Exit status: 0 every certificate verified, 1 one failed, 3 none failed but the budget ran out on one, 2 bad input.'),
  handler: (argv) => {
    const a = argv as Record<string, unknown>;
    const time = a.time as number;
    const opened = BookStore.open(typeof a.book === 'string' ? a.book : defaultBookPath(), { readonly: true });
    if (!opened.ok) {
      process.stderr.write(`gomoku: ${opened.error}\n`);
      process.exitCode = 2;
      return;
    }
    try {
      const r = verifyBook(opened.value, { maxMsEach: time });
      if (a.json) process.stdout.write(JSON.stringify(r) + '\n');
      else {
        const lines = [`${r.verified}/${r.decided} decided positions verified (${r.failed} failed, ${r.unknown} unknown) in ${(r.ms / 1000).toFixed(1)} s`];
        for (const f of r.failures) lines.push(`  ${f.verdict} ${f.position} (${f.toMove} to move): ${f.reason}`);
        process.stdout.write(lines.join('\n') + '\n');
      }
      process.exitCode = bookVerifyStatus(r);
    } finally {
      opened.value.close();
    }
  },
};
