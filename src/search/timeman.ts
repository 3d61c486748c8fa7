/**
 * Time management: the one place that turns a move's `Limits` into a time plan. Protocol
 * adapters only translate their referee's clock into `Limits` (a turn limit, the game clock,
 * the time the referee counts that the search cannot see as `overheadMs`); the safety margin
 * and the pacing over the game are decided here.
 *
 *  - maximum: the hard limit; search stops as soon as it passes it. It is inside every given
 *    limit minus the overhead and a safety margin for what the clock checks cannot see (the
 *    last batch of nodes, garbage collection, writing the answer):
 *    margin(t) = min(t / 4, 25 ms + 3% of t, 150 ms).
 *  - optimum: the soft limit; no new iteration (or solver stage) starts after it. With a turn
 *    limit alone it is 90% of the maximum, so a move that is not forced uses nearly all of its
 *    time (the iteration running at the optimum is cut at the maximum; the move it has found
 *    by then still counts, because the previous best is searched first).
 *  - Game clock (`gameLeftMs` + `incrementMs`): a share of what is left over the moves still to
 *    play, movesToGo = max(12, 30 - ply / 4): optimum = left / movesToGo + 0.8 * increment,
 *    maximum = min(3 * optimum, left / 4 + increment).
 *  - Match budget without a clock reading (`matchMs`): optimum = matchMs / (1.5 * movesToGo),
 *    maximum = min(3 * optimum, matchMs / 4).
 * The tightest source wins. Node and depth limits pass through. No time limit: both Infinity.
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

/** The share of the maximum at which a turn-limited search starts no new iteration. */
export const OPTIMUM_SHARE = 0.9;

/** What the clock checks cannot see, for a budget of `ms`. */
export function safetyMargin(ms: number): number {
  return Math.min(ms / 4, 25 + ms * 0.03, 150);
}

/** How many more of our moves to budget for at `ply` stones. */
export function movesToGo(ply: number): number {
  return Math.max(12, 30 - ply / 4);
}

/** `ply` is the number of stones on the board (for pacing over the rest of the game). */
export function planTime(limits: Limits, ply = 0): TimePlan {
  let optimum = Infinity;
  let maximum = Infinity;
  const overhead = Math.max(0, limits.overheadMs ?? 0);
  // An overhead larger than 3/4 of a limit is a guess too high for so short a limit.
  const usable = (ms: number) => Math.max(ms / 4, ms - overhead);
  const mtg = movesToGo(ply);
  if (limits.turnMs !== undefined) {
    const t = usable(Math.max(0, limits.turnMs));
    const hard = Math.max(1, t - safetyMargin(t));
    maximum = Math.min(maximum, hard);
    optimum = Math.min(optimum, hard * OPTIMUM_SHARE);
  }
  if (limits.gameLeftMs !== undefined) {
    const left = usable(Math.max(0, limits.gameLeftMs));
    const inc = limits.incrementMs ?? 0;
    const opt = left / mtg + 0.8 * inc;
    const cap = Math.min(3 * opt, left / 4 + inc);
    const hard = Math.max(1, cap - safetyMargin(cap));
    maximum = Math.min(maximum, hard);
    optimum = Math.min(optimum, opt);
  }
  if (limits.matchMs !== undefined && limits.matchMs > 0) {
    const opt = limits.matchMs / (mtg * 1.5);
    const cap = Math.min(3 * opt, limits.matchMs / 4);
    const hard = Math.max(1, cap - safetyMargin(cap));
    maximum = Math.min(maximum, hard);
    optimum = Math.min(optimum, opt);
  }
  if (optimum > maximum) optimum = maximum;
  return {
    optimumMs: optimum,
    maximumMs: maximum,
    nodes: limits.nodes !== undefined && limits.nodes > 0 ? limits.nodes : Infinity,
    depth: limits.depth !== undefined && limits.depth > 0 ? limits.depth : Infinity,
  };
}
