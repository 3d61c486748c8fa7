/**
 * The independent certificate checker (docs/formats.md sections 3-3.2), written separately
 * from the solver: it uses its own board (check-board.ts) and its own plain VCF, and nothing
 * from src/core/board.ts, src/core/patterns.ts or src/search/.
 *
 * Semantics, checked full width from the root:
 *  - winner to move: a five wins; otherwise the certificate entry for this exact stone set
 *    gives the move (its subtree is then checked); with no entry the position must be won
 *    by a plain VCF (below);
 *  - loser to move: if the loser can make five, or the board is full, the certificate
 *    fails; otherwise EVERY empty point is a reply and each must lead to a won position.
 *    (Exact shortcuts: if the winner already has two five cells, every reply loses; with
 *    one, every reply but the block loses at once, so only the block is walked. With none,
 *    the winner's open-four moves (move, five cell, five cell) are listed once per loser
 *    node: a reply that makes no loser five cell and misses one such triple leaves that
 *    open four playable, which is the one-move VCF, so no search is needed. Before a full
 *    VCF search, the last winning VCF line is replayed with every step re-checked by the
 *    VCF rules; sibling replies usually leave it intact.)
 *
 * Version 2 (formats.md 3.1): a branch carries an ignore set (loser stones; its hash is kept
 * so that "the stones without the ignore set" is one XOR away). At a loser node with a pass
 * entry every reply joins its branch's ignore set; entries are looked up under the exact
 * stones, then under the stones without the ignore set. Version 3 (3.3): a reply joins it only
 * when the position after it has no entry of its own (looked up as the winner's turn will).
 *
 * Zones (formats.md 3.2, the argument in docs/proof-zones.md): at a pass entry with a zone
 * (and no winner five cell), the pass strategy is verified once, as if the loser had passed,
 * one *zone level* deeper (`zt`, the number of pass strategies the position sits in, i.e. the
 * most far loser stones that may be on the real board unseen). While zt > 0 the checker
 * records the support: every empty cell whose content a decision read (the winner's moves,
 * his five cells and so the loser's forced blocks, the cells of a listed open four), plus
 * every empty cell of a window with no winner stone and at least 4 - zt loser stones, at the
 * pass position and after every loser stone placed (so that zt unseen stones can never
 * complete a loser five cell). The zone must contain the support; then every reply outside
 * the zone that makes no loser five cell is accepted without a walk, and the rest are walked
 * at the old level. Inside a pass strategy entries are looked up only without the ignore set:
 * the real board there also holds the covered replies, which are in the ignore set, so that
 * is the look-up the real branch makes.
 * Support is kept per recursion frame in typed arrays (one bit per cell) and OR-ed into the
 * parent on success; memo tables for zt > 0 keep each proven position's support and level.
 *
 * Plain VCF: every winner move makes a four (a five cell); the loser's reply is forced (the
 * five cell; two five cells win outright). If the loser has a five cell, the winner must
 * take it with a move that is itself a four (else the line fails); two loser five cells
 * fail. A loser four created by a forced block is therefore answered by a four or not at
 * all. This is exact under the full-width semantics: any loser reply other than the block
 * lets the winner make five.
 *
 * Memo tables (96-bit keys, hash-table.ts): positions proven with the winner to move, and
 * with the loser to move, keyed by the position *and its context* (ignore set, zone level;
 * see setKey); positions where the plain VCF wins, and where it fails, keyed by the position
 * alone, and the VCF search reads only those. Each position is checked once per context
 * however many move orders reach it. A hit gives what walking the position again would, so
 * the verdict does not depend on the order of the walk: the same certificate in another of
 * the 8 orientations gets the same verdict. (A memo across contexts would be sound, since a
 * proven position is a game-theoretic fact, but it made that verdict depend on which
 * context met a position first.)
 *
 * Budgets: `maxPositions` (walker positions), `maxMs` (wall clock, via the injected clock)
 * and `maxVcfNodes` (per VCF search). Running out gives `unknown`, never a verdict.
 */
import { type Color, colorName } from '../core/types.js';
import { makePoint } from '../core/notation.js';
import type { Certificate } from './certificate.js';
import { CheckBoard } from './check-board.js';
import { HashTable96 } from './hash-table.js';

export interface VerifyOptions {
  /** Stop with `unknown` after this many walker positions. */
  maxPositions?: number;
  /** Stop with `unknown` after this many milliseconds. */
  maxMs?: number;
  /** Stop with `unknown` when one VCF search passes this many nodes (default 5,000,000). */
  maxVcfNodes?: number;
  /** Millisecond clock (default Date.now). */
  clock?: () => number;
  /** Walk every reply at every pass entry, zones or not (the plain full-width walk of 3.1). */
  ignoreZones?: boolean;
}

