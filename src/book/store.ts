/**
 * The opening book on disk: ALL of the book's SQL lives in this file (better-sqlite3).
 *
 * Policy:
 *  - pragmas are set in one place (`applyPragmas`): WAL (readers never block the writer and
 *    the other way round, so `book query` works while a build runs), synchronous NORMAL
 *    (a crash may lose the last transactions, never corrupt the file), foreign keys on,
 *    a busy timeout for readers that meet a checkpoint;
 *  - the schema is a list of numbered migrations; `PRAGMA user_version` is the number
 *    applied. A book written by a newer program (user_version > MIGRATIONS.length) is refused
 *    with one clear error; an older one is migrated when opened writable;
 *  - statements are prepared once, in the constructor;
 *  - writes come in batches inside one transaction (`transaction(fn)`), the builder's main
 *    thread being the only writer.
 *
 * Layout (schema version 2):
 *  positions     one row per canonical position (rule + canonical key, see core/symmetry.ts).
 *                verdict is from the side to move; best_move and every other move is stored in
 *                the canonical orientation (book/canonical.ts maps them to the caller's);
 *                pn/dn are the job-level proof/disproof numbers for the side to move
 *                (PN_INF = proven/disproven); evaluated is a bit set of the jobs run on the
 *                position (EVAL_SCORED, EVAL_SOLVED).
 *  edges         the opening tree: parent -> child with the move, canonical in the parent's
 *                orientation (the child's own orientation is found by canonicalising again);
 *                move PASS_ENTRY leads to a pass child (the same stones, the other side to
 *                move) of a pass-tree node (expanded = 3, pn-tree.ts EXPAND_ZONE).
 *  proof_entries the solver's strategy entries for a proven position, canonical orientation
 *                of that position (stone lists as in core/symmetry.ts key encoding); since
 *                version 2 also its pass entries (move PASS_ENTRY, with the zone's cells).
 *                A pass-tree node, decided or not, holds its pass entry and repairs here.
 *  build_state   name -> JSON text: build configurations, counters, and the writer lock
 *                (`writer`: the one process building the book, see `acquireWriterLock`).
 *  jobs          jobs handed to workers and not yet written back (rerun after a crash).
 */
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Color, Rule, Result } from '../core/types.js';
import { err, ok } from '../core/types.js';
import type { Verdict } from '../search/types.js';

export const PN_INF = 1_000_000_000;
export const EVAL_SCORED = 1;
export const EVAL_SOLVED = 2;

const MIGRATIONS: readonly string[] = [
  // 1: initial schema
  `
  CREATE TABLE positions (
    id          INTEGER PRIMARY KEY,
    rule        TEXT    NOT NULL,
    size        INTEGER NOT NULL,
    key         TEXT    NOT NULL,
    stones      INTEGER NOT NULL,
    to_move     INTEGER NOT NULL CHECK (to_move IN (1, 2)),
    opening     TEXT    NOT NULL DEFAULT '',
    verdict     TEXT    NOT NULL DEFAULT 'unknown' CHECK (verdict IN ('win', 'loss', 'draw', 'unknown')),
    score       INTEGER NOT NULL DEFAULT 0,
    depth       INTEGER NOT NULL DEFAULT 0,
    best_move   INTEGER,
    pn          INTEGER NOT NULL DEFAULT 1,
    dn          INTEGER NOT NULL DEFAULT 1,
    proof_size  INTEGER NOT NULL DEFAULT 0,
    nodes       INTEGER NOT NULL DEFAULT 0,
    method      TEXT,
    evaluated   INTEGER NOT NULL DEFAULT 0,
    expanded    INTEGER NOT NULL DEFAULT 0,
    created     INTEGER NOT NULL,
    updated     INTEGER NOT NULL,
    UNIQUE (rule, key)
  );
  CREATE INDEX positions_by_opening ON positions (opening, stones);
  CREATE TABLE edges (
    parent  INTEGER NOT NULL REFERENCES positions (id) ON DELETE CASCADE,
    move    INTEGER NOT NULL,
    child   INTEGER NOT NULL REFERENCES positions (id) ON DELETE CASCADE,
    PRIMARY KEY (parent, move)
  ) WITHOUT ROWID;
  CREATE INDEX edges_by_child ON edges (child);
  CREATE TABLE proof_entries (
    position INTEGER NOT NULL REFERENCES positions (id) ON DELETE CASCADE,
    black    TEXT    NOT NULL,
    white    TEXT    NOT NULL,
    move     INTEGER NOT NULL
  );
  CREATE INDEX proof_entries_by_position ON proof_entries (position);
  CREATE TABLE build_state (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE jobs (
    position INTEGER PRIMARY KEY REFERENCES positions (id) ON DELETE CASCADE,
    kind     TEXT    NOT NULL,
    started  INTEGER NOT NULL
  );
  `,
  // 2: pass entries (formats.md 3.1-3.2) among a position's strategy entries: move -1, and the
  // zone's cells encoded like the stones (NULL: a pass entry without a zone, or a move entry)
  `
  ALTER TABLE proof_entries ADD COLUMN zone TEXT;
  `,
];

