import { describe, expect, it } from 'vitest';
import { AlphaBeta } from '../../src/search/alphabeta.js';
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