export interface VerifyReport {
  result: 'verified' | 'failed' | 'unknown';
  /** Why it failed or stopped (absent when verified). */
  reason?: string;
  /** Moves from the root to the failing position (or where the budget ran out), in points; `pass` where the loser passed. */
  line: string[];
  /** Walker positions checked (memo hits not counted). */
  positions: number;
  memoHits: number;
  vcfCalls: number;
  vcfNodes: number;
  /** Winner positions decided by a listed open-four move instead of a VCF search. */
  quickWins: number;
  /** Winner positions decided by replaying (and re-checking) the last winning VCF line. */
  lineReplays: number;
  entries: number;
  entriesUsed: number;
  entriesUnused: number;
  ms: number;
  // Version 2 only (absent for a gomoku-proof/1 certificate, whose report is unchanged):
  /** Pass entries in the certificate. */
  passEntries?: number;
  /** Loser positions where a pass entry applied. */
  passesUsed?: number;
  /** Pass strategies verified once for a zone. */
  zoneChecks?: number;
  /** Replies accepted by a zone without a walk. */
  zoneCovered?: number;
  /** Entries (move or pass) found under the stones without a non-empty ignore set. */
  ignoreLookups?: number;
  /** Version 3: replies at pass entries kept out of the ignore set by an entry of their own. */
  ownReplies?: number;
  /** The most cells in one pass strategy's support. */
  largestSupport?: number;
}

const PROVEN = 0;
const FAILED = 1;
const UNKNOWN = 2;
/** Path marker for "the loser passed" (the start of a pass strategy), printed `pass`. */
const PASS = -1;

function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

class Checker {
  readonly b: CheckBoard;
  readonly W: Color;
  readonly L: Color;
  private readonly cert: Certificate;
  private readonly entryTable = new HashTable96(10);
  private readonly used: Uint8Array;
  private readonly provenWinner = new HashTable96(10);
  private readonly provenLoser = new HashTable96(8);
  private readonly vcfFail = new HashTable96(10);
  /** Positions a plain VCF wins (a fact of the position alone; the VCF search reads only this). */
  private readonly vcfProven = new HashTable96(10);
  /** The memo key of the current position (see setKey). */
  private k1 = 0;
  private k2 = 0;
  private k3 = 0;
  private readonly path: Int16Array;
  private depth = 0;
  /** VCF candidate stack: moves and, after pass 1, (move, block) pairs. */
  private stack: Int16Array;
  private sp = 0;
  private readonly stamp: Int32Array;
  /** The winning line of the last VCF search (moves and blocks), from \`pv\` when complete. */
  private readonly pv: Int16Array;
  private pvLen = 0;
  private readonly line: Int16Array;
  private lineLen = 0;
  private readonly replayStack: Int16Array;
  /** Open-four triples of the loser node at each depth, 12 slots per depth (see findOpenFours). */
  private readonly openFours: Int32Array;
  private stampGen = 0;

  // Version 2: pass entries, the branch's ignore set, zones and support.
  private readonly passTable: HashTable96;
  private readonly nPass: number;
  /** 32-bit words per cell set. */
  private readonly SW: number;
  /** Zone of pass entry i: bits zoneBits[i * SW ..]; hasZone[i] = 0 when it has none. */
  readonly zoneBits: Int32Array;
  readonly hasZone: Uint8Array;
  /** Learning (writers, zones.ts): a zone that misses support grows instead of failing. */
  private readonly learn: boolean;
  grown = false;
  private readonly useZones: boolean;
  /** Version 3 (formats.md 3.3): replies with entries of their own stay out of the ignore set. */
  private readonly v3: boolean;
  private readonly inIgnore: Uint8Array;
  /** Hash of the ignore set (loser stones), so stones-without-it is the board hash XOR this. */
  private readonly ih = new Int32Array(3);
  private nIgnore = 0;
  /** Zone level: how many pass strategies enclose the current position (0: plain walk). */
  private zt = 0;
  /** Support frames: frame k is sup[k * SW .. (k + 1) * SW); sfp is the current frame. */
  private sup: Int32Array;
  private sfp = 0;
  /** Positions proven at zt > 0: arena offset of [level, support words]. */
  private readonly zProvenW: HashTable96;
  private readonly zProvenL: HashTable96;
  private arena: Int32Array;
  private arenaLen = 0;
  /** Loser-four cells of the pass entries whose replies are being walked, a slot each (at most one per path position, so sized once). */
  private readonly keepBits: Int32Array;
  private keepTop = 0;

  private readonly clock: () => number;
  private readonly start: number;
  private readonly deadline: number;
  private readonly maxPositions: number;
  private readonly maxVcfNodes: number;
  private vcfCallNodes = 0;

  positions = 0;
  memoHits = 0;
  vcfCalls = 0;
  vcfNodes = 0;
  quickWins = 0;
  replayWins = 0;
  passesUsed = 0;
  zoneChecks = 0;
  zoneCovered = 0;
  ignoreLookups = 0;
  ownReplies = 0;
  largestSupport = 0;
  reason = '';
  failLine: string[] = [];

