/**
 * `gomoku show POSITION [--threats] [--json | --svg FILE]`: the position as a text diagram.
 *
 *      a b c d e f g h i j k l m n o
 *   15 . . . . . . . . . . . . . . . 15
 *   ...
 *    9 . . . . . . . X O . . . . . .  9       X black, O white, . empty,
 *    8 . . . . . . .[X]. . . . . . .  8       [ ] around the last move
 *
 * With --threats, empty cells show what a stone there would make, for the side to move
 * (digits and `f`) and for the opponent (symbols); the legend is printed under the board.
 * With --svg FILE the same position (and marks) is written as an SVG picture, drawn by the
 * renderer the web board of `gomoku serve` uses.
 */
import { writeFileSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { BLACK, WHITE, colorName, type Color, opponent } from '../../core/types.js';
import { COLUMN_LETTERS, makePoint, sortCertificateOrder } from '../../core/notation.js';
import { C_THREE, COMBINED_NAMES } from '../../core/patterns.js';
import { CliError, type LoadedPosition, positionFromArgs, printJson, withPositionArgument, withPositionOptions } from '../common.js';
import { THREAT_MARKS as MARKS, positionSvg, threatMark } from '../board-view.js';

export function renderDiagram(pos: LoadedPosition, opts: { threats?: boolean } = {}): string {
  const { board, size } = pos;
  const w = String(size).length;
  const letters = COLUMN_LETTERS.slice(0, size).split('').join(' ');
  const header = ' '.repeat(w + 1) + letters;
  const lines = [header];
  for (let row = 0; row < size; row++) {
    const label = String(size - row).padStart(w);
    let s = label;
    for (let col = 0; col < size; col++) {
      const q = row * size + col;
      const v = board.cells[q];
      let ch = v === BLACK ? 'X' : v === WHITE ? 'O' : '.';
      if (v === 0 && opts.threats) ch = threatMark(board, q)?.text ?? '.';
      const sep = q === pos.lastMove ? '[' : col > 0 && q - 1 === pos.lastMove ? ']' : ' ';
      s += sep + ch;
    }
    s += (size - 1 + row * size === pos.lastMove ? ']' : ' ') + label;
    lines.push(s);
  }
  lines.push(header);
  const nb = board.stones(BLACK).length;
  const nw = board.stones(WHITE).length;
  let status = `${colorName(board.toMove)} to move; black ${nb} stone${nb === 1 ? '' : 's'}, white ${nw} stone${nw === 1 ? '' : 's'}`;
  if (pos.lastMove !== undefined) status += `; last move ${makePoint(pos.lastMove, size)} (${colorName(board.cells[pos.lastMove] as Color)})`;
  lines.push('', status);
  lines.push(`${size}x${size}, ${pos.rule}`);
  for (const c of [BLACK, WHITE] as Color[]) {
    const five = board.stones(c).find((q) => board.hasFiveAt(q));
    if (five !== undefined) lines.push(`${colorName(c)} has five through ${makePoint(five, size)}: the game is over`);
  }
  if (opts.threats) {
    const me = colorName(board.toMove);
    const them = colorName(opponent(board.toMove));
    lines.push(`threats for ${me} (to move): ` + MARKS.map(([, m, , name]) => `${m} ${name}`).join(', '));
    lines.push(`threats for ${them}: ` + MARKS.map(([, , m, name]) => `${m} ${name}`).join(', '));
  }
  return lines.join('\n') + '\n';
}

export interface ShowJson {
  size: number;
  rule: string;
  toMove: 'black' | 'white';
  /** Each list in certificate order (bottom row first, then by column). */
  stones: { black: string[]; white: string[] };
  /** The move list, when the position was given as one. */
  moves?: string[];
  lastMove: string | null;
  /** With --threats: every empty cell whose class is an open three or stronger, per colour. */
  threats?: { black: { point: string; class: string }[]; white: { point: string; class: string }[] };
}

export function showJson(pos: LoadedPosition, opts: { threats?: boolean } = {}): ShowJson {
  const { board, size } = pos;
  const pts = (c: Color) => sortCertificateOrder(board.stones(c), size).map((q) => makePoint(q, size));
  const out: ShowJson = {
    size,
    rule: pos.rule,
    toMove: colorName(board.toMove),
    stones: { black: pts(BLACK), white: pts(WHITE) },
    lastMove: pos.lastMove === undefined ? null : makePoint(pos.lastMove, size),
  };
  if (pos.spec.ordered) out.moves = pos.spec.moves.map((m) => makePoint(m.index, size));
  if (opts.threats) {
    const list = (c: Color) => {
      const l: { point: string; class: string }[] = [];
      for (let q = 0; q < board.area; q++) {
        if (board.cells[q] !== 0) continue;
        const k = board.classOf(q, c);
        if (k >= C_THREE) l.push({ point: makePoint(q, size), class: COMBINED_NAMES[k]! });
      }
      return l;
    };
    out.threats = { black: list(BLACK), white: list(WHITE) };
  }
  return out;
}

export const command: CommandModule = {
  command: 'show [position..]',
  describe: 'print a position as a text diagram',
  builder: (y) =>
    withPositionOptions(withPositionArgument(y))
      .option('threats', { type: 'boolean', default: false, describe: 'mark the cells where a stone makes five / open four / four / open three' })
      .option('json', { type: 'boolean', describe: 'print one JSON object (size, rule, toMove, stones, moves, lastMove, threats)' })
      .option('svg', { type: 'string', requiresArg: true, describe: 'write the board as an SVG picture to FILE (- for stdout), with the --threats marks' })
      .option('numbers', { type: 'boolean', default: false, describe: 'with --svg: number the stones of a move list' })
      .conflicts('svg', 'json')
      .example('$0 show "h8 i9 h9"', 'a move list: black h8, white i9, black h9')
      .example('$0 show "B:h8,h9;W:i9" --to-move white', 'a stone set with an explicit side to move')
      .example('$0 show h8 i9 h9 h10 --threats', 'mark threats for both sides')
      .example('$0 show h8 i9 h9 --svg board.svg --numbers', 'the same board as a picture'),
  handler: (argv) => {
    const pos = positionFromArgs(argv as { position?: unknown; size?: unknown; rule?: unknown; toMove?: unknown });
    const opts = { threats: argv.threats === true };
    if (typeof argv.svg === 'string') {
      const svg = positionSvg(pos, { ...opts, numbers: argv.numbers === true });
      if (argv.svg === '-') process.stdout.write(svg);
      else {
        try {
          writeFileSync(argv.svg, svg);
        } catch (e) {
          throw new CliError(`cannot write ${argv.svg}: ${(e as Error).message}`);
        }
      }
    } else if (argv.json === true) printJson(showJson(pos, opts));
    else process.stdout.write(renderDiagram(pos, opts));
  },
};
