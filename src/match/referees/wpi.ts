/**
 * A local imitation of the WPI CS4341 file referee (samogden/WPI.CS4341 gomoku/referee.py;
 * protocols.md section 4), run in a fresh temporary directory:
 *
 *  1. clean up (`*.go end_game move_file history_file`), shuffle the two teams, create an
 *     empty `move_file`, record its mtime, sleep `sleepMs` (1 s in the original);
 *  2. each turn: write `<team>.go` (`go!\n`); poll `move_file`'s mtime every `pollMs` (50)
 *     for up to `turnMs` (10 s); on a change sleep `readDelayMs` (100), read the first line,
 *     delete `move_file`, delete `<team>.go`;
 *  3. validate: wrong team name = out of order (the mover wins, as the original does);
 *     on the 2nd move any on-board cell is valid (the first-move swap); else off-board or
 *     occupied = invalid move; a malformed line, which crashes the original, is reported
 *     as a protocol fault of the mover;
 *  4. rewrite `move_file` with the canonical lowercase move, sleep `sleepMs`;
 *  5. at the end write `end_game`, `history_file`, then both `.go` files.
 *
 * Win detection here is correct (five or more anywhere); the original misses fives on
 * the right/bottom edges and sees false ones across the top edge (section 4.5).
 * The bot runs as a child in the directory with `--name <botName> --dir <dir>` appended.
 * The simple opponent plays in-process through the same files.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BLACK, WHITE, type Color } from '../../core/types.js';
import { LineChild, type BotCommand } from './child.js';
import { AnswerTimes, RefGame, SimplePlayer, colourName, type GameReport, type Side } from './simple-player.js';

export interface WpiRefereeOptions {
  bot: BotCommand;
  seed: string;
  botFirst?: boolean;
  botName?: string;
  opponentName?: string;
  /** The original's constants: 1000, 50, 100, 10000. Tests shrink the sleeps. */
  sleepMs?: number;
  pollMs?: number;
  readDelayMs?: number;
  turnMs?: number;
  /** Probability that the simple opponent, moving second, takes the first stone. */
  swapRate?: number;
  /** Keep the directory (for debugging); default: removed. */
  keepDir?: boolean;
}

const SIZE = 15;

export function wpiCanonical(team: string, q: number): string {
  const col = q % SIZE;
  return `${team} ${String.fromCharCode(97 + col)} ${(q - col) / SIZE + 1}`;
}

const mtime = (p: string): number | undefined => {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return undefined;
  }
};
const rm = (p: string) => {
  try {
    unlinkSync(p);
  } catch {
    /* absent */
  }
};

