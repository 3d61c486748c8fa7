import { describe, expect, it } from 'vitest';
import type { Board } from '../../src/core/board.js';
import type { Color, Rule } from '../../src/core/types.js';
import { PnSearcher } from '../../src/search/dfpn.js';
import { VcfSearcher } from '../../src/search/vcf.js';
import { fiveCount, winningThreatCount } from '../../src/search/threats.js';
import { lcg, randomMiddleGame } from './helpers.js';

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
      for (const b of middleGames(rule === 'freestyle' ? 777 : 778, 400, rule)) {
        const d = b.toMove;
        const a = (3 - d) as Color;
        // D to move; A has no five and no open-four cell (else other rules apply), D no five
        if (fiveCount(b, a) > 0 || fiveCount(b, d) > 0 || winningThreatCount(b, a) > 0) continue;
        b.setToMove(a);
        const threat = vcfs.search(b, { maxNodes: 400 });
        b.setToMove(d);
        if (!threat.win) continue;
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
