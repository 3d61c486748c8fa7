/**
 * CodeCup 2020 Gomoku (protocols.md section 2): 16x16, a move is `Rc` (row `A..P` uppercase,
 * column `a..p` lowercase). The starter reads `Start` and prints three lines (black, white,
 * black); the other player reads those three moves and answers a move or `Zz` (every stone
 * changes colour, the refuser keeps the two-stone side as white, black moves next).
 * `Quit` ends the game. Time: a budget for the whole game (default 30 s, `--time`).
 */
import { BLACK, WHITE, type Color, type Result, ok, err } from '../core/types.js';
import { BotGame } from '../bot/game.js';
import { clip, reply, type BotOptions, type LineProtocol, type Reply } from './common.js';
import { limitsFor } from './clock.js';
import { SwapAdvisor } from '../bot/swap-advisor.js';

export const CODECUP_SIZE = 16;
export const CODECUP_DEFAULT_GAME_MS = 30_000;

export type CodecupCommand = { kind: 'start' } | { kind: 'quit' } | { kind: 'swap' } | { kind: 'move'; index: number } | { kind: 'blank' };

export function parseCodecupMove(t: string, size = CODECUP_SIZE): Result<number> {
  const m = /^([A-Z])([a-z])$/.exec(t);
  if (!m) return err(`bad move '${clip(t)}'`);
  const row = m[1]!.charCodeAt(0) - 65;
  const col = m[2]!.charCodeAt(0) - 97;
  if (row >= size || col >= size) return err(`move '${t}' is off the board`);
  return ok(row * size + col);
}

export function formatCodecupMove(index: number, size = CODECUP_SIZE): string {
  const col = index % size;
  const row = (index - col) / size;
  return String.fromCharCode(65 + row) + String.fromCharCode(97 + col);
}

/**
 * Whole commands only (case aside): matching by prefix, as some entries do, read `Query` as
 * Quit and `Stop` as Start. Two letters are a move (`Hj`) or `Zz`; any other word is unknown.
 */
export function parseCodecupLine(line: string): Result<CodecupCommand> {
  const t = line.trim();
  if (t === '') return ok({ kind: 'blank' });
  if (t === 'Zz') return ok({ kind: 'swap' });
  const word = t.toLowerCase();
  if (word === 'start') return ok({ kind: 'start' });
  if (word === 'quit') return ok({ kind: 'quit' });
  if (t.length !== 2) return err(`unknown command '${clip(t)}' (expected Start, Quit, Zz or a move like Hj)`);
  const m = parseCodecupMove(t);
  if (!m.ok) return m;
  return ok({ kind: 'move', index: m.value });
}

export class CodecupProtocol implements LineProtocol {
  readonly name = 'codecup';
  readonly game: BotGame;
  private readonly advisor: SwapAdvisor;
  /** Our colour (changes meaning after `Zz`: the stones change colour, we keep ours). */
  me: Color | undefined;
  /** Opponent moves read before our first answer as second player. */
  private opening: number[] = [];
  private usedMs = 0;
  private readonly gameMs: number;
  private answered = 0;
  private swapped = false;
  private readonly now: () => number;

  constructor(private readonly opts: BotOptions) {
    this.game = new BotGame(CODECUP_SIZE, 'freestyle', { seed: opts.seed, book: opts.book });
    this.gameMs = opts.timeMs ?? CODECUP_DEFAULT_GAME_MS;
    this.now = opts.now ?? (() => 0);
    this.advisor = new SwapAdvisor(this.game, { seed: opts.seed, budgetMs: Math.floor(this.gameMs / 30) });
  }

  private fail(msg: string): Reply {
    return reply([], [`codecup: ${msg}`], 1);
  }

  handle(line: string): Reply {
    const t0 = this.now();
    const r = this.dispatch(line);
    this.usedMs += this.now() - t0;
    return r;
  }

  private dispatch(line: string): Reply {
    const p = parseCodecupLine(line);
    if (!p.ok) return this.fail(p.error);
    const c = p.value;
    switch (c.kind) {
      case 'blank':
        return reply();
      case 'quit':
        return reply([], ['quit'], 0);
      case 'start': {
        if (this.me !== undefined || this.game.stones.length > 0) return this.fail('Start in the middle of a game');
        this.me = BLACK;
        const stones = this.advisor.proposeThree(WHITE);
        for (const s of stones) this.game.place(s.index, s.color);
        this.answered += 3;
        return reply(
          stones.map((s) => formatCodecupMove(s.index)),
          ['we start: black, white, black'],
        );
      }
      case 'swap': {
        if (this.me !== BLACK || this.swapped || this.game.stones.length !== 3) return this.fail('Zz out of place');
        this.swapped = true;
        this.game.swapColors();
        // We keep our one stone, now black, and move.
        return this.move(['opponent refused (Zz): our stone is black now, we move']);
      }
      case 'move': {
        if (this.me === undefined) {
          // Second player: collect black, white, black, then answer.
          this.opening.push(c.index);
          const color: Color = this.opening.length === 2 ? WHITE : BLACK;
          const e = this.game.place(c.index, color);
          if (e) return this.fail(`opening move ${formatCodecupMove(c.index)} is ${e}`);
          if (this.opening.length < 3) return reply();
          this.me = WHITE;
          if (this.advisor.codecupSwap(this.game.stones)) {
            this.swapped = true;
            this.game.swapColors();
            this.answered++;
            return reply(['Zz'], ['we refuse (Zz): our two stones are white, black moves']);
          }
          return this.move(['we accept the opening']);
        }
        const e = this.game.place(c.index, (3 - this.me) as Color);
        if (e) return this.fail(`opponent move ${formatCodecupMove(c.index)} is ${e}`);
        return this.move([]);
      }
    }
  }

  private move(log: string[]): Reply {
    const me = this.me!;
    const left = this.gameMs - this.usedMs;
    const limits = limitsFor({ gameLeftMs: left, ply: this.game.stones.length, first: this.answered === 0 });
    const t = this.game.think(me, limits);
    if (t.move < 0) return reply([], [...log, ...t.log, 'no legal move'], 1);
    this.game.place(t.move, me);
    this.answered++;
    return reply([formatCodecupMove(t.move)], [...log, ...t.log]);
  }

  eof(): Reply {
    return reply([], ['codecup: end of input before Quit'], 0);
  }
}
