/**
 * The roots of a book build: every canonical opening of a kind inside the central K x K
 * region (pure; stones as point indices, canonical orientation, deduplicated by key).
 *
 *  - first-stone:   one black stone in the region; white to move.
 *  - swap2:         the Swap2 opener's 2 black + 1 white stones in the region; white to move
 *                   (stay and play, swap, or add two stones: the 4- and 5-stone positions
 *                   are the tree below these roots).
 *  - swap-after-3:  black, white, black in the region (the same stone sets as swap2; usually
 *                   on 16x16); white to move.
 *  - free:          the empty board; black to move.
 */
import { BLACK, WHITE, type Color } from '../core/types.js';
import { canonicalize, parsePositionKey } from '../core/symmetry.js';

export type OpeningKind = 'swap2' | 'swap-after-3' | 'first-stone' | 'free';
export const OPENING_KINDS: readonly OpeningKind[] = ['swap2', 'swap-after-3', 'first-stone', 'free'];

export interface RootPosition {
  key: string;
  black: number[];
  white: number[];
  toMove: Color;
}

/** The cells of the central `region` x `region` square (row-major). */
export function regionCells(size: number, region: number): number[] {
  const k = Math.max(1, Math.min(size, Math.floor(region)));
  const off = Math.floor((size - k) / 2);
  const out: number[] = [];
  for (let y = off; y < off + k; y++) for (let x = off; x < off + k; x++) out.push(y * size + x);
  return out;
}

export function openingRoots(kind: OpeningKind, size: number, region: number): RootPosition[] {
  const cells = regionCells(size, region);
  const seen = new Map<string, RootPosition>();
  const add = (black: number[], white: number[], toMove: Color) => {
    const { key } = canonicalize(size, black, white, toMove);
    if (seen.has(key)) return;
    const k = parsePositionKey(key)!;
    seen.set(key, { key, black: k.black, white: k.white, toMove });
  };
  if (kind === 'free') add([], [], BLACK);
  else if (kind === 'first-stone') for (const q of cells) add([q], [], WHITE);
  else {
    for (let i = 0; i < cells.length; i++) {
      for (let j = i + 1; j < cells.length; j++) {
        for (const w of cells) {
          if (w === cells[i] || w === cells[j]) continue;
          add([cells[i]!, cells[j]!], [w], WHITE);
        }
      }
    }
  }
  return [...seen.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
