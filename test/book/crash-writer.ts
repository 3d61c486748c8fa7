/**
 * Child process for the crash test: commits batches of positions, then opens one more write
 * transaction, says "IN-TRANSACTION <committed>" and keeps writing until it is killed.
 */
import { BookStore } from '../../src/book/store.js';

const file = process.argv[2]!;
const batches = Number(process.argv[3] ?? '5');
const opened = BookStore.open(file);
if (!opened.ok) {
  process.stderr.write(opened.error + '\n');
  process.exit(3);
}
const store = opened.value;
let n = 0;
const add = () => {
  const i = n++;
  const row = store.ensure({ rule: 'freestyle', size: 22, key: `22.b.${i.toString(32).padStart(4, '0')}.`, stones: 2, toMove: 1, opening: 'crash' });
  store.update(row.id, { verdict: 'unknown', score: i, depth: 1, bestMove: null, pn: 1, dn: 1, proofSize: 0, addNodes: 1, method: 'test', evaluated: 1 });
  store.setProofEntries(row.id, [{ black: 'aa', white: 'bb', move: i % 400 }]);
};
for (let b = 0; b < batches; b++) store.transaction(() => { for (let k = 0; k < 100; k++) add(); });
store.transaction(() => {
  for (let k = 0; k < 50; k++) add();
  process.stdout.write(`IN-TRANSACTION ${batches * 100}\n`);
  for (;;) add(); // until SIGKILL
});