  constructor(cert: Certificate, opts: VerifyOptions, learn = false) {
    this.cert = cert;
    this.b = new CheckBoard(cert.size, cert.rule);
    this.W = cert.winner;
    this.L = (3 - cert.winner) as Color;
    const area = this.b.area;
    this.used = new Uint8Array(cert.entries.length);
    // Pass markers add at most one path slot per stone placed after them.
    this.path = new Int16Array(2 * area + 2);
    this.stack = new Int16Array(area * 16);
    this.stamp = new Int32Array(area);
    this.pv = new Int16Array(area + 2);
    this.line = new Int16Array(area + 2);
    this.replayStack = new Int16Array(area + 2);
    this.openFours = new Int32Array((2 * area + 2) * 12);
    this.clock = opts.clock ?? Date.now;
    this.start = this.clock();
    this.deadline = opts.maxMs !== undefined ? this.start + opts.maxMs : Infinity;
    this.maxPositions = opts.maxPositions ?? Infinity;
    this.maxVcfNodes = opts.maxVcfNodes ?? 5_000_000;
    const h = new Int32Array(3);
    cert.entries.forEach((e, i) => {
      h.fill(0);
      CheckBoard.hashOf(e.black, 1, h);
      CheckBoard.hashOf(e.white, 2, h);
      this.entryTable.set(h[0]!, h[1]!, h[2]!, i);
    });

    this.learn = learn;
    this.useZones = !opts.ignoreZones;
    this.v3 = cert.version === 3;
    this.SW = (area + 31) >> 5;
    this.nPass = cert.passes.length;
    // Version 1 never touches these: minimal sizes, so that small certificates (a VCF
    // puzzle checks in ~0.1 ms) do not pay for them.
    const v2 = this.nPass > 0;
    this.passTable = new HashTable96(v2 ? 6 : 0);
    this.zProvenW = new HashTable96(v2 ? 8 : 0);
    this.zProvenL = new HashTable96(v2 ? 8 : 0);
    this.zoneBits = new Int32Array(this.nPass * this.SW);
    this.hasZone = new Uint8Array(this.nPass);
    cert.passes.forEach((p, i) => {
      h.fill(0);
      CheckBoard.hashOf(p.black, 1, h);
      CheckBoard.hashOf(p.white, 2, h);
      this.passTable.set(h[0]!, h[1]!, h[2]!, i);
      if (p.zone) {
        this.hasZone[i] = 1;
        for (const q of p.zone) this.zoneBits[i * this.SW + (q >> 5)]! |= 1 << (q & 31);
      }
    });
    this.inIgnore = new Uint8Array(v2 ? area : 0);
    this.sup = new Int32Array(this.nPass > 0 ? (3 * area + 16) * this.SW : 0);
    this.arena = new Int32Array(this.nPass > 0 ? 1 << 12 : 0);
    this.keepBits = new Int32Array(this.nPass > 0 ? (2 * area + 2) * this.SW : 0);
  }

  get elapsed(): number {
    return this.clock() - this.start;
  }

  get entriesUsed(): number {
    let n = 0;
    for (let i = 0; i < this.used.length; i++) n += this.used[i]!;
    return n;
  }

  private pt(q: number): string {
    return q === PASS ? 'pass' : makePoint(q, this.b.size);
  }

  private fail(reason: string): number {
    this.reason = reason;
    this.failLine = Array.from(this.path.subarray(0, this.depth), (q) => this.pt(q));
    return FAILED;
  }

  private outOfBudget(): boolean {
    if (this.positions >= this.maxPositions) {
      this.reason = `position budget (${this.maxPositions}) exhausted`;
    } else if ((this.positions & 63) === 0 && this.clock() >= this.deadline) {
      this.reason = `time budget (${this.deadline - this.start} ms) exhausted`;
    } else {
      return false;
    }
    this.failLine = Array.from(this.path.subarray(0, this.depth), (q) => this.pt(q));
    return true;
  }

  run(): number {
    const b = this.b;
    for (const s of this.cert.root) b.place(s.index, s.color);
    if (b.hasFive(1) || b.hasFive(2)) return this.fail('the root position already holds a five');
    if (this.cert.toMove === this.W) {
      if (b.fiveCells(this.W) > 0) {
        this.positions++;
        return PROVEN;
      }
      const n = b.fiveCells(this.L);
      return this.winnerNode(n, b.firstFive);
    }
    const n = b.fiveCells(this.W);
    return this.loserNode(n, b.firstFive, true);
  }

  /** Do these stones equal the board's (without the ignore set when `withoutIgnore`)? */
  private stonesMatch(black: readonly number[], white: readonly number[], withoutIgnore: boolean): boolean {
    const b = this.b;
    if (black.length + white.length !== (withoutIgnore ? b.stones - this.nIgnore : b.stones)) return false;
    const cells = b.cells;
    const ig = this.inIgnore;
    for (const q of black) if (cells[q] !== 1 || (withoutIgnore && ig[q] !== 0)) return false;
    for (const q of white) if (cells[q] !== 2 || (withoutIgnore && ig[q] !== 0)) return false;
    return true;
  }

  /**
   * The entry (in `table`, over `list`) for the current position, or -1: under the exact
   * stones, then under the stones without the ignore set. Inside a pass strategy (zt > 0)
   * only the latter (see the file comment).
   */
  private lookup(table: HashTable96, list: readonly { black: readonly number[]; white: readonly number[] }[], count = true): number {
    const b = this.b;
    if (this.zt === 0) {
      const i = table.get(b.h1, b.h2, b.h3);
      if (i >= 0 && this.stonesMatch(list[i]!.black, list[i]!.white, false)) return i;
      if (this.nIgnore === 0) return -1;
    }
    const ih = this.ih;
    const i = table.get(b.h1 ^ ih[0]!, b.h2 ^ ih[1]!, b.h3 ^ ih[2]!);
    if (i < 0 || !this.stonesMatch(list[i]!.black, list[i]!.white, true)) return -1;
    if (count && this.nIgnore > 0) this.ignoreLookups++;
    return i;
  }

  // ---- support frames (only touched while zt > 0, or at a zone check) ----

