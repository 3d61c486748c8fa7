/**
 * What every command shares: exit codes, the one-line error, the position options
 * (--size, --rule, --to-move) and the POSITION argument, and JSON output.
 *
 * Exit status conventions (all commands):
 *   0  success (a `win`, a verified certificate, a move printed, ...)
 *   1  a negative answer the command was asked for (e.g. `verify`: FAILED)
 *   2  bad usage or bad input: ONE line `gomoku: <message>` on stderr, no stack trace
 *   3  undecided: a budget ran out before an answer (e.g. `verify`: UNKNOWN)
 *   70 internal error (a bug): still one line; set GOMOKU_DEBUG=1 to see the stack
 *
 * A handler signals bad input by throwing `CliError` (main.ts prints it and sets the exit
 * status) or by writing the line itself and setting `process.exitCode`; both are fine.
 */
import type { Argv } from 'yargs';
import type { Board } from '../core/board.js';
import { parsePosition, parseRule, type PositionSpec } from '../core/notation.js';
import { boardFromSpec } from '../core/position.js';
import { type Color, type Result, type Rule, MAX_SIZE, MIN_SIZE, err, ok, parseColor } from '../core/types.js';

export const EXIT_OK = 0;
export const EXIT_NEGATIVE = 1;
export const EXIT_USAGE = 2;
export const EXIT_UNDECIDED = 3;
export const EXIT_INTERNAL = 70;

/** An error meant for the user: main.ts prints `gomoku: <message>` and exits with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_USAGE,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Stop the command with a one-line usage error (exit 2). */
export function fail(message: string): never {
  throw new CliError(message);
}

/**
 * The same one line and exit status 2 without throwing, for handlers that report and return
 * (the book and solve commands, whose tests run the handler in-process).
 */
export function usageError(message: string): void {
  process.stderr.write(`gomoku: ${message}\n`);
  process.exitCode = EXIT_USAGE;
}

/** Unwrap a Result, turning its error into a one-line usage error. */
export function orFail<T>(r: Result<T>): T {
  if (!r.ok) fail(r.error);
  return r.value;
}

/** One JSON object on one line of stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value) + '\n');
}

// --- option values ------------------------------------------------------------------

export function parseSize(v: unknown): Result<number> {
  const s = String(v).trim();
  const n = /^\d+$/.test(s) ? Number(s) : NaN;
  if (!Number.isInteger(n) || n < MIN_SIZE || n > MAX_SIZE) return err(`bad --size '${String(v)}' (expected ${MIN_SIZE}..${MAX_SIZE})`);
  return ok(n);
}

export function parseToMove(v: unknown): Result<Color> {
  const c = parseColor(String(v));
  if (c === undefined) return err(`bad --to-move '${String(v)}' (expected black or white)`);
  return ok(c);
}

/** yargs `coerce` functions: a thrown Error reaches main.ts's fail handler as one line. */
const coerceWith =
  <T>(parse: (v: unknown) => Result<T>) =>
  (v: unknown): T => {
    if (Array.isArray(v)) v = v[v.length - 1]; // `--size 9 --size 11`: the last one wins
    const r = parse(v);
    if (!r.ok) throw new CliError(r.error);
    return r.value;
  };

export interface PositionArgs {
  size: number;
  rule: Rule;
  toMove?: Color;
}

/** Add --size, --rule and --to-move (already validated and typed when the handler runs). */
export function withPositionOptions<T>(y: Argv<T>): Argv<T & PositionArgs> {
  return y
    .option('size', {
      type: 'string',
      default: '15',
      requiresArg: true,
      describe: `board size (${MIN_SIZE}..${MAX_SIZE})`,
      coerce: coerceWith(parseSize),
    })
    .option('rule', {
      type: 'string',
      default: 'freestyle',
      requiresArg: true,
      describe: 'freestyle: five or more wins; standard: exactly five wins',
      coerce: coerceWith((v) => parseRule(String(v))),
    })
    .option('to-move', {
      type: 'string',
      requiresArg: true,
      describe: 'side to move (black|white); needed for stone sets with uneven counts',
      coerce: coerceWith(parseToMove),
    }) as unknown as Argv<T & PositionArgs>;
}

/**
 * Add the POSITION argument to a command declared as `name [position..]` (or
 * `name <position..>`): the words are joined with spaces, so `gomoku show h8 i9 h9` and
 * `gomoku show "h8 i9 h9"` are the same.
 */
export function withPositionArgument<T>(y: Argv<T>): Argv<T & { position: string[] }> {
  return y.positional('position', {
    type: 'string',
    array: true,
    describe: 'a move list (h8 i9 h9, h8,i9,h9, h8i9h9) or a stone set (B:h8,h9;W:i9)',
  }) as unknown as Argv<T & { position: string[] }>;
}

/** The position words from argv as one string ('' = the empty board). */
export function positionText(argv: { position?: unknown }): string {
  const p = argv.position;
  if (p === undefined || p === null) return '';
  return (Array.isArray(p) ? p : [p]).map(String).join(' ');
}

export interface LoadedPosition {
  /** The validated board, side to move set. */
  board: Board;
  spec: PositionSpec;
  rule: Rule;
  size: number;
  /** The last move when the position was a move list, else undefined. */
  lastMove: number | undefined;
}

/** Text + options -> a validated position, or one error line (without the `gomoku: ` prefix). */
export function loadPosition(text: string, opts: { size?: number; rule?: Rule; toMove?: Color }): Result<LoadedPosition> {
  const size = opts.size ?? 15;
  const rule = opts.rule ?? 'freestyle';
  const spec = parsePosition(text, size);
  if (!spec.ok) return spec;
  const board = boardFromSpec(spec.value, rule, opts.toMove);
  if (!board.ok) return board;
  const moves = spec.value.moves;
  const lastMove = spec.value.ordered && moves.length > 0 ? moves[moves.length - 1]!.index : undefined;
  return ok({ board: board.value, spec: spec.value, rule, size, lastMove });
}

/** The position of a command's argv (POSITION + --size/--rule/--to-move), or exit 2 with one line. */
export function positionFromArgs(argv: { position?: unknown; size?: unknown; rule?: unknown; toMove?: unknown }): LoadedPosition {
  return orFail(
    loadPosition(positionText(argv), {
      size: typeof argv.size === 'number' ? argv.size : orFail(parseSize(argv.size ?? 15)),
      rule: typeof argv.rule === 'string' ? orFail(parseRule(argv.rule)) : 'freestyle',
      toMove: argv.toMove === undefined ? undefined : argv.toMove === 1 || argv.toMove === 2 ? argv.toMove : orFail(parseToMove(argv.toMove)),
    }),
  );
}
