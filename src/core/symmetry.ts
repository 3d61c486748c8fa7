/**
 * The 8 symmetries of a square board (the dihedral group D4) and canonical position keys.
 *
 * A transform is a number 0..7 with three bits, applied to a point (x = col, y = row, row 0
 * at the top) in this order:
 *   bit 2 (4): transpose  (x, y) -> (y, x)
 *   bit 0 (1): mirror x   x -> n-1-x
 *   bit 1 (2): mirror y   y -> n-1-y
 * Transform 0 is the identity. `compose(a, b)` is "b first, then a"; `inverse(t)` undoes t.
 *
 * Canonical key of a position (black stones, white stones, side to move):
 *
 *   <size>.<b|w>.<black points>.<white points>
 *
 * where each point list is the transformed point indices (row * size + col), sorted
 * ascending, each written as exactly two characters of the base-32 alphabet `0-9a-v`
 * (so 0..1023 >= 22*22 points, and plain string order equals numeric order). Example: the
 * 15x15 position h8 (black) i9 (white), black to move, is `15.b.3g.30` (h8 = index 112 =
 * "3g"; i9 = index 98 maps to at best index 96 = g9 = "30"). The key is rule independent (the store keeps the rule in its own
 * column). The canonical key is the smallest (plain string comparison) of the 8 images;
 * because all 8 images share size, side and stone counts, the fields line up and the string
 * order is the lexicographic order of (black list, white list).
 *
 * Pure: no I/O, no clocks.
 */
import type { Color } from './types.js';

export type Transform = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;
export const IDENTITY: Transform = 0;
export const TRANSFORMS: readonly Transform[] = [0, 1, 2, 3, 4, 5, 6, 7];

/** Apply transform `t` to the point index `q` of an `size` x `size` board. */
export function transformPoint(t: Transform, q: number, size: number): number {
  let x = q % size;
  let y = (q - x) / size;
  if (t & 4) {
    const s = x;
    x = y;
    y = s;
  }
  if (t & 1) x = size - 1 - x;
  if (t & 2) y = size - 1 - y;
  return y * size + x;
}

// Group tables, derived by acting on a 3x3 board (D4 acts faithfully on it).
const COMPOSE = new Uint8Array(64);
const INVERSE = new Uint8Array(8);
{
  const sig = (f: (q: number) => number) => {
    let s = '';
    for (let q = 0; q < 9; q++) s += f(q);
    return s;
  };
  const bySig = new Map<string, number>();
  for (const t of TRANSFORMS)
    bySig.set(
      sig((q) => transformPoint(t, q, 3)),
      t,
    );
  for (const a of TRANSFORMS) {
    for (const b of TRANSFORMS) {
      const c = bySig.get(sig((q) => transformPoint(a, transformPoint(b, q, 3), 3)));
      if (c === undefined) throw new Error('symmetry tables: composition is not closed');
      COMPOSE[a * 8 + b] = c;
      if (c === 0) INVERSE[b] = a;
    }
  }
}

/** The transform "apply b, then a". */
export function compose(a: Transform, b: Transform): Transform {
  return COMPOSE[a * 8 + b] as Transform;
}

export function inverse(t: Transform): Transform {
  return INVERSE[t] as Transform;
}

/** Apply `t` to every point of a list (a new array). */
export function transformPoints(t: Transform, points: readonly number[], size: number): number[] {
  const out = new Array<number>(points.length);
  for (let i = 0; i < points.length; i++) out[i] = transformPoint(t, points[i]!, size);
  return out;
}

const DIGITS = '0123456789abcdefghijklmnopqrstuv';

function encodeSorted(points: number[]): string {
  points.sort((a, b) => a - b);
  let s = '';
  for (const q of points) s += DIGITS[q >> 5]! + DIGITS[q & 31]!;
  return s;
}

/** A point list in the key encoding (sorted, two base-32 characters a point). */
export function encodePoints(points: readonly number[]): string {
  return encodeSorted([...points]);
}

/** The inverse of `encodePoints`; undefined when malformed or off an `size` board. */
export function decodePoints(s: string, size: number): number[] | undefined {
  if (s.length % 2 !== 0) return undefined;
  const out: number[] = [];
  for (let i = 0; i < s.length; i += 2) {
    const hi = DIGITS.indexOf(s[i]!);
    const lo = DIGITS.indexOf(s[i + 1]!);
    if (hi < 0 || lo < 0) return undefined;
    const q = hi * 32 + lo;
    if (q >= size * size) return undefined;
    out.push(q);
  }
  return out;
}

/** The key of the position exactly as given (no canonicalisation). */
export function positionKey(size: number, black: readonly number[], white: readonly number[], toMove: Color): string {
  return `${size}.${toMove === 1 ? 'b' : 'w'}.${encodeSorted([...black])}.${encodeSorted([...white])}`;
}

export interface CanonicalForm {
  /** The smallest key over the 8 images. */
  key: string;
  /** Maps the caller's orientation to the canonical one: canonical = transformPoint(transform, caller). */
  transform: Transform;
}

/**
 * The canonical key of a position and the transform that takes the caller's orientation to
 * it. Map a canonical move back with `fromCanonical(form, move, size)`. When the position is
 * itself symmetric several transforms give the same key; the lowest-numbered one is returned.
 */
export function canonicalize(size: number, black: readonly number[], white: readonly number[], toMove: Color): CanonicalForm {
  let bestKey = '';
  let best: Transform = 0;
  for (const t of TRANSFORMS) {
    const k = positionKey(size, transformPoints(t, black, size), transformPoints(t, white, size), toMove);
    if (t === 0 || k < bestKey) {
      bestKey = k;
      best = t;
    }
  }
  return { key: bestKey, transform: best };
}

/** A point in the caller's orientation -> the canonical orientation. */
export function toCanonical(form: CanonicalForm, q: number, size: number): number {
  return transformPoint(form.transform, q, size);
}

/** A point in the canonical orientation (e.g. a stored best move) -> the caller's orientation. */
export function fromCanonical(form: CanonicalForm, q: number, size: number): number {
  return transformPoint(inverse(form.transform), q, size);
}

/** Parse a key made by `positionKey`/`canonicalize` back into its parts (undefined if malformed). */
export function parsePositionKey(key: string): { size: number; toMove: Color; black: number[]; white: number[] } | undefined {
  const m = /^(\d{1,2})\.([bw])\.([0-9a-v]*)\.([0-9a-v]*)$/.exec(key);
  if (!m) return undefined;
  const size = Number(m[1]);
  const black = decodePoints(m[3]!, size);
  const white = decodePoints(m[4]!, size);
  if (!black || !white) return undefined;
  return { size, toMove: m[2] === 'b' ? 1 : 2, black, white };
}