  private pushFrame(): void {
    const SW = this.SW;
    const f = ++this.sfp * SW;
    if (f + SW > this.sup.length) {
      const s = new Int32Array(this.sup.length * 2);
      s.set(this.sup);
      this.sup = s;
    }
    for (let k = f; k < f + SW; k++) this.sup[k] = 0;
  }

  /** Close the current frame and add its cells to the parent's. */
  private popFrame(): void {
    const SW = this.SW;
    const f = this.sfp * SW;
    const sup = this.sup;
    for (let k = 0; k < SW; k++) sup[f - SW + k]! |= sup[f + k]!;
    this.sfp--;
  }

  /** Close the current frame, forgetting it (a line that failed read nothing we rely on). */
  private dropFrame(): void {
    this.sfp--;
  }

  private addSup(q: number): void {
    this.sup[this.sfp * this.SW + (q >> 5)]! |= 1 << (q & 31);
  }

  /** Empty cells of window w when it has no winner stone and >= thr loser stones. */
  private addWindowIfLoserRich(w: number, thr: number): void {
    const b = this.b;
    const count = b.count;
    if (count[w * 2 + this.W - 1] !== 0 || count[w * 2 + this.L - 1]! < thr) return;
    const cells = b.cells;
    for (let k = w * 5, e = k + 5; k < e; k++) {
      const q = b.winCells[k]!;
      if (cells[q] === 0) this.addSup(q);
    }
  }

  /**
   * After a loser stone at q: the windows through q where zt unseen loser stones could
   * complete a loser five cell (no winner stone, at least 4 - zt loser stones).
   */
  private addLoserWindowsThrough(q: number): void {
    const b = this.b;
    const thr = this.zt >= 4 ? 0 : 4 - this.zt;
    for (let i = b.cellWinStart[q]!, e = b.cellWinStart[q + 1]!; i < e; i++) this.addWindowIfLoserRich(b.cellWins[i]!, thr);
  }

  /** The same over the whole board (at the start of a pass strategy). */
  private addLoserWindowsAll(): void {
    const thr = this.zt >= 4 ? 0 : 4 - this.zt;
    for (let w = 0, n = this.b.nWin; w < n; w++) this.addWindowIfLoserRich(w, thr);
  }

  /**
   * A memo hit at zt > 0: proven at a level >= zt; its support joins the current frame.
   * (Each pass strategy adds one winner stone, so a position's level follows from its stone
   * counts and a stored level always equals zt; the test costs nothing and keeps the rule
   * "support computed for fewer unseen stones is not reused for more" explicit.)
   */
  private zMemo(table: HashTable96, ctx: boolean): boolean {
    const at = table.get(this.setKey(ctx), this.k2, this.k3);
    if (at < 0 || this.arena[at]! < this.zt) return false;
    const SW = this.SW;
    const f = this.sfp * SW;
    const sup = this.sup;
    const arena = this.arena;
    for (let k = 0; k < SW; k++) sup[f + k]! |= arena[at + 1 + k]!;
    return true;
  }

  /** Store the current frame as the support of the current position at level zt. */
  private zStore(table: HashTable96, ctx: boolean): void {
    const SW = this.SW;
    if (this.arenaLen + SW + 1 > this.arena.length) {
      const a = new Int32Array(this.arena.length * 2);
      a.set(this.arena);
      this.arena = a;
    }
    const at = this.arenaLen;
    const arena = this.arena;
    const sup = this.sup;
    const f = this.sfp * SW;
    arena[at] = this.zt;
    for (let k = 0; k < SW; k++) arena[at + 1 + k] = sup[f + k]!; // (no subarray: no allocation per node)
    this.arenaLen += SW + 1;
    table.set(this.setKey(ctx), this.k2, this.k3, at);
  }

  /**
   * Set k1..k3 to the current position's memo key and return k1. With `ctx`, the key also
   * holds the branch's context (its ignore set and zone level), because what a walk proves
   * there depends on it (look-ups without the ignore set): so a memo hit gives exactly what
   * walking the position again in that context would, and the verdict cannot depend on the
   * order the walk meets positions in (the same certificate in another orientation). Without
   * `ctx`: the position alone (plain VCF). With an empty ignore set at zt 0, both are the
   * position's hash.
   */
  private setKey(ctx: boolean): number {
    const b = this.b;
    if (!ctx) {
      this.k2 = b.h2;
      this.k3 = b.h3;
      return (this.k1 = b.h1);
    }
    const ih = this.ih;
    this.k2 = b.h2 ^ Math.imul(ih[1]!, 0x85ebca6b);
    this.k3 = b.h3 ^ Math.imul(ih[2]!, 0xc2b2ae35);
    return (this.k1 = b.h1 ^ Math.imul(ih[0]!, 0x9e3779b1) ^ Math.imul(this.zt, 0x5bd1e995));
  }

