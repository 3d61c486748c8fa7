/**
 * The Engine facade used by every protocol adapter and CLI command. It never sees text and
 * does no I/O: positions come in as point indices, moves leave as a `MoveResult`.
 *
 * v0: five, then block the opponent's five, then the best cell by a pattern heuristic.
 * The full pipeline (book -> VCF -> defence -> VCT -> alpha-beta) replaces `choose`.
 */
import seedrandom from 'seedrandom';
import { Board } from '../core/board.js';
import { type Color, type Rule, BLACK, EMPTY } from '../core/types.js';
import { C_FIVE } from '../core/patterns.js';
import type { BookProbe, Limits, MoveResult, SearchInfo } from './types.js';

export interface EngineOptions {
  size?: number;
  rule?: Rule;
  /** Seed for every random choice (KoTH passes one); same seed + same limits = same moves. */
  seed?: string;
  book?: BookProbe;
}

const CLASS_WEIGHT = [0, 10, 40, 30, 120, 600, 400, 2500, 8000, 100000];

export class Engine {
  board: Board;
  private rng: () => number;
  private readonly seed: string;
  book?: BookProbe;

  constructor(opts: EngineOptions = {}) {
    this.board = new Board(opts.size ?? 15, opts.rule ?? 'freestyle');
    this.seed = opts.seed ?? 'gomoku-tss';
    this.rng = seedrandom(this.seed);
    this.book = opts.book;
  }

  newGame(size = this.board.size, rule: Rule = this.board.rule): void {
    this.board = new Board(size, rule);
    this.rng = seedrandom(this.seed);
  }

  /** Replace the position: stones in move order (or any order for a stone set) and the side to move. */
  setPosition(stones: readonly { index: number; color: Color }[], toMove: Color): void {
    const b = new Board(this.board.size, this.board.rule);
    for (const s of stones) b.put(s.index, s.color);
    b.setToMove(toMove);
    this.board = b;
  }

  /** Play a move for the side to move (the caller has checked that it is legal). */
  play(index: number): void {
    this.board.play(index);
  }

  undo(): void {
    this.board.undo();
  }

  isLegal(index: number): boolean {
    return Number.isInteger(index) && index >= 0 && index < this.board.area && this.board.cells[index] === EMPTY;
  }

  go(limits: Limits = {}, onInfo?: (info: SearchInfo) => void): MoveResult {
    const t0 = Date.now();
    void limits;
    const b = this.board;
    const me = b.toMove;
    const opp = (3 - me) as Color;
    let best = -1;
    let bestScore = -Infinity;
    let source: MoveResult['source'] = 'alphabeta';
    const center = (b.size - 1) / 2;
    for (let q = 0; q < b.area; q++) {
      if (b.cells[q] !== EMPTY) continue;
      const mine = b.classOf(q, me);
      const theirs = b.classOf(q, opp);
      let s: number;
      if (mine === C_FIVE) s = 1e9;
      else if (theirs === C_FIVE) s = 1e8;
      else {
        const x = q % b.size;
        const y = (q - x) / b.size;
        s = CLASS_WEIGHT[mine]! * 1.2 + CLASS_WEIGHT[theirs]! - (Math.abs(x - center) + Math.abs(y - center)) * 0.5;
      }
      s += this.rng() * 0.01;
      if (s > bestScore) {
        bestScore = s;
        best = q;
      }
    }
    if (bestScore >= 1e9) source = 'five';
    else if (bestScore >= 1e8) source = 'defence';
    const info = { depth: 1, score: 0, nodes: b.area, ms: Date.now() - t0, pv: [best] };
    onInfo?.(info);
    return { ...info, move: best, source };
  }
}

export { BLACK };
