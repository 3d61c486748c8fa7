/**
 * What `gomoku show` and `gomoku serve` both mark on a position: the threat marks of
 * `--threats` (one table, so the diagram, the SVG and the web page agree), the stones of a
 * five, and the SVG picture of a loaded position.
 */
import { opponent } from '../core/types.js';
import { makePoint } from '../core/notation.js';
import type { Board } from '../core/board.js';
import { C_DOUBLE_THREE, C_FIVE, C_FOUR, C_FOUR_THREE, C_OPEN_FOUR, C_THREE } from '../core/patterns.js';
import { renderBoardSvg, type Mark, type Picture } from '../view/board-svg.js';
import type { LoadedPosition } from './common.js';

/** Threat marks, most urgent first: [class test, mark for the side to move, mark for the opponent, legend]. */
export const THREAT_MARKS: [(c: number) => boolean, string, string, string][] = [
  [(c) => c === C_FIVE, '5', '*', 'five'],
  [(c) => c === C_OPEN_FOUR, '4', '#', 'open four or double four'],
  [(c) => c === C_FOUR || c === C_FOUR_THREE, 'f', '+', 'four (or four-three)'],
  [(c) => c === C_THREE || c === C_DOUBLE_THREE, '3', '~', 'open three (or double three)'],
];

/** The mark of an empty cell: the more urgent class wins; on a tie the side to move's. */
export function threatMark(board: Board, q: number): { text: string; mine: boolean } | undefined {
  const me = board.toMove;
  const cm = board.classOf(q, me);
  const co = board.classOf(q, opponent(me));
  for (const [test, mine, theirs] of THREAT_MARKS) {
    if (test(cm)) return { text: mine, mine: true };
    if (test(co)) return { text: theirs, mine: false };
  }
  return undefined;
}

/** Every marked empty cell, in index order. */
export function threatMarks(board: Board): Mark[] {
  const out: Mark[] = [];
  for (let q = 0; q < board.area; q++) {
    if (board.cells[q] !== 0) continue;
    const m = threatMark(board, q);
    if (m) out.push({ index: q, text: m.text, tone: m.mine ? 'mine' : 'theirs' });
  }
  return out;
}

/** The stones that are part of a five (empty while the game goes on). */
export function fiveStones(board: Board): number[] {
  const out: number[] = [];
  for (let q = 0; q < board.area; q++) if (board.cells[q] !== 0 && board.hasFiveAt(q)) out.push(q);
  return out;
}

/** Why no move can be played here (a five on the board, a full board), or undefined. */
export function gameOverReason(board: Board): string | undefined {
  for (let q = 0; q < board.area; q++) if (board.cells[q] !== 0 && board.hasFiveAt(q)) return `the game is over: ${makePoint(q, board.size)} is part of a five`;
  if (board.ply >= board.area) return 'the board is full';
  return undefined;
}

/** The SVG picture of a position, as `gomoku show --svg` writes it. */
export function positionSvg(pos: LoadedPosition, opts: { threats?: boolean; numbers?: boolean } = {}): string {
  const pic: Picture = {
    size: pos.size,
    stones: pos.spec.moves,
    numbers: opts.numbers === true && pos.spec.ordered,
    ring: fiveStones(pos.board),
  };
  if (pos.lastMove !== undefined) pic.lastMove = pos.lastMove;
  if (opts.threats) pic.marks = threatMarks(pos.board);
  return renderBoardSvg(pic) + '\n';
}
