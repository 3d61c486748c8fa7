/** Child process for the build crash test: a long in-process build that prints each result. */
import { BookStore } from '../../src/book/store.js';
import { buildBook } from '../../src/book/builder.js';
import { runBookJob } from '../../src/book/job.js';

const opened = BookStore.open(process.argv[2]!);
if (!opened.ok) {
  process.stderr.write(opened.error + '\n');
  process.exit(3);
}
await buildBook({
  store: opened.value,
  opening: 'swap2',
  size: 15,
  rule: 'freestyle',
  region: 3,
  concurrency: 3,
  budget: { jobs: 100000 },
  solveNodes: 1500,
  scoreNodes: 300,
  runJob: async (j) => {
    await new Promise((r) => setTimeout(r, 5));
    return runBookJob(j);
  },
  onProgress: (p) => process.stdout.write(`job ${p.jobs}\n`),
});
