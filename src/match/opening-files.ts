/**
 * Opening files for matches. An opening is a list of stones in move order (black first,
 * colours alternate); the game continues from there with the side to move.
 *
 * Formats read (chosen by content, not by file name):
 *  - centre-relative text, one opening per line: `x,y, x,y, …` (Piskvork's openings file
 *    and GomocupJudge's `openings_20.txt`). x counts columns to the right of the centre,
 *    y rows DOWN from it (Gomocup protocol axes: X,Y = centre + x,y with centre
 *    floor(size/2), as GomocupJudge's `opening2pos` does);
 *  - our own move lists, one opening per line (`h8 i9 h10`, `h8,i9,h10`, `h8i9h10`);
 *  - JSON `{"coordinateSystem":"center-relative-x-y","openings":[{"id","coordinates":[[x,y],…]}]}`
 *    (the Gomocup 2026 opening list);
 *  - JSON `{"openings":[{"moves":["H8","H9","I10"], …}]}` (the 26 standard openings,
 *    renju notation = ours);
 *  - JSON `{"puzzles":[{"stones":"H8H9", …}]}` (the lfz084 puzzle file; distinct stone lists).
 * In text files, empty lines and lines starting with `#` are skipped.
 *
 * Every opening is checked: points on the board, no point twice, no five already on the
 * board. An error names the file, the line (or JSON entry) and the bad point.
 */
import { readFileSync } from 'node:fs';
import seedrandom from 'seedrandom';
import { Board } from '../core/board.js';
import { makeMoveList, parsePosition } from '../core/notation.js';
import { type Result, type Rule, err, ok } from '../core/types.js';

export interface Opening {
  /** A name for records: an id from the file, or `<file>:<line>`. */
  id: string;
  /** Point indices in move order (black first). */
  moves: number[];
}

/** Centre-relative (x right, y down) to a point index. */
function fromCentre(dx: number, dy: number, size: number): number | undefined {
  const c = Math.floor(size / 2);
  const x = c + dx;
  const y = c + dy;
  if (x < 0 || y < 0 || x >= size || y >= size) return undefined;
  return y * size + x;
}

function checkOpening(moves: number[], size: number, rule: Rule, where: string): Result<true> {
  const b = new Board(size, rule);
  for (const q of moves) {
    if (b.cells[q] !== 0) return err(`${where}: point ${makeMoveList([q], size)} is given twice`);
    b.play(q);
    if (b.lastMoveWon()) return err(`${where}: the opening already holds a five`);
  }
  if (b.isFull()) return err(`${where}: the opening fills the board`);
  return ok(true);
}

/** Off-board openings are skipped (and described here) when the caller passes `skipped`. */
interface ParseContext {
  skipped?: string[];
}

const OFF_BOARD = ' is off the ';

/** Errors that mean "this opening is for a bigger board", which the caller may skip. */
function skippable(ctx: ParseContext, e: string): boolean {
  if (ctx.skipped === undefined || !e.includes(OFF_BOARD)) return false;
  ctx.skipped.push(e);
  return true;
}

function parseRelativePairs(nums: number[], size: number, where: string): Result<number[]> {
  if (nums.length % 2 !== 0) return err(`${where}: odd number of coordinates`);
  const moves: number[] = [];
  for (let i = 0; i < nums.length; i += 2) {
    const q = fromCentre(nums[i]!, nums[i + 1]!, size);
    if (q === undefined) return err(`${where}: point ${nums[i]},${nums[i + 1]} (centre-relative) is off the ${size}x${size} board`);
    moves.push(q);
  }
  return ok(moves);
}

function parseJson(data: unknown, name: string, size: number, ctx: ParseContext): Result<Opening[]> {
  if (typeof data !== 'object' || data === null) return err(`${name}: not an opening list`);
  const o = data as Record<string, unknown>;
  const out: Opening[] = [];
  if (Array.isArray(o.openings)) {
    const system = typeof o.coordinateSystem === 'string' ? o.coordinateSystem : undefined;
    for (let i = 0; i < o.openings.length; i++) {
      const e = o.openings[i] as Record<string, unknown>;
      const id = typeof e?.id === 'string' ? e.id : `${name}#${i + 1}`;
      if (Array.isArray(e?.coordinates)) {
        if (system !== 'center-relative-x-y') return err(`${name}: coordinateSystem '${system ?? '(none)'}' is not supported (expected center-relative-x-y)`);
        const nums: number[] = [];
        for (const p of e.coordinates as unknown[]) {
          if (!Array.isArray(p) || p.length !== 2 || !p.every((v) => Number.isInteger(v))) return err(`${id}: bad coordinate ${JSON.stringify(p)}`);
          nums.push(p[0] as number, p[1] as number);
        }
        const r = parseRelativePairs(nums, size, id);
        if (!r.ok) {
          if (skippable(ctx, r.error)) continue;
          return r;
        }
        out.push({ id, moves: r.value });
      } else if (Array.isArray(e?.moves)) {
        const r = parsePosition((e.moves as unknown[]).map(String).join(' '), size);
        if (!r.ok) return err(`${id}: ${r.error}`);
        const label = [e.nameJa, e.nameZh].find((v) => typeof v === 'string');
        out.push({ id: typeof e.id === 'string' ? e.id : typeof label === 'string' ? label : id, moves: r.value.moves.map((m) => m.index) });
      } else return err(`${id}: an opening needs 'coordinates' or 'moves'`);
    }
    return ok(out);
  }
  if (Array.isArray(o.puzzles)) {
    const seen = new Set<string>();
    for (let i = 0; i < o.puzzles.length; i++) {
      const e = o.puzzles[i] as Record<string, unknown>;
      if (typeof e?.stones !== 'string' || e.stones.trim() === '') continue;
      const r = parsePosition(e.stones, size);
      if (!r.ok) return err(`${name} puzzle ${i + 1}: ${r.error}`);
      const moves = r.value.moves.map((m) => m.index);
      const key = moves.join(',');
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ id: typeof e.title === 'string' ? e.title : `${name}#${i + 1}`, moves });
    }
    return ok(out);
  }
  return err(`${name}: JSON without 'openings' or 'puzzles'`);
}

