/**
 * Plain data that crosses the search boundary. Moves are point indices (row * size + col,
 * row 0 at the top), never strings; search does no I/O.
 */
import type { Board } from '../core/board.js';

/** How long / how far one `go` may run. All fields optional; the tightest one wins. */
export interface Limits {
  /** The referee's limit for this answer in ms (the time manager keeps its margin inside it). */
  turnMs?: number;
  /** Time left on our game clock in ms (ALPHANO, Gomocup `time_left`). */
  gameLeftMs?: number;
  /** Increment per move in ms. */
  incrementMs?: number;
  /** Whole-match budget in ms (Gomocup `timeout_match`), for pacing. */
  matchMs?: number;
  /**
   * Time the referee counts for this answer that the search cannot use: process start-up on a
   * first answer, a file referee's polling. Taken off every time limit above.
   */
  overheadMs?: number;
  nodes?: number;
  depth?: number;
}

export type MoveSource = 'book' | 'five' | 'vcf' | 'vct' | 'defence' | 'alphabeta';

export interface SearchInfo {
  depth: number;
  /** Score from the side to move's point of view (centipawn-like; mate scores near +-MATE). */
  score: number;
  nodes: number;
  ms: number;
  pv: number[];
}

/** Why alpha-beta's iterative deepening ended (diagnostics: the Gomocup DEBUG line). */
export type StopReason = 'soft' | 'hard' | 'nodes' | 'single' | 'depth';

export interface MoveResult extends SearchInfo {
  move: number;
  source: MoveSource;
  /** Set when alpha-beta chose the move: why it stopped, and the ms it started at (after the solver stages). */
  stop?: StopReason;
  searchFromMs?: number;
}

export type Verdict = 'win' | 'loss' | 'draw' | 'unknown';

export interface BookHit {
  /** From the side to move's point of view. */
  verdict: Verdict;
  score: number;
  depth: number;
  /** In the caller's orientation; absent if the book has no move for this position. */
  bestMove?: number;
}

/** What search needs from an opening book; the book module implements it. */
export interface BookProbe {
  probe(board: Board): BookHit | undefined;
}

/** Mate scores: a win in n plies scores MATE - n. */
export const MATE = 30000;
export const MATE_BOUND = MATE - 1000;
/** Above every score, mates included: alpha-beta's open window. (Proof numbers have their own
 *  infinity, INF in pntt.ts.) */
export const SCORE_INF = MATE + 2000;
