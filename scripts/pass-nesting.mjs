#!/usr/bin/env node
/**
 * node scripts/pass-nesting.mjs [--position "h8 h9 i9"] [--nodes N] [--time MS]   (runs on dist/)
 *
 * Does nesting shrink a pass strategy's zone? (issue 24, docs/benchmarks.md "Proven openings".)
 * For a quiet position (the side to move is the loser), solves the pass child (the other side
 * to move) with one Solver, then asks the checker for the support of that strategy twice:
 *  1. with one pass entry, at the root (what `gomoku solve --pass` writes, gomoku-proof/2);
 *  2. with a nested pass entry too at every loser-to-move position inside the strategy where
 *     the winner has a plain VCF if the loser passes (gomoku-proof/3, formats.md 3.3), so that
 *     the loser's replies there outside their own zone are covered instead of walked.
 * Prints the root's zone in both, the nested zones' sizes and the checker's counts. Default:
 * --nodes 20000000, --time 1200000 (the checker's budget per verification).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { helpOnRequest, readOptions } from './usage.mjs';

helpOnRequest(import.meta.url);

const { opts, positionals, die } = readOptions('pass-nesting', { '--position': 'string', '--nodes': 'int', '--time': 'int' });
if (positionals.length > 0) die(`unexpected argument '${positionals[0]}'`);
const position = opts['--position'] ?? 'h8 h9 i9';
const nodes = opts['--nodes'] ?? 20_000_000;
const checkMs = opts['--time'] ?? 1_200_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
if (!existsSync(path.join(dist, 'search', 'solver.js'))) {
  console.error('pass-nesting: dist/ is missing; run `npx tsc -p .` first');
  process.exit(2);
}
const imp = (p) => import(path.join(dist, p));
const { Board } = await imp('core/board.js');
const { parsePosition, makePoint } = await imp('core/notation.js');
const { BLACK, WHITE } = await imp('core/types.js');
const { Solver } = await imp('search/solver.js');
const { certificateOf } = await imp('proof/certificate.js');
const { verifyLearningZones } = await imp('proof/verify.js');
const { fitZones } = await imp('proof/zones.js');

const spec = parsePosition(position, 15);
if (!spec.ok) die(spec.error);
// the side to move (the loser) follows from the move list
if (!spec.value.ordered) die('--position must be a move list such as "h8 h9 i9"');
const board = new Board(15, 'freestyle');
for (const m of spec.value.moves) board.put(m.index, m.color);
const L = spec.value.moves.length % 2 === 0 ? BLACK : WHITE;
const W = 3 - L;
board.setToMove(W);
const pt = (q) => makePoint(q, 15);

let t = Date.now();
const pr = new Solver().solve(board, { maxNodes: nodes, now: () => Date.now() });
console.log(
  `pass child: ${pr.result}, ${pr.nodes} nodes, ${Date.now() - t} ms, ${pr.entries?.length ?? 0} entries, first move ${pr.move >= 0 ? pt(pr.move) : '-'}`,
);
if (pr.result !== 'win') process.exit(1);

const entries = pr.entries.map((e) => ({ black: e.black, white: e.white, move: e.move }));
const black = board.stones(BLACK);
const white = board.stones(WHITE);
const base = { size: 15, rule: 'freestyle', root: { kind: 'stones', black, white, toMove: L }, winner: W, entries };
t = Date.now();
const one = verifyLearningZones(certificateOf({ ...base, passes: [{ black, white, zone: [] }] }), { maxMs: checkMs });
console.log(`one pass entry: root zone ${one.zones[0]?.length} cells (${one.report.positions} positions, ${Date.now() - t} ms)`);

// The loser-to-move positions inside the strategy: after each entry's move.
const vcf = new Solver();
const seen = new Set();
const nested = [];
let candidates = 0;
for (const e of entries) {
  const nb = W === BLACK ? [...e.black, e.move].sort((a, b) => a - b) : e.black;
  const nw = W === WHITE ? [...e.white, e.move].sort((a, b) => a - b) : e.white;
  const key = `${nb.join(',')}/${nw.join(',')}`;
  if (seen.has(key)) continue;
  seen.add(key);
  candidates++;
  const b = new Board(15, 'freestyle');
  for (const q of nb) b.put(q, BLACK);
  for (const q of nw) b.put(q, WHITE);
  b.setToMove(W);
  if (vcf.solve(b, { methods: ['vcf'], proof: false, maxNodes: 20000 }).result === 'win') nested.push({ black: nb, white: nw, zone: [] });
}
console.log(`loser-to-move positions in the strategy: ${candidates}; with a winner VCF after a pass: ${nested.length}`);
t = Date.now();
const f = fitZones({ ...base, version: 3, passes: [{ black, white, zone: [] }, ...nested] }, { maxMs: checkMs });
const sizes = f.strategy.passes.slice(1).map((p) => p.zone?.length ?? 0);
const r = f.report;
console.log(
  `nested: ${r.result}${r.reason ? ` (${r.reason}; line ${r.line.join(' ')})` : ''} after ${f.rounds} round(s), ${Date.now() - t} ms: ` +
    `root zone ${f.strategy.passes[0].zone?.length ?? 0} cells; nested zones mean ${(sizes.reduce((a, b) => a + b, 0) / Math.max(1, sizes.length)).toFixed(1)}, ` +
    `largest ${Math.max(0, ...sizes)}; ${r.positions} positions, ${r.zoneChecks} zone checks, ${r.zoneCovered} replies covered, ${r.ownReplies} with their own entries`,
);
const outside = [];
const z = new Set(f.strategy.passes[0].zone ?? []);
for (let q = 0; q < 225; q++) if (board.cells[q] === 0 && !z.has(q)) outside.push(pt(q));
console.log(`outside the root zone: ${outside.join(' ') || '(none)'}`);