function parseText(text: string, name: string, size: number, ctx: ParseContext): Result<Opening[]> {
  const out: Opening[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    const where = `${name}:${i + 1}`;
    if (/^[-+\d\s,]+$/.test(line)) {
      const nums = line
        .split(/[\s,]+/)
        .filter((t) => t !== '')
        .map(Number);
      if (nums.some((n) => !Number.isInteger(n))) return err(`${where}: bad coordinates '${line}'`);
      const r = parseRelativePairs(nums, size, where);
      if (!r.ok) {
        if (skippable(ctx, r.error)) continue;
        return r;
      }
      out.push({ id: where, moves: r.value });
    } else {
      const r = parsePosition(line, size);
      if (!r.ok) return err(`${where}: ${r.error}`);
      if (!r.value.ordered) return err(`${where}: an opening must be a move list, not a stone set`);
      out.push({ id: where, moves: r.value.moves.map((m) => m.index) });
    }
  }
  return ok(out);
}

/**
 * Parse an opening file's text; `name` is used in ids and error messages. With `skipped`,
 * centre-relative openings that do not fit the board (files made for 20x20) are left out
 * and described there instead of failing the whole file.
 */
export function parseOpenings(text: string, name: string, size: number, rule: Rule = 'freestyle', ctx: ParseContext = {}): Result<Opening[]> {
  const t = text.replace(/^\uFEFF/, '').trim();
  let r: Result<Opening[]>;
  if (t.startsWith('{') || t.startsWith('[')) {
    let data: unknown;
    try {
      data = JSON.parse(t);
    } catch (e) {
      return err(`${name}: bad JSON (${(e as Error).message})`);
    }
    r = parseJson(data, name, size, ctx);
  } else r = parseText(t, name, size, ctx);
  if (!r.ok) return r;
  if (r.value.length === 0)
    return err(ctx.skipped?.length ? `${name}: no opening fits the ${size}x${size} board (${ctx.skipped[0]})` : `${name}: no openings found`);
  for (const o of r.value) {
    const c = checkOpening(o.moves, size, rule, o.id);
    if (!c.ok) return c;
  }
  return r;
}

export function loadOpenings(path: string, size: number, rule: Rule = 'freestyle', ctx: ParseContext = {}): Result<Opening[]> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return err(`cannot read '${path}'${code ? ` (${code})` : ''}`);
  }
  const base = path.split('/').pop() ?? path;
  return parseOpenings(text, base, size, rule, ctx);
}

/**
 * `count` distinct random openings of `stones` stones (black first, alternating) inside
 * the central `window` x `window` square, from a seeded generator, so a run can be
 * repeated. Each is played with both colours, which cancels most of its imbalance; the
 * pentanomial statistics treat the pair as the unit. No opening can hold a five
 * (`stones` <= 8 keeps each colour below five stones).
 */
export function randomOpenings(count: number, size: number, seed: string, stones = 3, window = 7): Result<Opening[]> {
  const stream = randomOpeningStream(size, seed, stones, window);
  if (!stream.ok) return stream;
  const out: Opening[] = [];
  for (const o of stream.value) {
    out.push(o);
    if (out.length === count) return ok(out);
  }
  const w = Math.min(window, size);
  return err(`only ${out.length} distinct openings of ${stones} stones fit the ${w}x${w} centre`);
}

/**
 * The distinct random openings of randomOpenings one at a time, in the same order (the
 * first N are randomOpenings(N)); it ends after 50 draws in a row that repeat an opening.
 */
export function randomOpeningStream(size: number, seed: string, stones = 3, window = 7): Result<Iterable<Opening>> {
  if (!Number.isInteger(stones) || stones < 0 || stones > 8) return err(`opening stones must be in 0..8, got ${stones}`);
  const w = Math.min(window, size);
  const lo = Math.floor((size - w) / 2);
  if (stones > w * w) return err(`${stones} stones do not fit a ${w}x${w} window`);
  return ok(
    (function* () {
      const rng = seedrandom(seed);
      const seen = new Set<string>();
      let n = 0;
      for (let misses = 0; misses < 50;) {
        const moves: number[] = [];
        while (moves.length < stones) {
          const q = (lo + Math.floor(rng() * w)) * size + lo + Math.floor(rng() * w);
          if (!moves.includes(q)) moves.push(q);
        }
        const key = moves.join(',');
        if (seen.has(key)) {
          misses++;
          continue;
        }
        misses = 0;
        seen.add(key);
        yield { id: `random-${seed}-${++n}`, moves };
      }
    })(),
  );
}
