import { describe, expect, test } from 'vitest';
import { EXPAND_FULL, EXPAND_NEAR, EXPAND_ZONE, INF, PASS_MOVE, PnTree } from '../../src/book/pn-tree.js';

/** root 1 with children 2, 3, 4 (moves 20, 30, 40), all evaluated with score 0, root expanded. */
function small(stage = EXPAND_NEAR): PnTree {
  const t = new PnTree();
  t.addRoot(1);
  t.setLeaf(1, 'unknown', 0);
  for (const c of [2, 3, 4]) {
    t.link(1, c * 10, c);
    t.setLeaf(c, 'unknown', 0);
  }
  t.node(1).expanded = stage;
  t.recomputeAll();
  return t;
}

describe('PnTree numbers', () => {
  test('leaves: unevaluated (1,1), solved, heuristic from the score', () => {
    const t = new PnTree({ scoreScale: 100 });
    for (const id of [1, 2, 3, 4, 5]) t.addRoot(id);
    t.setLeaf(2, 'win', 29990);
    t.setLeaf(3, 'loss', -29990);
    t.setLeaf(4, 'unknown', 200);
    t.setLeaf(5, 'unknown', -200);
    t.recomputeAll();
    expect([t.node(1).pn, t.node(1).dn]).toEqual([1, 1]);
    expect([t.node(2).pn, t.node(2).dn]).toEqual([0, INF]);
    expect([t.node(3).pn, t.node(3).dn]).toEqual([INF, 0]);
    expect(t.node(4).pn).toBeLessThan(t.node(4).dn); // good score: cheap to prove
    expect(t.node(5).pn).toBeGreaterThan(t.node(5).dn);
  });

  test('a zone node: its pass child and listed replies all won disprove it; the pass child is never a move', () => {
    const t = small(EXPAND_ZONE);
    t.link(1, PASS_MOVE, 9);
    t.setLeaf(9, 'win', 29990);
    t.recomputeAll();
    for (const c of [2, 3]) {
      t.setLeaf(c, 'win', 29990);
      t.update(c);
    }
    expect(t.verdictOf(1)).toBe('unknown');
    expect(t.select()).toEqual({ kind: 'expand', node: 4, stage: EXPAND_NEAR }); // never the pass child
    t.setLeaf(4, 'win', 29990);
    t.update(4);
    expect(t.verdictOf(1)).toBe('loss');
    expect(t.bestChild(1)!.move).not.toBe(PASS_MOVE);
    // an open pass child holds the disproof back; under a NEAR node it counts for nothing
    t.setLeaf(9, 'unknown', 0);
    t.update(9);
    expect(t.verdictOf(1)).toBe('unknown');
    t.node(1).expanded = EXPAND_NEAR;
    t.recomputeAll();
    expect(t.node(1).dn).toBe(1);
    // a won pass child alone proves nothing for the side to move
    const u = new PnTree();
    u.addRoot(1);
    u.setLeaf(1, 'unknown', 0);
    u.link(1, PASS_MOVE, 2);
    u.setLeaf(2, 'loss', -29990);
    u.node(1).expanded = EXPAND_ZONE;
    u.recomputeAll();
    expect(u.verdictOf(1)).toBe('unknown');
  });

  test('one refuted reply proves the parent; the stored best move is that reply', () => {
    const t = small();
    t.setLeaf(3, 'loss', -29990);
    const changed = t.update(3);
    expect(changed).toEqual([3, 1]);
    expect(t.verdictOf(1)).toBe('win');
    expect(t.bestChild(1)).toEqual({ move: 30, child: 3 });
    expect(t.node(1).score).toBe(29990);
  });

  test('all listed replies winning disproves a FULL node but not a NEAR one, which asks to be widened', () => {
    for (const stage of [EXPAND_NEAR, EXPAND_FULL]) {
      const t = small(stage);
      for (const c of [2, 3, 4]) {
        t.setLeaf(c, 'win', 29990);
        t.update(c);
      }
      if (stage === EXPAND_FULL) {
        expect(t.verdictOf(1)).toBe('loss');
      } else {
        expect(t.verdictOf(1)).toBe('unknown');
        expect(t.node(1).dn).toBe(1);
        expect(t.select()).toEqual({ kind: 'expand', node: 1, stage: EXPAND_FULL });
      }
    }
  });

  test('incremental updates agree with a full recomputation (DAG with a transposition)', () => {
    const t = small();
    // 2 and 3 both lead to 5 (a transposition)
    t.link(2, 50, 5);
    t.link(3, 51, 5);
    t.node(2).expanded = EXPAND_NEAR;
    t.node(3).expanded = EXPAND_NEAR;
    t.link(2, 60, 6);
    t.setLeaf(6, 'unknown', 50);
    t.recomputeAll();
    t.setLeaf(5, 'win', 29990);
    t.update(5);
    const inc = [...t.nodes.values()].map((n) => [n.id, n.pn, n.dn, n.score]);
    t.recomputeAll();
    expect([...t.nodes.values()].map((n) => [n.id, n.pn, n.dn, n.score])).toEqual(inc);
    expect(t.node(3).pn).toBe(INF); // 3's only reply wins for the opponent...
    expect(t.node(3).dn).toBe(1); // ...but 3 is only NEAR-expanded, so not disproven
  });
});

