/**
 * 64-bit Zobrist keys as two 32-bit halves (no BigInt in the hot path). The keys come from a
 * fixed-seed generator so hashes are identical across runs, processes and workers.
 */
import { MAX_AREA } from './types.js';

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) | 0;
  };
}

/** ZOBRIST_LO/HI[(color - 1) * MAX_AREA + index]; index is row * size + col for the board's own size. */
export const ZOBRIST_LO = new Int32Array(2 * MAX_AREA);
export const ZOBRIST_HI = new Int32Array(2 * MAX_AREA);
{
  const next = splitmix32(0x6f6d6f6b);
  for (let i = 0; i < 2 * MAX_AREA; i++) {
    ZOBRIST_LO[i] = next();
    ZOBRIST_HI[i] = next();
  }
}
/** Xor-ed in when white is to move. */
export const SIDE_LO = 0x2545f491;
export const SIDE_HI = 0x4f6cdd1d;
