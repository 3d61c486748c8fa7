/** `gomoku book stats [--json]`: counts by verdict, opening kind, stones and search depth. */
import type { CommandModule } from 'yargs';
import { BookStore, describeHolder } from '../../book/store.js';
import { defaultBookPath } from '../../book/paths.js';

export const command: CommandModule = {
  command: 'stats',
  describe: 'counts of the positions in the opening book',
  builder: (y) =>
    y
      .option('book', { type: 'string', describe: 'book file (default: the shipped book)' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON object' }),
  handler: (argv) => {
    const a = argv as Record<string, unknown>;
    const file = typeof a.book === 'string' ? a.book : defaultBookPath();
    const opened = BookStore.open(file, { readonly: true });
    if (!opened.ok) {
      process.stderr.write(`gomoku: ${opened.error}\n`);
      process.exitCode = 2;
      return;
    }
    const s = opened.value.stats();
    opened.value.close();
    if (a.json) {
      process.stdout.write(JSON.stringify(s) + '\n');
      return;
    }
    const kv = (o: Record<string, number>) =>
      Object.entries(o)
        .map(([k, v]) => `${k || '-'}:${v}`)
        .join(' ');
    process.stdout.write(
      [
        `positions ${s.positions}  (jobs in flight ${s.jobsInFlight}, nodes ${s.nodes}, proof entries ${s.proofEntries})`,
        `verdict   ${kv(s.byVerdict)}`,
        `opening   ${kv(s.byOpening)}`,
        `stones    ${kv(s.byStones)}`,
        `depth     ${kv(s.byDepth)}`,
        ...(s.builder ? [`builder   ${describeHolder(s.builder)}`] : []),
      ].join('\n') + '\n',
    );
  },
};
