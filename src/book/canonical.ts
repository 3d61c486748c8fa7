/**
 * The book's view of canonicalisation (built on core/symmetry.ts): a position becomes its
 * canonical key plus the transform from the caller's orientation; moves and strategy entries
 * cross between the two orientations only here.
 */
import type { Board } from '../core/board.js';
import { BLACK, WHITE, type Color } from '../core/types.js';
import {
  canonicalize,
  decodePoints,
  encodePoints,
  fromCanonical,
  parsePositionKey,
  toCanonical,
  transformPoints,
  type CanonicalForm,
  type Transform,
} from '../core/symmetry.js';

export interface BookPosition extends CanonicalForm {
  size: number;
  toMove: Color;
  stones: number;
}

export function bookPositionOfStones(size: number, black: readonly number[], white: readonly number[], toMove: Color): BookPosition {
  const f = canonicalize(size, black, white, toMove);
  return { key: f.key, transform: f.transform, size, toMove, stones: black.length + white.length };
}

export function bookPositionOf(board: Board): BookPosition {
  return bookPositionOfStones(board.size, board.stones(BLACK), board.stones(WHITE), board.toMove);
}

/** A move stored in the book (canonical orientation) -> the caller's orientation. */
export function moveToCaller(p: BookPosition, canonicalMove: number): number {
  return fromCanonical(p, canonicalMove, p.size);
}

/** A move in the caller's orientation -> the canonical orientation for storing. */
export function moveToCanonical(p: BookPosition, callerMove: number): number {
  return toCanonical(p, callerMove, p.size);
}

/** The canonical stones of a key (the position as the book sees it). */
export function stonesOfKey(key: string): { size: number; toMove: Color; black: number[]; white: number[] } | undefined {
  return parsePositionKey(key);
}

/** A strategy entry (caller orientation) -> its stored form (canonical orientation of `p`). */
export function entryToCanonical(p: BookPosition, e: { black: readonly number[]; white: readonly number[]; move: number }): { black: string; white: string; move: number } {
  return {
    black: encodePoints(transformPoints(p.transform, e.black, p.size)),
    white: encodePoints(transformPoints(p.transform, e.white, p.size)),
    move: moveToCanonical(p, e.move),
  };
}

/** A stored entry -> the caller's orientation given by `transform` (canonical -> caller is its inverse). */
export function entryToCaller(p: BookPosition, e: { black: string; white: string; move: number }): { black: number[]; white: number[]; move: number } | undefined {
  const b = decodePoints(e.black, p.size);
  const w = decodePoints(e.white, p.size);
  if (!b || !w) return undefined;
  return {
    black: b.map((q) => moveToCaller(p, q)),
    white: w.map((q) => moveToCaller(p, q)),
    move: moveToCaller(p, e.move),
  };
}

export type { Transform };

/** A stored pass entry (stones and zone, canonical) -> the caller's orientation. */
export function passToCaller(p: BookPosition, e: { black: string; white: string; zone?: string | null }): { black: number[]; white: number[]; zone?: number[] } | undefined {
  const b = decodePoints(e.black, p.size);
  const w = decodePoints(e.white, p.size);
  const z = e.zone == null ? undefined : decodePoints(e.zone, p.size);
  if (!b || !w || (e.zone != null && !z)) return undefined;
  const out: { black: number[]; white: number[]; zone?: number[] } = { black: b.map((q) => moveToCaller(p, q)), white: w.map((q) => moveToCaller(p, q)) };
  if (z) out.zone = z.map((q) => moveToCaller(p, q));
  return out;
}
