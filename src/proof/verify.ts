/**
 * The independent certificate checker (formats.md section 3), written separately from the
 * solver: it uses its own board (check-board.ts) and its own plain VCF, and nothing from
 * src/core/board.ts, src/core/patterns.ts or src/search/.
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
 * Plain VCF: every winner move makes a four (a five cell); the loser's reply is forced (the
 * five cell; two five cells win outright). If the loser has a five cell, the winner must
 * take it with a move that is itself a four (else the line fails); two loser five cells
 * fail. A loser four created by a forced block is therefore answered by a four or not at
 * all. This is exact under the full-width semantics: any loser reply other than the block
 * lets the winner make five.
 *
 * Memo tables (96-bit keys, hash-table.ts): positions proven with the winner to move (by an
 * entry or a VCF), positions proven with the loser to move, and positions where the plain
 * VCF fails. Each position is checked once however many move orders reach it.
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
}

export interface VerifyReport {
  result: 'verified' | 'failed' | 'unknown';
  /** Why it failed or stopped (absent when verified). */
  reason?: string;
  /** Moves from the root to the failing position (or where the budget ran out), in points. */
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
}

const PROVEN = 0;
const FAILED = 1;
const UNKNOWN = 2;

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
  reason = '';
  failLine: string[] = [];

  constructor(cert: Certificate, opts: VerifyOptions) {
    this.cert = cert;
    this.b = new CheckBoard(cert.size, cert.rule);
    this.W = cert.winner;
    this.L = (3 - cert.winner) as Color;
    this.used = new Uint8Array(cert.entries.length);
    this.path = new Int16Array(this.b.area + 1);
    this.stack = new Int16Array(this.b.area * 16);
    this.stamp = new Int32Array(this.b.area);
    this.pv = new Int16Array(this.b.area + 2);
    this.line = new Int16Array(this.b.area + 2);
    this.replayStack = new Int16Array(this.b.area + 2);
    this.openFours = new Int32Array((this.b.area + 1) * 12);
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
    return makePoint(q, this.b.size);
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

  /** The entry for the current stone set, or -1. */
  private findEntry(): number {
    const b = this.b;
    const i = this.entryTable.get(b.h1, b.h2, b.h3);
    if (i < 0) return -1;
    const e = this.cert.entries[i]!;
    if (e.black.length + e.white.length !== b.stones) return -1;
    for (const q of e.black) if (b.cells[q] !== 1) return -1;
    for (const q of e.white) if (b.cells[q] !== 2) return -1;
    return i;
  }

  /**
   * Winner to move. Precondition: the winner has no five cell. `lfCount` (0, 1, 2 = two or
   * more) and `lfCell` describe the loser's five cells.
   */
  private winnerNode(lfCount: number, lfCell: number, quick = false): number {
    const b = this.b;
    if (!quick && this.provenWinner.get(b.h1, b.h2, b.h3) >= 0) {
      this.memoHits++;
      return PROVEN;
    }
    if (this.outOfBudget()) return UNKNOWN;
    this.positions++;
    if (b.stones === b.area) return this.fail('the board is full');
    const ei = this.findEntry();
    if (ei >= 0) {
      this.used[ei] = 1;
      const m = this.cert.entries[ei]!.move;
      b.place(m, this.W);
      this.path[this.depth++] = m;
      const wf = b.fiveCellsThrough(m, this.W);
      const res = this.loserNode(wf, b.firstFive, lfCount > 0);
      this.depth--;
      b.remove(m);
      if (res === PROVEN) this.provenWinner.set(b.h1, b.h2, b.h3, 0);
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
    if (r === PROVEN) return PROVEN;
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
    if (this.provenLoser.get(b.h1, b.h2, b.h3) >= 0) {
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
      const cells = b.cells;
      const from = wfCount === 1 ? wfCell : 0;
      const to = wfCount === 1 ? wfCell + 1 : b.area;
      const ob = this.depth * 12;
      const nOpen = wfCount === 0 ? this.findOpenFours(ob) : 0;
      const of = this.openFours;
      for (let r = from; r < to; r++) {
        if (cells[r] !== 0) continue;
        b.place(r, L);
        this.path[this.depth++] = r;
        const lf = b.fiveCellsThrough(r, L);
        const lfCell = b.firstFive;
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
        const res = this.winnerNode(lf, lfCell, quick);
        this.depth--;
        b.remove(r);
        if (res !== PROVEN) return res;
      }
    }
    this.provenLoser.set(b.h1, b.h2, b.h3, 0);
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
    const wo = this.W - 1, lo = 2 - this.W;
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
   */
  private replayLine(lfCount: number, lfCell: number): boolean {
    const b = this.b;
    const W = this.W;
    const L = this.L;
    const line = this.line;
    const placed = this.replayStack;
    let np = 0;
    let won = false;
    for (let i = 0; i < this.lineLen; i += 2) {
      const m = line[i]!;
      if (b.cells[m] !== 0 || lfCount >= 2 || (lfCount === 1 && m !== lfCell)) break;
      b.place(m, W);
      placed[np++] = m;
      const n = b.fiveCellsThrough(m, W);
      if (n >= 2) {
        won = true;
        break;
      }
      if (n === 0) break;
      const f = b.firstFive;
      b.place(f, L);
      placed[np++] = f;
      lfCount = b.fiveCellsThrough(f, L);
      lfCell = b.firstFive;
    }
    while (np > 0) b.remove(placed[--np]!);
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

  /** Plain VCF with the winner to move. Precondition: the winner has no five cell. */
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
    const h1 = b.h1, h2 = b.h2, h3 = b.h3;
    if (this.provenWinner.get(h1, h2, h3) >= 0) {
      this.pvLen = -1;
      return PROVEN;
    }
    if (this.vcfFail.get(h1, h2, h3) >= 0) return FAILED;
    const W = this.W;
    const L = this.L;
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
      b.remove(m);
      if (n >= 2) {
        this.pv[d * 2] = m;
        this.pvLen = d * 2 + 1;
        this.sp = base;
        this.provenWinner.set(h1, h2, h3, 0);
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
    if (res === PROVEN) this.provenWinner.set(h1, h2, h3, 0);
    else if (res === FAILED) this.vcfFail.set(h1, h2, h3, 0);
    return res;
  }
}

/** Check a parsed certificate. Never throws for a wrong certificate; the report says why. */
export function verifyCertificate(cert: Certificate, opts: VerifyOptions = {}): VerifyReport {
  const c = new Checker(cert, opts);
  const r = c.run();
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
  if (r !== PROVEN) report.reason = c.reason;
  return report;
}

/** One line: `VERIFIED …`, `FAILED <reason>; line from root: …` or `UNKNOWN <reason>; …`. */
export function formatReport(r: VerifyReport): string {
  const line = r.line.length > 0 ? r.line.join(' ') : '(root)';
  if (r.result === 'verified') {
    return `VERIFIED ${r.positions} positions, ${r.entriesUsed} entries used (${r.entriesUnused} unused, ${r.vcfCalls} VCF searches, ${r.quickWins + r.lineReplays} shortcuts, ${r.ms} ms)`;
  }
  if (r.result === 'failed') return `FAILED ${r.reason}; line from root: ${line}`;
  return `UNKNOWN ${r.reason}; line from root: ${line} (${r.positions} positions checked, ${r.ms} ms)`;
}
