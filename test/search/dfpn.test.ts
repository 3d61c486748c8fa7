import { describe, expect, it } from 'vitest';
import type { Board } from '../../src/core/board.js';
import type { Color, Rule } from '../../src/core/types.js';
import { PnSearcher } from '../../src/search/dfpn.js';
import { VcfSearcher } from '../../src/search/vcf.js';
import { fiveCount, winningThreatCount } from '../../src/search/threats.js';
import { C_FOUR, C_FOUR_THREE, C_OPEN_FOUR, C_THREE } from '../../src/core/patterns.js';
import { VCF_POSITIONS, boardOf, lcg, randomMiddleGame } from './helpers.js';

/** Seeded random middle games around the centre (no five on the board). */
function* middleGames(seed: number, count: number, rule: Rule): Generator<Board> {
  const rnd = lcg(seed);
  for (let g = 0; g < count; g++) yield randomMiddleGame(rnd, rule, 10, 16, 3, 9);
}

describe('df-pn threat space: defences against a VCF threat', () => {
  // The wide threat space lets the attacker make a quiet move that threatens a VCF; the
  // defender's replies are then the cells of that VCF's relevance zone that stop every VCF,
  // plus the defender's fours. Soundness: every other defender move must leave the attacker
  // a VCF. Checked here by brute force on every empty cell.
  for (const rule of ['freestyle', 'standard'] as Rule[]) {
    it(`every reply left out still loses to a VCF (${rule})`, () => {
      const pn = new PnSearcher(14);
      const vcfs = new VcfSearcher();
      let checked = 0;
      let cellsChecked = 0;
      for (const b of middleGames(rule === 'freestyle' ? 777 : 778, 1500, rule)) {
        const d = b.toMove;
        const a = (3 - d) as Color;
        // D to move; A has no five and no open-four cell (else other rules apply), D no five
        if (fiveCount(b, a) > 0 || fiveCount(b, d) > 0 || winningThreatCount(b, a) > 0) continue;
        b.setToMove(a);
        const threat = vcfs.search(b, { maxNodes: 400 });
        b.setToMove(d);
        if (!threat.win) continue;
        // a defender VCF ends the node before any reply is listed (the node is lost for A)
        if (vcfs.search(b, { maxNodes: 200 }).win) continue;
        const replies = pn.children(b, a, false, 'vct');
        expect(replies).toBeDefined();
        const listed = new Set(replies);
        checked++;
        for (let x = 0; x < b.area; x++) {
          if (b.cells[x] !== 0 || listed.has(x)) continue;
          b.play(x);
          const r = vcfs.search(b, { maxNodes: 200_000 });
          b.undo();
          cellsChecked++;
          if (!r.win) throw new Error(`reply ${x} left out but it stops every VCF (${rule}, ${b.stones(1)} / ${b.stones(2)})`);
        }
        if (checked >= 25) break;
      }
      expect(checked).toBeGreaterThanOrEqual(10);
      expect(cellsChecked).toBeGreaterThan(1000);
    });
  }
});

describe('df-pn tables shared by both attackers', () => {
  // A position with Black to move is an OR node when Black attacks and an AND node when White
  // does; one searcher's tables serve both, so an entry must not answer for the other side.
  it('a proof for Black is never read as a proof for White', () => {
    const pn = new PnSearcher(14);
    let proven = 0;
    for (const moves of VCF_POSITIONS) {
      const b = boardOf(moves);
      const me = b.toMove;
      expect(pn.solve(b, me, { mode: 'vct', maxNodes: 50_000 }).status).toBe('proven');
      proven++;
      expect(pn.solve(b, (3 - me) as Color, { mode: 'vct', maxNodes: 50_000 }).status).not.toBe('proven');
      expect(pn.lookup(b, 'vct', me)?.[0]).toBe(0);
      expect(pn.lookup(b, 'vct', (3 - me) as Color)?.[0] ?? 1).not.toBe(0);
    }
    expect(proven).toBe(VCF_POSITIONS.length);
  });
});

