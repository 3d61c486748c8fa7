/**
 * `gomoku play --protocol koth|codecup|alphano|wpi|gomocup [opponent] [seed]`: play one
 * contest session under a referee. Line protocols read stdin and write stdout; WPI plays
 * through files in `--dir`.
 *
 * `--time MS` means, per protocol: KoTH time per answer (default 300), CodeCup the whole
 * game's budget (default 30000), ALPHANO a cap per move (the clock still rules), WPI time
 * per move (default 10000), Gomocup a cap per move (INFO timeouts still rule).
 */
import { existsSync, statSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import type { Result } from '../../core/types.js';
import { err, ok } from '../../core/types.js';
import type { BookProbe } from '../../search/types.js';
import { BOOK_OPTION, openBookOption } from '../book-option.js';
import { EXIT_INTERNAL, usageError } from '../common.js';
import { parseOwnArgs } from '../own-args.js';
import { AlphanoProtocol } from '../../protocols/alphano.js';
import { CodecupProtocol } from '../../protocols/codecup.js';
import { BOT_NAME, type BotOptions, type LineProtocol } from '../../protocols/common.js';
import { MAX_GAME_MS, MAX_TURN_MS } from '../../protocols/clock.js';
import { GomocupProtocol } from '../../protocols/gomocup.js';
import { KothProtocol } from '../../protocols/koth.js';
import { runLineSession, Transcript } from '../../protocols/session.js';
import { WpiPlayer } from '../../protocols/wpi.js';
import { runWpiFiles } from '../../protocols/wpi-files.js';
import { WarmUp } from '../../search/warmup.js';

export const PROTOCOLS = ['koth', 'codecup', 'alphano', 'wpi', 'gomocup'] as const;
export type ProtocolName = (typeof PROTOCOLS)[number];

export interface PlayArgs {
  protocol: ProtocolName;
  opponent?: string;
  seed?: string;
  name?: string;
  dir?: string;
  timeMs?: number;
  nodes?: number;
  book?: string;
  log?: string;
  verbose?: boolean;
  pollMs?: number;
  debug?: boolean;
  /** `--warm-up`: ms of JIT warm-up before the first move is asked for (search/warmup.ts). */
  warmUpMs?: number;
}

/** The default warm-up: Gomocup managers wait for START's OK (ours gives 10 s); elsewhere none, a referee may count it. */
export const GOMOCUP_WARM_UP_MS = 1000;
/** The most `--warm-up` may ask for. */
export const MAX_WARM_UP_MS = 10_000;

/** Validate raw yargs values into PlayArgs, or one error message. */
export function checkPlayArgs(a: Record<string, unknown>): Result<PlayArgs> {
  const protocol = String(a.protocol ?? '');
  if (!(PROTOCOLS as readonly string[]).includes(protocol)) return err(`--protocol must be one of ${PROTOCOLS.join(', ')}, got '${protocol}'`);
  const out: PlayArgs = { protocol: protocol as ProtocolName };
  if (a.opponent !== undefined) out.opponent = String(a.opponent);
  const seed = a.seed ?? a.kothSeed;
  if (seed !== undefined) out.seed = String(seed);
  if (a.name !== undefined) {
    const name = String(a.name);
    if (!/^\S+$/.test(name)) return err(`--name must be one word, got '${name}'`);
    out.name = name;
  }
  if (a.dir !== undefined) {
    const dir = String(a.dir);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return err(`--dir '${dir}' is not a directory`);
    out.dir = dir;
  }
  if (a.time !== undefined) {
    const t = a.time;
    if (typeof t !== 'number' || !Number.isInteger(t) || t <= 0) return err(`--time must be a positive integer (ms), got '${String(t)}'`);
    // the same sane maxima as a referee's clock (protocols/clock.ts): CodeCup's is a game's budget, the others a move's
    const max = protocol === 'codecup' ? MAX_GAME_MS : MAX_TURN_MS;
    if (t > max) return err(`--time ${t} is over the maximum of ${max} ms for ${protocol} (${protocol === 'codecup' ? 'a game: 24 h' : 'a move: 10 min'})`);
    out.timeMs = t;
  }
  if (a.nodes !== undefined) {
    const t = a.nodes;
    if (typeof t !== 'number' || !Number.isInteger(t) || t <= 0) return err(`--nodes must be a positive integer, got '${String(t)}'`);
    out.nodes = t;
  }
  if (a.pollMs !== undefined) {
    const t = a.pollMs;
    // the referee polls every 50 ms and gives 10 s a move: a slower poll only loses time
    if (typeof t !== 'number' || !Number.isInteger(t) || t <= 0 || t > 1000) return err(`--poll-ms must be an integer in 1..1000, got '${String(t)}'`);
    out.pollMs = t;
  }
  if (a.warmUp !== undefined) {
    const t = a.warmUp;
    if (typeof t !== 'number' || !Number.isInteger(t) || t < 0 || t > MAX_WARM_UP_MS)
      return err(`--warm-up must be an integer in 0..${MAX_WARM_UP_MS} (ms), got '${String(t)}'`);
    out.warmUpMs = t;
  }
  if (a.book !== undefined) out.book = String(a.book);
  if (a.log !== undefined) out.log = String(a.log);
  if (a.verbose === true) out.verbose = true;
  if (a.debug === true) out.debug = true;
  return ok(out);
}

export function makeLineProtocol(p: PlayArgs, opts: BotOptions): LineProtocol {
  switch (p.protocol) {
    case 'koth':
      return new KothProtocol(opts, p.opponent ?? '');
    case 'codecup':
      return new CodecupProtocol(opts);
    case 'alphano':
      return new AlphanoProtocol(opts);
    case 'gomocup':
      return new GomocupProtocol({ ...opts, debug: p.debug === true });
    case 'wpi':
      throw new Error('wpi is not a line protocol');
  }
}

/** Run a whole session with the process's streams; resolves to the exit code. */
export async function runPlay(p: PlayArgs): Promise<number> {
  const book: BookProbe | undefined = openBookOption(p.book);
  // A referee that closes our stdout (killed the game, or exited) is the end of the session,
  // not a crash with a stack trace.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    process.stderr.write(`gomoku: stdout: ${e.message}\n`);
    process.exit(1);
  });
  const t0 = performance.now();
  const opts: BotOptions = { seed: p.seed ?? BOT_NAME, now: () => performance.now() - t0 };
  if (p.timeMs !== undefined) opts.timeMs = p.timeMs;
  if (p.nodes !== undefined) opts.nodes = p.nodes;
  if (book) opts.book = book;
  if (p.name !== undefined) opts.name = p.name;
  if (p.protocol === 'wpi') {
    const player = new WpiPlayer({ ...opts, name: p.name ?? BOT_NAME });
    const tr = new Transcript(p.log, process.stderr, p.verbose === true);
    const wo: Parameters<typeof runWpiFiles>[0] = { dir: p.dir ?? process.cwd(), player, transcript: tr };
    if (p.pollMs !== undefined) wo.pollMs = p.pollMs;
    return runWpiFiles(wo);
  }
  const proto = makeLineProtocol(p, opts);
  const io: Parameters<typeof runLineSession>[1] = { input: process.stdin, output: process.stdout, errors: process.stderr };
  if (p.log !== undefined) io.logFile = p.log;
  if (p.verbose) io.verbose = true;
  const warmUpMs = p.warmUpMs ?? (p.protocol === 'gomocup' ? GOMOCUP_WARM_UP_MS : 0);
  if (warmUpMs > 0) io.warmUp = new WarmUp(warmUpMs, () => performance.now());
  return runLineSession(proto, io);
}

