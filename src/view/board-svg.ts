/**
 * The board picture as one SVG document (a string), shared by `gomoku show --svg` and the
 * web page of `gomoku serve`, so both draw the same board. Pure: data in, text out; it knows
 * the notation's coordinates (columns `a`.. from the left, rows from the bottom) and nothing
 * of the rules: what to mark comes in as data.
 */
import { COLUMN_LETTERS, makePoint } from '../core/notation.js';
import { BLACK, type Color } from '../core/types.js';

/**
 * What a label on an empty cell means; one palette for the CLI and the page:
 *  - mine / theirs: a threat mark for the side to move / for the opponent (`show --threats`);
 *  - win / loss / draw / score: a book verdict or score from the side to move's view;
 *  - best: the book's (or the engine's) best move.
 */
export type MarkTone = 'mine' | 'theirs' | 'win' | 'loss' | 'draw' | 'score' | 'best';

export interface Mark {
  index: number;
  /** A few characters at most (a threat mark, a verdict letter, a score). */
  text: string;
  tone: MarkTone;
}

export interface Picture {
  size: number;
  /** In move order when the position was a move list (the move numbers count along it). */
  stones: readonly { index: number; color: Color }[];
  /** Write each stone's number in `stones` on it. */
  numbers?: boolean;
  /** Stones before this many are an unnumbered setup (a stone set with moves after it). */
  numberFrom?: number;
  lastMove?: number;
  marks?: readonly Mark[];
  /** A line of moves drawn as faint numbered stones, the first by `lineFirst`. */
  line?: readonly number[];
  lineFirst?: Color;
  /** Letters and numbers around the board (default true). */
  coordinates?: boolean;
  /** Cells to ring (e.g. the stones of a five). */
  ring?: readonly number[];
}

/** Board units: the distance between two lines, and the margin that holds the coordinates. */
export const CELL = 32;
export const MARGIN = 30;

export interface Geometry {
  /** Width and height of the view box. */
  width: number;
  /** The centre of a cell in view-box units. */
  x(col: number): number;
  y(row: number): number;
  /** The cell under a view-box point (nearest intersection), or -1 off the board. */
  cellAt(vx: number, vy: number): number;
}

export function geometry(size: number, coordinates = true): Geometry {
  const m = coordinates ? MARGIN : CELL / 2 + 2;
  const width = 2 * m + (size - 1) * CELL;
  return {
    width,
    x: (col) => m + col * CELL,
    y: (row) => m + row * CELL,
    cellAt(vx, vy) {
      const col = Math.round((vx - m) / CELL);
      const row = Math.round((vy - m) / CELL);
      if (col < 0 || row < 0 || col >= size || row >= size) return -1;
      return row * size + col;
    },
  };
}

const TONE_COLOR: Record<MarkTone, string> = {
  mine: '#1565c0',
  theirs: '#c62828',
  win: '#2e7d32',
  loss: '#c62828',
  draw: '#616161',
  score: '#6d4c41',
  best: '#2e7d32',
};

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The star points: the centre, and on boards from 13 up the four points 3 or 4 in from the edges. */
function starPoints(size: number): number[] {
  const c = (size - 1) / 2;
  const out: number[] = [];
  if (Number.isInteger(c)) out.push(c * size + c);
  if (size >= 13) {
    const d = size >= 15 ? 3 : 2;
    for (const r of [d, size - 1 - d]) for (const col of [d, size - 1 - d]) out.push(r * size + col);
  }
  return out;
}

/**
 * One stone, its number and the last-move mark (as renderBoardSvg draws it). The page adds a
 * clicked stone with this alone, so a click is answered before the whole board is redrawn.
 * The last move's number is red (class `last`, normal colour in data-fill); without numbers
 * it gets a red dot (class `last`).
 */
export function stoneSvg(
  size: number,
  s: { index: number; color: Color },
  opts: { number?: number | undefined; last?: boolean; coordinates?: boolean } = {},
): string {
  const g = geometry(size, opts.coordinates !== false);
  const r = CELL * 0.46;
  const x = g.x(s.index % size);
  const y = g.y(Math.floor(s.index / size));
  const black = s.color === BLACK;
  let out = `<circle class="stone ${black ? 'black' : 'white'}" data-point="${makePoint(s.index, size)}" cx="${x}" cy="${y}" r="${r}" fill="${black ? '#151515' : '#fafafa'}" stroke="${black ? '#000' : '#555'}" stroke-width="1"/>`;
  if (opts.number !== undefined) {
    const n = String(opts.number);
    const normal = black ? '#fff' : '#111';
    out += `<text class="num${opts.last ? ' last' : ''}" data-fill="${normal}" x="${x}" y="${y}" font-size="${n.length < 3 ? 14 : 11}" fill="${opts.last ? '#e53935' : normal}" text-anchor="middle" dominant-baseline="central">${n}</text>`;
  } else if (opts.last) {
    out += `<circle class="last" cx="${x}" cy="${y}" r="${r * 0.3}" fill="#e53935"/>`;
  }
  return out;
}

