/**
 * Code-golf KoTH "Gomoku (Five in a row)" (protocols.md section 1): 15x15, `(X,Y)` 0-based,
 * X = column, Y = row. One process per game; the judge sends one line, we answer one line.
 *
 *   A []        -> (x,y) (x,y) (x,y)          two black stones, then one white stone
 *   B BOARD     -> B | W (x,y) | (x,y) (x,y)  take black / take white and add a white stone /
 *                                             add a black then a white stone, A chooses
 *   C BOARD     -> B | W
 *   N BOARD     -> (x,y)                      N is a number
 *   EXIT NAME   -> (nothing; exit)
 *
 * BOARD is unordered, so our colour comes from the exchange (section 1.3 table), never from
 * stone counts. After the opening, black moves first (the seed's rule).
 */
import { BLACK, WHITE, type Color, type Result, ok, err } from '../core/types.js';
import { BotGame, type Stone } from '../bot/game.js';
import { clip, reply, type BotOptions, type LineProtocol, type Reply } from './common.js';
import type { Limits } from '../search/types.js';
import { SwapAdvisor } from '../bot/swap-advisor.js';

export const KOTH_SIZE = 15;
/** Default time per answer: the seed asks for well under 500 ms. */
export const KOTH_DEFAULT_MS = 300;

/**
 * Search nodes per ms of `--time` for a KoTH answer. KoTH enforces no clock and wants
 * reproducible tournaments, so a move is limited by nodes only (a time limit would make the
 * move depend on the machine's load). Measured on the shared 2-core machine under load:
 * 15-40 nodes/ms in the opening and middle game, so 300 ms gives 4500 nodes, about 100-300 ms.
 */
export const KOTH_NODES_PER_MS = 15;

export function kothLimits(turnMs: number): Limits {
  return { nodes: Math.max(500, Math.floor(turnMs * KOTH_NODES_PER_MS)) };
}

export type KothCommand =
  | { kind: 'A' }
  | { kind: 'B'; board: Stone[] }
  | { kind: 'C'; board: Stone[] }
  | { kind: 'N'; round: number; board: Stone[] }
  | { kind: 'EXIT'; winner: string }
  | { kind: 'blank' };

/** `[((0,0),"B"),((0,1),W)]`, spaces and quotes optional. */
export function parseKothBoard(text: string, size = KOTH_SIZE): Result<Stone[]> {
  const t = text.replace(/\s+/g, '');
  if (!/^\[.*\]$/.test(t)) return err(`bad board '${clip(text)}'`);
  const inner = t.slice(1, -1);
  if (inner === '') return ok([]);
  const re = /^\(\((\d+),(\d+)\),"?([BWbw])"?\)(,|$)/;
  const stones: Stone[] = [];
  const seen = new Set<number>();
  let rest = inner;
  while (rest !== '') {
    const m = re.exec(rest);
    if (!m) return err(`bad board entry '${rest.slice(0, 20)}'`);
    const x = Number(m[1]);
    const y = Number(m[2]);
    if (x >= size || y >= size) return err(`point (${x},${y}) is off the board`);
    const index = y * size + x;
    if (seen.has(index)) return err(`point (${x},${y}) is given twice`);
    seen.add(index);
    stones.push({ index, color: m[3]!.toUpperCase() === 'B' ? BLACK : WHITE });
    rest = rest.slice(m[0].length);
  }
  return ok(stones);
}

export function parseKothLine(line: string): Result<KothCommand> {
  const t = line.trim();
  if (t === '') return ok({ kind: 'blank' });
  const m = /^(\S+)\s*(.*)$/.exec(t)!;
  const head = m[1]!;
  const rest = m[2]!;
  if (head === 'EXIT') return ok({ kind: 'EXIT', winner: rest.trim() });
  if (head === 'A') return ok({ kind: 'A' });
  if (head === 'B' || head === 'C' || /^\d+$/.test(head)) {
    const b = parseKothBoard(rest);
    if (!b.ok) return b;
    if (head === 'B') return ok({ kind: 'B', board: b.value });
    if (head === 'C') return ok({ kind: 'C', board: b.value });
    return ok({ kind: 'N', round: Number(head), board: b.value });
  }
  return err(`unknown command '${clip(head)}'`);
}

export function formatKothPoint(index: number, size = KOTH_SIZE): string {
  const x = index % size;
  return `(${x},${(index - x) / size})`;
}

type Pending = 'none' | 'A-opened' | 'B-added2';

