import { afterEach, describe, expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import Database from 'better-sqlite3';
import { BookStore, SCHEMA_VERSION, PN_INF } from '../../src/book/store.js';
import { boardOf, openStore, putPosition, tempDir } from './helpers.js';

let tmp = tempDir();
afterEach(() => {
  tmp.cleanup();
  tmp = tempDir();
});

describe('BookStore migrations', () => {
  test('a new book is created at the current schema version, in WAL mode', () => {
    const s = openStore(tmp.file('a.db'));
    expect(s.schemaVersion()).toBe(SCHEMA_VERSION);
    expect(s.journalMode()).toBe('wal');
    expect(s.stats().positions).toBe(0);
    s.close();
    // reopening runs no migration again and keeps the data
    const s2 = openStore(tmp.file('a.db'));
    expect(s2.schemaVersion()).toBe(SCHEMA_VERSION);
    s2.close();
  });

  test('an empty SQLite file (user_version 0) is migrated when opened writable, refused read-only', () => {
    const f = tmp.file('empty.db');
    new Database(f).close();
    const ro = BookStore.open(f, { readonly: true });
    expect(ro.ok).toBe(false);
    if (!ro.ok) expect(ro.error).toMatch(/not a gomoku book/);
    const s = openStore(f);
    expect(s.schemaVersion()).toBe(SCHEMA_VERSION);
    s.close();
  });

  test('a book newer than the code is refused with one clear error, writable or not', () => {
    const f = tmp.file('new.db');
    openStore(f).close();
    const db = new Database(f);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    for (const readonly of [false, true]) {
      const r = BookStore.open(f, { readonly });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toBe(`book '${f}' has schema version ${SCHEMA_VERSION + 1}, newer than this program understands (${SCHEMA_VERSION}); use a newer gomoku`);
    }
    // and it was not touched
    const db2 = new Database(f);
    expect(db2.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    db2.close();
  });

  test('a file that is not SQLite is an error value, not an exception', () => {
    const f = tmp.file('junk.db');
    writeFileSync(f, 'this is not a database, just some text that is long enough to have a header'.repeat(20));
    for (const readonly of [false, true]) {
      const r = BookStore.open(f, { readonly });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(/^cannot open book .*not a database/);
    }
    const missing = BookStore.open(tmp.file('missing.db'), { readonly: true });
    expect(missing.ok).toBe(false);
  });
});

describe('BookStore rows', () => {
  test('ensure is idempotent; update, edges, proof entries, state and jobs round-trip', () => {
    const s = openStore(tmp.file('rows.db'));
    const b = boardOf('h8 i9');
    const id = putPosition(s, b, { verdict: 'win', score: 29990, depth: 7, bestMove: 113 });
    const again = s.ensure({ rule: 'freestyle', size: 15, key: s.getById(id)!.key, stones: 2, toMove: 1, opening: 'other' });
    expect(again.id).toBe(id);
    expect(again.opening).toBe('test'); // the first opening kind stays
    const row = s.getById(id)!;
    expect(row).toMatchObject({ verdict: 'win', score: 29990, depth: 7, stones: 2, toMove: 1, nodes: 10, method: 'test', evaluated: 1, expanded: 0 });
    s.update(id, { verdict: 'win', score: 29990, depth: 9, bestMove: row.bestMove, pn: 0, dn: PN_INF, proofSize: 3, addNodes: 5, method: 'vcf', evaluated: 2 });
    expect(s.getById(id)).toMatchObject({ nodes: 15, evaluated: 3, pn: 0, dn: PN_INF, proofSize: 3, depth: 9 });
    const child = s.ensure({ rule: 'freestyle', size: 15, key: '15.w.3g.30', stones: 3, toMove: 2, opening: 'test' });
    s.addEdge(id, 40, child.id);
    s.addEdge(id, 40, child.id); // no duplicate
    expect(s.children(id)).toEqual([{ parent: id, move: 40, child: child.id }]);
    expect(s.parents(child.id)).toEqual([{ parent: id, move: 40, child: child.id }]);
    s.setProofEntries(id, [{ black: '3g', white: '30', move: 5 }]);
    s.setProofEntries(id, [{ black: '3g', white: '30', move: 6 }, { black: '3g3h', white: '3031', move: 7 }]);
    expect(s.proofEntries(id).map((e) => e.move)).toEqual([6, 7]);
    s.setState('config', '{"a":1}');
    s.setState('config', '{"a":2}');
    expect(s.getState('config')).toBe('{"a":2}');
    expect(s.getState('nope')).toBeUndefined();
    s.jobStarted(child.id, 'score', 1);
    expect(s.jobsInFlight()).toEqual([{ position: child.id, kind: 'score', started: 1 }]);
    s.jobFinished(child.id);
    expect(s.jobsInFlight()).toEqual([]);
    const st = s.stats();
    expect(st.positions).toBe(2);
    expect(st.byVerdict).toEqual({ win: 1, loss: 0, draw: 0, unknown: 1 });
    expect(st.byStones).toEqual({ '2': 1, '3': 1 });
    expect(st.proofEntries).toBe(2);
    expect(s.integrityCheck()).toBe('ok');
    s.close();
  });

  test('settle leaves one self-contained file in rollback mode; the next writable open is WAL again', () => {
    const f = tmp.file('settle.db');
    const w = openStore(f);
    putPosition(w, boardOf('h8'), { verdict: 'unknown', score: 2 });
    w.settle();
    expect(w.journalMode()).toBe('delete');
    w.close();
    expect(existsSync(f + '-wal')).toBe(false);
    const r = BookStore.open(f, { readonly: true });
    expect(r.ok && r.value.stats().positions).toBe(1);
    if (r.ok) r.value.close();
    const again = openStore(f);
    expect(again.journalMode()).toBe('wal');
    again.close();
  });

  test('compact drops listed-only children, keeps shared ones and evaluated ones', () => {
    const s = openStore(tmp.file('compact.db'));
    const mk = (key: string, evaluated: boolean) => {
      const r = s.ensure({ rule: 'freestyle', size: 15, key, stones: 1, toMove: 1, opening: 't' });
      if (evaluated) s.update(r.id, { verdict: 'unknown', score: 0, depth: 1, bestMove: null, pn: 1, dn: 1, proofSize: 0, addNodes: 1, method: 's', evaluated: 1 });
      return r.id;
    };
    const a = mk('15.b.00.', true); // all children listed only -> pruned
    const b = mk('15.b.01.', true); // one child evaluated -> kept
    const a1 = mk('15.b.02.', false);
    const a2 = mk('15.b.03.', false); // also a child of b -> row kept
    const b1 = mk('15.b.04.', true);
    s.addEdge(a, 1, a1);
    s.addEdge(a, 2, a2);
    s.addEdge(b, 1, a2);
    s.addEdge(b, 2, b1);
    s.setExpanded(a, 1);
    s.setExpanded(b, 1);
    expect(s.compact()).toEqual({ parents: 1, positions: 1 });
    expect(s.getById(a1)).toBeUndefined();
    expect(s.getById(a2)).toBeDefined();
    expect(s.getById(a)!.expanded).toBe(0);
    expect(s.children(a)).toEqual([]);
    expect(s.children(b).map((e) => e.child)).toEqual([a2, b1]);
    expect(s.getById(b)!.expanded).toBe(1);
    expect(s.integrityCheck()).toBe('ok');
    s.close();
  });

  test('a read-only store reads but cannot write', () => {
    const f = tmp.file('ro.db');
    const w = openStore(f);
    putPosition(w, boardOf('h8'), { verdict: 'unknown', score: -20 });
    w.close();
    const r = BookStore.open(f, { readonly: true });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.stats().positions).toBe(1);
    expect(() => r.value.setState('x', 'y')).toThrow(/readonly/i);
    r.value.close();
  });

  test('WAL: a reader sees the last committed state while a write transaction is open, and is not blocked', () => {
    const f = tmp.file('wal.db');
    const w = openStore(f);
    putPosition(w, boardOf('h8'), { verdict: 'unknown', score: 1 });
    const ro = BookStore.open(f, { readonly: true, busyTimeoutMs: 0 });
    expect(ro.ok).toBe(true);
    if (!ro.ok) return;
    const reader = ro.value;
    let seenInside = -1;
    w.transaction(() => {
      for (let i = 0; i < 50; i++) w.ensure({ rule: 'freestyle', size: 15, key: `15.b.${String(i).padStart(2, '0')}.`, stones: 1, toMove: 1, opening: 't' });
      const t0 = performance.now();
      seenInside = reader.stats().positions; // must not wait for the writer
      expect(performance.now() - t0).toBeLessThan(200);
    });
    expect(seenInside).toBe(1);
    expect(reader.stats().positions).toBe(51);
    reader.close();
    w.close();
  });
});

describe('BookStore writer lock (one builder per book)', () => {
  /** The pid of a process that has exited (and been reaped). */
  const deadPid = (): number => {
    const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    return Number(r.stdout);
  };
  const forge = (s: BookStore, lock: Record<string, unknown>) => s.setState('writer', JSON.stringify({ since: Date.now(), seen: Date.now(), command: 'test', token: 'forged', ...lock }));

  test('a second writer is refused while the first holds the lock, naming it; released, it is free again', () => {
    const f = tmp.file('l.db');
    const a = openStore(f);
    const b = openStore(f);
    expect(a.acquireWriterLock({ command: 'first' })).toEqual({ ok: true, value: {} });
    expect(a.holdsWriterLock()).toBe(true);
    const r = b.acquireWriterLock({ command: 'second' });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.reason).toBe('alive');
      expect(r.error.holder).toMatchObject({ pid: process.pid, host: hostname(), command: 'first' });
      expect(r.error.message).toMatch(new RegExp(`is being built by pid ${process.pid} on host ${hostname()} since .* UTC \\(last active \\d+ s ago; first\\); one builder at a time$`));
    }
    expect(b.stats().builder).toMatchObject({ pid: process.pid, command: 'first' });
    // acquiring again on the holder's own connection is a no-op
    expect(a.acquireWriterLock().ok).toBe(true);
    a.releaseWriterLock();
    expect(b.stats().builder).toBeUndefined();
    expect(b.acquireWriterLock({ command: 'second' }).ok).toBe(true);
    // closing releases it too
    b.close();
    expect(a.writerLock()).toBeUndefined();
    a.close();
  });

  test('the lock of a builder that died is stale and taken over (dead pid, reused pid, another boot)', () => {
    const f = tmp.file('s.db');
    const s = openStore(f);
    const here = hostname();
    for (const lock of [
      { pid: deadPid(), host: here },
      // our own pid, but a different process start time: the pid was reused
      { pid: process.pid, host: here, procStart: '1' },
      { pid: process.pid, host: here, boot: 'another-boot' },
    ]) {
      forge(s, lock);
      const r = s.acquireWriterLock();
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.value.tookOver).toMatchObject(lock);
      expect(s.writerLock()).toMatchObject({ pid: process.pid, host: here });
      s.releaseWriterLock();
    }
    s.close();
  });

  test("another host's lock cannot be probed: refused with the override named; force takes it", () => {
    const s = openStore(tmp.file('r.db'));
    forge(s, { pid: 4242, host: 'elsewhere.example', seen: Date.now() - 600_000 });
    const r = s.acquireWriterLock();
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.reason).toBe('remote');
      expect(r.error.message).toMatch(/by pid 4242 on host elsewhere\.example since .*last active 10 min ago.*cannot tell whether that build still runs: if it does not, run again with --force-unlock$/);
    }
    const f = s.acquireWriterLock({ force: true });
    expect(f.ok && f.value.tookOver?.host).toBe('elsewhere.example');
    // the forced-out holder's token no longer matches: its release would leave our lock alone
    expect(s.holdsWriterLock()).toBe(true);
    s.close();
  });

  test('a book busy beyond the busy timeout (another connection writing) is refused, not an exception', () => {
    const f = tmp.file('b.db');
    openStore(f).close();
    const raw = new Database(f);
    raw.exec('BEGIN IMMEDIATE');
    const opened = BookStore.open(f, { busyTimeoutMs: 50 });
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    const r = opened.value.acquireWriterLock();
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ reason: 'busy', message: expect.stringMatching(/is busy: another process is writing it; try again later$/) });
    raw.exec('ROLLBACK');
    raw.close();
    opened.value.close();
  });
});
