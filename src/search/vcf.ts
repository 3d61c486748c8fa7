/**
 * VCF: victory by continuous fours, for the side to move (the attacker A).
 *
 * Every A move makes a four (or better); D's reply is forced (the one five cell). A must
 * answer a D four, and may do so only with a move that is itself a four. Failures are kept in
 * a transposition table keyed by the 64-bit hash (a VCF result depends only on the position,
 * because the search is complete); an aborted search stores nothing, and neither does a node
 * whose subtree was cut by the depth limit (a deeper search may still win from it).
 */
import { MAX_AREA, type Color } from '../core/types.js';
import { classShift, type Board } from '../core/board.js';
import { C_OPEN_FOUR, C_FOUR } from '../core/patterns.js';
import { ThreatScratch, collectFours, findFive, fiveCount } from './threats.js';
import { VCF_MAX_DEPTH, VCF_TABLE_BITS } from './tuning.js';

export interface VcfOptions {
  maxNodes?: number;
  /** Stop when now() passes this (ms, same clock as `now`). */
  deadline?: number;
  now?: () => number;
  maxDepth?: number;
}

export interface VcfResult {
  win: boolean;
  /** A's moves and D's forced replies, alternating, ending with A's five. */
  line: number[];
  nodes: number;
  /** True when the search ran out of budget (then `win` is false and means "not found"). */
  aborted: boolean;
}

export class VcfSearcher {
  private readonly ttLo = new Int32Array(1 << VCF_TABLE_BITS);
  private readonly ttHi = new Int32Array(1 << VCF_TABLE_BITS);
  private readonly moves: Int16Array;
  private readonly line: Int16Array;
  private readonly scratch = new ThreatScratch();
  private lineLen = 0;
  nodes = 0;
  private maxNodes = Infinity;
  private deadline = Infinity;
  private now: () => number = () => 0;
  private aborted = false;
  /** Set when a node stopped at the depth limit (its ancestors' failures are not stored). */
  private depthCut = false;
  private maxDepth = VCF_MAX_DEPTH;
  private b!: Board;
  private a: Color = 1;

  constructor(area = MAX_AREA) {
    this.moves = new Int16Array(area * (VCF_MAX_DEPTH + 1));
    this.line = new Int16Array(2 * VCF_MAX_DEPTH + 1); // A's moves, D's replies, A's five
  }

  /** Forget stored failures (needed only if the same searcher moves to a board of another rule). */
  clear(): void {
    this.ttLo.fill(0);
    this.ttHi.fill(0);
  }

  private ttSize = 0;
  private ttRule = '';

  /** VCF for the side to move; the board is restored afterwards. */
  search(b: Board, opts: VcfOptions = {}): VcfResult {
    // compared field by field: this runs for every probe, and a tag string would be built each time
    if (b.size !== this.ttSize || b.rule !== this.ttRule) {
      this.clear();
      this.ttSize = b.size;
      this.ttRule = b.rule;
    }
    this.b = b;
    this.a = b.toMove;
    this.nodes = 0;
    this.aborted = false;
    this.maxNodes = opts.maxNodes ?? Infinity;
    this.deadline = opts.deadline ?? Infinity;
    this.now = opts.now ?? (() => 0);
    this.maxDepth = Math.min(opts.maxDepth ?? VCF_MAX_DEPTH, VCF_MAX_DEPTH);
    this.lineLen = 0;
    this.depthCut = false;
    const win = this.or(0, 0);
    const line: number[] = [];
    if (win) for (let i = 0; i < this.lineLen; i++) line.push(this.line[i]!);
    return { win, line, nodes: this.nodes, aborted: this.aborted && !win };
  }

  private ttHas(b: Board): boolean {
    const i = b.hashLo & ((1 << VCF_TABLE_BITS) - 1);
    return this.ttLo[i] === b.hashLo && this.ttHi[i] === (b.hashHi | 1);
  }

  private ttStore(b: Board): void {
    const i = b.hashLo & ((1 << VCF_TABLE_BITS) - 1);
    this.ttLo[i] = b.hashLo;
    this.ttHi[i] = b.hashHi | 1; // |1 so an empty slot never matches
  }

  /** A to move. Writes the winning line into this.line from position `lp`. */
  private or(depth: number, lp: number): boolean {
    const b = this.b;
    const a = this.a;
    const d = (3 - a) as Color;
    this.nodes++;
    if ((this.nodes & 63) === 0 && this.now() > this.deadline) this.aborted = true;
    if (this.nodes > this.maxNodes) this.aborted = true;
    if (this.aborted) return false;
    const five = findFive(b, a);
    if (five >= 0) {
      this.line[lp] = five;
      this.lineLen = lp + 1;
      return true;
    }
    if (depth >= this.maxDepth) {
      this.depthCut = true;
      return false;
    }
    if (this.ttHas(b)) return false;
    const nd = fiveCount(b, d);
    if (nd >= 2) return false;
    const base = depth * MAX_AREA;
    let n: number;
    if (nd === 1) {
      const f = findFive(b, d);
      if (((b.state[f]! >>> classShift(a)) & 15) < C_FOUR) {
        this.ttStore(b);
        return false;
      }
      this.moves[base] = f;
      n = 1;
    } else {
      n = collectFours(b, a, this.moves, base, this.scratch);
    }
    const cutAbove = this.depthCut;
    this.depthCut = false;
    for (let i = 0; i < n; i++) {
      const m = this.moves[base + i]!;
      const cls = (b.state[m]! >>> classShift(a)) & 15;
      b.play(m);
      this.line[lp] = m;
      if (cls >= C_OPEN_FOUR) {
        // two five cells and D has none: D blocks one, A completes the other
        const r = findFive(b, a);
        b.play(r);
        const w = findFive(b, a);
        b.undo();
        b.undo();
        this.line[lp + 1] = r;
        this.line[lp + 2] = w;
        this.lineLen = lp + 3;
        return true;
      }
      const r = findFive(b, a);
      b.play(r);
      this.line[lp + 1] = r;
      const ok = this.or(depth + 1, lp + 2);
      b.undo();
      b.undo();
      if (ok) return true;
      if (this.aborted) return false;
    }
    if (!this.depthCut) this.ttStore(b);
    this.depthCut ||= cutAbove;
    return false;
  }
}