  /**
   * Mark, in a new slot of keepBits, every empty cell where a loser stone makes a five cell
   * (an empty cell of a window with no winner stone and three loser stones; in standard a
   * few more than needed, which only means more walking). Returns the slot's offset; the
   * caller frees it (keepTop) when its reply loop ends. A window scan of its own, sharing
   * nothing with the support frames, so that a mistake there cannot cover a loser four.
   */
  private loserFourCells(): number {
    const SW = this.SW;
    const at = this.keepTop;
    this.keepTop += SW;
    const keep = this.keepBits;
    for (let k = at; k < at + SW; k++) keep[k] = 0;
    const b = this.b;
    const count = b.count;
    const cells = b.cells;
    const wo = this.W - 1,
      lo = this.L - 1;
    for (let w = 0, n = b.nWin; w < n; w++) {
      if (count[w * 2 + lo] !== 3 || count[w * 2 + wo] !== 0) continue;
      for (let k = w * 5, e = k + 5; k < e; k++) {
        const q = b.winCells[k]!;
        if (cells[q] === 0) keep[at + (q >> 5)]! |= 1 << (q & 31);
      }
    }
    return at;
  }

  private ignoreAdd(q: number): void {
    this.inIgnore[q] = 1;
    CheckBoard.xorStone(q, this.L, this.ih);
    this.nIgnore++;
  }

  private ignoreRemove(q: number): void {
    this.inIgnore[q] = 0;
    CheckBoard.xorStone(q, this.L, this.ih);
    this.nIgnore--;
  }

  /**
   * Winner to move. Precondition: the winner has no five cell. `lfCount` (0, 1, 2 = two or
   * more) and `lfCell` describe the loser's five cells.
   */
  private winnerNode(lfCount: number, lfCell: number, quick = false): number {
    const b = this.b;
    const zt = this.zt;
    // (at zt > 0 no winner memo: what it held were VCF wins, and an entry here may say otherwise)
    if (!quick && zt === 0 && this.provenWinner.get(this.setKey(true), this.k2, this.k3) >= 0) {
      this.memoHits++;
      return PROVEN;
    }
    if (this.outOfBudget()) return UNKNOWN;
    this.positions++;
    if (b.stones === b.area) return this.fail('the board is full');
    const ei = this.lookup(this.entryTable, this.cert.entries);
    if (ei >= 0) {
      this.used[ei] = 1;
      const m = this.cert.entries[ei]!.move;
      // Found without the ignore set, the move may be on one of its stones.
      if (b.cells[m] !== 0) return this.fail(`the entry on line ${this.cert.entries[ei]!.line} plays ${this.pt(m)}, which is taken`);
      if (zt > 0) {
        this.pushFrame();
        this.addSup(m);
      }
      b.place(m, this.W);
      this.path[this.depth++] = m;
      const wf = b.fiveCellsThrough(m, this.W);
      const wfCell = b.firstFive;
      // The loser's block (or every reply, with two five cells) rests on these cells staying empty.
      if (zt > 0 && wf > 0) {
        this.addSup(wfCell);
        if (wf === 2) this.addSup(b.secondFive);
      }
      const res = this.loserNode(wf, wfCell, lfCount > 0);
      this.depth--;
      b.remove(m);
      if (res === PROVEN) {
        if (zt === 0) this.provenWinner.set(this.setKey(true), this.k2, this.k3, 0);
        else this.popFrame();
      }
      return res;
    }
    if (quick) {
      this.quickWins++;
      return PROVEN;
    }
    if (this.lineLen > 0 && this.replayLine(lfCount, lfCell)) {
      this.replayWins++;
      return PROVEN;
    }
    this.vcfCalls++;
    this.vcfCallNodes = 0;
    const r = this.vcf(lfCount, lfCell, 0);
    if (r === PROVEN && this.pvLen > 0) {
      this.line.set(this.pv.subarray(0, this.pvLen));
      this.lineLen = this.pvLen;
    }
    if (r === PROVEN) {
      if (zt === 0) this.provenWinner.set(this.setKey(true), this.k2, this.k3, 0);
      return PROVEN;
    }
    if (r === UNKNOWN) {
      this.failLine = Array.from(this.path.subarray(0, this.depth), (q) => this.pt(q));
      return UNKNOWN;
    }
    const threat = lfCount > 0 ? ` (${colorName(this.L)} threatens five at ${this.pt(lfCell)})` : '';
    return this.fail(`no entry and no plain VCF for ${colorName(this.W)}${threat}`);
  }

