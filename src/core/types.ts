/** Stone colours as stored on the board. 0 = empty, 3 = off-board (only inside line keys). */
export const EMPTY = 0;
export const BLACK = 1;
export const WHITE = 2;
export type Color = 1 | 2;

export type Rule = 'freestyle' | 'standard';
export const RULES: readonly Rule[] = ['freestyle', 'standard'];

export const MIN_SIZE = 5;
export const MAX_SIZE = 22;
/** Points on the largest board: the row length of every per-point buffer and table. */
export const MAX_AREA = MAX_SIZE * MAX_SIZE;

export function opponent(c: Color): Color {
  return (3 - c) as Color;
}

export function colorName(c: Color): 'black' | 'white' {
  return c === BLACK ? 'black' : 'white';
}

export function parseColor(s: string): Color | undefined {
  const t = s.trim().toLowerCase();
  if (t === 'black' || t === 'b' || t === 'x') return BLACK;
  if (t === 'white' || t === 'w' || t === 'o') return WHITE;
  return undefined;
}

/** Errors cross layers as values, never as exceptions. */
export type Result<T, E = string> = { ok: true; value: T } | { ok: false; error: E };
export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });
