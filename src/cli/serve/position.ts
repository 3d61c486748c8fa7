/**
 * Positions as the web API takes them: the CLI's POSITION text (a move list or a stone set)
 * with --size, --rule and --to-move as fields, plus `then`: moves played after it, so a stone
 * set (a puzzle, an SGF setup) can be followed by numbered moves and undone move by move.
 * Every field is checked; an error is the CLI's one line (without `gomoku: `).
 */
import { BLACK, WHITE, colorName, type Color, type Result, type Rule, err, ok, opponent } from '../../core/types.js';
import { makeMoveList, makePoint, makeStoneSet, parsePosition, parseRule, sortCertificateOrder } from '../../core/notation.js';
import { loadPosition, parseSize, parseToMove, type LoadedPosition } from '../common.js';
import { fiveStones, threatMarks } from '../board-view.js';
import { showJson } from '../commands/show.js';
import type { BookStore } from '../../book/store.js';
import { queryBook } from '../../book/query.js';
import type { Verdict } from '../../search/types.js';
import type { BookView, PositionView } from '../../view/wire.js';

/** Longest POSITION or `then` text accepted (22x22 has 484 points of at most 3 characters). */
export const MAX_TEXT = 4000;

export interface PositionRequest {
  position: string;
  then: string;
  size: number;
  rule: Rule;
  toMove?: Color;
}

const FIELDS = new Set(['position', 'then', 'size', 'rule', 'toMove']);

/** The position fields of a request object; `extra` names the other fields the caller allows. */
export function readPositionRequest(o: unknown, extra: readonly string[] = []): Result<PositionRequest> {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return err('expected a JSON object');
  const r = o as Record<string, unknown>;
  for (const k of Object.keys(r)) if (!FIELDS.has(k) && !extra.includes(k)) return err(`unknown field '${k}'`);
  const text = (k: string): Result<string> => {
    const v = r[k] ?? '';
    if (typeof v !== 'string') return err(`'${k}' must be a string`);
    if (v.length > MAX_TEXT) return err(`'${k}' is longer than ${MAX_TEXT} characters`);
    return ok(v);
  };
  const position = text('position');
  if (!position.ok) return position;
  const then = text('then');
  if (!then.ok) return then;
  const size = parseSize(r.size ?? 15);
  if (!size.ok) return size;
  const rule = typeof r.rule === 'string' || r.rule === undefined ? parseRule(r.rule ?? 'freestyle') : err(`'rule' must be a string`);
  if (!rule.ok) return rule;
  const out: PositionRequest = { position: position.value, then: then.value, size: size.value, rule: rule.value };
  if (r.toMove !== undefined && r.toMove !== null) {
    const c = parseToMove(r.toMove);
    if (!c.ok) return c;
    out.toMove = c.value;
  }
  return ok(out);
}

/** A checked position: the board, the setup (an unnumbered stone set, maybe empty) and the moves after it. */
export interface ServedPosition {
  pos: LoadedPosition;
  /** Stones of the stone set the moves follow (none for a move list). */
  setup: { index: number; color: Color }[];
  /** The numbered moves: the whole move list, or the `then` moves after a stone set. */
  moves: { index: number; color: Color }[];
  lastMove: number | undefined;
}

