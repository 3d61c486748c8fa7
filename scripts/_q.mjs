import { Board } from '../dist/core/board.js';
const b = new Board(15, 'freestyle');
// consistency: random games, compare to fresh recompute
let rng = 12345;
const rand = (n) => { rng = (rng * 1103515245 + 12345) & 0x7fffffff; return rng % n; };
for (let g = 0; g < 200; g++) {
  const n = 10 + rand(100);
  for (let i = 0; i < n; i++) { let q; do { q = rand(225); } while (b.cells[q]); b.play(q); }
  const f = new Board(15, 'freestyle');
  for (let i = 0; i < b.ply; i++) f.put(b.history[i], b.cells[b.history[i]]);
  for (let q = 0; q < 225; q++) if (!b.cells[q] && (b.pats[q] !== f.pats[q])) throw new Error('pats mismatch');
  for (let i = 0; i < 32; i++) if (b.counts[i] !== f.counts[i]) throw new Error('count mismatch '+i);
  if (b.hashLo !== f.hashLo) throw new Error('hash');
  while (b.ply) b.undo();
}
const e = new Board(15,'freestyle');
for (let q=0;q<225;q++) if (b.pats[q]!==e.pats[q]) throw new Error('undo mismatch');
console.log('consistent');
// speed
const seq = [];
for (let i = 0; i < 60; i++) { let q; do { q = rand(225); } while (seq.includes(q)); seq.push(q); }
for (let rep = 0; rep < 5; rep++) {
  const t0 = performance.now(); let pairs = 0;
  for (let it = 0; it < 20000; it++) { for (let i = 0; i < 60; i++) b.play(seq[i]); for (let i = 0; i < 60; i++) b.undo(); pairs += 60; }
  console.log((pairs / (performance.now() - t0) * 1000 / 1e6).toFixed(2), 'M pairs/s');
}
