/**
 * The match runner: plays engine A against engine B over a list of openings, each opening
 * twice with colours swapped (game 2k+1: A is black, game 2k+2: B is black, same opening),
 * with up to `concurrency` games in flight, an optional SPRT stop, and a record of every
 * game (JSON lines + SGF).
 *
 * Output directory layout (`outDir`):
 *   games.jsonl     one GameRecord per line, in the order games finished
 *   sgf/game-NNNN.sgf
 *   summary.json    { format: "gomoku-match/1", config, engines, stats, stopped }
 * `checkRecords` replays the records on our own board and recomputes the statistics, so
 * a summary can be checked against its games (`gomoku match --check DIR`).
 */
import { appendFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Board } from '../core/board.js';
import { parsePoint } from '../core/notation.js';
import { BLACK, type Color } from '../core/types.js';
import { playGame, type GameOptions, type GameRecord } from './game.js';
import type { Opening } from './opening-files.js';
import { PbrainClient, describeReply, type EngineCommand } from './pbrain-client.js';
import { gameToSgf } from './sgf.js';
import { computeStats, type MatchStats, type SprtParams } from './stats.js';

export interface MatchConfig {
  engines: [EngineCommand, EngineCommand];
  openings: Opening[];
  /** Games to play (the last pair may be cut short when odd). */
  games: number;
  game: GameOptions;
  concurrency: number;
  sprt?: SprtParams;
  outDir?: string;
  /** Finished games of an interrupted run of this match (`--resume`): kept, not played again. */
  resumed?: readonly GameRecord[];
  /** Every protocol line of every game (a transcript): game number, engine, direction, line. */
  onLine?: (game: number, engine: string, dir: '>' | '<', line: string) => void;
  /** Called after every finished game with the running statistics. */
  onGame?: (record: GameRecord, stats: MatchStats) => void;
}

export interface MatchResult {
  records: GameRecord[];
  stats: MatchStats;
  stopped: 'completed' | 'sprt';
  engines: { name: string; argv: string[]; about?: string }[];
}

/** The opening and colours of game number `game` (1-based). */
export function schedule(game: number, openings: readonly Opening[], engines: readonly [EngineCommand, EngineCommand]) {
  const k = Math.floor((game - 1) / 2);
  const opening = openings[k % openings.length]!;
  const swapped = (game - 1) % 2 === 1;
  const [a, b] = engines;
  return { opening, black: swapped ? b : a, white: swapped ? a : b };
}

/**
 * Start an engine, ask `ABOUT`, check that `START size` gets `OK`, end it. An engine that
 * cannot even start is a usage error for the whole match (one line naming the engine),
 * not a hundred lost games.
 */
export async function probeEngine(cmd: EngineCommand, size: number, timeoutMs: number): Promise<{ ok: true; about?: string } | { ok: false; error: string }> {
  const c = PbrainClient.spawn(cmd, { startTimeoutMs: timeoutMs, suspendWhenIdle: false });
  try {
    const about = await c.about(Math.min(timeoutMs, 3000));
    const s = await c.start(size);
    if (s.kind !== 'ok') return { ok: false, error: `engine ${cmd.name} (${cmd.argv.join(' ')}) does not answer START ${size} with OK: ${describeReply(s)}` };
    const r: { ok: true; about?: string } = { ok: true };
    if (about.name) r.about = about.version ? `${about.name} ${about.version}` : about.name;
    return r;
  } finally {
    await c.end(200);
  }
}

export async function runMatch(cfg: MatchConfig): Promise<MatchResult> {
  const [a, b] = cfg.engines;
  if (cfg.openings.length === 0) throw new Error('bug: no openings (pass [{id:"empty",moves:[]}])');
  const records: GameRecord[] = [...(cfg.resumed ?? [])];
  const done = new Set(records.map((g) => g.game));
  let stats = computeStats(records, a.name, b.name, cfg.sprt);
  let next = 1;
  let stopped: MatchResult['stopped'] = stats.sprt && stats.sprt.decision !== 'continue' ? 'sprt' : 'completed';
  if (cfg.outDir) {
    mkdirSync(join(cfg.outDir, 'sgf'), { recursive: true });
    // the kept games only (a cut-off line or an aborted game is gone), replaced in one step
    const file = join(cfg.outDir, 'games.jsonl');
    writeFileSync(file + '.tmp', records.map((g) => JSON.stringify(g) + '\n').join(''));
    renameSync(file + '.tmp', file);
  }
  const worker = async () => {
    for (;;) {
      while (done.has(next)) next++;
      if (stopped === 'sprt' || next > cfg.games) return;
      const n = next++;
      const { opening, black, white } = schedule(n, cfg.openings, cfg.engines);
      const onLine = cfg.onLine;
      const opts = onLine ? { ...cfg.game, onLine: (e: string, d: '>' | '<', l: string) => onLine(n, e, d, l) } : cfg.game;
      const rec = await playGame(n, black, white, opening, opts);
      records.push(rec);
      if (cfg.outDir) {
        appendFileSync(join(cfg.outDir, 'games.jsonl'), JSON.stringify(rec) + '\n');
        writeFileSync(join(cfg.outDir, 'sgf', `game-${String(n).padStart(4, '0')}.sgf`), gameToSgf(rec));
      }
      stats = computeStats(records, a.name, b.name, cfg.sprt);
      if (stats.sprt && stats.sprt.decision !== 'continue') stopped = 'sprt';
      cfg.onGame?.(rec, stats);
    }
  };
  const workers = Math.max(1, Math.min(cfg.concurrency, cfg.games - done.size));
  await Promise.all(Array.from({ length: workers }, worker));
  records.sort((x, y) => x.game - y.game);
  return { records, stats, stopped, engines: cfg.engines.map((e) => ({ name: e.name, argv: e.argv })) };
}

