import { describe, expect, it } from 'vitest';
import { Board } from '../../src/core/board.js';
import { parsePosition, resolveToMove, makePoint, parsePoint } from '../../src/core/notation.js';
import { BLACK, WHITE, type Color, type Rule } from '../../src/core/types.js';
import { Solver, type SolveResult } from '../../src/search/solver.js';
import { PnSearcher } from '../../src/search/dfpn.js';
import { C_TWO } from '../../src/core/patterns.js';
import { VcfSearcher } from '../../src/search/vcf.js';
import { makeCertificate, parseCertificate } from '../../src/proof/certificate.js';
import { verifyCertificate } from '../../src/proof/verify.js';
import { VCF_POSITIONS, boardOf, lcg, randomMiddleGame } from './helpers.js';

/** One solver and one VCF searcher for the file, as a worker thread has. */
const solver = new Solver();
const vcfs = new VcfSearcher();

function board(pos: string, rule: Rule = 'freestyle', size = 15, toMove?: Color): Board {
  const spec = parsePosition(pos, size);
  if (!spec.ok) throw new Error(spec.error);
  const b = new Board(size, rule);
  for (const m of spec.value.moves) b.put(m.index, m.color);
  const tm = resolveToMove(spec.value, toMove);
  if (!tm.ok) throw new Error(tm.error);
  b.setToMove(tm.value);
  return b;
}

const now = () => performance.now();

function certify(b: Board, r: SolveResult): string {
  const text = makeCertificate({
    size: b.size,
    rule: b.rule,
    root: { kind: 'stones', black: b.stones(BLACK), white: b.stones(WHITE), toMove: b.toMove },
    winner: r.winner!,
    entries: r.entries!,
  });
  const c = parseCertificate(text);
  if (!c.ok) throw new Error(c.error.message);
  const rep = verifyCertificate(c.value, { maxMs: 20000 });
  return rep.result === 'failed' ? `failed: ${rep.reason}; ${rep.line.join(' ')}` : rep.result;
}

const pts = (b: Board, s: string) =>
  s.split(' ').map((t) => makePoint(parsePoint(t, b.size).ok ? (parsePoint(t, b.size) as { value: number }).value : -1, b.size));

describe('VCF', () => {
  it('finds a four-three and the line ends in five', () => {
    // black: h8 i8 j8 (three on row 8) and k10 k11 k12 (three on column k); k8 makes four + three
    const b = board('B:h8,i8,j8,k10,k11,k12;W:g8,a1,c1,e1,g1', 'freestyle', 15, BLACK);
    const r = vcfs.search(b);
    expect(r.win).toBe(true);
    expect(r.line.length % 2).toBe(1);
    // replay: every black move makes a four, the last one five
    for (let i = 0; i < r.line.length; i++) b.play(r.line[i]!);
    expect(b.lastMoveWon()).toBe(BLACK);
  });

  it('finds nothing where there is no four to make', () => {
    const b = board('h8 i9 h9', 'freestyle');
    expect(vcfs.search(b).win).toBe(false);
  });

  it('must answer the opponent four with a four of its own', () => {
    // white has a four (five at e1); black's only VCF would ignore it
    const b = board('B:h8,i8,j8,k8,a15,b15;W:a1,b1,c1,d1,g8', 'freestyle', 15, BLACK);
    // black to move has five at l8 anyway: immediate
    expect(vcfs.search(b).win).toBe(true);
    const b2 = board('B:h8,i8,j8,a15,b15;W:a1,b1,c1,d1,g8,l8', 'freestyle', 15, BLACK);
    expect(vcfs.search(b2).win).toBe(false);
  });

  it('a search cut short by its depth limit leaves no failure behind for a deeper one', () => {
    // failures are kept across searches (a VCF result is a fact of the position); a node whose
    // subtree met the depth limit is not a failure, so the same searcher must still find the
    // VCF when asked again without the limit
    let cut = 0;
    for (const moves of VCF_POSITIONS) {
      const b = boardOf(moves);
      const full = new VcfSearcher().search(b);
      expect(full.win).toBe(true);
      const s = new VcfSearcher();
      if (s.search(b, { maxDepth: 1 }).win) continue;
      cut++;
      const again = s.search(b);
      expect(again.win).toBe(true);
      expect(again.line).toEqual(full.line);
    }
    expect(cut).toBeGreaterThanOrEqual(3);
  });
});

