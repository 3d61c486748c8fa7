#!/usr/bin/env node
/**
 * npm run bench:book [-- --book FILE --lookups N --seed S]
 *
 * The runtime book probe as the engine and the protocol adapters use it (openBookProbe on
 * dist/, read-only): the time to open the book, then the time of one lookup (canonicalise
 * the board over the 8 symmetries + one prepared indexed SELECT) on a warm probe, median and
 * 95th percentile over N lookups (default 20000), separately for hits (positions read from
 * the book, each shown to the probe in a random one of its 8 orientations) and misses (the
 * same positions with one stone moved). Default book: book/gomoku-book.db. The sample and
 * orientations come from --seed (default 1), so the hit/miss counts are a signature of the
 * run.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { helpOnRequest, pairedOptions } from './usage.mjs';
import { quantile } from './stats.mjs';

helpOnRequest(import.meta.url);

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');
if (!existsSync(join(dist, 'book', 'probe.js'))) {
  console.error('bench-book: dist/ is missing; run `npm run build` first');
  process.exit(2);
}

const opt = pairedOptions('bench-book', ['--book', '--lookups', '--seed']);
const bookPath = opt('--book', join(here, '..', 'book', 'gomoku-book.db'));
const lookups = Number(opt('--lookups', '20000'));
const seed = opt('--seed', '1');
if (!Number.isInteger(lookups) || lookups < 100) {
  console.error('bench-book: --lookups must be an integer of at least 100');
  process.exit(2);
}
if (!existsSync(bookPath)) {
  console.error(`bench-book: no book at '${bookPath}'`);
  process.exit(2);
}

const { default: seedrandom } = await import('seedrandom');
const { Board } = await import(join(dist, 'core', 'board.js'));
const { transformPoints } = await import(join(dist, 'core', 'symmetry.js'));
const { openBookProbe } = await import(join(dist, 'book', 'probe.js'));
const { BookStore } = await import(join(dist, 'book', 'store.js'));
const { bookPositionOf, stonesOfKey } = await import(join(dist, 'book', 'canonical.js'));

const rng = seedrandom(seed);
// The sample: evaluated or decided rows (the ones a lookup answers).
const opened0 = BookStore.open(bookPath, { readonly: true });
if (!opened0.ok) {
  console.error(`bench-book: ${opened0.error}`);
  process.exit(2);
}
const rows = [];
for (const r of opened0.value.positions()) if (r.evaluated > 0 || r.verdict !== 'unknown') rows.push({ rule: r.rule, key: r.key });
opened0.value.close();
if (rows.length === 0) {
  console.error(`bench-book: '${bookPath}' has no evaluated positions`);
  process.exit(2);
}

function boardOf(rule, black, white, toMove, size) {
  const b = new Board(size, rule);
  for (const q of black) b.put(q, 1);
  for (const q of white) b.put(q, 2);
  b.setToMove(toMove);
  return b;
}

const stored = new Set(rows.map((r) => `${r.rule} ${r.key}`));
const hits = [];
const misses = [];
while (misses.length < 2000) {
  const r = rows[Math.floor(rng() * rows.length)];
  const p = stonesOfKey(r.key);
  const t = Math.floor(rng() * 8);
  const black = transformPoints(t, p.black, p.size);
  const white = transformPoints(t, p.white, p.size);
  hits.push(boardOf(r.rule, black, white, p.toMove, p.size));
  // a miss: the last black stone moved to an empty cell, unless that is stored too
  const taken = new Set([...black, ...white]);
  let q;
  do q = Math.floor(rng() * p.size * p.size);
  while (taken.has(q));
  const miss = boardOf(r.rule, [...black.slice(0, -1), q], white, p.toMove, p.size);
  if (!stored.has(`${r.rule} ${bookPositionOf(miss).key}`)) misses.push(miss);
}

let warnings = 0;
const t0 = process.hrtime.bigint();
const opened = openBookProbe(bookPath, {
  onWarning: (m) => {
    warnings++;
    console.error(`bench-book: ${m}`);
  },
});
const openMs = Number(process.hrtime.bigint() - t0) / 1e6;
if (!opened) process.exit(1);
const { probe } = opened;

function timeLookups(boards, n) {
  const times = new Float64Array(n);
  let found = 0;
  for (let i = 0; i < n; i++) {
    const b = boards[i % boards.length];
    const s = process.hrtime.bigint();
    const hit = probe.probe(b);
    times[i] = Number(process.hrtime.bigint() - s) / 1e3;
    if (hit) found++;
  }
  return { times, found };
}
// warm-up: V8 compiles the lookup path, SQLite pages the index in
timeLookups(hits, 2000);
timeLookups(misses, 2000);
const h = timeLookups(hits, lookups);
const m = timeLookups(misses, lookups);
opened.close();

const fmt = (us) => (us < 1000 ? `${us.toFixed(1)} us` : `${(us / 1000).toFixed(2)} ms`);
console.log(`book ${bookPath}: ${rows.length} evaluated positions; open ${openMs.toFixed(1)} ms (read-only)`);
console.log(`lookup, hits:   median ${fmt(quantile(h.times, 0.5))}  p95 ${fmt(quantile(h.times, 0.95))}  (${lookups} lookups, ${h.found} found)`);
console.log(`lookup, misses: median ${fmt(quantile(m.times, 0.5))}  p95 ${fmt(quantile(m.times, 0.95))}  (${lookups} lookups, ${m.found} found)`);
if (warnings > 0 || h.found !== lookups || m.found !== 0) {
  console.error(`bench-book: ${lookups - h.found} stored positions not found, ${m.found} absent ones found${warnings ? `, ${warnings} warning(s)` : ''}`);
  process.exit(1);
}
