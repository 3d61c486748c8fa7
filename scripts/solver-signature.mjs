#!/usr/bin/env node
/**
 * node scripts/solver-signature.mjs [--verbose]   (part of `npm run bench`; runs on dist/)
 *
 * The solver signature: node counts on a fixed set of positions under node limits, which
 * change only when the solver's behaviour changes (a refactoring must leave them as they are).
 *  df-pn  the staged solver (search/solver.ts: VCF, then the VCT and game-tree df-pn stages,
 *         then proof extraction), 100,000 nodes a position;
 *  vcf    a VCF search for each side (the side not to move as if given the move), 100,000
 *         nodes each;
 *  results  a hash of every position's result, method, line and node count.
 * Positions: random middle games built here (a seeded generator, freestyle and standard), plus,
 * when ../shared/testdata/puzzles is present, the first 16 puzzles of its Black VCF and White
 * VCF groups, the first 8 of its Black VCT and Black win-in-3 groups and of the negative set. The line
 * states how many positions it used: compare signatures of the same set only.
 * Each run is a fresh process with fresh solver tables, so the counts do not depend on what
 * ran before. --verbose lists each position's figures.
 */
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { helpOnRequest } from './usage.mjs';

helpOnRequest(import.meta.url);

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');
if (!existsSync(join(dist, 'search', 'solver.js'))) {
  console.error('solver-signature: dist/ is missing; run `npx tsc -p .` first');
  process.exit(2);
}
const { Board, countIndex } = await import(join(dist, 'core', 'board.js'));
const { C_FIVE } = await import(join(dist, 'core', 'patterns.js'));
const { parsePosition } = await import(join(dist, 'core', 'notation.js'));
const { boardFromSpec } = await import(join(dist, 'core', 'position.js'));
const { Solver } = await import(join(dist, 'search', 'solver.js'));
const { VcfSearcher } = await import(join(dist, 'search', 'vcf.js'));

const verbose = process.argv.includes('--verbose');
const SOLVE_NODES = 100_000;
const VCF_NODES = 100_000;

/** A 32-bit LCG (the test helpers' generator): the same seed, the same positions. */
function lcg(seed) {
  let s = seed;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
}

const positions = [];
// random middle games: 10-25 stones tried on the 9x9 square around the centre, stopping
// before a five; positions where either side already has a five cell are skipped (trivial)
{
  const rnd = lcg(2026);
  for (let g = 0; positions.length < 24; g++) {
    const rule = g % 4 === 3 ? 'standard' : 'freestyle';
    const b = new Board(15, rule);
    const n = 10 + rnd(16);
    for (let i = 0; i < n; i++) {
      const q = (3 + rnd(9)) * 15 + 3 + rnd(9);
      if (b.cells[q] !== 0) continue;
      b.play(q);
      if (b.lastMoveWon()) {
        b.undo();
        break;
      }
    }
    if (b.counts[countIndex(1, C_FIVE)] + b.counts[countIndex(2, C_FIVE)] > 0) continue;
    positions.push({ name: `random-${g}-${rule}`, board: b });
  }
}
const puzzles = join(here, '..', '..', 'shared', 'testdata', 'puzzles');
for (const [file, groups] of [
  [
    'freestyle-positive.jsonl',
    [
      ['VCF', 'black', 16],
      ['VCT', 'black', 8],
      ['WIN_IN_3', 'black', 8],
      ['VCF', 'white', 16],
    ],
  ],
  ['freestyle-negative.jsonl', [['*', 'white', 8]]],
]) {
  const f = join(puzzles, file);
  if (!existsSync(f)) continue;
  const items = readFileSync(f, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  for (const [task, side, count] of groups) {
    for (const p of items.filter((x) => (task === '*' || x.task === task) && x.toMove === side).slice(0, count)) {
      const spec = parsePosition(`B:${p.black.split(/\s+/).join(',')};W:${p.white.split(/\s+/).join(',')}`, 15);
      const built = spec.ok ? boardFromSpec(spec.value, 'freestyle', side === 'black' ? 1 : 2) : spec;
      if (!built.ok) throw new Error(`solver-signature: ${p.id}: ${built.error}`);
      positions.push({ name: p.id, board: built.value });
    }
  }
}

// FNV-1a over the per-position figures
let hash = 0x811c9dc5;
const mix = (s) => {
  for (let i = 0; i < s.length; i++) hash = Math.imul(hash ^ s.charCodeAt(i), 0x01000193);
};
// a fresh solver and VCF searcher: the counts must not depend on what ran before
const solver = new Solver();
const vcfs = new VcfSearcher();
let dfpnNodes = 0;
let vcfNodes = 0;
let decided = 0;
const t0 = performance.now();
for (const { name, board: b } of positions) {
  const r = solver.solve(b, { maxNodes: SOLVE_NODES });
  const own = vcfs.search(b, { maxNodes: VCF_NODES });
  b.setToMove(3 - b.toMove);
  const opp = vcfs.search(b, { maxNodes: VCF_NODES });
  b.setToMove(3 - b.toMove);
  dfpnNodes += r.nodes;
  vcfNodes += own.nodes + opp.nodes;
  if (r.result !== 'unknown') decided++;
  const line = `${name} ${r.result} ${r.method ?? '-'} ${r.pv.join(',')} ${r.nodes} ${r.entries?.length ?? 0} | ${own.win} ${own.nodes} ${own.line.join(',')} | ${opp.win} ${opp.nodes}`;
  mix(`${line}\n`);
  if (verbose) console.log(`  ${line}`);
}
const ms = performance.now() - t0;
console.log(
  `solver signature: df-pn ${dfpnNodes} vcf ${vcfNodes} results ${(hash >>> 0).toString(16).padStart(8, '0')} ` +
    `(${positions.length} positions, ${decided} decided; ${(ms / 1000).toFixed(1)} s)`,
);