/** The schema version this code writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length;

export interface NewPosition {
  rule: Rule;
  size: number;
  key: string;
  stones: number;
  toMove: Color;
  opening: string;
}

export interface PositionRow extends NewPosition {
  id: number;
  verdict: Verdict;
  score: number;
  depth: number;
  /** Canonical orientation; null when the book has no move. */
  bestMove: number | null;
  pn: number;
  dn: number;
  proofSize: number;
  nodes: number;
  method: string | null;
  evaluated: number;
  /** 0 not expanded, 1 near moves listed, 2 every move listed (see pn-tree.ts). */
  expanded: number;
  created: number;
  updated: number;
}

/** What a job found out about one position (all fields written together). */
export interface PositionUpdate {
  verdict: Verdict;
  score: number;
  depth: number;
  bestMove: number | null;
  pn: number;
  dn: number;
  proofSize: number;
  /** Added to the nodes already spent on the position. */
  addNodes: number;
  method: string | null;
  /** Or-ed into the evaluated bit set. */
  evaluated: number;
}

export interface EdgeRow {
  parent: number;
  move: number;
  child: number;
}

export interface ProofEntryRow {
  /** Encoded stone lists (core/symmetry.ts encoding), canonical orientation of the position. */
  black: string;
  white: string;
  /** The winner's move, or PASS_ENTRY for a pass entry (the loser to move at these stones). */
  move: number;
  /** A pass entry's zone, encoded like the stones; null (or absent) when it has none. */
  zone?: string | null;
}

/** The `move` of a stored pass entry (schema version 2). */
export const PASS_ENTRY = -1;

export interface BookStats {
  positions: number;
  byVerdict: Record<Verdict, number>;
  byOpening: Record<string, number>;
  /** Stone count (depth in the opening tree) -> positions. */
  byStones: Record<string, number>;
  /** Search depth -> positions (evaluated positions only). */
  byDepth: Record<string, number>;
  proofEntries: number;
  nodes: number;
  jobsInFlight: number;
  /** The writer lock's holder, when a build runs (or died without releasing it). */
  builder?: LockHolder;
}

export interface OpenOptions {
  readonly?: boolean;
  /** Milliseconds to wait for a lock (default 5000). */
  busyTimeoutMs?: number;
}

interface RawRow {
  id: number;
  rule: string;
  size: number;
  key: string;
  stones: number;
  to_move: number;
  opening: string;
  verdict: string;
  score: number;
  depth: number;
  best_move: number | null;
  pn: number;
  dn: number;
  proof_size: number;
  nodes: number;
  method: string | null;
  evaluated: number;
  expanded: number;
  created: number;
  updated: number;
}

function fromRaw(r: RawRow): PositionRow {
  return {
    id: r.id,
    rule: r.rule as Rule,
    size: r.size,
    key: r.key,
    stones: r.stones,
    toMove: r.to_move as Color,
    opening: r.opening,
    verdict: r.verdict as Verdict,
    score: r.score,
    depth: r.depth,
    bestMove: r.best_move,
    pn: r.pn,
    dn: r.dn,
    proofSize: r.proof_size,
    nodes: r.nodes,
    method: r.method,
    evaluated: r.evaluated,
    expanded: r.expanded,
    created: r.created,
    updated: r.updated,
  };
}