export function writeSummary(outDir: string, result: MatchResult, config: Record<string, unknown>): void {
  const summary = { format: 'gomoku-match/1', config, engines: result.engines, stopped: result.stopped, stats: jsonSafe(result.stats) };
  writeFileSync(join(outDir, 'summary.json'), JSON.stringify(summary, null, 1) + '\n');
}

/** JSON has no Infinity: write ±Infinity as null. */
export function jsonSafe<T>(v: T): T {
  return JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'number' && !Number.isFinite(x) ? null : x))) as T;
}

/**
 * Replay every record on our own board and check that its result follows from its moves:
 * every move on an empty point, no five before the last move, a `five` game ends with a
 * five by the side that moved last and is scored for it, a full board is a draw, and a
 * fault (time-out, crash, garbage, illegal) is scored against the side that was to move.
 * When `stats` is given, it must equal the statistics recomputed from the records.
 * Returns the problems found (empty when consistent).
 */
export function checkRecords(records: readonly GameRecord[], stats?: MatchStats): string[] {
  const problems: string[] = [];
  const seen = new Set<number>();
  for (const g of records) {
    const where = `game ${g.game}`;
    if (seen.has(g.game)) problems.push(`${where}: recorded twice`);
    seen.add(g.game);
    const board = new Board(g.size, g.rule);
    let bad = false;
    const all = [...g.opening, ...g.moves.map((m) => m.move)];
    for (let i = 0; i < all.length && !bad; i++) {
      const p = parsePoint(all[i]!, g.size);
      if (!p.ok) {
        problems.push(`${where}: ${p.error}`);
        bad = true;
      } else if (board.cells[p.value] !== 0) {
        problems.push(`${where}: move ${i + 1} (${all[i]}) is on an occupied point`);
        bad = true;
      } else {
        board.play(p.value);
        if (board.lastMoveWon() && i !== all.length - 1) {
          problems.push(`${where}: five at move ${i + 1} (${all[i]}) but the game went on`);
          bad = true;
        }
      }
    }
    if (bad) continue;
    const lastMover: Color = board.toMove === BLACK ? 2 : 1;
    const scoreFor = (c: Color) => (c === BLACK ? '1-0' : '0-1');
    const won = g.moves.length > 0 && board.lastMoveWon() !== 0;
    let expected: string | null = null;
    switch (g.reason) {
      case 'five':
        if (!won) problems.push(`${where}: result by five but the last move makes none`);
        expected = scoreFor(lastMover);
        break;
      case 'full-board':
        if (!board.isFull() || won) problems.push(`${where}: a draw by full board, but the board is not full or holds a five`);
        expected = '1/2-1/2';
        break;
      case 'timeout':
      case 'crash':
      case 'garbage':
      case 'illegal':
        if (won) problems.push(`${where}: ${g.reason} after a five`);
        expected = scoreFor(lastMover);
        break;
      case 'start-failed':
        if (g.moves.length > 0) problems.push(`${where}: start failed but moves were played`);
        break;
      case 'aborted':
        expected = '*';
        break;
    }
    if (expected !== null && g.result !== expected) problems.push(`${where}: result ${g.result}, but the moves say ${expected} (${g.reason})`);
  }
  if (stats) {
    const again = computeStats(records, stats.a, stats.b);
    const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);
    if (!same(again.total, stats.total)) problems.push(`summary: totals ${JSON.stringify(stats.total)} but the games give ${JSON.stringify(again.total)}`);
    if (!same(again.asBlack, stats.asBlack))
      problems.push(`summary: ${stats.a} as black ${JSON.stringify(stats.asBlack)} but the games give ${JSON.stringify(again.asBlack)}`);
    if (!same(again.asWhite, stats.asWhite))
      problems.push(`summary: ${stats.a} as white ${JSON.stringify(stats.asWhite)} but the games give ${JSON.stringify(again.asWhite)}`);
    if (!same(again.penta, stats.penta)) problems.push(`summary: pairs ${JSON.stringify(stats.penta)} but the games give ${JSON.stringify(again.penta)}`);
    if (again.aborted !== stats.aborted) problems.push(`summary: ${stats.aborted} aborted but the games give ${again.aborted}`);
  }
  return problems;
}