  /**
   * Loser to move. `wfCount`/`wfCell`: the winner's five cells. `checkLoserFive`: whether the
   * loser may have a five cell (false when the caller knows he has none).
   */
  private loserNode(wfCount: number, wfCell: number, checkLoserFive: boolean): number {
    const b = this.b;
    const zt = this.zt;
    if (zt === 0 ? this.provenLoser.get(this.setKey(true), this.k2, this.k3) >= 0 : this.zMemo(this.zProvenL, true)) {
      this.memoHits++;
      return PROVEN;
    }
    if (this.outOfBudget()) return UNKNOWN;
    this.positions++;
    const L = this.L;
    if (checkLoserFive && b.fiveCells(L) > 0) {
      return this.fail(`${colorName(L)} can make five at ${this.pt(b.firstFive)}`);
    }
    if (wfCount < 2) {
      if (b.stones === b.area) return this.fail('the board is full');
      const pi = this.nPass > 0 ? this.lookup(this.passTable, this.cert.passes) : -1;
      if (zt > 0) this.pushFrame();
      // zone >= 0: the offset of the zone whose outside the pass strategy covers
      let zone = -1;
      if (pi >= 0) {
        this.passesUsed++;
        if (wfCount === 0 && this.useZones && this.hasZone[pi] !== 0) {
          const r = this.passStrategy(pi);
          if (r !== PROVEN) return r;
          zone = pi * this.SW;
        }
      }
      const cells = b.cells;
      const from = wfCount === 1 ? wfCell : 0;
      const to = wfCount === 1 ? wfCell + 1 : b.area;
      const ob = this.depth * 12;
      // The open fours are listed when the first walked reply needs them (at a pass entry
      // with a zone most replies are covered and never look).
      let nOpen = -1;
      const of = this.openFours;
      let usedQuick = false;
      // keep: at a zone, the cells where a reply would make a loser four (walked always)
      const keep = zone >= 0 ? this.loserFourCells() : 0;
      const zoneBits = this.zoneBits;
      const keepBits = this.keepBits;
      for (let r = from; r < to; r++) {
        if (cells[r] !== 0) continue;
        // Outside the zone the pass strategy answers the reply. A reply that makes a loser
        // five cell is never covered: the support rule already puts it in the zone, and an
        // independent window scan (keep) makes sure.
        if (zone >= 0 && ((zoneBits[zone + (r >> 5)]! | keepBits[keep + (r >> 5)]!) & (1 << (r & 31))) === 0) {
          this.zoneCovered++;
          continue;
        }
        if (nOpen < 0) nOpen = wfCount === 0 ? this.findOpenFours(ob) : 0;
        b.place(r, L);
        const lf = b.fiveCellsThrough(r, L);
        const lfCell = b.firstFive;
        this.path[this.depth++] = r;
        // Version 3 (formats.md 3.3): a reply whose position has an entry of its own stays a
        // real stone of the branch, so the entries below it are keyed with it.
        const ignored = pi >= 0 && (!this.v3 || this.lookup(this.entryTable, this.cert.entries, false) < 0);
        if (ignored) this.ignoreAdd(r);
        else if (pi >= 0) this.ownReplies++;
        if (zt > 0) this.addLoserWindowsThrough(r);
        // The reply leaves the winner an open-four move (one that makes two five cells) when
        // it makes no loser five cell and misses some open-four triple (move, five, five).
        let quick = false;
        if (lf === 0) {
          for (let i = ob, e = ob + nOpen * 3; i < e; i += 3) {
            if (of[i] !== r && of[i + 1] !== r && of[i + 2] !== r) {
              quick = true;
              break;
            }
          }
        }
        usedQuick ||= quick;
        const res = this.winnerNode(lf, lfCell, quick);
        if (ignored) this.ignoreRemove(r);
        this.depth--;
        b.remove(r);
        if (res !== PROVEN) return res;
      }
      if (zone >= 0) this.keepTop -= this.SW;
      if (zt > 0) {
        // the open fours that decided replies: their cells must stay empty
        if (usedQuick) for (let i = ob, e = ob + nOpen * 3; i < e; i++) this.addSup(of[i]!);
        this.zStore(this.zProvenL, true);
        this.popFrame();
      }
    }
    if (zt === 0) this.provenLoser.set(this.setKey(true), this.k2, this.k3, 0);
    return PROVEN;
  }

  /**
   * The loser to move at a pass entry with a zone: verify the pass strategy (the winner to
   * move here) one zone level deeper, then require the zone to hold its support. On
   * success the support is added to the current frame (the loser node's, when zt > 0).
   */
  private passStrategy(pi: number): number {
    this.zoneChecks++;
    this.zt++;
    this.pushFrame();
    this.path[this.depth++] = PASS;
    // The windows where zt unseen loser stones could already complete a five cell.
    this.addLoserWindowsAll();
    const res = this.winnerNode(0, -1);
    this.depth--;
    this.zt--;
    if (res !== PROVEN) return res;
    const SW = this.SW;
    const f = this.sfp * SW;
    const z = pi * SW;
    const sup = this.sup;
    let n = 0;
    let missing = 0;
    for (let k = 0; k < SW; k++) {
      n += popcount(sup[f + k]!);
      missing += popcount(sup[f + k]! & ~this.zoneBits[z + k]!);
    }
    if (n > this.largestSupport) this.largestSupport = n;
    if (missing > 0) {
      if (this.learn) {
        for (let k = 0; k < SW; k++) this.zoneBits[z + k]! |= sup[f + k]!;
        this.grown = true;
      } else {
        const cells: string[] = [];
        for (let q = 0; q < this.b.area && cells.length < 8; q++) {
          if ((sup[f + (q >> 5)]! & ~this.zoneBits[z + (q >> 5)]! & (1 << (q & 31))) !== 0) cells.push(this.pt(q));
        }
        const more = missing > cells.length ? ` and ${missing - cells.length} more` : '';
        return this.fail(
          `the zone of the pass entry on line ${this.cert.passes[pi]!.line} misses ${missing} supporting cell${missing === 1 ? '' : 's'}: ${cells.join(' ')}${more}`,
        );
      }
    }
    this.popFrame();
    return PROVEN;
  }

  /**
   * Fill `openFours` with up to 4 triples (move, five cell, five cell): winner moves that
   * make two five cells now (an open four or a double four). Precondition: the winner has
   * no five cell. Returns the number of triples.
   */
  private findOpenFours(ob: number): number {
    const b = this.b;
    const W = this.W;
    const base = this.pushFourCandidates();
    let n = 0;
    for (let i = base; i < this.sp && n < 4; i++) {
      const m = this.stack[i]!;
      b.place(m, W);
      if (b.fiveCellsThrough(m, W) === 2) {
        this.openFours[ob + n * 3] = m;
        this.openFours[ob + n * 3 + 1] = b.firstFive;
        this.openFours[ob + n * 3 + 2] = b.secondFive;
        n++;
      }
      b.remove(m);
    }
    this.sp = base;
    return n;
  }

