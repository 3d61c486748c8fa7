/**
 * ALPHANO Gomoku, problem 7 (protocols.md section 3): 15x15, `x y` with x = row, y = column,
 * both 1-based; plain freestyle, no opening rule.
 *
 *   READY FIRST|SECOND      -> OK          (within 3 s)
 *   TURN <my_ms> <opp_ms>   -> MOVE x y    (within my_ms)
 *   OPP x y <ms>            -> (nothing)   the opponent's last move
 *   FINISH                  -> (exit)
 */
import { BLACK, WHITE, type Color, type Result, ok, err } from '../core/types.js';
import { BotGame } from '../bot/game.js';
import { clip, reply, words, type BotOptions, type LineProtocol, type Reply } from './common.js';
import { capClock, limitsFor } from './clock.js';

export const ALPHANO_SIZE = 15;
/**
 * The largest clock a TURN may give: each player starts with 20 000 ms (protocols.md 3.3)
 * and the clock only runs down; three times that leaves room for a judge set up with more.
 * A larger reading is capped to it (one error line), so the bot never thinks without limit.
 */
export const ALPHANO_MAX_CLOCK_MS = 60_000;

export type AlphanoCommand =
  | { kind: 'ready'; first: boolean }
  | { kind: 'turn'; myMs: number; oppMs: number }
  | { kind: 'opp'; index: number; ms: number }
  | { kind: 'finish' }
  | { kind: 'blank' };

const INT = /^-?\d+$/;

export function parseAlphanoLine(line: string, size = ALPHANO_SIZE): Result<AlphanoCommand> {
  const w = words(line);
  if (w.length === 0) return ok({ kind: 'blank' });
  const head = w[0]!.toUpperCase();
  if (head === 'READY' && w.length === 2 && (w[1] === 'FIRST' || w[1] === 'SECOND')) return ok({ kind: 'ready', first: w[1] === 'FIRST' });
  if (head === 'TURN' && w.length === 3 && INT.test(w[1]!) && INT.test(w[2]!)) return ok({ kind: 'turn', myMs: Number(w[1]), oppMs: Number(w[2]) });
  if (head === 'OPP' && (w.length === 3 || w.length === 4) && w.slice(1).every((t) => INT.test(t))) {
    const x = Number(w[1]);
    const y = Number(w[2]);
    if (x < 1 || y < 1 || x > size || y > size) return err(`OPP move ${x} ${y} is off the board`);
    return ok({ kind: 'opp', index: (x - 1) * size + (y - 1), ms: w.length === 4 ? Number(w[3]) : 0 });
  }
  if (head === 'FINISH') return ok({ kind: 'finish' });
  return err(`bad command '${clip(line.trim())}'`);
}

export function formatAlphanoMove(index: number, size = ALPHANO_SIZE): string {
  const col = index % size;
  const row = (index - col) / size;
  return `MOVE ${row + 1} ${col + 1}`;
}

export class AlphanoProtocol implements LineProtocol {
  readonly name = 'alphano';
  readonly game: BotGame;
  me: Color | undefined;
  private answered = 0;

  constructor(private readonly opts: BotOptions) {
    this.game = new BotGame(ALPHANO_SIZE, 'freestyle', { seed: opts.seed, book: opts.book });
  }

  private fail(msg: string): Reply {
    return reply([], [`alphano: ${msg}`], 1);
  }

  handle(line: string): Reply {
    const p = parseAlphanoLine(line);
    if (!p.ok) return this.fail(p.error);
    const c = p.value;
    switch (c.kind) {
      case 'blank':
        return reply();
      case 'finish':
        return reply([], ['finish'], 0);
      case 'ready': {
        // One game per process: a READY once the game is under way would silently clear the
        // board. A repeated READY before any move is harmless and answered again.
        const n = this.game.stones.length;
        if (n > 0) return this.fail(`READY in the middle of a game (${n} stone${n === 1 ? '' : 's'} on the board); the game is not restarted`);
        this.game.reset();
        this.me = c.first ? BLACK : WHITE;
        this.answered++;
        return reply(['OK'], [`we play ${c.first ? 'first (black)' : 'second (white)'}`]);
      }
      case 'opp': {
        if (this.me === undefined) return this.fail('OPP before READY');
        const e = this.game.place(c.index, (3 - this.me) as Color);
        if (e) return this.fail(`OPP move ${formatAlphanoMove(c.index).slice(5)} is ${e}`);
        return reply();
      }
      case 'turn': {
        if (this.me === undefined) return this.fail('TURN before READY');
        const clock = capClock(c.myMs, ALPHANO_MAX_CLOCK_MS, 'TURN clock');
        const log = clock.note ? [`alphano: error: ${clock.note}`] : [];
        let myMs = clock.ms;
        if (this.opts.timeMs !== undefined) myMs = Math.min(myMs, this.opts.timeMs);
        const limits = limitsFor({ gameLeftMs: myMs, turnMs: clock.ms, ply: this.game.stones.length, first: this.answered === 0 });
        const t = this.game.think(this.me, limits);
        if (t.move < 0) return reply([], [...log, ...t.log, 'no legal move'], 1);
        this.game.place(t.move, this.me);
        this.answered++;
        return reply([formatAlphanoMove(t.move)], [...log, ...t.log]);
      }
    }
  }

  eof(): Reply {
    return reply([], ['alphano: end of input before FINISH'], 0);
  }
}