export class KothProtocol implements LineProtocol {
  readonly name = 'koth';
  readonly game: BotGame;
  private readonly advisor: SwapAdvisor;
  private readonly turnMs: number;
  /** Our colour once the exchange has fixed it. */
  colour: Color | undefined;
  private pending: Pending = 'none';
  /** The board after our last answer (what we expect the judge to show next). */
  private expected: Stone[] = [];
  private answered = 0;

  constructor(
    private readonly opts: BotOptions,
    /** argv: the opponent's name (informational). */
    readonly opponent = '',
  ) {
    this.game = new BotGame(KOTH_SIZE, 'freestyle', { seed: opts.seed, book: opts.book });
    this.turnMs = opts.timeMs ?? KOTH_DEFAULT_MS;
    // A decision scores several positions; with the add-two option it can use almost twice its budget.
    // A sixth of the answer time: the opening answers come first in a fresh process (Node
    // start-up and a cold JIT take most of the first 300 ms), and their node budgets are fixed.
    this.advisor = new SwapAdvisor(this.game, { seed: opts.seed, budgetMs: Math.floor(this.turnMs / 6), nodesOnly: true });
  }

  private fail(msg: string): Reply {
    return reply([], [`koth: ${msg}`], 1);
  }

  handle(line: string): Reply {
    const p = parseKothLine(line);
    // the error may quote the board already: the line's start is enough context
    if (!p.ok) return this.fail(`${p.error} in line '${clip(line.trim(), 100)}'`);
    const c = p.value;
    switch (c.kind) {
      case 'blank':
        return reply();
      case 'EXIT':
        return reply([], [`game over: ${clip(c.winner) || '?'}`], 0);
      case 'A': {
        const [b1, w2, b3] = this.advisor.proposeThree(BLACK, 8);
        this.expected = [b1, b3, w2];
        this.pending = 'A-opened';
        this.answered++;
        return reply([[b1, b3, w2].map((s) => formatKothPoint(s.index)).join(' ')], ['we open (A)']);
      }
      case 'B': {
        if (c.board.length !== 3) return this.fail(`B board has ${c.board.length} stones, expected 3`);
        this.game.setStones(c.board);
        const d = this.advisor.chooseAfterThree(c.board, BLACK);
        this.answered++;
        if (d.kind === 'black') {
          this.colour = BLACK;
          return reply(['B'], ['we take black']);
        }
        if (d.kind === 'white') {
          this.colour = WHITE;
          return reply([`W ${formatKothPoint(d.move)}`], ['we take white and add a white stone']);
        }
        this.pending = 'B-added2';
        const [w, b] = d.stones;
        this.expected = [...c.board, b, w];
        // Our answer lists the black stone first, then the white one.
        return reply([`${formatKothPoint(b.index)} ${formatKothPoint(w.index)}`], ['we add two stones; A chooses']);
      }
      case 'C': {
        if (c.board.length !== 5) return this.fail(`C board has ${c.board.length} stones, expected 5`);
        this.colour = this.advisor.chooseColour(c.board, BLACK);
        this.pending = 'none';
        this.answered++;
        return reply([this.colour === BLACK ? 'B' : 'W'], [`we choose ${this.colour === BLACK ? 'black' : 'white'}`]);
      }
      case 'N':
        return this.turn(c.board);
    }
  }

  private turn(board: Stone[]): Reply {
    const log: string[] = [];
    if (this.colour === undefined) {
      const before = new Set(this.expected.map((s) => s.index));
      const added = board.filter((s) => !before.has(s.index));
      if (this.pending === 'A-opened') {
        // B answered `W XY` (a new white stone, we are black) or `B` (B moved first as black).
        this.colour = added.some((s) => s.color === WHITE) ? BLACK : WHITE;
      } else if (this.pending === 'B-added2') {
        // A chose: a new stone means A moved first with that stone's colour.
        this.colour = added.length > 0 ? ((3 - added[0]!.color) as Color) : BLACK;
      } else {
        // No opening seen (the judge skipped it): the side with fewer stones moves.
        const nb = board.filter((s) => s.color === BLACK).length;
        const nw = board.length - nb;
        this.colour = nb <= nw ? BLACK : WHITE;
      }
      log.push(`our colour: ${this.colour === BLACK ? 'black' : 'white'}`);
    }
    this.pending = 'none';
    this.game.setStones(board);
    const t = this.game.think(this.colour, kothLimits(this.turnMs));
    log.push(...t.log);
    if (t.move < 0) return reply([], [...log, 'no legal move'], 1);
    this.game.place(t.move, this.colour);
    this.expected = this.game.stones.map((s) => ({ ...s }));
    this.answered++;
    return reply([formatKothPoint(t.move)], log);
  }

  eof(): Reply {
    return reply([], ['koth: end of input before EXIT'], 0);
  }
}
