/**
 * `gomoku book export --format jsonl|yxdb --out FILE`: the whole book as JSON Lines, or as a
 * Yixin/Rapfi database (LZ4 frame) for Yixin-Board and Rapfi users.
 */
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { usageError } from '../common.js';
import { BookStore } from '../../book/store.js';
import { defaultBookPath } from '../../book/paths.js';
import { exportJsonl, exportYxdb } from '../../book/export.js';

export const command: CommandModule = {
  command: 'export',
  describe: 'write the opening book as JSON Lines or as a Yixin/Rapfi database',
  builder: (y) =>
    y
      .option('book', { type: 'string', describe: 'book file (default: the shipped book)' })
      .option('format', { choices: ['jsonl', 'yxdb'] as const, demandOption: true, describe: 'output format' })
      .option('out', { type: 'string', demandOption: true, describe: 'output file' }),
  handler: (argv) => {
    const a = argv as Record<string, unknown>;
    const file = typeof a.book === 'string' ? a.book : defaultBookPath();
    const out = String(a.out ?? '');
    if (out === '') return usageError('--out needs a file name');
    const opened = BookStore.open(file, { readonly: true });
    if (!opened.ok) return usageError(opened.error);
    const store = opened.value;
    try {
      if (a.format === 'yxdb') {
        const r = exportYxdb(store);
        writeFileSync(out, r.bytes);
        process.stderr.write(`wrote ${r.written} positions to ${out}${r.skipped ? ` (${r.skipped} skipped: side to move not expressible in yxdb)` : ''}\n`);
      } else {
        const fd = openSync(out, 'w');
        let n = 0;
        let chunk = '';
        try {
          for (const line of exportJsonl(store)) {
            chunk += line;
            n++;
            if (chunk.length > 1 << 16) {
              writeSync(fd, chunk);
              chunk = '';
            }
          }
          writeSync(fd, chunk);
        } finally {
          closeSync(fd);
        }
        process.stderr.write(`wrote ${n} positions to ${out}\n`);
      }
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return usageError(`cannot write '${out}'${code ? ` (${code})` : ''}`);
    } finally {
      store.close();
    }
  },
};