describe('df-pn: the quiet-twos space', () => {
  // `quietTwos` only adds attacker moves to the wide space (the defender's replies are the
  // same), so it may prove more but never disprove what the wide space proves.
  for (const rule of ['freestyle', 'standard'] as Rule[]) {
    it(`never disproves what the wide space proves (${rule})`, () => {
      const wide = new PnSearcher(16);
      const twos = new PnSearcher(16);
      let proofs = 0;
      let disproofs = 0;
      for (const b of middleGames(rule === 'freestyle' ? 5150 : 5151, 300, rule)) {
        if (fiveCount(b, 1) > 0 || fiveCount(b, 2) > 0) continue;
        const r1 = wide.solve(b, b.toMove, { mode: 'vct', vcfThreats: true, maxNodes: 20_000 });
        if (r1.status === 'unknown') continue;
        const r2 = twos.solve(b, b.toMove, { mode: 'vct', vcfThreats: true, quietTwos: true, maxNodes: 60_000 });
        if (r1.status === 'proven') {
          proofs++;
          if (r2.status === 'disproven') throw new Error(`wide proven, quiet twos disproven (${rule}, ${b.stones(1)} / ${b.stones(2)})`);
        } else disproofs++;
        if (proofs >= 40 && disproofs >= 40) break;
      }
      expect(proofs).toBeGreaterThanOrEqual(40);
      expect(disproofs).toBeGreaterThanOrEqual(40);
    });
  }
});

describe('df-pn: the relaxed threat space', () => {
  // The threat-space search first searches a relaxed space where the defender's plain fours
  // are left out of his replies (his VCF, his four-threes and open fours, and the fours that
  // also defend stay in). Its proofs only guide the real search; its disproofs end it, so they
  // must be real: the real threat space may never prove a position the relaxed one disproves.
  for (const rule of ['freestyle', 'standard'] as Rule[]) {
    it(`never disproves what the real threat space proves (${rule})`, () => {
      const guided = new PnSearcher(16);
      const real = new PnSearcher(16);
      let disproofs = 0;
      let proofs = 0;
      for (const b of middleGames(rule === 'freestyle' ? 4242 : 4243, 400, rule)) {
        if (fiveCount(b, 1) > 0 || fiveCount(b, 2) > 0) continue;
        for (const wide of [false, true]) {
          const r1 = guided.solve(b, b.toMove, { mode: 'vct', vcfThreats: wide, maxNodes: 4000 });
          if (r1.status === 'unknown') continue;
          const r2 = real.solve(b, b.toMove, { mode: 'vct', vcfThreats: wide, maxNodes: 60_000, relaxedFirst: false });
          if (r1.status === 'disproven') disproofs++;
          else proofs++;
          if (r2.status !== 'unknown' && r2.status !== r1.status) {
            throw new Error(`relaxed-first ${r1.status}, real ${r2.status} (${rule}, wide ${wide}, ${b.stones(1)} / ${b.stones(2)})`);
          }
        }
        if (disproofs >= 60 && proofs >= 20) break;
      }
      expect(disproofs).toBeGreaterThanOrEqual(60);
      expect(proofs).toBeGreaterThanOrEqual(20);
    });
  }
});

describe('df-pn threat space: the attacker facing a defender VCF', () => {
  // At an attacker node where the defender, given the move, would win by a VCF (he has an
  // open-four or four-three cell), the attacker's moves that are not fours are kept only
  // inside that VCF's relevance zone. Every threat move left out must lose to a defender VCF.
  for (const rule of ['freestyle', 'standard'] as Rule[]) {
    it(`every threat left out loses to the defender's VCF (${rule})`, () => {
      const pn = new PnSearcher(14);
      const vcfs = new VcfSearcher();
      let nodes = 0;
      let dropped = 0;
      for (const b of middleGames(rule === 'freestyle' ? 9191 : 9192, 3000, rule)) {
        const a = b.toMove;
        const d = (3 - a) as Color;
        if (fiveCount(b, a) > 0 || fiveCount(b, d) > 0) continue;
        if (b.count(d, C_OPEN_FOUR) + b.count(d, C_FOUR_THREE) === 0) continue;
        const moves = pn.children(b, a, true, 'vct');
        if (moves === undefined || moves.length === 0) continue;
        const listed = new Set(moves);
        nodes++;
        for (let x = 0; x < b.area; x++) {
          if (b.cells[x] !== 0 || listed.has(x)) continue;
          const k = b.classOf(x, a);
          if (k >= C_FOUR) throw new Error(`four ${x} left out (${rule}, ${b.stones(1)} / ${b.stones(2)})`);
          if (k < C_THREE) continue; // quiet moves are listed only near the last moves: not checked
          b.play(x);
          const r = vcfs.search(b, { maxNodes: 200_000 });
          b.undo();
          dropped++;
          if (!r.win) throw new Error(`threat ${x} left out but the defender has no VCF after it (${rule}, ${b.stones(1)} / ${b.stones(2)})`);
        }
        if (nodes >= 40 && dropped >= 100) break;
      }
      expect(nodes).toBeGreaterThanOrEqual(20);
      expect(dropped).toBeGreaterThanOrEqual(50);
    });
  }
});