  /**
   * Push every empty cell where a winner stone makes a four (both empty cells of each
   * window holding three winner stones and no loser stone), each once. Returns the stack
   * position where they start.
   */
  private pushFourCandidates(): number {
    const b = this.b;
    const base = this.sp;
    const wo = this.W - 1,
      lo = 2 - this.W;
    const gen = ++this.stampGen;
    const cells = b.cells;
    const count = b.count;
    const wc = b.winCells;
    // A plain scan of all windows (two byte reads each) beat keeping incremental lists of
    // three-windows, whose upkeep slowed every place/remove (chain k=9: 115 vs 210 ms).
    for (let w = 0, n = b.nWin; w < n; w++) {
      if (count[w * 2 + wo] !== 3 || count[w * 2 + lo] !== 0) continue;
      for (let k = w * 5, e = k + 5; k < e; k++) {
        const q = wc[k]!;
        if (cells[q] === 0 && this.stamp[q] !== gen) {
          this.stamp[q] = gen;
          this.push(q);
        }
      }
    }
    return base;
  }

  /**
   * Try the last VCF that won elsewhere (usually at a sibling reply) in this position,
   * checking every step by the VCF rules: each winner move empty, taking the loser's five
   * cell when he has one, making one five cell (then the block is forced) or two (won).
   * A cheap first attempt before a full VCF search; a line that does not fit just fails.
   * At zt > 0 a line that wins adds its support (moves, blocks, the loser's windows after
   * each block) to the current frame.
   */
  private replayLine(lfCount: number, lfCell: number): boolean {
    const b = this.b;
    const W = this.W;
    const L = this.L;
    const zt = this.zt;
    const line = this.line;
    const placed = this.replayStack;
    let np = 0;
    let won = false;
    if (zt > 0) this.pushFrame();
    for (let i = 0; i < this.lineLen; i += 2) {
      const m = line[i]!;
      if (b.cells[m] !== 0 || lfCount >= 2 || (lfCount === 1 && m !== lfCell)) break;
      b.place(m, W);
      placed[np++] = m;
      const n = b.fiveCellsThrough(m, W);
      if (n >= 2) {
        won = true;
        if (zt > 0) {
          this.addSup(m);
          this.addSup(b.firstFive);
          this.addSup(b.secondFive);
        }
        break;
      }
      if (n === 0) break;
      const f = b.firstFive;
      b.place(f, L);
      placed[np++] = f;
      if (zt > 0) {
        this.addSup(m);
        this.addSup(f);
        this.addLoserWindowsThrough(f);
      }
      lfCount = b.fiveCellsThrough(f, L);
      lfCell = b.firstFive;
    }
    while (np > 0) b.remove(placed[--np]!);
    if (zt > 0) {
      if (won) this.popFrame();
      else this.dropFrame();
    }
    return won;
  }

  private push(v: number): void {
    if (this.sp >= this.stack.length) {
      const s = new Int16Array(this.stack.length * 2);
      s.set(this.stack);
      this.stack = s;
    }
    this.stack[this.sp++] = v;
  }

  /**
   * Plain VCF with the winner to move. Precondition: the winner has no five cell. At zt > 0
   * each node has a support frame: a proven node adds its winning line's support (the four,
   * its block, the loser's windows after the block, the line below) to its caller's frame.
   */
  private vcf(lfCount: number, lfCell: number, d: number): number {
    const b = this.b;
    this.vcfNodes++;
    if (++this.vcfCallNodes > this.maxVcfNodes) {
      this.reason = `VCF node budget (${this.maxVcfNodes}) exhausted`;
      return UNKNOWN;
    }
    if ((this.vcfNodes & 4095) === 0 && this.clock() >= this.deadline) {
      this.reason = `time budget (${this.deadline - this.start} ms) exhausted`;
      return UNKNOWN;
    }
    if (lfCount >= 2) return FAILED;
    const h1 = b.h1,
      h2 = b.h2,
      h3 = b.h3;
    const zt = this.zt;
    if (zt === 0 ? this.vcfProven.get(h1, h2, h3) >= 0 : this.zMemo(this.zProvenW, false)) {
      this.pvLen = -1;
      return PROVEN;
    }
    if (this.vcfFail.get(h1, h2, h3) >= 0) return FAILED;
    const W = this.W;
    const L = this.L;
    if (zt > 0) this.pushFrame();
    // Candidate moves: the loser's five cell when he has one, else every four-making cell.
    let base = this.sp;
    if (lfCount === 1) this.push(lfCell);
    else base = this.pushFourCandidates();
    // Pass 1: a move that makes two five cells wins now; keep (move, block) for the fours.
    const nCand = this.sp - base;
    let kept = base + nCand;
    for (let i = base; i < base + nCand; i++) {
      const m = this.stack[i]!;
      b.place(m, W);
      const n = b.fiveCellsThrough(m, W);
      const f = b.firstFive;
      const f2 = b.secondFive;
      b.remove(m);
      if (n >= 2) {
        this.pv[d * 2] = m;
        this.pvLen = d * 2 + 1;
        this.sp = base;
        this.vcfProven.set(h1, h2, h3, 0);
        if (zt > 0) {
          this.addSup(m);
          this.addSup(f);
          this.addSup(f2);
          this.zStore(this.zProvenW, false);
          this.popFrame();
        }
        return PROVEN;
      }
      if (n === 1) {
        this.push(m);
        this.push(f);
      }
    }
    // Pass 2: play each four, the forced block, and recurse.
    const end = this.sp;
    let res = FAILED;
    for (; kept < end; kept += 2) {
      const m = this.stack[kept]!;
      const f = this.stack[kept + 1]!;
      b.place(m, W);
      b.place(f, L);
      const lf = b.fiveCellsThrough(f, L);
      const r = this.vcf(lf, b.firstFive, d + 1);
      if (r === PROVEN && zt > 0) {
        this.addSup(m);
        this.addSup(f);
        this.addLoserWindowsThrough(f);
      }
      b.remove(f);
      b.remove(m);
      if (r !== FAILED) {
        res = r;
        this.pv[d * 2] = m;
        this.pv[d * 2 + 1] = f;
        break;
      }
    }
    this.sp = base;
    if (res === PROVEN) {
      this.vcfProven.set(h1, h2, h3, 0);
      if (zt > 0) {
        this.zStore(this.zProvenW, false);
        this.popFrame();
      }
    } else {
      if (res === FAILED) this.vcfFail.set(h1, h2, h3, 0);
      if (zt > 0) this.dropFrame();
    }
    return res;
  }
}

