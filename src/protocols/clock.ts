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

/**
 * The sane maxima of a clock reading. No referee this bot plays gives more than 30 s for a
 * move (Gomocup's default; WPI 10 s, KoTH asks for 0.5 s) or 20 s for a game (ALPHANO;
 * CodeCup about 30 s, Gomocup's match clock 180 s): 10 minutes a move and a day a game
 * still cover any human time control, and a reading above them (`TURN 99999999999999 5`)
 * is a broken referee that would otherwise have the bot think without limit.
 */
export const MAX_TURN_MS = 600_000;
export const MAX_GAME_MS = 86_400_000;

/** Clip a clock reading to `max`; `note` is the one error line to report when it was over. */
export function capClock(ms: number, max: number, what: string): { ms: number; note?: string } {
  if (ms <= max) return { ms };
  return { ms: max, note: `${what} of ${ms} ms is over the maximum of ${max} ms (${fmtMs(max)}); read as ${max}` };
}

function fmtMs(ms: number): string {
  return ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`;
}

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

/** The caps hold here too, whatever an adapter passes (the adapters report a capped reading). */
export function limitsFor(c: ClockState): Limits {
  const limits: Limits = {};
  const clamp = (ms: number, max: number) => (Number.isFinite(ms) ? Math.min(max, Math.max(0, Math.floor(ms))) : 0);
  if (c.turnMs !== undefined) limits.turnMs = clamp(c.turnMs, MAX_TURN_MS);
  if (c.gameLeftMs !== undefined) limits.gameLeftMs = clamp(c.gameLeftMs, MAX_GAME_MS);
  if (c.incrementMs !== undefined) limits.incrementMs = clamp(c.incrementMs, MAX_TURN_MS);
  if (c.matchMs !== undefined) limits.matchMs = clamp(c.matchMs, MAX_GAME_MS);
  const overhead = (c.first ? STARTUP_OVERHEAD_MS : 0) + (c.overheadMs ?? 0);
  if (overhead > 0 && (limits.turnMs !== undefined || limits.gameLeftMs !== undefined || limits.matchMs !== undefined)) limits.overheadMs = overhead;
  return limits;
}
