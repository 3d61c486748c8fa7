/**
 * What every protocol adapter shares: the reply shape handed to the session loop, the
 * options a bot is started with, and the quoting of referee text. The game the bot hosts
 * (`BotGame`) and its swap decisions (`SwapAdvisor`) live in src/bot/.
 *
 * Adapters do no I/O: they get lines (or file contents) and a clock function, and return
 * lines to print plus lines to log.
 */
import { BLACK, WHITE } from '../core/types.js';
import type { BookProbe } from '../search/types.js';

/** What an adapter answers to one input line: lines for the referee, lines for the log, maybe an exit. */
export interface Reply {
  out: string[];
  log: string[];
  /** Set when the session should end: the process exit code (0 = normal end). */
  exit?: number;
}

export const reply = (out: string[] = [], log: string[] = [], exit?: number): Reply => (exit === undefined ? { out, log } : { out, log, exit });

/** A line protocol: the session feeds it lines (without the line terminator) and EOF. */
export interface LineProtocol {
  readonly name: string;
  handle(line: string): Reply;
  eof(): Reply;
  /**
   * Told once, when a line first arrives after the session had been waiting for input: from
   * then on the referee sent each command after this process was up, so its start-up is not
   * on the referee's clock any more.
   */
  inputWaited?(): void;
  /**
   * Does this line start a clock on the referee's side (a move is asked for)? The session's
   * warm-up stops when one arrives; lines that do not (Gomocup's START and INFO) wait for it.
   * Without this method every line is urgent.
   */
  urgent?(line: string): boolean;
}

export interface BotOptions {
  /** Seeds the engine and every opening decision. */
  seed: string;
  /** `--time`: overrides the protocol's default budget (its meaning is per protocol, see play.ts). */
  timeMs?: number;
  /** `--nodes`: a node limit per move (Gomocup; `INFO max_node` overrides it). */
  nodes?: number;
  book?: BookProbe;
  /** Milliseconds since some fixed origin; injected so adapters stay testable. */
  now?: () => number;
  /** The bot's name where a protocol shows one (WPI team, Gomocup ABOUT). */
  name?: string;
}

export const BOT_NAME = 'gomoku-tss';
/** The package's version (package.json; a test keeps them equal). */
export const BOT_VERSION = '0.2.0';

export { BLACK, WHITE };

/** Split text on a separator, dropping empty tokens. */
export function words(line: string): string[] {
  return line
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
}

/** How much of a line from the referee an error message or a log quotes. */
export const QUOTE_MAX = 200;

/**
 * A referee's text as an error quotes it: at most QUOTE_MAX characters, then `…` and the
 * length, so a hostile 100 kB line is not echoed back whole (to the referee, stderr or the log).
 */
export function clip(text: string, max = QUOTE_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
