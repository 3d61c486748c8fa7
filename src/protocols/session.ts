/**
 * The one loop that owns stdin/stdout for the line protocols. It reads lines (LF, CRLF or
 * CR), hands each to the adapter, writes the adapter's answer at once (stdout to a pipe or
 * file is synchronous on Linux, so every answer is flushed when `write` returns), and
 * appends a transcript to `--log FILE` (`< ` input, `> ` output, `# ` log).
 *
 * Errors never reach stdout as stack traces: an exception from an adapter (a bug) is one
 * line on stderr (its stack goes to the transcript) and the session ends with exit code 70,
 * after the adapter's `internalError` answer if it has one (Gomocup answers `ERROR`).
 */
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { LineProtocol, Reply } from './common.js';
import { clip, errorText } from './common.js';

export interface SessionIO {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Where errors go (default: nowhere). */
  errors?: NodeJS.WritableStream;
  /** Append a transcript to this file. */
  logFile?: string;
  /** Also send every log line (not only errors) to `errors`. */
  verbose?: boolean;
  /** Warm the JIT up before the first urgent line (LineProtocol.urgent) is handled. */
  warmUp?: WarmUpSteps;
}

/** A warm-up run in steps between input events (search/warmup.ts's WarmUp). */
export interface WarmUpSteps {
  /** One step; false once the warm-up is over. */
  step(): boolean;
  stop(): void;
  readonly moves: number;
}

/** A bug (an exception inside an adapter): the exit status of every gomoku command for one (README, Exit status). */
export const EXIT_INTERNAL = 70;

/**
 * Log lines that are errors go to stderr even without --verbose. Protocol failures (the
 * `koth: ...` lines) end the session with a non-zero exit and are forced to stderr by the
 * caller; an end of input is a normal end (exit 0) and stays in the transcript only, so an
 * immediate EOF prints nothing (and a missing book stays the one warning line).
 */
const ERROR_LINE = /error|illegal/i;

/**
 * The longest line the transcript keeps whole: longer than any valid line of any protocol
 * (a full KoTH board is about 3,200 characters); a longer one is kept as its start and length.
 */
export const TRANSCRIPT_LINE_MAX = 4096;

export class Transcript {
  constructor(
    private readonly file?: string,
    private readonly errors?: NodeJS.WritableStream,
    private readonly verbose = false,
  ) {}

  private append(prefix: string, lines: readonly string[]): void {
    if (!this.file || lines.length === 0) return;
    try {
      appendFileSync(this.file, lines.map((l) => `${prefix}${l}\n`).join(''));
    } catch {
      // A transcript that cannot be written must not stop the game.
    }
  }

  input(line: string): void {
    this.append('< ', [clip(line, TRANSCRIPT_LINE_MAX)]);
  }

  output(lines: readonly string[]): void {
    this.append('> ', lines);
  }

  /** Lines for the transcript only (stderr with --verbose): a stack trace, say, which stderr shows only as its one line. */
  detail(lines: readonly string[]): void {
    const kept = lines.filter((l) => l !== '').map((l) => clip(l, TRANSCRIPT_LINE_MAX));
    this.append('# ', kept);
    if (this.errors && this.verbose) for (const l of kept) this.errors.write(`gomoku: ${l}\n`);
  }

  log(lines: readonly string[], forceStderr = false): void {
    const kept = lines.map((l) => clip(l, TRANSCRIPT_LINE_MAX));
    this.append('# ', kept);
    if (!this.errors) return;
    for (const l of kept) if (forceStderr || this.verbose || ERROR_LINE.test(l)) this.errors.write(`gomoku: ${l}\n`);
  }
}

export interface InternalErrorHandler {
  internalError?(message: string): Reply;
}

/** A gap this long (ms) between an answer and the next line means we were waiting for input. */
const IDLE_MS = 5;

/** Run `proto` over `io` until it asks to exit or input ends; resolves to the exit code. */
export async function runLineSession(proto: LineProtocol & InternalErrorHandler, io: SessionIO): Promise<number> {
  const tr = new Transcript(io.logFile, io.errors, io.verbose);
  tr.log([`session start: ${proto.name}`]);
  const rl = createInterface({ input: io.input, crlfDelay: Infinity, terminal: false });
  // Lines are queued as they arrive, so a warm-up can run between them and see what came.
  const queue: string[] = [];
  let ended = false;
  let inputError: unknown;
  let wake: (() => void) | undefined;
  const arrived = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  rl.on('line', (raw) => {
    queue.push(raw.replace(/\r$/, ''));
    arrived();
  });
  rl.on('close', () => {
    ended = true;
    arrived();
  });
  io.input.on('error', (e) => {
    inputError ??= e;
    ended = true;
    arrived();
  });
  const emit = (r: Reply): void => {
    if (r.out.length > 0) {
      io.output.write(r.out.map((l) => `${l}\n`).join(''));
      tr.output(r.out);
    }
    if (r.log.length > 0) tr.log(r.log, r.exit !== undefined && r.exit !== 0);
  };
  if (io.warmUp) {
    const w = io.warmUp;
    const t0 = performance.now();
    const urgent = (l: string) => (proto.urgent ? proto.urgent(l) : true);
    try {
      // a step at a time, letting input in between (setImmediate runs after pending I/O)
      while (!ended && !queue.some(urgent) && w.step()) await new Promise<void>((r) => setImmediate(r));
      tr.log([`warm-up: ${w.moves} moves in ${Math.round(performance.now() - t0)} ms`]);
    } catch (e) {
      // a bug in the warm-up must not cost the game: play on without it
      tr.log([`warm-up failed after ${w.moves} moves: ${errorText(e)}`]);
    }
    w.stop();
  }
  // A line read more than IDLE_MS after the last answer was not queued behind our start-up.
  let ready = performance.now();
  let waited = false;
  for (;;) {
    if (queue.length === 0) {
      if (ended) break;
      await new Promise<void>((r) => (wake = r));
      continue;
    }
    const line = queue.shift()!;
    if (!waited && performance.now() - ready > IDLE_MS) {
      waited = true;
      proto.inputWaited?.();
    }
    tr.input(line);
    let r: Reply;
    try {
      r = proto.handle(line);
    } catch (e) {
      const msg = `internal error on '${clip(line)}': ${errorText(e)}`;
      tr.log([msg], true);
      tr.detail([(e instanceof Error && e.stack) || '']);
      // its answer only: its log repeats the message just reported
      const answer = proto.internalError?.(msg);
      if (answer) emit({ out: answer.out, log: [] });
      rl.close();
      return EXIT_INTERNAL;
    }
    emit(r);
    ready = performance.now();
    if (r.exit !== undefined) {
      rl.close();
      return r.exit;
    }
  }
  if (inputError !== undefined) {
    tr.log([`input error: ${errorText(inputError)}`], true);
    return 1;
  }
  const r = proto.eof();
  emit(r);
  return r.exit ?? 0;
}
