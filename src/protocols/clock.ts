/**
 * Protocol clocks -> `Limits`. Policy: never hand the engine more than the referee allows
 * minus a safety margin. The margin covers what the engine cannot see: reading and writing
 * the line (or the file), the referee's own polling, timer granularity, garbage collection,
 * and on the first move the Node start-up and module loading that some referees count.
 */
import type { Limits } from '../search/types.js';

/** Margin for one answer with `budgetMs` available: 60 ms + 10 %, at most 1.5 s. */
export function safetyMargin(budgetMs: number): number {
  return Math.min(1500, 60 + Math.floor(budgetMs * 0.1));
}

/** Extra margin on the first answer of a process (Node start-up, JIT warm-up). */
export const STARTUP_MARGIN_MS = 250;

/** Never ask for less than this; the engine always returns some move quickly. */
export const MIN_TURN_MS = 10;

export interface ClockState {
  /** Hard limit for this answer (ms), if the protocol has one. */
  turnMs?: number;
  /** Time left on our game clock (ms), if any. */
  gameLeftMs?: number;
  incrementMs?: number;
  /** Whole-match budget (Gomocup `timeout_match`). */
  matchMs?: number;
  /** Stones on the board: the opening gets a smaller share. */
  ply: number;
  /** True on the first answer after start-up. */
  first?: boolean;
}

/** How many more of our moves to budget for, given the ply. */
export function movesToGo(ply: number): number {
  return Math.max(12, 30 - Math.floor(ply / 4));
}

export function limitsFor(c: ClockState): Limits {
  let budget = Infinity;
  // A turn limit at or below zero (a caller's margins ate it) is the smallest budget, never "no limit".
  if (c.turnMs !== undefined) budget = Math.min(budget, Math.max(0, c.turnMs - safetyMargin(Math.max(0, c.turnMs))));
  if (c.gameLeftMs !== undefined) {
    const left = Math.max(0, c.gameLeftMs - safetyMargin(Math.min(c.gameLeftMs, 10_000)));
    const share = left / movesToGo(c.ply) + (c.incrementMs ?? 0);
    budget = Math.min(budget, share, left);
  }
  if (c.first && Number.isFinite(budget)) budget -= STARTUP_MARGIN_MS;
  const limits: Limits = {};
  if (Number.isFinite(budget)) limits.turnMs = Math.max(MIN_TURN_MS, Math.floor(budget));
  if (c.gameLeftMs !== undefined) limits.gameLeftMs = Math.max(0, Math.floor(c.gameLeftMs));
  if (c.incrementMs !== undefined) limits.incrementMs = c.incrementMs;
  if (c.matchMs !== undefined) limits.matchMs = c.matchMs;
  return limits;
}