function reportOf(c: Checker, cert: Certificate, r: number): VerifyReport {
  const used = c.entriesUsed;
  const report: VerifyReport = {
    result: r === PROVEN ? 'verified' : r === FAILED ? 'failed' : 'unknown',
    line: r === PROVEN ? [] : c.failLine,
    positions: c.positions,
    memoHits: c.memoHits,
    vcfCalls: c.vcfCalls,
    vcfNodes: c.vcfNodes,
    quickWins: c.quickWins,
    lineReplays: c.replayWins,
    entries: cert.entries.length,
    entriesUsed: used,
    entriesUnused: cert.entries.length - used,
    ms: c.elapsed,
  };
  if (cert.version >= 2) {
    report.passEntries = cert.passes.length;
    report.passesUsed = c.passesUsed;
    report.zoneChecks = c.zoneChecks;
    report.zoneCovered = c.zoneCovered;
    report.ignoreLookups = c.ignoreLookups;
    if (cert.version === 3) report.ownReplies = c.ownReplies;
    report.largestSupport = c.largestSupport;
  }
  if (r !== PROVEN) report.reason = c.reason;
  return report;
}

/** Check a parsed certificate. Never throws for a wrong certificate; the report says why. */
export function verifyCertificate(cert: Certificate, opts: VerifyOptions = {}): VerifyReport {
  const c = new Checker(cert, opts);
  return reportOf(c, cert, c.run());
}

/**
 * For writers (zones.ts): verify with every zone (a pass entry with `zone: null` keeps none)
 * grown to hold the support the checker computes, instead of failing where it misses some.
 * `grown` says whether any zone grew; when none did, the run was an ordinary verification.
 * Replies covered before a zone grew may need a walk: run again with the zones returned.
 */
export function verifyLearningZones(cert: Certificate, opts: VerifyOptions = {}): { report: VerifyReport; zones: (number[] | null)[]; grown: boolean } {
  const c = new Checker(cert, { ...opts, ignoreZones: false }, true);
  const report = reportOf(c, cert, c.run());
  const SW = (cert.size * cert.size + 31) >> 5;
  const zones = cert.passes.map((_, i) => {
    if (c.hasZone[i] === 0) return null;
    const z: number[] = [];
    for (let q = 0; q < cert.size * cert.size; q++) if ((c.zoneBits[i * SW + (q >> 5)]! & (1 << (q & 31))) !== 0) z.push(q);
    return z;
  });
  return { report, zones, grown: c.grown };
}

/**
 * One line: `VERIFIED …`, `FAILED <reason>; line from root: …` or `UNKNOWN <reason>; …`.
 * A version-2 or -3 report adds its pass counts to the VERIFIED line.
 */
export function formatReport(r: VerifyReport): string {
  const line = r.line.length > 0 ? r.line.join(' ') : '(root)';
  if (r.result === 'verified') {
    const v2 =
      r.passEntries !== undefined
        ? `; ${r.passesUsed} pass positions, ${r.zoneChecks} zone checks, ${r.zoneCovered} replies covered by zones, ${r.ignoreLookups} ignore-set look-ups` +
          (r.ownReplies !== undefined ? `, ${r.ownReplies} replies with their own entries` : '')
        : '';
    return `VERIFIED ${r.positions} positions, ${r.entriesUsed} entries used (${r.entriesUnused} unused, ${r.vcfCalls} VCF searches, ${r.quickWins + r.lineReplays} shortcuts, ${r.ms} ms)${v2}`;
  }
  if (r.result === 'failed') return `FAILED ${r.reason}; line from root: ${line}`;
  return `UNKNOWN ${r.reason}; line from root: ${line} (${r.positions} positions checked, ${r.ms} ms)`;
}
