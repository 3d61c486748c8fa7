/**
 * Pass trees in a real book (issue 24): a pass job that wins its pass child but runs out of
 * budget before every reply is refuted is kept as a tree (pass child, zone, a child per open
 * reply), the open replies become jobs of their own (and pass trees again below), and the
 * node's disproof stands only when the certificate assembled for it, `gomoku-proof/3`, verifies.
 * Built on 11x11 from a position made here; each test's jobs learn in a solver of their own.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { buildBook } from '../../src/book/builder.js';
import { checkedPassTree, runBookJob, type BookJob, type BookJobResult, type PassTree } from '../../src/book/job.js';
import { provePass } from '../../src/book/pass.js';
import { Solver } from '../../src/search/solver.js';
import { verifyBook } from '../../src/book/verify-all.js';
import { queryBook } from '../../src/book/query.js';
import { PASS_ENTRY } from '../../src/book/store.js';
import { EXPAND_ZONE } from '../../src/book/pn-tree.js';
import { bookPositionOf } from '../../src/book/canonical.js';
import { TRANSFORMS } from '../../src/core/symmetry.js';
import { BLACK, WHITE } from '../../src/core/types.js';
import { openStore, tempDir } from './helpers.js';
import { options, pt, quiet, verified } from './pass-tree-fixture.js';

let tmp = tempDir();
afterEach(() => {
  tmp.cleanup();
  tmp = tempDir();
});

describe('pass trees', () => {
  test('unfinished pass jobs become trees, nested, and the root is disproven with a /3 certificate the checker accepts', async () => {
    const s = openStore(tmp.file('tree.db'));
    const solver = new Solver();
    const trees: BookJobResult[] = [];
    const r = await buildBook(
      options(s, {
        runJob: async (j) => {
          const x = runBookJob(j, solver);
          if (x.passTree) trees.push(x);
          return x;
        },
      }),
    );
    expect(r).toMatchObject({ stoppedBy: 'done', openRoots: 0, zoneRejected: 0 });
    // the root's own pass job did not finish: its tree holds the pass child and the open reply
    expect(trees[0]!.id).toBe(1);
    expect(trees[0]!.passTree!.zone!.length).toBeGreaterThan(0);
    const root = s.get('freestyle', bookPositionOf(quiet()).key)!;
    expect(root).toMatchObject({ verdict: 'loss', expanded: EXPAND_ZONE });
    const edges = s.children(root.id);
    const pass = edges.find((e) => e.move === PASS_ENTRY)!;
    expect(s.getById(pass.child)).toMatchObject({ verdict: 'win', method: 'pass-child', toMove: BLACK });
    expect(s.proofEntries(root.id).filter((e) => e.move === PASS_ENTRY)).toHaveLength(1);
    // a pass tree below the reply, decided too (the nesting /3 is for)
    const nested = trees.filter((t) => t.id !== 1).map((t) => s.getById(t.id)!);
    expect(nested.some((n) => n.verdict === 'loss' && n.expanded === EXPAND_ZONE)).toBe(true);

    // `book query` lists real replies only
    const q = queryBook(s, quiet());
    expect(q.found && q.verdict).toBe('loss');
    expect(q.found && q.children.length).toBe(edges.length - 1);

    for (const t of TRANSFORMS) {
      const v = verified(s, quiet(t));
      expect(v.result).toBe('verified');
      expect(v.header).toMatch(/"format":"gomoku-proof\/3"/);
    }
    const all = verifyBook(s);
    expect(all.failed + all.unknown).toBe(0);
    expect(all.verified).toBe(all.decided);
    s.close();
  });

  test('a disproof whose certificate fails is refused: the reply it fails on becomes a child, and the node is proven again', async () => {
    const s = openStore(tmp.file('refused.db'));
    const solver = new Solver();
    const r = await buildBook(
      options(s, {
        solveNodes: 20000,
        runJob: async (j) => {
          const x = runBookJob(j, solver);
          // a lying worker: no zone and no repairs, so the replies the repairs covered fail
          if (x.passTree) x.passTree = { ...x.passTree, zone: [], covered: [] };
          return x;
        },
      }),
    );
    expect(r.zoneRejected).toBeGreaterThan(0);
    expect(r).toMatchObject({ stoppedBy: 'done', openRoots: 0 });
    const root = s.get('freestyle', bookPositionOf(quiet()).key)!;
    expect(root).toMatchObject({ verdict: 'loss', expanded: EXPAND_ZONE });
    expect(verified(s, quiet()).result).toBe('verified');
    const all = verifyBook(s);
    expect(all.verified).toBe(all.decided);
    s.close();
  });

  test('a disproof the checker cannot decide in its time is held open, never claimed, and checked again by the next run', async () => {
    const s = openStore(tmp.file('held.db'));
    const solver = new Solver();
    const r = await buildBook(options(s, { solveNodes: 20000, checkPositions: 100, runJob: async (j) => runBookJob(j, solver) }));
    expect(r.zoneHeld).toBeGreaterThan(0);
    expect(r).toMatchObject({ stoppedBy: 'done', openRoots: 1, disproven: 0, zoneRejected: 0 });
    expect(s.get('freestyle', bookPositionOf(quiet()).key)).toMatchObject({ verdict: 'unknown', expanded: EXPAND_ZONE });
    // the next run owes it the check, and with time enough it stands
    const again = await buildBook(options(s, { solveNodes: 20000, runJob: async (j) => runBookJob(j, solver) }));
    expect(again).toMatchObject({ jobs: 0, openRoots: 0, disproven: 1, zoneHeld: 0 });
    expect(verified(s, quiet()).result).toBe('verified');
    s.close();
  });

  test('the coordinator keeps a pass tree only as far as the checker accepts it', () => {
    const b = quiet();
    const job: BookJob = { id: 1, rule: 'freestyle', size: 11, black: b.stones(BLACK), white: b.stones(WHITE), toMove: WHITE, solveNodes: 0, scoreNodes: 0, passNodes: 5000 };
    const p = provePass(quiet(), { nodes: 5000, solver: new Solver() }).partial!;
    const plain = (es: readonly { black: readonly number[]; white: readonly number[]; move: number }[]) => es.map((e) => ({ black: [...e.black], white: [...e.white], move: e.move }));
    const t: PassTree = { passEntries: plain(p.passEntries), zone: p.zone, covered: plain(p.covered), own: p.own.map((o) => ({ move: o.move })) };
    expect(checkedPassTree(job, t)).toEqual(t);
    const first = (e: { black: number[]; white: number[] }) => e.black.length === job.black.length && e.white.length === job.white.length;
    expect(t.passEntries.filter(first)).toHaveLength(1);
    // a pass strategy whose first move is elsewhere proves nothing: the whole is dropped
    const astray = t.passEntries.map((e) => (first(e) ? { ...e, move: pt('a11') } : e));
    expect(checkedPassTree(job, { ...t, passEntries: astray })).toBeUndefined();
    // a reply's entries borrowed from the pass child prove nothing after that reply: it stays open
    const borrowed = { ...t, own: t.own.map((o) => ({ move: o.move, entries: t.passEntries })) };
    expect(checkedPassTree(job, borrowed)!.own.every((o) => o.entries === undefined)).toBe(true);
  });
});
