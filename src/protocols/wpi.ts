/**
 * WPI CS4341 2017 file referee (protocols.md section 4), the translator half: given the
 * content of `move_file` when our `<name>.go` appears, decide the line to write. The file
 * handling (polling, atomic write, waiting for `.go` to vanish, `end_game`) is in
 * wpi-files.ts.
 *
 * Wire form: `<team> <COL> <ROW>`, COL a letter A..O (the referee echoes it in lower case),
 * ROW 1..15 counted from the top. Empty `move_file` on our first turn = we move first.
 * First-move swap: the second player may answer with the first player's own cell, which
 * makes that stone its own; the first player then sees its own cell in `move_file` and
 * moves again with no stone on the board.
 */
import { BLACK, WHITE, type Color, type Result, ok, err } from '../core/types.js';
import { BotGame } from '../bot/game.js';
import { clip, reply, words, type BotOptions, type Reply } from './common.js';
import { limitsFor } from './clock.js';
import { SwapAdvisor } from '../bot/swap-advisor.js';

export const WPI_SIZE = 15;
export const WPI_DEFAULT_TURN_MS = 10_000;
/**
 * What the referee counts of each turn that our search cannot see: it polls every 50 ms and
 * sleeps 100 ms before reading, our own polling adds up to 50 ms, and the file writes.
 */
export const WPI_IO_OVERHEAD_MS = 700;

export interface WpiMove {
  team: string;
  index: number;
}

/** `beta h 8` / `alpha H 8`; `undefined` for an empty file (we move first). */
export function parseWpiMove(text: string, size = WPI_SIZE): Result<WpiMove | undefined> {
  const first = text.split(/\r?\n/)[0] ?? '';
  const w = words(first);
  if (w.length === 0) return ok(undefined);
  if (w.length < 3) return err(`bad move_file line '${clip(first.trim())}'`);
  const [team, c, r] = w as [string, string, string];
  if (!/^[a-zA-Z]$/.test(c) || !/^\d+$/.test(r)) return err(`bad move '${clip(`${c} ${r}`)}' in move_file`);
  const col = c.toLowerCase().charCodeAt(0) - 97;
  const row = Number(r) - 1;
  if (col >= size || row < 0 || row >= size) return err(`move '${clip(`${c} ${r}`)}' is off the board`);
  return ok({ team, index: row * size + col });
}

export function formatWpiMove(name: string, index: number, size = WPI_SIZE): string {
  const col = index % size;
  const row = (index - col) / size;
  return `${name} ${String.fromCharCode(65 + col)} ${row + 1}`;
}

export class WpiPlayer {
  readonly game: BotGame;
  private readonly advisor: SwapAdvisor;
  readonly name: string;
  me: Color | undefined;
  /** 'first' if move_file was empty on our first turn. */
  role: 'first' | 'second' | undefined;
  private ourFirst = -1;
  private turns = 0;
  private readonly turnMs: number;

  constructor(opts: BotOptions & { name: string }) {
    this.name = opts.name;
    this.game = new BotGame(WPI_SIZE, 'freestyle', { seed: opts.seed, book: opts.book });
    this.turnMs = opts.timeMs ?? WPI_DEFAULT_TURN_MS;
    this.advisor = new SwapAdvisor(this.game, { seed: opts.seed, budgetMs: Math.floor(this.turnMs / 4) });
  }

  private fail(msg: string): Reply {
    return reply([], [`wpi: ${msg}`], 1);
  }

  /** Our `.go` appeared and `end_game` is absent: `moveFile` is move_file's content. Out: the line to write. */
  onTurn(moveFile: string): Reply {
    const p = parseWpiMove(moveFile);
    if (!p.ok) return this.fail(p.error);
    const m = p.value;
    const log: string[] = [];
    this.turns++;
    if (m === undefined) {
      if (this.role !== undefined) return this.fail('move_file is empty in the middle of the game');
      this.role = 'first';
      this.me = BLACK;
      const q = this.advisor.wpiFirstStone();
      this.ourFirst = q;
      this.game.place(q, BLACK);
      return reply([formatWpiMove(this.name, q)], ['we move first']);
    }
    if (m.team === this.name) return this.fail(`move_file holds our own move '${clip(moveFile.trim())}', not the opponent's`);
    if (this.role === undefined) {
      this.role = 'second';
      this.game.place(m.index, BLACK);
      if (this.advisor.wpiTakeFirstStone(m.index)) {
        // The stone becomes ours (black); the first player moves next, as white.
        this.me = BLACK;
        return reply([formatWpiMove(this.name, m.index)], ['we take the first stone (swap)']);
      }
      this.me = WHITE;
      log.push('we keep white and play');
    } else if (this.role === 'first' && this.game.stones.length === 1 && m.index === this.ourFirst) {
      // The opponent took our first stone: it is theirs (black) now, we play white.
      this.me = WHITE;
      log.push('opponent took our first stone (swap); we move again');
    } else {
      const e = this.game.place(m.index, (3 - this.me!) as Color);
      if (e) return this.fail(`opponent move '${clip(moveFile.trim())}' is ${e}`);
    }
    const limits = limitsFor({ turnMs: this.turnMs, overheadMs: WPI_IO_OVERHEAD_MS, ply: this.game.stones.length, first: this.turns === 1 });
    const t = this.game.think(this.me!, limits);
    log.push(...t.log);
    if (t.move < 0) return reply([], [...log, 'no legal move'], 1);
    this.game.place(t.move, this.me!);
    return reply([formatWpiMove(this.name, t.move)], log);
  }

  /** `end_game` appeared: log it and end. */
  onEnd(text: string): Reply {
    return reply([], [`end_game: ${clip(text.trim())}`], 0);
  }
}
