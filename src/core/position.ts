/**
 * Stage two of position parsing: a checked `PositionSpec` becomes a Board. Kept apart from
 * notation.ts so that text handling does not pull in the pattern tables (the independent
 * certificate checker uses notation.ts but must not load the solver's board logic).
 */
import { BLACK, WHITE, type Color, type Result, ok, err, type Rule, colorName } from './types.js';
import { Board } from './board.js';
import { makePoint, resolveToMove, type PositionSpec } from './notation.js';

/**
 * The second stage: a validated Board from a parsed position. The stones go on in the
 * spec's order (so `history` is the move list for a move list), the side to move comes from
 * `resolveToMove`, and a position in which both sides already have five is refused, naming a
 * stone of each five. (One side's five is a finished game, which is a valid position.)
 */
export function boardFromSpec(spec: PositionSpec, rule: Rule, explicit?: Color): Result<Board> {
  const side = resolveToMove(spec, explicit);
  if (!side.ok) return side;
  const board = new Board(spec.size, rule);
  for (const m of spec.moves) board.put(m.index, m.color);
  board.setToMove(side.value);
  const fiveAt: (number | undefined)[] = [undefined, undefined, undefined];
  for (const m of spec.moves) if (fiveAt[m.color] === undefined && board.hasFiveAt(m.index)) fiveAt[m.color] = m.index;
  if (fiveAt[BLACK] !== undefined && fiveAt[WHITE] !== undefined) {
    const at = (c: Color) => `${colorName(c)} through ${makePoint(fiveAt[c]!, spec.size)}`;
    return err(`both sides have five (${at(BLACK)}, ${at(WHITE)})`);
  }
  return ok(board);
}

/** A board from stone sets already known to be a position (a book key, a job, a certificate): no checks. */
export function boardFromStones(size: number, rule: Rule, black: readonly number[], white: readonly number[], toMove: Color): Board {
  const b = new Board(size, rule);
  for (const q of black) b.put(q, BLACK);
  for (const q of white) b.put(q, WHITE);
  b.setToMove(toMove);
  return b;
}
