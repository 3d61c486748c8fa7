/**
 * Protocol clocks -> `Limits`. Adapters only translate what their referee says about time:
 * the limit for this answer, the game clock, the match budget, and what the referee counts
 * that the engine cannot see (`overheadMs`: Node's start-up on the first answer of a process,
 * a file referee's polling). Safety margins and pacing over the game are the time manager's
 * (search/timeman.ts), never decided here.
 */
import type { Limits } from '../search/types.js';

/** What a referee counts on the first answer of a process before our code runs (Node start-up, JIT warm-up). */
export const STARTUP_OVERHEAD_MS = 250;

export interface ClockState {
  /** The referee's limit for this answer (ms), if the protocol has one. */
  turnMs?: number;
  /** Time left on our game clock (ms), if any. */
  gameLeftMs?: number;
  incrementMs?: number;
  /** Whole-match budget (Gomocup `timeout_match`). */
  matchMs?: number;
  /** Stones on the board (unused by the translation; the engine paces from its own board). */
  ply: number;
  /** True on the first answer after start-up. */
  first?: boolean;
  /** The protocol's own transport latency that the referee counts (ms). */
  overheadMs?: number;
}

export function limitsFor(c: ClockState): Limits {
  const limits: Limits = {};
  if (c.turnMs !== undefined) limits.turnMs = Math.max(0, Math.floor(c.turnMs));
  if (c.gameLeftMs !== undefined) limits.gameLeftMs = Math.max(0, Math.floor(c.gameLeftMs));
  if (c.incrementMs !== undefined) limits.incrementMs = c.incrementMs;
  if (c.matchMs !== undefined) limits.matchMs = c.matchMs;
  const overhead = (c.first ? STARTUP_OVERHEAD_MS : 0) + (c.overheadMs ?? 0);
  if (overhead > 0 && (limits.turnMs !== undefined || limits.gameLeftMs !== undefined || limits.matchMs !== undefined)) limits.overheadMs = overhead;
  return limits;
}
