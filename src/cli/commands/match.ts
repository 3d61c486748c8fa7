/**
 * `gomoku match --engine A=CMD --engine B=CMD [options]`: play two Gomocup pbrain engines
 * against each other (see src/match/runner.ts), with a live progress line on stderr and a
 * summary on stdout. `gomoku match --check DIR` checks a recorded match instead. An `--out`
 * directory that already holds games is never overwritten: `--resume` goes on with them.
 *
 * Exit status: 0 done (with --sprt: H1 accepted), 1 with --sprt: H0 accepted, 3 with
 * --sprt: undecided when the games ran out; 2 bad usage; 1 for --check with problems.
 */
import { createWriteStream, existsSync, readFileSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { parseRule } from '../../core/notation.js';
import { MAX_SIZE, MIN_SIZE, type Result, type Rule, err, ok } from '../../core/types.js';
import { parseEngineSpec } from '../../match/command-line.js';
import type { GameRecord, TimeControl } from '../../match/game.js';
import { balancedOpenings } from '../../match/balanced.js';
import { loadOpenings, randomOpenings, type Opening } from '../../match/opening-files.js';
import { killAllClients, type EngineCommand } from '../../match/pbrain-client.js';
import { checkRecords, jsonSafe, probeEngine, runMatch, schedule, writeSummary } from '../../match/runner.js';
import { computeStats, progressLine, summaryText, type MatchStats, type SprtParams } from '../../match/stats.js';
import { withNumberOptions, withSizeOption } from '../common.js';

export interface MatchArgs {
  engine?: string[];
  openings?: string;
  randomOpenings?: number;
  openingStones?: number;
  balanced?: number;
  balanceNodes?: number;
  seed?: string;
  swap2?: boolean;
  games?: number;
  tc?: string;
  rule?: string;
  size?: number;
  concurrency?: number;
  hangTolerance?: number;
  replyGap?: number;
  startTimeout?: number;
  maxMemory?: number;
  suspend?: boolean;
  out?: string;
  sprt?: string;
  json?: boolean;
  check?: string;
  log?: string;
  resume?: boolean;
}

export interface MatchIo {
  out: (s: string) => void;
  err: (s: string) => void;
  /** Redraw the progress line in place (a terminal) or print a line now and then. */
  tty: boolean;
}

/** Node limit of the --balanced search: a few tens of ms an opening. */
const BALANCE_NODES = 10_000;

class UsageError extends Error {}

export function parseTc(s: string): Result<TimeControl> {
  const m = /^\s*(\d+)\s*(?:\/\s*(\d+)\s*)?$/.exec(s);
  if (!m || Number(m[1]) <= 0) return err(`bad --tc '${s}' (expected MOVE_MS or MOVE_MS/GAME_MS, e.g. 5000/120000; GAME_MS 0 = no game limit)`);
  return ok({ turnMs: Number(m[1]), matchMs: m[2] === undefined ? 0 : Number(m[2]) });
}

export function parseSprt(s: string): Result<SprtParams> {
  const parts = s.split(',').map((t) => Number(t.trim()));
  if (parts.length !== 4 || parts.some((n) => !Number.isFinite(n))) return err(`bad --sprt '${s}' (expected elo0,elo1,alpha,beta, e.g. 0,10,0.05,0.05)`);
  const [elo0, elo1, alpha, beta] = parts as [number, number, number, number];
  if (!(elo1 > elo0)) return err(`bad --sprt '${s}': elo1 must be greater than elo0`);
  if (!(alpha > 0 && alpha < 0.5 && beta > 0 && beta < 0.5)) return err(`bad --sprt '${s}': alpha and beta must be in (0, 0.5)`);
  return ok({ elo0, elo1, alpha, beta });
}

function intOpt(v: number | undefined, flag: string, min: number, fallback: number): number {
  if (v === undefined) return fallback;
  if (!Number.isInteger(v) || v < min) throw new UsageError(`${flag} must be an integer >= ${min}, got '${String(v)}'`);
  return v;
}

function orUsage<T>(r: Result<T>): T {
  if (!r.ok) throw new UsageError(r.error);
  return r.value;
}

/**
 * The records of a `games.jsonl` file. A bad line is an error, except a last one when
 * `cutOffLastOk` (a run killed while writing it): then it is dropped and `torn` says so.
 */
function parseGameLines(file: string, text: string, cutOffLastOk: boolean): { records: GameRecord[]; torn: boolean } {
  const lines = text.split('\n');
  const records: GameRecord[] = [];
  let torn = false;
  lines.forEach((l, i) => {
    if (l.trim() === '') return;
    try {
      records.push(JSON.parse(l) as GameRecord);
    } catch {
      if (cutOffLastOk && i === lines.length - 1) torn = true;
      else throw new UsageError(`${file}:${i + 1}: bad JSON`);
    }
  });
  return { records, torn };
}

function readRecords(dir: string): { records: GameRecord[]; stats?: MatchStats } {
  const file = join(dir, 'games.jsonl');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read '${file}' (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const { records } = parseGameLines(file, text, false);
  let stats: MatchStats | undefined;
  try {
    const s = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { stats?: MatchStats };
    stats = s.stats;
  } catch {
    /* no summary (an interrupted match): check the games alone */
  }
  return stats ? { records, stats } : { records };
}

/**
 * The games an earlier run left in `dir` (null when there are none). A last line cut off by a
 * kill is dropped (its game is played again); a bad line before it is an error.
 */
function priorGames(dir: string): { records: GameRecord[]; torn: boolean } | null {
  const file = join(dir, 'games.jsonl');
  if (!existsSync(file)) return null;
  const prior = parseGameLines(file, readFileSync(file, 'utf8'), true);
  return prior.records.length > 0 || prior.torn ? prior : null;
}

/**
 * The prior games that `--resume` keeps: each must be the game this command would play under
 * its number (the same opening and colours); an aborted game is played again.
 */
function resumable(
  dir: string,
  prior: GameRecord[],
  openings: readonly Opening[],
  engines: readonly [EngineCommand, EngineCommand],
  games: number,
): GameRecord[] {
  const byGame = new Map<number, GameRecord>();
  for (const g of prior) {
    const where = `--resume: game ${g.game} in ${join(dir, 'games.jsonl')}`;
    if (!Number.isInteger(g.game) || g.game < 1 || g.game > games) throw new UsageError(`${where} is not among the ${games} games of this match`);
    const s = schedule(g.game, openings, engines);
    if (g.openingId !== s.opening.id || g.black !== s.black.name || g.white !== s.white.name)
      throw new UsageError(
        `${where} was ${g.black} vs ${g.white} on opening ${g.openingId}, this match plays ${s.black.name} vs ${s.white.name} on ${s.opening.id}: give the same --engine names, openings and --seed`,
      );
    if (g.result === '*') byGame.delete(g.game);
    else byGame.set(g.game, g);
  }
  return [...byGame.values()].sort((x, y) => x.game - y.game);
}

/** The whole command, minus process handling; returns the exit status. */
export async function runMatchCommand(a: MatchArgs, io: MatchIo): Promise<number> {
  try {
    if (a.check !== undefined) {
      const { records, stats } = readRecords(a.check);
      const problems = checkRecords(records, stats);
      if (a.json) io.out(JSON.stringify({ games: records.length, summaryChecked: stats !== undefined, consistent: problems.length === 0, problems }) + '\n');
      else if (problems.length === 0) io.out(`consistent: ${records.length} games${stats ? ' match the summary' : ' (no summary.json)'}\n`);
      else io.out(`INCONSISTENT: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}\n`).join('')}`);
      return problems.length === 0 ? 0 : 1;
    }
    const specs = a.engine ?? [];
    if (specs.length !== 2) throw new UsageError(`need exactly two --engine NAME=COMMAND options, got ${specs.length}`);
    const engines = specs.map((s) => orUsage(parseEngineSpec(s))) as [EngineCommand, EngineCommand];
    if (engines[0].name === engines[1].name) throw new UsageError(`the two engines need different names (both are '${engines[0].name}')`);
    const prior = a.out !== undefined ? priorGames(a.out) : null;
    if (prior && !a.resume)
      throw new UsageError(
        `${a.out} already holds ${prior.records.length} game(s) of a match${prior.torn ? ' and a cut-off line' : ''}: --resume to go on with them (the same engines, openings and --seed), or another --out; nothing was changed`,
      );
    const size = intOpt(a.size, '--size', MIN_SIZE, 15);
    if (size > MAX_SIZE) throw new UsageError(`--size must be in ${MIN_SIZE}..${MAX_SIZE}, got ${size}`);
    const rule: Rule = orUsage(parseRule(a.rule ?? 'freestyle'));
    const tc = orUsage(parseTc(a.tc ?? '5000/120000'));
    const skipped: string[] = [];
    if (a.openings !== undefined && a.randomOpenings !== undefined) throw new UsageError('give --openings or --random-openings, not both');
    if (a.swap2 && (a.openings !== undefined || a.randomOpenings !== undefined))
      throw new UsageError('--swap2 starts from an empty board: it takes no --openings / --random-openings');
    let openings: Opening[] = [{ id: 'empty', moves: [] }];
    /** Where the openings came from, for summary.json. */
    let openingsSource: string | null = a.openings ?? null;
    if (a.openings !== undefined) openings = orUsage(loadOpenings(a.openings, size, rule, { skipped }));
    else if (a.randomOpenings !== undefined) {
      const n = intOpt(a.randomOpenings, '--random-openings', 1, 1);
      const stones = intOpt(a.openingStones, '--opening-stones', 0, 3);
      const seed = a.seed ?? 'gomoku-match';
      openingsSource = `random:${n}:${stones}:${seed}`;
      if (a.balanced === undefined) openings = orUsage(randomOpenings(n, size, seed, stones));
      else {
        const maxScore = intOpt(a.balanced, '--balanced', 0, 0);
        const nodes = intOpt(a.balanceNodes, '--balance-nodes', 1, BALANCE_NODES);
        openingsSource += `:balanced:${maxScore}:${nodes}`;
        const t0 = Date.now();
        const r = orUsage(
          balancedOpenings(n, size, rule, seed, stones, {
            maxScore,
            nodes,
            onDraw: (drawn, kept) => {
              if (io.tty) io.err(`\rbalanced openings: ${kept}/${n} kept of ${drawn} drawn`);
            },
          }),
        );
        openings = r.openings;
        io.err(
          `${io.tty ? '\r' : ''}balanced openings: ${n} kept of ${r.drawn} drawn (|score| <= ${maxScore} at ${nodes} nodes), ${((Date.now() - t0) / 1000).toFixed(1)} s\n`,
        );
      }
    } else if (a.balanced !== undefined) throw new UsageError('--balanced chooses among --random-openings: give that too');
    if (skipped.length > 0) io.err(`gomoku: skipped ${skipped.length} opening(s) that do not fit the ${size}x${size} board (first: ${skipped[0]})\n`);
    const games = intOpt(a.games, '--games', 1, 2 * openings.length);
    if (games > 2 * openings.length)
      io.err(`gomoku: note: ${games} games over ${openings.length} opening(s): openings repeat, and deterministic engines repeat their games\n`);
    const concurrency = intOpt(a.concurrency, '--concurrency', 1, 1);
    const hangToleranceMs = intOpt(a.hangTolerance, '--hang-tolerance', 0, 1000);
    const replyGapMs = intOpt(a.replyGap, '--reply-gap', 0, 50);
    const startTimeoutMs = intOpt(a.startTimeout, '--start-timeout', 1, 10_000);
    const maxMemory = intOpt(a.maxMemory, '--max-memory', 0, 367_001_600);
    const sprt = a.sprt !== undefined ? orUsage(parseSprt(a.sprt)) : undefined;
    const resumed = prior ? resumable(a.out!, prior.records, openings, engines, games) : [];
    if (prior)
      io.err(
        `resuming ${a.out}: ${resumed.length} finished game(s) kept${prior.torn ? ', a cut-off last line dropped' : ''}${prior.records.length > resumed.length ? `, ${prior.records.length - resumed.length} aborted to play again` : ''}\n`,
      );

    const abouts: (string | undefined)[] = [];
    for (const e of engines) {
      const p = await probeEngine(e, size, startTimeoutMs);
      if (!p.ok) throw new UsageError(p.error);
      abouts.push(p.about);
    }
    let lastDraw = 0;
    const draw = (stats: MatchStats, final: boolean) => {
      const line = progressLine(stats, games);
      if (io.tty) io.err(`\r\x1b[K${line}${final ? '\n' : ''}`);
      else if (final || Date.now() - lastDraw >= 5000) {
        lastDraw = Date.now();
        io.err(line + '\n');
      }
    };
    draw(computeStats(resumed, engines[0].name, engines[1].name, sprt), false);
    const cfg = {
      engines,
      openings,
      games,
      concurrency,
      game: {
        size,
        rule,
        tc,
        hangToleranceMs,
        replyGapMs,
        startTimeoutMs,
        maxMemory,
        suspendWhenIdle: a.suspend !== false,
        endGraceMs: 500,
        swap2: a.swap2 === true,
      },
      onGame: (_r: GameRecord, s: MatchStats) => draw(s, false),
      ...(sprt ? { sprt } : {}),
      ...(a.out !== undefined ? { outDir: a.out } : {}),
      ...(resumed.length > 0 ? { resumed } : {}),
    };
    let log: WriteStream | undefined;
    if (a.log !== undefined) {
      const t0 = Date.now();
      const stream = createWriteStream(a.log, { flags: prior ? 'a' : 'w' });
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', (e: NodeJS.ErrnoException) => reject(new UsageError(`cannot write --log '${a.log}' (${e.code ?? e.message})`)));
      });
      log = stream;
      Object.assign(cfg, { onLine: (g: number, e: string, d: string, l: string) => stream.write(`${Date.now() - t0}\t${g}\t${e}\t${d}\t${l}\n`) });
    }
    let result;
    try {
      result = await runMatch(cfg);
    } finally {
      if (log) await new Promise<void>((resolve) => log.end(() => resolve()));
    }
    draw(result.stats, true);
    result.engines.forEach((e, i) => {
      if (abouts[i]) e.about = abouts[i];
    });
    const config = {
      size,
      rule,
      tc,
      games,
      concurrency,
      hangToleranceMs,
      swap2: a.swap2 === true,
      openings: openingsSource,
      openingCount: openings.length,
      sprt: sprt ?? null,
    };
    if (a.out !== undefined) writeSummary(a.out, result, config);
    const problems = checkRecords(result.records, result.stats);
    if (problems.length > 0) io.err(`gomoku: internal inconsistency in the match records: ${problems[0]}\n`);
    if (a.json)
      io.out(JSON.stringify(jsonSafe({ format: 'gomoku-match/1', config, engines: result.engines, stopped: result.stopped, stats: result.stats })) + '\n');
    else io.out(summaryText(result.stats) + (result.stopped === 'sprt' ? '\n  stopped early by the SPRT' : '') + '\n');
    if (problems.length > 0) return 70;
    if (!sprt) return 0;
    const d = result.stats.sprt!.decision;
    return d === 'pass' ? 0 : d === 'fail' ? 1 : 3;
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`gomoku: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

export const command: CommandModule = {
  command: 'match',
  describe: 'play two Gomocup (pbrain) engines against each other and measure the Elo difference',
  builder: (y) =>
    withNumberOptions(withSizeOption(y), {
      'random-openings': { kind: 'positive-int', describe: 'instead of --openings: N distinct random openings near the centre (seeded by --seed)' },
      'opening-stones': { kind: 'count', default: 3, describe: 'stones per random opening' },
      balanced: {
        kind: 'count',
        describe:
          'with --random-openings: keep only openings that a node-limited search of this engine scores within +-SCORE for the side to move (pairs that one colour wins either way say nothing)',
      },
      'balance-nodes': { kind: 'positive-int', default: BALANCE_NODES, describe: 'node limit of the --balanced search' },
      games: { kind: 'positive-int', describe: 'games to play (default: every opening once with each colour)' },
      concurrency: { kind: 'positive-int', default: 1, describe: 'games in flight at once' },
      'hang-tolerance': { kind: 'count', default: 1000, describe: 'ms over the limit before a move is a time-out' },
      'reply-gap': {
        kind: 'count',
        default: 50,
        describe: "ms to wait after an engine's last line before the next command to it (some engines drop a command that comes too soon)",
      },
      'start-timeout': { kind: 'positive-int', default: 10000, describe: 'ms an engine may take to answer START' },
      'max-memory': { kind: 'count', default: 367001600, describe: 'bytes sent as INFO max_memory (not enforced)' },
    })
      .option('engine', { type: 'string', array: true, describe: 'NAME=COMMAND, twice; COMMAND is split like a shell line (quotes work)' })
      .option('openings', { type: 'string', describe: 'opening file: centre-relative x,y lines (Piskvork/GomocupJudge), move lists, or the JSON lists' })
      .option('seed', { type: 'string', default: 'gomoku-match', describe: 'seed for --random-openings' })
      .option('swap2', {
        type: 'boolean',
        default: false,
        describe: 'open each game with Swap2 through SWAP2BOARD (game 2k+1: the first engine opens, 2k+2: the second)',
      })
      .option('tc', { type: 'string', default: '5000/120000', describe: 'time control MOVE_MS/GAME_MS (GAME_MS 0 or absent = no game limit)' })
      .option('rule', { type: 'string', default: 'freestyle', describe: 'freestyle (five or more) or standard (exactly five)' })
      .option('suspend', { type: 'boolean', default: true, describe: 'SIGSTOP an engine while its opponent thinks (use --no-suspend to allow pondering)' })
      .option('out', { type: 'string', alias: 'pgn', describe: 'directory for games.jsonl, sgf/ and summary.json' })
      .option('sprt', { type: 'string', describe: 'elo0,elo1,alpha,beta: stop when the SPRT decides' })
      .option('log', { type: 'string', describe: 'write every protocol line to FILE: ms since start, game, engine, > (sent) or < (received), line' })
      .option('json', { type: 'boolean', default: false, describe: 'print the summary as one JSON object' })
      .option('check', { type: 'string', describe: 'check a recorded match directory (games replayed, summary recomputed) instead of playing' })
      .option('resume', {
        type: 'boolean',
        default: false,
        describe: 'go on with the games already in --out (an interrupted match: the same command); without it a directory with games is refused',
      })
      .example(
        '$0 match --engine new="node dist/cli/main.js play --protocol gomocup" --engine old="/opt/old/gomoku play --protocol gomocup" --openings openings.txt --tc 100/10000 --concurrency 2 --out runs/1',
        'a short regression match',
      )
      .epilog('Exit status: 0 done (with --sprt: H1 accepted), 1 H0 accepted (or --check found problems), 2 bad usage, 3 SPRT undecided.'),
  handler: async (argv) => {
    const a = argv as unknown as MatchArgs;
    const onSignal = () => {
      killAllClients();
      process.stderr.write('\ngomoku: match interrupted; finished games are in the output directory\n');
      process.exit(130);
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      process.exitCode = await runMatchCommand(a, {
        out: (s) => process.stdout.write(s),
        err: (s) => process.stderr.write(s),
        tty: Boolean(process.stderr.isTTY),
      });
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
};
