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
 *   75 busy: another process holds what the command needs (`book build`: the book's
 *      writer lock); nothing was changed, try again later (sysexits' EX_TEMPFAIL)
 *
 * A handler signals bad input by throwing `CliError` (main.ts prints it and sets the exit
 * status) or by writing the line itself and setting `process.exitCode`; both are fine.
 */
import type { Argv, Options } from 'yargs';
import type { Board } from '../core/board.js';
import { parsePosition, parseRule, type PositionSpec } from '../core/notation.js';
import { boardFromSpec } from '../core/position.js';
import { type Color, type Result, type Rule, MAX_SIZE, MIN_SIZE, err, ok, parseColor } from '../core/types.js';

export const EXIT_OK = 0;
export const EXIT_NEGATIVE = 1;
export const EXIT_USAGE = 2;
export const EXIT_UNDECIDED = 3;
export const EXIT_INTERNAL = 70;
export const EXIT_BUSY = 75;

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

/**
 * What a numeric option accepts. `positive`: any number > 0; `positive-int`: an integer > 0;
 * `count`: an integer >= 0; `min`/`max` narrow any of them.
 */
export interface NumberSpec {
  kind: 'positive' | 'positive-int' | 'count';
  min?: number;
  max?: number;
  /** Appended to the expectation in the error, e.g. 'of ms'. */
  unit?: string;
}

const NUMBER_TOKEN = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/** What the error says the value must be: "a positive integer", "an integer in 1..256". */
function expectation(spec: NumberSpec): string {
  const unit = spec.unit ? ` ${spec.unit}` : '';
  const int = spec.kind !== 'positive';
  const lo = spec.min ?? (spec.kind === 'count' ? 0 : spec.kind === 'positive-int' ? 1 : undefined);
  if (spec.max !== undefined) return `${int ? 'an integer' : 'a number'} in ${lo ?? 0}..${spec.max}${unit}`;
  if (spec.min !== undefined) return `${int ? 'an integer' : 'a number'} >= ${spec.min}${unit}`;
  if (spec.kind === 'count') return `a non-negative integer${unit}`;
  return `a positive ${int ? 'integer' : 'number'}${unit}`;
}

/**
 * A numeric option's value from the token as typed, or an error naming that token:
 * `--time must be a positive number of ms, got 'abc'` (yargs' own number parsing would have
 * turned it into NaN before anyone could name it).
 */
export function parseNumberOption(flag: string, raw: unknown, spec: NumberSpec): Result<number> {
  const text = typeof raw === 'number' ? String(raw) : String(raw ?? '').trim();
  const bad = err(`${flag} must be ${expectation(spec)}, got '${text}'`);
  if (typeof raw !== 'number' && !NUMBER_TOKEN.test(text)) return bad;
  const n = Number(text);
  if (!Number.isFinite(n)) return bad;
  if (spec.kind !== 'positive' && !Number.isSafeInteger(n)) return bad;
  if (spec.kind === 'count' ? n < 0 : n <= 0) return bad;
  if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) return bad;
  return ok(n);
}

/**
 * Add a numeric option, validated by `parseNumberOption` before the handler runs. It is
 * declared a string (so the raw token reaches the check) and then a number, which is what
 * `--help` shows: yargs prints the number type last, and parses a string-typed key as given.
 */
export function withNumberOption<T, K extends string>(
  y: Argv<T>,
  name: K,
  o: NumberSpec & { describe: string; default?: number },
): Argv<T & { [key in K]: number }> {
  const opt: Options = {
    type: 'string',
    requiresArg: true,
    describe: o.describe,
    coerce: coerceWith((v) => parseNumberOption(`--${name}`, v, o)),
  };
  if (o.default !== undefined) opt.default = o.default;
  return y.option(name, opt).number(name) as unknown as Argv<T & { [key in K]: number }>;
}

/** Several numeric options at once: `withNumberOptions(y, { time: {...}, nodes: {...} })`. */
export function withNumberOptions<T, K extends string>(
  y: Argv<T>,
  specs: Record<K, NumberSpec & { describe: string; default?: number }>,
): Argv<T & { [key in K]: number }> {
  let out = y as Argv<unknown>;
  for (const name of Object.keys(specs) as K[]) out = withNumberOption(out, name, specs[name]);
  return out as unknown as Argv<T & { [key in K]: number }>;
}

/** Add --size (5..22, default 15): the same option, help and error in every command. */
export function withSizeOption<T>(y: Argv<T>): Argv<T & { size: number }> {
  return (
    y
      .option('size', {
        type: 'string',
        default: 15,
        requiresArg: true,
        describe: `board size (${MIN_SIZE}..${MAX_SIZE})`,
        coerce: coerceWith(parseSize),
      })
      // shown as a number in --help (see withNumberOption); parseSize reads the typed token
      .number('size') as unknown as Argv<T & { size: number }>
  );
}

/** Add --size, --rule and --to-move (already validated and typed when the handler runs). */
export function withPositionOptions<T>(y: Argv<T>): Argv<T & PositionArgs> {
  return withSizeOption(y)
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

export interface PositionArgv {
  position?: unknown;
  size?: unknown;
  rule?: unknown;
  toMove?: unknown;
}

/** The position of a command's argv (POSITION words + --size/--rule/--to-move), or the one error line. */
export function positionArgs(argv: PositionArgv): Result<LoadedPosition> {
  const size = typeof argv.size === 'number' ? ok(argv.size) : parseSize(argv.size ?? 15);
  if (!size.ok) return size;
  const rule = typeof argv.rule === 'string' ? parseRule(argv.rule) : ok<Rule>('freestyle');
  if (!rule.ok) return rule;
  let toMove: Color | undefined;
  if (argv.toMove === 1 || argv.toMove === 2) toMove = argv.toMove;
  else if (argv.toMove !== undefined) {
    const c = parseToMove(argv.toMove);
    if (!c.ok) return c;
    toMove = c.value;
  }
  return loadPosition(positionText(argv), { size: size.value, rule: rule.value, toMove });
}

/** The same, or exit 2 with the one line. */
export function positionFromArgs(argv: PositionArgv): LoadedPosition {
  return orFail(positionArgs(argv));
}