export async function runWpiGame(o: WpiRefereeOptions): Promise<GameReport & { history: string[]; endGame: string }> {
  const opp = new SimplePlayer(o.seed);
  const botName = o.botName ?? 'bot';
  const oppName = o.opponentName ?? 'simple';
  const botFirst = o.botFirst ?? opp.random() < 0.5;
  const teams = botFirst ? [botName, oppName] : [oppName, botName];
  const sleepMs = o.sleepMs ?? 1000;
  const pollMs = o.pollMs ?? 50;
  const readDelayMs = o.readDelayMs ?? 100;
  const turnMs = o.turnMs ?? 10_000;
  const dir = mkdtempSync(join(tmpdir(), 'wpi-'));
  const f = (n: string) => join(dir, n);
  for (const n of [`${botName}.go`, `${oppName}.go`, 'end_game', 'move_file', 'history_file']) rm(f(n));

  const child = new LineChild({ ...o.bot, args: [...o.bot.args, '--name', botName, '--dir', dir], cwd: dir });
  const g = new RefGame(SIZE);
  const history: string[] = [];
  const times = new AnswerTimes();
  let turn = 0;

  writeFileSync(f('move_file'), '');
  let moveMtime = mtime(f('move_file'));
  await sleep(sleepMs);

  let endMsg = '';
  let winner: GameReport['winner'] = 'none';
  let reason: GameReport['reason'] = 'full';
  let fault: Side | undefined;
  const sideOf = (team: string): Side => (team === botName ? 'bot' : 'opponent');
  const other = (team: string) => (team === teams[0] ? teams[1]! : teams[0]!);

  for (;;) {
    const up = teams[turn % 2]!;
    writeFileSync(f(`${up}.go`), 'go!\n');
    if (up === oppName) {
      // The simple opponent: reads move_file (already known here) and writes its move.
      let q: number;
      if (turn === 1 && opp.random() < (o.swapRate ?? 0.3)) q = g.moves[0]!.index;
      else q = opp.move(g, (turn % 2 === 0 ? BLACK : WHITE) as Color);
      writeFileSync(f('move_file'), `${oppName} ${String.fromCharCode(65 + (q % SIZE))} ${Math.floor(q / SIZE) + 1}\n`);
    }
    const t0 = performance.now();
    let inTime = true;
    let crashed = false;
    while (mtime(f('move_file')) === moveMtime) {
      if (performance.now() - t0 >= turnMs) {
        inTime = false;
        break;
      }
      if (up === botName && child.exitCode !== null) {
        crashed = true;
        break;
      }
      await sleep(pollMs);
    }
    if (up === botName) times.add(performance.now() - t0);
    if (!inTime || crashed) {
      winner = sideOf(other(up));
      fault = sideOf(up);
      reason = crashed ? 'crash' : 'timeout';
      endMsg = `END: ${other(up)} WINS!  ${up} LOSES!  out of time`;
      writeFileSync(f('move_file'), `${up} \` -1\n`);
      await sleep(sleepMs);
      break;
    }
    await sleep(readDelayMs);
    let line = '';
    try {
      line = readFileSync(f('move_file'), 'utf8').split('\n')[0] ?? '';
    } catch {
      line = '';
    }
    rm(f('move_file'));
    rm(f(`${up}.go`));
    const parts = line
      .trim()
      .split(/\s+/)
      .filter((w) => w !== '');
    if (parts.length < 3 || parts[0] !== up) {
      // The original: IndexError -> name None -> "out of order move" -> the mover wins.
      winner = sideOf(up);
      fault = sideOf(other(up));
      reason = 'protocol';
      endMsg = `END: ${up} WINS!  ${other(up)} LOSES!  out of order move`;
      moveMtime = writeMove(f('move_file'), line);
      await sleep(sleepMs);
      break;
    }
    if (parts[1]!.length !== 1 || !/^\d+$/.test(parts[2]!)) {
      // The original crashes here (no end_game); we end the game against the mover.
      winner = sideOf(other(up));
      fault = sideOf(up);
      reason = 'protocol';
      endMsg = `END: ${other(up)} WINS!  ${up} LOSES!  malformed move`;
      break;
    }
    const x = parts[1]!.toLowerCase().charCodeAt(0) - 97;
    const y = Number(parts[2]) - 1;
    const onBoard = g.onBoard(x, y);
    const q = y * SIZE + x;
    const valid = onBoard && (turn === 1 || g.isEmpty(q));
    if (!valid) {
      winner = sideOf(other(up));
      fault = sideOf(up);
      reason = 'illegal';
      endMsg = `END: ${other(up)} WINS!  ${up} LOSES!  invalid move`;
      moveMtime = writeMove(f('move_file'), wpiCanonical(up, onBoard ? q : 0));
      await sleep(sleepMs);
      break;
    }
    const colour: Color = up === teams[0] ? BLACK : WHITE;
    if (!g.isEmpty(q)) {
      // The first-move swap: the stone changes owner.
      const m = g.moves.find((s) => s.index === q)!;
      m.color = colour;
      g.cells[q] = colour;
    } else g.place(q, colour);
    history.push(wpiCanonical(up, q));
    turn++;
    let over = false;
    if (g.fiveAt(q)) {
      winner = sideOf(up);
      reason = 'five';
      endMsg = `END: ${up} WINS!  ${other(up)} LOSES!  5 in a row!`;
      over = true;
    }
    if (g.full()) {
      winner = 'draw';
      reason = 'full';
      endMsg = 'END: TIE! board full!';
      over = true;
    }
    // The original sleeps after every move, the last one included, before writing end_game.
    moveMtime = writeMove(f('move_file'), wpiCanonical(up, q));
    await sleep(sleepMs);
    if (over) break;
  }

  writeFileSync(f('end_game'), `${endMsg}\n`);
  writeFileSync(f('history_file'), history.map((h) => `${h}\n`).join(''));
  for (const t of teams) writeFileSync(f(`${t}.go`), 'go!\n');
  const clean = await child.close(3000);
  let detail = endMsg;
  if (!clean && child.exitCode === null) detail += ' (bot did not exit after end_game)';
  const r: GameReport & { history: string[]; endGame: string } = {
    protocol: 'wpi',
    winner,
    reason,
    stones: g.moves.length,
    maxBotMs: times.max,
    firstBotMs: times.first,
    detail,
    transcript: history,
    botStderr: child.stderr,
    botColor: colourName(botFirst ? BLACK : WHITE),
    history,
    endGame: endMsg,
  };
  if (fault) r.fault = fault;
  if (!o.keepDir) rmSync(dir, { recursive: true, force: true });
  return r;
}

function writeMove(path: string, text: string): number | undefined {
  writeFileSync(path, `${text}\n`);
  return mtime(path);
}
