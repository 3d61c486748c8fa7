/**
 * Pass jobs in a real book (issue 24): a loser-to-move node the solve leaves unknown is proven
 * lost by pass and zone (book/pass.ts), stored with its pass entry and zone, and `book proof`
 * / `book verify` turn it into a gomoku-proof/2 certificate that the checker accepts, in any
 * orientation. Built on 11x11 from a position made here.
 */
import { afterEach, describe, expect, test } from 'vitest';
import Database from 'better-sqlite3';
import { buildBook, type BuildOptions } from '../../src/book/builder.js';
import { assembleProof } from '../../src/book/proof.js';
import { verifyBook } from '../../src/book/verify-all.js';
import { queryBook } from '../../src/book/query.js';
import { BookStore, PASS_ENTRY, SCHEMA_VERSION, type BookStore as Store } from '../../src/book/store.js';
import { bookPositionOf } from '../../src/book/canonical.js';
import { TRANSFORMS, transformPoint, transformPoints } from '../../src/core/symmetry.js';
import { Board } from '../../src/core/board.js';
import { BLACK, WHITE } from '../../src/core/types.js';
import { openStore, tempDir } from './helpers.js';
import { proofRejection, runBookJob, type BookJob } from '../../src/book/job.js';
import { options as treeOptions, quiet, verified as treeVerified } from './pass-tree-fixture.js';

let tmp = tempDir();
afterEach(() => {
  tmp.cleanup();
  tmp = tempDir();
});

// one job, no pass jobs unless asked: 2,000 nodes are too little for the plain solver to
// refute White's ~115 replies (it needs about 50k)
const options = (store: Store, over: Partial<BuildOptions> = {}): BuildOptions => treeOptions(store, { budget: { jobs: 1 }, passFor: undefined, passNodes: undefined, ...over });
const verified = (store: Store, b: Board): string => treeVerified(store, b).result;