describe('solve', () => {
  it('reports an immediate five', () => {
    const b = board('B:h8,i8,j8,k8;W:a1,a2,a3', 'freestyle', 15, BLACK);
    const r = solver.solve(b);
    expect(r.result).toBe('win');
    expect(r.method).toBe('five');
    expect(makePoint(r.move!, 15)).toMatch(/^(g8|l8)$/);
  });

  it('reports a loss when the opponent has two fives to make', () => {
    const b = board('B:h8,i8,j8,k8,a10;W:a1,a2,a3,c5,d5', 'freestyle', 15, WHITE);
    const r = solver.solve(b);
    expect(r.result).toBe('loss');
    expect(certify(b, r)).toBe('verified');
  });

  it('proves a VCT (double open three) and the certificate verifies', () => {
    // black h8 i8 and h9 h10 ... a move at h7? construct: two open twos crossing at g7
    const b = board('B:h7,i7,g8,g9;W:a1,a15,o1', 'freestyle', 15, BLACK);
    const r = solver.solve(b, { timeMs: 5000, now });
    expect(r.result).toBe('win');
    expect(certify(b, r)).toBe('verified');
  });

  it('proves through the quiet-twos stage a win whose first move makes only a two', () => {
    // Black to move, from the random middle games of the project's helpers (lcg(31337),
    // randomMiddleGame(rnd, 'freestyle', 9, 10, 4, 7), the 14,099th): 1 of the 6,369 in
    // 17,516 that the wide threat space disproved and the quiet-twos space proved.
    const b = board('B:h10,h9,g8,g7,h6,i6,k5;W:h11,g10,k10,f9,i8,j8,h5', 'freestyle', 15, BLACK);
    const pn = new PnSearcher(16);
    expect(pn.solve(b, BLACK, { mode: 'vct', vcfThreats: true, maxNodes: 200_000 }).status).toBe('disproven');
    const twos = pn.solve(b, BLACK, { mode: 'vct', vcfThreats: true, quietTwos: true, maxNodes: 200_000 });
    expect(twos.status).toBe('proven');
    expect(b.classOf(twos.move, BLACK)).toBe(C_TWO);
    // the solver without its game-tree stage (which proves it too, more slowly)
    const r = solver.solve(b, { methods: ['five', 'vcf', 'vct'], maxNodes: 500_000, now });
    expect(r.result).toBe('win');
    expect(r.method).toBe('vct');
    expect(certify(b, r)).toBe('verified');
  });

  it('never claims a win for a quiet opening', () => {
    const b = board('h8 h9', 'freestyle');
    const r = solver.solve(b, { maxNodes: 20000, now });
    expect(r.result).toBe('unknown');
  });

  it('knows that an overline does not win under the standard rule', () => {
    // black: a b c d _ f on row 1 -> e1 makes six
    const pos = 'B:a1,b1,c1,d1,f1;W:h8,h9,h10,a15';
    const free = board(pos, 'freestyle', 15, BLACK);
    expect(solver.solve(free).method).toBe('five');
    const std = board(pos, 'standard', 15, BLACK);
    const r = solver.solve(std, { maxNodes: 5000, now });
    expect(r.method).not.toBe('five');
  });

  it('every claim on random middle games is accepted by the independent checker', () => {
    const rnd = lcg(12345);
    let claims = 0;
    for (let g = 0; g < 40; g++) {
      const rule: Rule = g % 2 ? 'standard' : 'freestyle';
      const b = randomMiddleGame(rnd, rule, 8, 14, 4, 7);
      const r = solver.solve(b, { maxNodes: 15000, now });
      if (r.result === 'unknown') continue;
      claims++;
      expect(certify(b, r)).toBe('verified');
    }
    expect(claims).toBeGreaterThan(5);
  });
});

void pts;