/** Load a request's position as the CLI would, then play `then` after it. */
export function loadServed(req: PositionRequest): Result<ServedPosition> {
  const base = loadPosition(req.position, { size: req.size, rule: req.rule, toMove: req.toMove });
  if (!base.ok) return base;
  const b = base.value;
  const then = parsePosition(req.then, req.size);
  if (!then.ok) return err(`then: ${then.error}`);
  if (!then.value.ordered) return err("'then' must be a move list");
  if (then.value.moves.length === 0) {
    const setup = b.spec.ordered ? [] : b.spec.moves;
    return ok({ pos: b, setup, moves: b.spec.ordered ? b.spec.moves : [], lastMove: b.lastMove });
  }
  // the moves after it alternate from the side to move of the base position
  let c: Color = b.board.toMove;
  const after = then.value.moves.map((m) => {
    const s = { index: m.index, color: c };
    c = opponent(c);
    return s;
  });
  if (b.spec.ordered) {
    const all = loadPosition(
      makeMoveList(
        [...b.spec.moves, ...after].map((m) => m.index),
        req.size,
      ),
      { size: req.size, rule: req.rule },
    );
    if (!all.ok) return all;
    return ok({ pos: all.value, setup: [], moves: all.value.spec.moves, lastMove: all.value.lastMove });
  }
  const stones = [...b.spec.moves, ...after];
  const set = makeStoneSet(
    stones.filter((s) => s.color === BLACK).map((s) => s.index),
    stones.filter((s) => s.color === WHITE).map((s) => s.index),
    req.size,
  );
  const all = loadPosition(set, { size: req.size, rule: req.rule, toMove: c });
  if (!all.ok) return all;
  // keep the order: setup first, then the moves (the picture numbers them, the last is marked)
  all.value.spec.moves = stones;
  return ok({ pos: all.value, setup: b.spec.moves, moves: after, lastMove: after[after.length - 1]!.index });
}

const FLIP: Record<Verdict, Verdict> = { win: 'loss', loss: 'win', draw: 'draw', unknown: 'unknown' };

export function bookView(store: BookStore, sp: ServedPosition): BookView {
  const pt = (q: number) => makePoint(q, sp.pos.size);
  const r = queryBook(store, sp.pos.board);
  if (!r.found) return { found: false };
  const out: BookView = { found: true, verdict: r.verdict, score: r.score, depth: r.depth };
  if (r.bestMove !== undefined) out.bestMove = pt(r.bestMove);
  // a child's stored verdict is for its own side to move, the opponent of ours
  out.children = r.children.map((c) => ({ point: pt(c.move), verdict: FLIP[c.verdict], score: -c.score }));
  return out;
}

/** The text that reproduces the whole position on the command line (and in the page's box). */
export function positionText(sp: ServedPosition): { text: string; toMove?: 'black' | 'white' } {
  const size = sp.pos.size;
  if (sp.setup.length === 0)
    return {
      text: makeMoveList(
        sp.moves.map((m) => m.index),
        size,
      ),
    };
  const all = [...sp.setup, ...sp.moves];
  return {
    text: makeStoneSet(
      all.filter((s) => s.color === BLACK).map((s) => s.index),
      all.filter((s) => s.color === WHITE).map((s) => s.index),
      size,
    ),
    toMove: colorName(sp.pos.board.toMove),
  };
}

/** The answer of POST /api/position: `gomoku show --json` plus what the page draws. */
export function positionView(sp: ServedPosition, book: BookStore | undefined): PositionView {
  const { pos } = sp;
  const size = pos.size;
  const pt = (q: number) => makePoint(q, size);
  const five = fiveStones(pos.board);
  const winner = five.length > 0 ? colorName(pos.board.cells[five[0]!] as Color) : null;
  const setupBlack = sp.setup.filter((s) => s.color === BLACK).map((s) => s.index);
  const setupWhite = sp.setup.filter((s) => s.color === WHITE).map((s) => s.index);
  const shown = showJson(pos);
  return {
    size: shown.size,
    rule: shown.rule,
    toMove: shown.toMove,
    stones: shown.stones,
    lastMove: sp.lastMove === undefined ? null : pt(sp.lastMove),
    setup: sp.setup.length > 0 ? makeStoneSet(setupBlack, setupWhite, size) : '',
    moves: sp.moves.map((m) => pt(m.index)),
    text: positionText(sp).text,
    marks: threatMarks(pos.board).map((m) => ({ point: pt(m.index), text: m.text, tone: m.tone === 'mine' ? 'mine' : 'theirs' })),
    five: sortCertificateOrder(five, size).map(pt),
    winner,
    full: pos.board.ply >= pos.board.area,
    book: book && winner === null ? bookView(book, sp) : null,
  };
}
