/**
 * The project's own notation (../shared/docs/formats.md section 1).
 *
 * A point is a column letter and a row number counted from the bottom: `h8`.
 * Internally a point is an index `row * size + col` where `row` counts from the TOP
 * (row 0 is the top edge), so that diagrams print top-down; only this file and the
 * protocol converters know about the flip.
 *
 * Parsing is two-stage: text -> `PositionSpec` (points checked, no duplicates) -> a `Board`
 * by `boardFromSpec` in position.ts (side to move resolved, fives checked). Errors are values naming the
 * bad token.
 */
import { BLACK, WHITE, type Color, type Result, ok, err, MIN_SIZE, MAX_SIZE, type Rule } from './types.js';

export const COLUMN_LETTERS = 'abcdefghijklmnopqrstuv';

export function pointIndex(col: number, row: number, size: number): number {
  return row * size + col;
}

/** Make `h8` from an internal index (row 0 = top). */
export function makePoint(index: number, size: number): string {
  const col = index % size;
  const row = (index - col) / size;
  return COLUMN_LETTERS[col] + String(size - row);
}

/** Parse `h8` / `H8` into an internal index, or an error naming the token. */
export function parsePoint(token: string, size: number): Result<number> {
  const m = /^([a-vA-V])(\d{1,2})$/.exec(token.trim());
  if (!m) return err(`bad point '${token}'`);
  const col = COLUMN_LETTERS.indexOf(m[1]!.toLowerCase());
  const rank = Number(m[2]);
  if (col >= size || rank < 1 || rank > size) return err(`point '${token}' is off the ${size}x${size} board`);
  return ok(pointIndex(col, size - rank, size));
}

export interface PositionSpec {
  size: number;
  /** Stones in move order when the position came from a move list; otherwise black then white. */
  moves: { index: number; color: Color }[];
  /** True when the input was a move list (so move order and the last move are known). */
  ordered: boolean;
  /** The side to move, when the input or an option fixes it. */
  toMove?: Color;
}

/**
 * Split a move list written with spaces, commas or nothing between points. A bad token is
 * reported whole: the run of characters up to the next separator (`i100`, `#x`), not a
 * valid point that happens to follow it.
 */
function tokenizeMoves(text: string): string[] | { bad: string } {
  const tokens: string[] = [];
  const point = /[a-zA-Z]\d{1,2}(?!\d)/y;
  const s = text;
  let pos = 0;
  for (;;) {
    while (pos < s.length && /[\s,]/.test(s[pos]!)) pos++;
    if (pos >= s.length) break;
    point.lastIndex = pos;
    const m = point.exec(s);
    if (!m) return { bad: /^[^\s,]+/.exec(s.slice(pos))![0] };
    tokens.push(m[0]);
    pos = point.lastIndex;
  }
  return tokens;
}

/**
 * Parse either position form: a move list (`h8 i9 h9`, `h8,i9,h9`, `h8i9h9`) or a stone
 * set (`B:h8,h9;W:i9`). Checks points and duplicates, not the side to move (see
 * `resolveToMove`).
 */
export function parsePosition(text: string, size = 15): Result<PositionSpec> {
  if (!Number.isInteger(size) || size < MIN_SIZE || size > MAX_SIZE) return err(`board size ${size} is not in ${MIN_SIZE}..${MAX_SIZE}`);
  const t = text.trim();
  const seen = new Set<number>();
  const add = (tok: string, color: Color, out: PositionSpec['moves']): string | undefined => {
    const p = parsePoint(tok, size);
    if (!p.ok) return p.error;
    if (seen.has(p.value)) return `point '${tok}' is given twice`;
    seen.add(p.value);
    out.push({ index: p.value, color });
    return undefined;
  };
  if (/[bw]\s*:/i.test(t)) {
    const moves: PositionSpec['moves'] = [];
    // parts end at ';' or where the next colour starts (`B:h8 W:i9`, as a shell may join words)
    for (const part of t.split(/;|\s+(?=[bBwW]\s*:)/)) {
      const p = part.trim();
      if (p === '') continue;
      const m = /^([bBwW])\s*:(.*)$/.exec(p);
      if (!m) return err(`bad stone set part '${p}' (expected B:... or W:...)`);
      const color: Color = m[1]!.toLowerCase() === 'b' ? BLACK : WHITE;
      for (const tok of m[2]!.split(/[\s,]+/)) {
        if (tok === '') continue;
        const e = add(tok, color, moves);
        if (e) return err(e);
      }
    }
    return ok({ size, moves, ordered: false });
  }
  const toks = tokenizeMoves(t);
  if (!Array.isArray(toks)) return err(`bad point '${toks.bad}'`);
  const moves: PositionSpec['moves'] = [];
  for (let i = 0; i < toks.length; i++) {
    const e = add(toks[i]!, i % 2 === 0 ? BLACK : WHITE, moves);
    if (e) return err(e);
  }
  return ok({ size, moves, ordered: true });
}

/** The side to move from the stone counts, or the explicit choice when the counts allow it. */
export function resolveToMove(spec: PositionSpec, explicit?: Color): Result<Color> {
  let nb = 0;
  let nw = 0;
  for (const m of spec.moves) {
    if (m.color === BLACK) nb++;
    else nw++;
  }
  if (explicit !== undefined) {
    if (spec.ordered && explicit !== (nb === nw ? BLACK : WHITE)) {
      return err(`--to-move ${explicit === BLACK ? 'black' : 'white'} contradicts the move list (${spec.moves.length} moves)`);
    }
    return ok(explicit);
  }
  if (nb === nw) return ok(BLACK);
  if (nb === nw + 1) return ok(WHITE);
  return err(`stone counts (black ${nb}, white ${nw}) need an explicit side to move (--to-move black|white)`);
}

/** Points sorted by (row from the bottom, column): the certificate order of formats.md section 3. */
export function sortCertificateOrder(indices: number[], size: number): number[] {
  const key = (i: number) => {
    const col = i % size;
    const rowFromBottom = size - 1 - (i - col) / size;
    return rowFromBottom * size + col;
  };
  return [...indices].sort((a, b) => key(a) - key(b));
}

/** `B:a1,h8;W:i9` with each list in certificate order. */
export function makeStoneSet(black: number[], white: number[], size: number): string {
  const f = (l: number[]) =>
    sortCertificateOrder(l, size)
      .map((i) => makePoint(i, size))
      .join(',');
  return `B:${f(black)};W:${f(white)}`;
}

export function makeMoveList(indices: number[], size: number): string {
  return indices.map((i) => makePoint(i, size)).join(' ');
}

export function parseRule(s: string): Result<Rule> {
  const t = s.trim().toLowerCase();
  if (t === 'freestyle' || t === 'standard') return ok(t);
  return err(`unknown rule '${s}' (expected freestyle or standard)`);
}