export function renderBoardSvg(p: Picture): string {
  const { size } = p;
  const coords = p.coordinates !== false;
  const g = geometry(size, coords);
  const w = g.width;
  const r = CELL * 0.46;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${w}" width="${w}" height="${w}" font-family="Helvetica, Arial, sans-serif" class="gomoku-board" role="img" aria-label="${size}x${size} board, ${p.stones.length} stones">`,
  );
  out.push(`<rect width="${w}" height="${w}" fill="#e3b76b"/>`);
  const lo = g.x(0);
  const hi = g.x(size - 1);
  const lines: string[] = [];
  for (let i = 0; i < size; i++) {
    const v = g.x(i);
    lines.push(`M${lo} ${v}H${hi}M${v} ${lo}V${hi}`);
  }
  out.push(`<path d="${lines.join('')}" stroke="#3b2a14" stroke-width="1" fill="none"/>`);
  for (const q of starPoints(size)) out.push(`<circle cx="${g.x(q % size)}" cy="${g.y(Math.floor(q / size))}" r="3" fill="#3b2a14"/>`);
  if (coords) {
    const t: string[] = [];
    for (let col = 0; col < size; col++) {
      const x = g.x(col);
      const letter = COLUMN_LETTERS[col]!;
      t.push(`<text x="${x}" y="${MARGIN / 2}">${letter}</text><text x="${x}" y="${w - MARGIN / 2}">${letter}</text>`);
    }
    for (let row = 0; row < size; row++) {
      const y = g.y(row);
      const n = String(size - row);
      t.push(`<text x="${MARGIN / 2}" y="${y}">${n}</text><text x="${w - MARGIN / 2}" y="${y}">${n}</text>`);
    }
    out.push(`<g font-size="12" fill="#3b2a14" text-anchor="middle" dominant-baseline="central">${t.join('')}</g>`);
  }
  const onLine = new Set(p.line ?? []);
  for (const m of p.marks ?? []) {
    if (onLine.has(m.index)) continue; // a line stone covers the mark
    const x = g.x(m.index % size);
    const y = g.y(Math.floor(m.index / size));
    const c = TONE_COLOR[m.tone];
    const fs = m.text.length <= 1 ? 15 : m.text.length === 2 ? 12 : m.text.length === 3 ? 10 : 8;
    out.push(
      `<g class="mark mark-${m.tone}" data-point="${makePoint(m.index, size)}"><circle cx="${x}" cy="${y}" r="${r * 0.78}" fill="#fff8e8" fill-opacity="0.85" stroke="${c}" stroke-width="${m.tone === 'best' ? 2.5 : 1.2}"/>` +
        `<text x="${x}" y="${y}" font-size="${fs}" font-weight="bold" fill="${c}" text-anchor="middle" dominant-baseline="central">${esc(m.text)}</text></g>`,
    );
  }
  const from = p.numberFrom ?? 0;
  p.stones.forEach((s, i) =>
    out.push(stoneSvg(size, s, { number: p.numbers && i >= from ? i - from + 1 : undefined, last: s.index === p.lastMove, coordinates: coords })),
  );
  if (p.line && p.line.length > 0) {
    let c: Color = p.lineFirst ?? BLACK;
    p.line.forEach((q, i) => {
      const x = g.x(q % size);
      const y = g.y(Math.floor(q / size));
      const black = c === BLACK;
      out.push(
        `<g class="line" data-point="${makePoint(q, size)}"><circle cx="${x}" cy="${y}" r="${r}" fill="${black ? '#151515' : '#fafafa'}" fill-opacity="0.45" stroke="#1565c0" stroke-width="1.5" stroke-dasharray="3 2"/>` +
          `<text x="${x}" y="${y}" font-size="13" font-weight="bold" font-style="italic" fill="${black ? '#bbdefb' : '#0d47a1'}" text-anchor="middle" dominant-baseline="central">${i + 1}</text></g>`,
      );
      c = (3 - c) as Color;
    });
  }
  for (const q of p.ring ?? [])
    out.push(`<circle class="ring" cx="${g.x(q % size)}" cy="${g.y(Math.floor(q / size))}" r="${r + 2}" fill="none" stroke="#e53935" stroke-width="2.5"/>`);
  out.push('</svg>');
  return out.join('\n');
}