function applyPragmas(db: Database.Database, readonly: boolean, busyTimeoutMs: number): void {
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  if (!readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  db.pragma('foreign_keys = ON');
}

function migrate(db: Database.Database, from: number): void {
  for (let v = from; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

/** The build_state row of the writer lock. */
const WRITER_LOCK = 'writer';

/** Who holds a book's writer lock (stored as JSON in build_state). */
export interface LockHolder {
  pid: number;
  host: string;
  /** ms since the epoch when the lock was taken. */
  since: number;
  /** ms since the epoch of the holder's last sign of life (it refreshes the lock as it works). */
  seen: number;
  /** What the holder runs, for the message (e.g. `gomoku book build --book x.db ...`). */
  command: string;
  /** Linux: the kernel's boot id and the process start time, so a reused pid is not taken for the holder. */
  boot?: string;
  procStart?: string;
}

interface StoredLock extends LockHolder {
  token: string;
}

/** Why a writer lock was refused: held by a live process here, or by a process on another host. */
export interface LockRefusal {
  holder: LockHolder;
  /** `alive`: the holder runs on this host; `remote`: another host, which this one cannot probe. */
  reason: 'alive' | 'remote' | 'busy';
  message: string;
}

export interface AcquireOptions {
  /** Take the lock even from a holder that looks alive or runs elsewhere (`--force-unlock`). */
  force?: boolean;
  command?: string;
  now?: number;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

const bootId = (): string | undefined => readText('/proc/sys/kernel/random/boot_id')?.trim();

/**
 * Linux: /proc/PID/stat's state (field 3) and start time in clock ticks since boot (field
 * 22), read after the `(comm)` field, which may hold spaces.
 */
function procStat(pid: number): { state: string; start: string } | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: f[0] ?? '', start: f[19] ?? '' };
}

const processStart = (pid: number): string | undefined => procStat(pid)?.start;

/** Is the holder (on this host) still running? A reboot or a reused pid means it is not. */
function holderAlive(h: LockHolder): boolean {
  const boot = bootId();
  if (h.boot !== undefined && boot !== undefined && h.boot !== boot) return false;
  try {
    process.kill(h.pid, 0);
  } catch (e) {
    // EPERM: a process of another user has that pid, so something is alive there
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const st = procStat(h.pid);
  // a zombie (killed, not yet reaped by its parent) answers kill(pid, 0) but builds nothing
  if (st && (st.state === 'Z' || st.state === 'X')) return false;
  if (h.procStart !== undefined && st !== undefined && st.start !== h.procStart) return false;
  return true;
}

function when(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 120 ? `${s} s` : s < 7200 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h`;
}

/** One line about the holder: `pid 1234 on host h since 2026-11-26 12:00:03 UTC (last active 4 s ago; gomoku book build ...)`. */
export function describeHolder(h: LockHolder, now = Date.now()): string {
  return `pid ${h.pid} on host ${h.host} since ${when(h.since)} (last active ${ago(now - h.seen)} ago${h.command ? `; ${h.command}` : ''})`;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class BookStore {
  readonly path: string;
  readonly readonly: boolean;
  private readonly db: Database.Database;
  private readonly st: ReturnType<typeof prepare>;
  /** Set while this connection holds the writer lock. */
  private lockToken: string | undefined;

  private constructor(db: Database.Database, path: string, readonly: boolean) {
    this.db = db;
    this.path = path;
    this.readonly = readonly;
    this.st = prepare(db, readonly, Number(db.pragma('user_version', { simple: true })));
  }

  /**
   * Open (or, when writable, create) a book. Errors are values: a file that is not an
   * SQLite database, a book newer than this code, a read-only open of a missing or
   * unmigrated book.
   */
  static open(path: string, opts: OpenOptions = {}): Result<BookStore> {
    const readonly = opts.readonly === true;
    let db: Database.Database | undefined;
    try {
      db = new Database(path, { readonly, fileMustExist: readonly });
      applyPragmas(db, readonly, opts.busyTimeoutMs ?? 5000);
      const version = Number(db.pragma('user_version', { simple: true }));
      if (version > SCHEMA_VERSION) {
        db.close();
        return err(`book '${path}' has schema version ${version}, newer than this program understands (${SCHEMA_VERSION}); use a newer gomoku`);
      }
      if (version < SCHEMA_VERSION) {
        // version 2 only added a nullable column: a version-1 book is read as it is (the
        // shipped book is opened read-only by every `move` and `book query`)
        if (readonly && version !== 1) {
          db.close();
          return err(version === 0 ? `'${path}' is not a gomoku book` : `book '${path}' has schema version ${version}; open it once writable to upgrade it to ${SCHEMA_VERSION}`);
        }
        if (!readonly) migrate(db, version);
      }
      return ok(new BookStore(db, path, readonly));
    } catch (e) {
      try {
        db?.close();
      } catch {
        // already unusable
      }
      return err(`cannot open book '${path}': ${message(e)}`);
    }
  }

  close(): void {
    if (!this.db.open) return;
    try {
      this.releaseWriterLock();
    } catch {
      // closing must not fail; a lock left behind is stale once this process is gone
    }
    this.db.close();
  }

  /**
   * Become the book's only writer. A book has one builder at a time: a second one would clear
   * the first one's jobs in flight as crashed work and hand out the same jobs. The lock is a
   * build_state row written in an IMMEDIATE transaction (so two builders cannot both see the
   * book free). A lock whose holder is gone (same host: the pid is dead, reused, or the
   * machine rebooted) is stale and taken over; `tookOver` says from whom. A holder on another
   * host cannot be probed from here: that is refused unless `force`.
   */
  acquireWriterLock(o: AcquireOptions = {}): Result<{ tookOver?: LockHolder }, LockRefusal> {
    const now = o.now ?? Date.now();
    const mine: StoredLock = {
      pid: process.pid,
      host: hostname(),
      since: now,
      seen: now,
      command: o.command ?? '',
      token: randomUUID(),
    };
    const boot = bootId();
    const start = processStart(process.pid);
    if (boot !== undefined) mine.boot = boot;
    if (start !== undefined) mine.procStart = start;
    const attempt = (): Result<{ tookOver?: LockHolder }, LockRefusal> => {
      const held = this.readLock();
      if (held && held.token === this.lockToken) return ok({});
      if (held && !o.force) {
        const who = describeHolder(held, now);
        if (held.host !== mine.host) {
          return err({
            holder: held,
            reason: 'remote',
            message: `book '${this.path}' is being built by ${who}; this host cannot tell whether that build still runs: if it does not, run again with --force-unlock`,
          });
        }
        if (holderAlive(held)) return err({ holder: held, reason: 'alive', message: `book '${this.path}' is being built by ${who}; one builder at a time` });
      }
      this.st.setState.run(WRITER_LOCK, JSON.stringify(mine));
      this.lockToken = mine.token;
      return ok(held ? { tookOver: held } : {});
    };
    try {
      return this.db.transaction(attempt).immediate();
    } catch (e) {
      // Another connection holds the write lock longer than the busy timeout (a VACUUM at the
      // end of a build, say): name the builder when the book says who it is.
      if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e;
      const held = this.readLock();
      const holder: LockHolder = held ?? { pid: 0, host: '?', since: now, seen: now, command: '' };
      return err({
        holder,
        reason: 'busy',
        message: `book '${this.path}' is busy: another process is writing it${held ? ` (the builder: ${describeHolder(held, now)})` : ''}; try again later`,
      });
    }
  }

  /** Refresh the lock's `seen` time (a sign of life for a builder on another host to read). */
  touchWriterLock(now = Date.now()): void {
    const held = this.readLock();
    if (!held || held.token !== this.lockToken) return;
    this.st.setState.run(WRITER_LOCK, JSON.stringify({ ...held, seen: now }));
  }

  /** Give the lock up (only if it is still ours: a --force-unlock may have taken it). */
  releaseWriterLock(): void {
    if (this.lockToken === undefined || !this.db.open) return;
    const token = this.lockToken;
    this.lockToken = undefined;
    this.transaction(() => {
      if (this.readLock()?.token === token) this.st.deleteState.run(WRITER_LOCK);
    });
  }

  holdsWriterLock(): boolean {
    return this.lockToken !== undefined && this.readLock()?.token === this.lockToken;
  }

  /** Who holds the writer lock, if anyone (as stored; it may be stale). */
  writerLock(): LockHolder | undefined {
    const l = this.readLock();
    if (!l) return undefined;
    const { token: _token, ...holder } = l;
    return holder;
  }

  private readLock(): StoredLock | undefined {
    const v = this.getState(WRITER_LOCK);
    if (v === undefined) return undefined;
    try {
      const l = JSON.parse(v) as StoredLock;
      return typeof l.pid === 'number' && typeof l.token === 'string' ? l : undefined;
    } catch {
      return undefined;
    }
  }

  /** Run `fn` in one write transaction (nested calls join the outer one). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /**
   * Open a write transaction that the transactions run until `commitGroup` join (as
   * savepoints): a group commit, one WAL commit for many small changes (the queue's
   * coordinator applies results in bursts). A crash loses the open group, never half of it.
   */
  beginGroup(): void {
    if (!this.db.inTransaction) this.db.exec('BEGIN IMMEDIATE');
  }

  commitGroup(): void {
    if (this.db.inTransaction) this.db.exec('COMMIT');
  }

  get(rule: Rule, key: string): PositionRow | undefined {
    const r = this.st.getByKey.get(rule, key) as RawRow | undefined;
    return r ? fromRaw(r) : undefined;
  }

  /**
   * The compact lookup used by the runtime probe: only the fields a BookHit needs, and only
   * for positions the book knows something about (a row listed by an expansion but never
   * evaluated or decided is no hit).
   */
  lookup(rule: Rule, key: string): { verdict: Verdict; score: number; depth: number; bestMove: number | null } | undefined {
    const r = this.st.lookup.get(rule, key) as { verdict: Verdict; score: number; depth: number; best_move: number | null } | undefined;
    return r ? { verdict: r.verdict, score: r.score, depth: r.depth, bestMove: r.best_move } : undefined;
  }

  getById(id: number): PositionRow | undefined {
    const r = this.st.getById.get(id) as RawRow | undefined;
    return r ? fromRaw(r) : undefined;
  }

  /**
   * Insert a position the caller just found absent (in the same transaction); returns its row
   * id without reading the row back (the builder's expansions: one statement a new child).
   */
  insertAbsent(p: NewPosition, now = Date.now()): number {
    const r = this.st.insertIgnore.run(p.rule, p.size, p.key, p.stones, p.toMove, p.opening, now, now);
    return r.changes === 1 ? Number(r.lastInsertRowid) : this.get(p.rule, p.key)!.id;
  }

  /** Insert the position unless it is there; returns its row either way. */
  ensure(p: NewPosition, now = Date.now()): PositionRow {
    this.st.insertIgnore.run(p.rule, p.size, p.key, p.stones, p.toMove, p.opening, now, now);
    return this.get(p.rule, p.key)!;
  }

  update(id: number, u: PositionUpdate, now = Date.now()): void {
    this.st.update.run(u.verdict, u.score, u.depth, u.bestMove, u.pn, u.dn, u.proofSize, u.addNodes, u.method, u.evaluated, now, id);
  }

  /** Only the proof-number fields (back-propagation in the builder). */
  updateProofNumbers(id: number, pn: number, dn: number, verdict: Verdict, bestMove: number | null, score: number, proofSize: number, now = Date.now()): void {
    this.st.updatePn.run(pn, dn, verdict, bestMove, score, proofSize, now, id);
  }

  setExpanded(id: number, stage: number): void {
    this.st.setExpanded.run(stage, id);
  }

  addEdge(parent: number, move: number, child: number): void {
    this.st.addEdge.run(parent, move, child);
  }

  children(parent: number): EdgeRow[] {
    return this.st.children.all(parent) as EdgeRow[];
  }

  parents(child: number): EdgeRow[] {
    return this.st.parents.all(child) as EdgeRow[];
  }

  allEdges(): EdgeRow[] {
    return this.st.allEdges.all() as EdgeRow[];
  }

  /** Replace the stored strategy entries of a position. */
  setProofEntries(position: number, entries: readonly ProofEntryRow[]): void {
    this.transaction(() => {
      this.st.deleteEntries.run(position);
      for (const e of entries) this.st.addEntry.run(position, e.black, e.white, e.move, e.zone ?? null);
    });
  }

  proofEntries(position: number): ProofEntryRow[] {
    return this.st.entries.all(position) as ProofEntryRow[];
  }

  /**
   * Every position, in id order (for export); a lazy iterator. Run it to the end (or break
   * out of a for-of, which closes it): an abandoned iterator keeps the connection busy.
   */
  *positions(filter: { rule?: Rule; size?: number; opening?: string } = {}): IterableIterator<PositionRow> {
    for (const r of this.st.allPositions.iterate() as IterableIterator<RawRow>) {
      if (filter.rule !== undefined && r.rule !== filter.rule) continue;
      if (filter.size !== undefined && r.size !== filter.size) continue;
      if (filter.opening !== undefined && r.opening !== filter.opening) continue;
      yield fromRaw(r);
    }
  }

  getState(name: string): string | undefined {
    const r = this.st.getState.get(name) as { value: string } | undefined;
    return r?.value;
  }

  setState(name: string, value: string): void {
    this.st.setState.run(name, value);
  }

  jobStarted(position: number, kind: string, now = Date.now()): void {
    this.st.jobStarted.run(position, kind, now);
  }

  jobFinished(position: number): void {
    this.st.jobFinished.run(position);
  }

  jobsInFlight(): { position: number; kind: string; started: number }[] {
    return this.st.jobs.all() as { position: number; kind: string; started: number }[];
  }

  clearJobs(): void {
    this.st.clearJobs.run();
  }

  stats(): BookStats {
    const byVerdict: Record<Verdict, number> = { win: 0, loss: 0, draw: 0, unknown: 0 };
    for (const r of this.st.countByVerdict.all() as { verdict: Verdict; n: number }[]) byVerdict[r.verdict] = r.n;
    const group = (rows: { k: string | number; n: number }[]) => {
      const o: Record<string, number> = {};
      for (const r of rows) o[String(r.k)] = r.n;
      return o;
    };
    const totals = this.st.totals.get() as { n: number; nodes: number | null };
    const out: BookStats = {
      positions: totals.n,
      byVerdict,
      byOpening: group(this.st.countByOpening.all() as { k: string; n: number }[]),
      byStones: group(this.st.countByStones.all() as { k: number; n: number }[]),
      byDepth: group(this.st.countByDepth.all() as { k: number; n: number }[]),
      proofEntries: (this.st.countEntries.get() as { n: number }).n,
      nodes: totals.nodes ?? 0,
      jobsInFlight: (this.st.countJobs.get() as { n: number }).n,
    };
    const builder = this.writerLock();
    if (builder) out.builder = builder;
    return out;
  }

  /**
   * Drop what an expansion only listed: for every node whose children are ALL unevaluated,
   * undecided, unexpanded rows, remove its edges and mark it unexpanded again (the builder
   * lists them again when it needs them), then delete such rows that no edge points to any
   * more. A child that another, still expanded parent lists stays, so no expanded node ever
   * loses a child (which could turn an incomplete list into a false disproof). Then VACUUM.
   */
  compact(): { parents: number; positions: number } {
    const r = this.transaction(() => {
      const parents = this.st.pruneParents.all() as { parent: number }[];
      for (const { parent } of parents) {
        this.st.deleteEdgesFrom.run(parent);
        this.st.setExpanded.run(0, parent);
      }
      const deleted = this.st.deleteOrphanLeaves.run().changes;
      return { parents: parents.length, positions: deleted };
    });
    this.db.exec('VACUUM');
    return r;
  }

  /** `PRAGMA integrity_check`: 'ok' or the problems found. */
  integrityCheck(): string {
    const rows = this.db.pragma('integrity_check') as { integrity_check: string }[];
    return rows.map((r) => r.integrity_check).join('; ');
  }

  schemaVersion(): number {
    return Number(this.db.pragma('user_version', { simple: true }));
  }

  journalMode(): string {
    return String(this.db.pragma('journal_mode', { simple: true }));
  }

  /**
   * Fold the WAL into the main file and leave the file in rollback-journal mode, so a
   * shipped book is one self-contained file that read-only users (even in a read-only
   * directory, where WAL's -shm file cannot be made) can open. The next writable open
   * switches back to WAL. Best effort: with other connections open it stays in WAL mode.
   */
  settle(): void {
    if (this.readonly) return;
    try {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
      this.db.pragma('journal_mode = DELETE');
    } catch {
      // a reader holds the WAL open: leave it as it is
    }
  }
}

function prepare(db: Database.Database, readonly: boolean, version: number) {
  // a version-1 book (read-only) has no zone column: its entries are all move entries
  const v1 = version < 2;
  const read = {
    getByKey: db.prepare('SELECT * FROM positions WHERE rule = ? AND key = ?'),
    lookup: db.prepare("SELECT verdict, score, depth, best_move FROM positions WHERE rule = ? AND key = ? AND (evaluated <> 0 OR verdict <> 'unknown')"),
    getById: db.prepare('SELECT * FROM positions WHERE id = ?'),
    children: db.prepare('SELECT parent, move, child FROM edges WHERE parent = ? ORDER BY move'),
    parents: db.prepare('SELECT parent, move, child FROM edges WHERE child = ?'),
    allEdges: db.prepare('SELECT parent, move, child FROM edges'),
    entries: db.prepare(`SELECT black, white, move, ${v1 ? 'NULL AS' : ''} zone FROM proof_entries WHERE position = ? ORDER BY rowid`),
    allPositions: db.prepare('SELECT * FROM positions ORDER BY id'),
    getState: db.prepare('SELECT value FROM build_state WHERE name = ?'),
    jobs: db.prepare('SELECT position, kind, started FROM jobs ORDER BY started'),
    countByVerdict: db.prepare('SELECT verdict, count(*) AS n FROM positions GROUP BY verdict'),
    countByOpening: db.prepare("SELECT opening AS k, count(*) AS n FROM positions GROUP BY opening"),
    countByStones: db.prepare('SELECT stones AS k, count(*) AS n FROM positions GROUP BY stones ORDER BY stones'),
    countByDepth: db.prepare('SELECT depth AS k, count(*) AS n FROM positions WHERE evaluated <> 0 GROUP BY depth ORDER BY depth'),
    countEntries: db.prepare('SELECT count(*) AS n FROM proof_entries'),
    countJobs: db.prepare('SELECT count(*) AS n FROM jobs'),
    totals: db.prepare('SELECT count(*) AS n, sum(nodes) AS nodes FROM positions'),
  };
  // write statements prepare fine on a read-only connection; running one fails (SQLITE_READONLY)
  void readonly;
  return { ...read, ...prepareWrites(db, v1) };
}

function prepareWrites(db: Database.Database, v1: boolean) {
  return {
    insertIgnore: db.prepare(
      'INSERT INTO positions (rule, size, key, stones, to_move, opening, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (rule, key) DO NOTHING',
    ),
    update: db.prepare(
      `UPDATE positions SET verdict = ?, score = ?, depth = ?, best_move = ?, pn = ?, dn = ?, proof_size = ?,
         nodes = nodes + ?, method = ?, evaluated = evaluated | ?, updated = ? WHERE id = ?`,
    ),
    updatePn: db.prepare('UPDATE positions SET pn = ?, dn = ?, verdict = ?, best_move = ?, score = ?, proof_size = ?, updated = ? WHERE id = ?'),
    setExpanded: db.prepare('UPDATE positions SET expanded = ? WHERE id = ?'),
    addEdge: db.prepare('INSERT INTO edges (parent, move, child) VALUES (?, ?, ?) ON CONFLICT DO NOTHING'),
    deleteEntries: db.prepare('DELETE FROM proof_entries WHERE position = ?'),
    pruneParents: db.prepare(
      `SELECT e.parent AS parent FROM edges e JOIN positions c ON c.id = e.child GROUP BY e.parent
       HAVING sum(c.evaluated = 0 AND c.verdict = 'unknown' AND c.expanded = 0) = count(*)`,
    ),
    deleteEdgesFrom: db.prepare('DELETE FROM edges WHERE parent = ?'),
    deleteOrphanLeaves: db.prepare(
      `DELETE FROM positions WHERE evaluated = 0 AND verdict = 'unknown' AND expanded = 0
         AND NOT EXISTS (SELECT 1 FROM edges WHERE child = positions.id)
         AND NOT EXISTS (SELECT 1 FROM jobs WHERE position = positions.id)`,
    ),
    // (on a read-only version-1 book this statement is never run; it must still prepare)
    addEntry: db.prepare(v1 ? 'INSERT INTO proof_entries (position, black, white, move) VALUES (?, ?, ?, ?)' : 'INSERT INTO proof_entries (position, black, white, move, zone) VALUES (?, ?, ?, ?, ?)'),
    setState: db.prepare('INSERT INTO build_state (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value'),
    deleteState: db.prepare('DELETE FROM build_state WHERE name = ?'),
    jobStarted: db.prepare('INSERT INTO jobs (position, kind, started) VALUES (?, ?, ?) ON CONFLICT (position) DO UPDATE SET kind = excluded.kind, started = excluded.started'),
    jobFinished: db.prepare('DELETE FROM jobs WHERE position = ?'),
    clearJobs: db.prepare('DELETE FROM jobs'),
  };
}
