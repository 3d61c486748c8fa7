/**
 * Transposition table for the alpha-beta search.
 *
 * Entry layout: one Int32Array, 4 words per entry, 2 entries per bucket (8 words):
 *   word 0  keyHi           the high 32 bits of the position hash, with bit 0 forced to 1 so
 *                           an empty (all-zero) entry never matches
 *   word 1  keyLo           the low 32 bits (the bucket index uses its low bits, the check all)
 *   word 2  packed          bits 0..9   move + 1 (0 = none; a point index is < 484)
 *                           bits 10..17 depth + 1 (0..255; qsearch results are not stored)
 *                           bits 18..19 bound (1 upper, 2 lower, 3 exact)
 *                           bits 20..27 generation (the search number modulo 256)
 *   word 3  score           int32, mate scores stored relative to the node (see toTT/fromTT)
 *
 * Replacement rule: way 0 is depth-preferred, way 1 always takes what way 0 refuses.
 *  - A position already stored in either way is overwritten in place (keeping its move when
 *    the new result has none).
 *  - Otherwise the new result goes to way 0 when way 0 is from an older generation or its
 *    depth is not greater than the new depth; else to way 1 (always replace).
 * No allocation after construction.
 */
import { MATE_BOUND } from './types.js';

export const BOUND_UPPER = 1;
export const BOUND_LOWER = 2;
export const BOUND_EXACT = 3;

export class TransTable {
  readonly data: Int32Array;
  private readonly mask: number;
  generation = 0;
  /** Filled by probe() on a hit. */
  hitMove = -1;
  hitDepth = -1;
  hitBound = 0;
  hitScore = 0;

  /** 2^bits buckets of 2 entries (bits = 18: 256k buckets, 8 MB). */
  constructor(bits = 18) {
    this.data = new Int32Array((1 << bits) * 8);
    this.mask = (1 << bits) - 1;
  }

  clear(): void {
    this.data.fill(0);
    this.generation = 0;
  }

  newSearch(): void {
    this.generation = (this.generation + 1) & 255;
  }

  /** Look a position up; on a hit fills hitMove/hitDepth/hitBound/hitScore (score adjusted to `ply`). */
  probe(lo: number, hi: number, ply: number): boolean {
    const d = this.data;
    const b = (lo & this.mask) << 3;
    const h = hi | 1;
    let e = -1;
    if (d[b] === h && d[b + 1] === lo) e = b;
    else if (d[b + 4] === h && d[b + 5] === lo) e = b + 4;
    if (e < 0) return false;
    const p = d[e + 2]!;
    this.hitMove = (p & 1023) - 1;
    this.hitDepth = ((p >>> 10) & 255) - 1;
    this.hitBound = (p >>> 18) & 3;
    this.hitScore = fromTT(d[e + 3]!, ply);
    return true;
  }

  store(lo: number, hi: number, ply: number, depth: number, bound: number, score: number, move: number): void {
    const d = this.data;
    const b = (lo & this.mask) << 3;
    const h = hi | 1;
    let e: number;
    if (d[b] === h && d[b + 1] === lo) e = b;
    else if (d[b + 4] === h && d[b + 5] === lo) e = b + 4;
    else {
      const p0 = d[b + 2]!;
      const gen0 = (p0 >>> 20) & 255;
      const depth0 = ((p0 >>> 10) & 255) - 1;
      e = gen0 !== this.generation || depth0 <= depth ? b : b + 4;
      if (e === b && d[b] !== 0) {
        // move the depth-preferred entry down to the always-replace way rather than lose it
        d[b + 4] = d[b]!;
        d[b + 5] = d[b + 1]!;
        d[b + 6] = d[b + 2]!;
        d[b + 7] = d[b + 3]!;
      }
    }
    if (move < 0 && d[e] === h && d[e + 1] === lo) move = (d[e + 2]! & 1023) - 1;
    const dd = depth < 0 ? 0 : depth > 254 ? 254 : depth;
    d[e] = h;
    d[e + 1] = lo;
    d[e + 2] = (move + 1) | ((dd + 1) << 10) | (bound << 18) | (this.generation << 20);
    d[e + 3] = toTT(score, ply);
  }
}

/** Mate scores are stored as distance from the node, so they stay right at any ply. */
export function toTT(score: number, ply: number): number {
  if (score >= MATE_BOUND) return score + ply;
  if (score <= -MATE_BOUND) return score - ply;
  return score;
}

export function fromTT(score: number, ply: number): number {
  if (score >= MATE_BOUND) return score - ply;
  if (score <= -MATE_BOUND) return score + ply;
  return score;
}