/** The options of `play`, read by the yargs builder (help, `--help`) and by parsePlayArgs. */
const PLAY_OPTIONS = {
  protocol: { type: 'string', describe: `the referee protocol: ${PROTOCOLS.join(' | ')}` },
  name: { type: 'string', describe: 'bot name (WPI team name, one word; Gomocup ABOUT)' },
  dir: { type: 'string', describe: 'WPI: the shared game directory (default: cwd)' },
  time: { type: 'number', describe: 'time in ms (KoTH per answer, CodeCup per game, WPI per move, others a per-move cap)' },
  nodes: { type: 'number', describe: 'Gomocup: a node limit per move, as INFO max_node (with --seed: the same moves every run)' },
  book: BOOK_OPTION,
  seed: { type: 'string', describe: 'seed for every random choice (KoTH: defaults to the positional seed)' },
  log: { type: 'string', describe: 'append a transcript of the session to FILE' },
  verbose: { type: 'boolean', default: false, describe: 'copy every log line to stderr' },
  debug: { type: 'boolean', default: false, describe: 'Gomocup: send a DEBUG line with search info before each move' },
  'poll-ms': { type: 'number', describe: 'WPI: file poll interval in ms (default 50)' },
  'warm-up': {
    type: 'number',
    describe: `ms of JIT warm-up at start-up, until a command that needs a move arrives (Gomocup: START is answered after it; default ${GOMOCUP_WARM_UP_MS} for gomocup, 0 for the others)`,
  },
} as const;

export const command: CommandModule = {
  command: 'play [opponent] [koth-seed]',
  describe: 'play under a contest referee (KoTH, CodeCup, ALPHANO, WPI files, Gomocup pbrain)',
  builder: (y) =>
    Object.entries(PLAY_OPTIONS)
      .reduce(
        (yy, [name, o]) => yy.option(name, o),
        y
          .positional('opponent', { type: 'string', describe: "KoTH: the opponent's name (argv 1 from the judge)" })
          .positional('koth-seed', { type: 'string', describe: 'KoTH: the seed for all randomness (argv 2 from the judge)' }),
      )
      .epilog('Exit status: 0 game over (or input ended), 1 protocol error, 2 bad arguments, 70 internal error (a bug).'),
  handler: (argv) => playMain(argv as Record<string, unknown>),
};

/** The handler: validate, run the session, exit with its status. */
async function playMain(a: Record<string, unknown>): Promise<void> {
  const p = checkPlayArgs(a);
  if (!p.ok) return usageError(p.error);
  let code: number;
  try {
    code = await runPlay(p.value);
  } catch (e) {
    process.stderr.write(`gomoku: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    code = EXIT_INTERNAL;
  }
  process.exitCode = code;
  // stdin may still be open (the referee keeps the pipe); the session is over, so leave now.
  process.exit(code);
}

/**
 * `play` without yargs (own-args.ts): the contest bot's first answer includes Node start-up.
 * The record is the one checkPlayArgs reads, or the one-line complaint for an unknown or
 * malformed option.
 */
export function parsePlayArgs(args: string[]): Result<Record<string, unknown>> {
  const r = parseOwnArgs(args, PLAY_OPTIONS, 2);
  if (!r.ok) return r;
  const out = r.value.values;
  const [opponent, kothSeed] = r.value.positionals;
  if (opponent !== undefined) out.opponent = opponent;
  if (kothSeed !== undefined) out.kothSeed = kothSeed;
  return ok(out);
}

/** main.ts's fast path for `gomoku play ...` (args after the word `play`). */
export async function runPlayCommand(args: string[]): Promise<void> {
  const a = parsePlayArgs(args);
  if (!a.ok) return usageError(a.error);
  await playMain(a.value);
}
