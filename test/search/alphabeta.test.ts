import { describe, expect, it } from 'vitest';
import { AlphaBeta } from '../../src/search/alphabeta.js';
import { C_FOUR } from '../../src/core/patterns.js';
import { MATE, MATE_BOUND } from '../../src/search/types.js';
import { VcfSearcher } from '../../src/search/vcf.js';
import { boardOf, VCF_POSITIONS } from './helpers.js';

describe('alpha-beta', () => {
  it('mate scores follow the solver convention: MATE - plies, and the PV ends in a five at that ply', () => {
    const ab = new AlphaBeta(16);
    let fives = 0;
    for (const pos of VCF_POSITIONS) {
      const b = boardOf(pos);
      const hash = [b.hashLo, b.hashHi, b.ply];
      const line = new VcfSearcher().search(b, { maxNodes: 100000 });
      expect(line.win).toBe(true);
      const r = ab.search(b, { maxDepth: 8 });
      expect([b.hashLo, b.hashHi, b.ply]).toEqual(hash); // board restored
      expect(r.score).toBeGreaterThanOrEqual(MATE_BOUND);
      const plies = MATE - r.score;
      expect(plies % 2).toBe(1); // the winner moves on odd plies
      expect(plies).toBeLessThanOrEqual(line.line.length);
      // after the first PV move the opponent is mated one ply sooner (consistent scores across plies)
      b.play(r.pv[0]!);
      const child = new AlphaBeta(16).search(b, { maxDepth: 8 });
      expect(child.score).toBe(-(MATE - (plies - 1)));
      b.undo();
      // when the PV reaches the five, it is exactly `plies` long and the five is the winner's
      const me = b.toMove;
      for (const m of r.pv) b.play(m);
      if (b.lastMoveWon()) {
        expect(r.pv.length).toBe(plies);
        expect(b.lastMoveWon()).toBe(me);
        fives++;
      }
      for (let i = 0; i < r.pv.length; i++) b.undo();
    }
    // Searching on past the first mate finds shorter ones (the second position: 9 plies at
    // depth 1, 7 from depth 3), whose lines a table hit may cut before the five.
    expect(fives).toBeGreaterThanOrEqual(1);
  });

  it('quiescence plays a VCF on from the last own move: a wasted move near it loses at depth 1', () => {
    // The VCF side plays a quiet move next to its VCF's first four, the other side a far
    // corner (the only root move): at depth 1 that leaves the VCF to quiescence, which must
    // see it through plain fours near the quiet move (four-threes alone missed 8 of these 22).
    let cases = 0;
    for (const pos of VCF_POSITIONS) {
      const b0 = boardOf(pos);
      const v0 = new VcfSearcher().search(b0, { maxNodes: 100000 }).line[0]!;
      const x0 = v0 % 15;
      const y0 = (v0 - x0) / 15;
      for (const [dx, dy] of [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
        [1, 1],
        [-1, -1],
        [1, -1],
        [-1, 1],
      ] as const) {
        const x = x0 + dx;
        const y = y0 + dy;
        const q = y * 15 + x;
        if (x < 0 || y < 0 || x > 14 || y > 14 || b0.cells[q] !== 0) continue;
        if (((b0.state[q]! >>> (24 + 4 * (b0.toMove - 1))) & 15) >= C_FOUR) continue; // a four is no quiet move
        const b = boardOf(pos);
        b.play(q);
        const corners = [0, 14, 210, 224].filter((c) => b.cells[c] === 0);
        const far = corners.reduce((a, c) => (Math.hypot((c % 15) - x, Math.floor(c / 15) - y) > Math.hypot((a % 15) - x, Math.floor(a / 15) - y) ? c : a));
        const r = new AlphaBeta(16).search(b, { maxDepth: 1, rootMoves: [far] });
        expect(r.score).toBeLessThanOrEqual(-MATE_BOUND);
        cases++;
      }
    }
    expect(cases).toBe(22);
  });

  it('is deterministic for a node limit and restores the board', () => {
    const pos = 'h8 i9 h9 i8 j7 g10 h10 h11 g9 f8';
    const runs = [1, 2].map(() => {
      const b = boardOf(pos);
      const r = new AlphaBeta(16).search(b, { maxNodes: 20000 });
      return [r.move, r.score, r.nodes, r.pv.join(',')];
    });
    expect(runs[0]).toEqual(runs[1]);
  });

  it('blocks a four and answers an open three with a real defence', () => {
    const ab = new AlphaBeta(16);
    // white (to move) faces black's four h8-h11; its own stones are far away
    const b = boardOf('h8 a1 h9 a2 h10 b1 h11');
    const r = ab.search(b, { maxDepth: 4 });
    expect([boardOf('h12').history[0], boardOf('h7').history[0]]).toContain(r.move);
    // white faces black's open three h8-h10
    const c = boardOf('h8 a1 h9 a3 h10');
    const r2 = ab.search(c, { maxDepth: 6 });
    c.play(r2.move);
    expect(c.count(1, 8) + c.count(1, 9)).toBe(0); // black has no open-four cell left
  });
});