describe('PnTree selection', () => {
  test('evaluates unevaluated roots first, then expands, then descends by smallest dn', () => {
    const t = new PnTree();
    t.addRoot(1);
    expect(t.select()).toEqual({ kind: 'evaluate', node: 1 });
    t.setLeaf(1, 'unknown', 0);
    t.update(1);
    expect(t.select()).toEqual({ kind: 'expand', node: 1, stage: EXPAND_NEAR });
    // a root whose replies 2, 3, 4 are expanded one level; after reply 3 the root's
    // mover is badly off (grandchild 8 scores -600 for him)
    const s = small();
    for (const [parent, move, child, score] of [[2, 70, 7, 0], [3, 71, 8, -600], [4, 80, 9, 0]] as const) {
      s.node(parent).expanded = EXPAND_NEAR;
      s.link(parent, move, child);
      s.setLeaf(child, 'unknown', score);
    }
    s.recomputeAll();
    // node 3 is the hardest to refute (largest dn), so it is tried last
    expect(s.node(3).dn).toBeGreaterThan(s.node(2).dn);
    expect(s.select()).toEqual({ kind: 'expand', node: 7, stage: EXPAND_NEAR });
    s.node(7).inFlight = true;
    expect(s.select()).toEqual({ kind: 'expand', node: 9, stage: EXPAND_NEAR });
    s.node(9).inFlight = true;
    expect(s.select()).toEqual({ kind: 'expand', node: 8, stage: EXPAND_NEAR });
  });

  test('nodes with a job in flight are skipped, so parallel jobs get different leaves', () => {
    const t = new PnTree();
    for (const id of [1, 2, 3]) t.addRoot(id);
    const picked: number[] = [];
    for (let i = 0; i < 3; i++) {
      const a = t.select();
      expect(a?.kind).toBe('evaluate');
      picked.push(a!.node);
      t.node(a!.node).inFlight = true;
    }
    expect(picked.sort()).toEqual([1, 2, 3]);
    expect(t.select()).toBeUndefined();
  });

  test('solved roots are never selected; drop-out expansion prefers the line of best play', () => {
    const t = new PnTree({ omega: 10 });
    t.addRoot(1);
    t.setLeaf(1, 'unknown', 0);
    t.node(1).expanded = EXPAND_NEAR;
    t.link(1, 10, 2);
    t.link(1, 20, 3);
    t.setLeaf(2, 'unknown', -100); // good for the root's mover (score is the opponent's)
    t.setLeaf(3, 'unknown', 300); // a drop of 400
    t.recomputeAll();
    expect(t.selectDropOut()).toEqual({ kind: 'expand', node: 2, stage: EXPAND_NEAR });
    t.node(2).expanded = EXPAND_NEAR;
    t.link(2, 30, 4);
    t.recomputeAll();
    expect(t.selectDropOut()).toEqual({ kind: 'evaluate', node: 4 });
    const solved = new PnTree();
    solved.addRoot(9);
    solved.setLeaf(9, 'win', 29990);
    solved.recomputeAll();
    expect(solved.next()).toBeUndefined();
    expect(solved.openRootCount()).toBe(0);
  });
});

describe('PnTree root order', () => {
  test('every root is evaluated before any root is taken deeper', () => {
    const t = new PnTree();
    for (const id of [1, 2, 3]) t.addRoot(id);
    const order: string[] = [];
    let next = 10;
    for (let i = 0; i < 6; i++) {
      const a = t.select()!;
      order.push(`${a.kind}:${a.node}`);
      if (a.kind === 'evaluate') t.setLeaf(a.node, 'unknown', 0);
      else {
        t.node(a.node).expanded = a.stage;
        t.link(a.node, next, next);
        next++;
      }
      t.update(a.node);
    }
    expect(order.slice(0, 3)).toEqual(['evaluate:1', 'evaluate:2', 'evaluate:3']);
  });
});
