/**
 * Time management: turns `Limits` into two numbers for one move.
 *
 *  - maximum: the hard limit; search stops as soon as it passes it. It is always inside every
 *    given limit minus a safety margin (Node start-up, I/O and the last node batch):
 *    margin = clamp(5% of the limit, 30 ms, 150 ms), and never more than a third of it.
 *  - optimum: the soft limit; no new iteration (or solver stage) starts after it.
 *
 * Sources, the tightest wins:
 *  - turnMs (per-move time): maximum = turnMs - margin, optimum = 60% of that (an iteration
 *    costs about as much as all earlier ones together; an interrupted one is not wasted: the
 *    previous best move is searched first, and any move that beat it by then is played).
 *  - gameLeftMs (+ incrementMs): spread over an expected number of moves still to play
 *    (movesToGo = max(12, 40 - ply/4)): optimum = left / movesToGo + 0.8 * increment,
 *    maximum = min(3 * optimum, left / 4 + increment) - margin.
 *  - matchMs (whole-match budget, Gomocup timeout_match): optimum = matchMs / (1.5 * movesToGo),
 *    maximum = min(3 * optimum, matchMs / 4) - margin.
 * Node and depth limits pass through unchanged. With no time limit at all, both are Infinity.
 */
import type { Limits } from './types.js';

export interface TimePlan {
  /** ms after start: do not start new work after this. */
  optimumMs: number;
  /** ms after start: stop at once after this (the hard limit, margin already taken off). */
  maximumMs: number;
  nodes: number;
  depth: number;
}

export function safetyMargin(limitMs: number): number {
  const m = Math.min(150, Math.max(30, limitMs * 0.05));
  return Math.min(m, limitMs / 3);
}

/** `ply` is the number of stones on the board (for pacing over the rest of the game). */
export function planTime(limits: Limits, ply = 0): TimePlan {
  let optimum = Infinity;
  let maximum = Infinity;
  const movesToGo = Math.max(12, 40 - ply / 4);
  if (limits.turnMs !== undefined && limits.turnMs >= 0) {
    const hard = Math.max(1, limits.turnMs - safetyMargin(limits.turnMs));
    maximum = Math.min(maximum, hard);
    optimum = Math.min(optimum, hard * 0.6);
  }
  if (limits.gameLeftMs !== undefined && limits.gameLeftMs >= 0) {
    const left = limits.gameLeftMs;
    const inc = limits.incrementMs ?? 0;
    const opt = left / movesToGo + 0.8 * inc;
    const hard = Math.max(1, Math.min(3 * opt, left / 4 + inc) - safetyMargin(Math.min(left, 3 * opt)));
    maximum = Math.min(maximum, hard);
    optimum = Math.min(optimum, opt, hard);
  }
  if (limits.matchMs !== undefined && limits.matchMs >= 0) {
    const opt = limits.matchMs / (movesToGo * 1.5);
    const hard = Math.max(1, Math.min(3 * opt, limits.matchMs / 4) - safetyMargin(3 * opt));
    maximum = Math.min(maximum, hard);
    optimum = Math.min(optimum, opt, hard);
  }
  if (optimum > maximum) optimum = maximum;
  return {
    optimumMs: optimum,
    maximumMs: maximum,
    nodes: limits.nodes !== undefined && limits.nodes > 0 ? limits.nodes : Infinity,
    depth: limits.depth !== undefined && limits.depth > 0 ? limits.depth : Infinity,
  };
}