describe('pass jobs', () => {
  test('one job proves the quiet root lost for White; the old builder on the same budget leaves it open', async () => {
    const old = openStore(tmp.file('old.db'));
    const before = await buildBook(options(old));
    expect(before.jobs).toBe(1);
    expect(queryBook(old, quiet())).toMatchObject({ found: true, verdict: 'unknown' });
    old.close();

    const s = openStore(tmp.file('pass.db'));
    const r = await buildBook(options(s, { passFor: WHITE, passNodes: 100000 }));
    expect(r).toMatchObject({ jobs: 1, disproven: 1 });
    const q = queryBook(s, quiet());
    expect(q).toMatchObject({ found: true, verdict: 'loss', method: 'pass' });
    const row = s.get('freestyle', bookPositionOf(quiet()).key)!;
    const stored = s.proofEntries(row.id);
    expect(stored.filter((e) => e.move === PASS_ENTRY)).toHaveLength(1);
    expect(q.found && q.proofSize).toBe(stored.length);

    // the certificate: /2, its zone mapped into every orientation the caller may ask in
    const proof = assembleProof(s, quiet());
    expect(proof.ok && proof.value.passes).toBe(1);
    expect(proof.ok && proof.value.certificate.split('\n')[0]).toMatch(/gomoku-proof\/2/);
    for (const t of TRANSFORMS) {
      const b = new Board(11, 'freestyle');
      for (const p of quiet().stones(BLACK)) b.put(transformPoint(t, p, 11), BLACK);
      for (const p of quiet().stones(WHITE)) b.put(transformPoint(t, p, 11), WHITE);
      b.setToMove(WHITE);
      expect(verified(s, b)).toBe('verified');
    }
    expect(verifyBook(s)).toMatchObject({ decided: 1, verified: 1, failed: 0, unknown: 0 });
    s.close();
  });

  test('a tampered stored zone fails `book verify`', async () => {
    const s = openStore(tmp.file('t.db'));
    // no plain solve (this thread's solver has learned from the test above): the pass job only
    await buildBook(options(s, { passFor: WHITE, passNodes: 100000, solveNodes: 0 }));
    const row = s.get('freestyle', bookPositionOf(quiet()).key)!;
    const entries = s.proofEntries(row.id);
    expect(entries.filter((e) => e.move === PASS_ENTRY && e.zone!.length === 6)).toHaveLength(1);
    s.setProofEntries(
      row.id,
      entries.map((e) => (e.move === PASS_ENTRY ? { ...e, zone: e.zone!.slice(2) } : e)),
    );
    const rep = verifyBook(s);
    expect(rep).toMatchObject({ decided: 1, verified: 0, failed: 1 });
    expect(rep.failures[0]!.reason).toMatch(/misses 1 supporting cell/);
    s.close();
  });

  test('a pass job that settles nothing runs again with 3x the nodes spent, up to --pass-max-nodes, before the replies are listed', async () => {
    // the first pass job (1 node) is made to fail: it runs without its pass attempt
    const jobs: BookJob[] = [];
    const spent: number[] = [];
    const run = async (j: BookJob) => {
      jobs.push(j);
      const r = runBookJob(j.passNodes === 1 ? { ...j, passNodes: 0 } : j);
      spent.push(r.nodes);
      return r;
    };
    // the score job's nodes set the retry's budget: 3 x 10,000 is enough for the whole proof
    // (about 20k) in any orientation
    const tiny = { passFor: WHITE, passNodes: 1, solveNodes: 0, scoreNodes: 10000, budget: { jobs: 6 }, runJob: run } as const;
    const rootKey = bookPositionOf(quiet()).key;

    // without a maximum: one pass job, then the root lists its replies
    const old = openStore(tmp.file('once.db'));
    await buildBook(options(old, tiny));
    const oldRoot = old.get('freestyle', rootKey)!;
    expect(old.children(oldRoot.id).length).toBeGreaterThan(10);
    expect(jobs.filter((j) => j.id === oldRoot.id)).toHaveLength(1);
    old.close();

    jobs.length = 0;
    const s = openStore(tmp.file('retry.db'));
    const r = await buildBook(options(s, { ...tiny, passMaxNodes: 1_000_000 }));
    const root = s.get('freestyle', rootKey)!;
    const onRoot = jobs.flatMap((j, i) => (j.id === root.id ? [{ job: j, nodes: spent[i]! }] : []));
    expect(onRoot).toHaveLength(2);
    expect(onRoot[0]!.job).toMatchObject({ passNodes: 1, scoreNodes: 10000 });
    // the second: pass only, with three times what the first took, in another orientation
    // (its result comes back turned: the certificate checks below verify it)
    expect(onRoot[1]!.job).toMatchObject({ solveNodes: 0, scoreNodes: 0, passNodes: 3 * onRoot[0]!.nodes, orient: 1 + (onRoot[0]!.nodes % 7) });
    // proven by pass (as a whole or as a tree), not by listing every reply
    expect(r.disproven).toBeGreaterThan(0);
    expect(queryBook(s, quiet())).toMatchObject({ found: true, verdict: 'loss' });
    expect(s.children(root.id).length).toBeLessThan(10);
    expect(treeVerified(s, quiet()).result).toBe('verified');
    s.close();
  });

  test('a pass job in another orientation answers in the orientation of the job: its pass entry and zone verify there', () => {
    const b = quiet();
    const base: BookJob = { id: 3, rule: 'freestyle', size: 11, black: b.stones(BLACK), white: b.stones(WHITE), toMove: WHITE, solveNodes: 0, scoreNodes: 0, passNodes: 100000 };
    for (const orient of [0, 1, 4, 7] as const) {
      const r = runBookJob({ ...base, orient });
      expect(r).toMatchObject({ verdict: 'loss', method: 'pass' });
      expect(r.passes!.length).toBeGreaterThan(0);
      expect(proofRejection(base, r)).toBeUndefined();
      if (orient === 4) {
        // the same result left unturned does not verify for the job's stones
        const turned = runBookJob({ ...base, black: transformPoints(4, base.black, 11), white: transformPoints(4, base.white, 11) });
        expect(proofRejection(base, turned)).toBeDefined();
      }
    }
  });

  test('a version-1 book is read as it is, and upgraded to version 2 when opened writable', () => {
    const f = tmp.file('v1.db');
    const s = openStore(f);
    s.close();
    // make it a version-1 book: no zone column
    const db = new Database(f);
    db.exec('CREATE TABLE pe1 AS SELECT position, black, white, move FROM proof_entries; DROP TABLE proof_entries; ALTER TABLE pe1 RENAME TO proof_entries;');
    db.pragma('user_version = 1');
    db.close();
    const ro = BookStore.open(f, { readonly: true });
    expect(ro.ok).toBe(true);
    if (ro.ok) {
      expect(ro.value.proofEntries(1)).toEqual([]);
      expect(ro.value.schemaVersion()).toBe(1);
      ro.value.close();
    }
    const rw = openStore(f);
    expect(rw.schemaVersion()).toBe(SCHEMA_VERSION);
    rw.close();
  });
});
