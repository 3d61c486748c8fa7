/**
 * Contest protocols' coordinates <-> internal point indices (`row * size + col`, row 0 at
 * the TOP, as in notation.ts). The spec is the "Coordinate conversions" table of
 * ../shared/docs/protocols.md:
 *
 * | protocol | wire form | meaning                                                        |
 * |----------|-----------|----------------------------------------------------------------|
 * | koth     | `(x,y)`   | 0-based, x = column, y = row from the top                      |
 * | codecup  | `Hj`      | upper-case row letter then lower-case column letter, from the top |
 * | alphano  | `x y`     | 1-based, x = row from the top, y = column                      |
 * | wpi      | `H 8`     | column letter (any case), row 1.. counted from the top         |
 * | gomocup  | `x,y`     | 0-based, x = column, y = row from the top                      |
 *
 * Every converter takes the board size (5..22; letters run `a`..`v`), so the adapters decide
 * which sizes their contest uses. Parsing is lenient about spaces (and about letter case
 * where the letter's position already says what it is); making produces the exact wire
 * form each referee expects. Protocol words around the point (`MOVE`, a team name, CodeCup's
 * `Zz` swap) belong to the adapters, not here.
 */
import { type Result, ok, err } from './types.js';

export type CoordProtocol = 'koth' | 'codecup' | 'alphano' | 'wpi' | 'gomocup';
export const COORD_PROTOCOLS: readonly CoordProtocol[] = ['koth', 'codecup', 'alphano', 'wpi', 'gomocup'];

const LETTERS = 'abcdefghijklmnopqrstuv';

function onBoard(col: number, row: number, size: number, token: string): Result<number> {
  if (col < 0 || row < 0 || col >= size || row >= size) return err(`point '${token}' is off the ${size}x${size} board`);
  return ok(row * size + col);
}

function letterIndex(ch: string): number {
  return LETTERS.indexOf(ch.toLowerCase());
}

function colRow(index: number, size: number): [number, number] {
  const col = index % size;
  return [col, (index - col) / size];
}

/** KoTH `(x,y)`, 0-based, x = column. */
export function parseKoth(text: string, size: number): Result<number> {
  const m = /^\s*\(\s*(\d{1,2})\s*,\s*(\d{1,2})\s*\)\s*$/.exec(text);
  if (!m) return err(`bad KoTH point '${text.trim()}' (expected (x,y))`);
  return onBoard(Number(m[1]), Number(m[2]), size, text.trim());
}

export function makeKoth(index: number, size: number): string {
  const [col, row] = colRow(index, size);
  return `(${col},${row})`;
}

/** CodeCup `Hj`: row letter (upper case on the wire) then column letter (lower case). */
export function parseCodecup(text: string, size: number): Result<number> {
  const t = text.trim();
  const m = /^([a-vA-V])([a-vA-V])$/.exec(t);
  if (!m) return err(`bad CodeCup point '${t}' (expected row letter and column letter, e.g. Hj)`);
  return onBoard(letterIndex(m[2]!), letterIndex(m[1]!), size, t);
}

export function makeCodecup(index: number, size: number): string {
  const [col, row] = colRow(index, size);
  return LETTERS[row]!.toUpperCase() + LETTERS[col]!;
}

/** ALPHANO `x y`, 1-based, x = row, y = column. */
export function parseAlphano(text: string, size: number): Result<number> {
  const t = text.trim();
  const m = /^(\d{1,2})\s+(\d{1,2})$/.exec(t);
  if (!m) return err(`bad ALPHANO point '${t}' (expected 'row column', 1-based)`);
  return onBoard(Number(m[2]) - 1, Number(m[1]) - 1, size, t);
}

export function makeAlphano(index: number, size: number): string {
  const [col, row] = colRow(index, size);
  return `${row + 1} ${col + 1}`;
}

/** WPI `H 8`: column letter (any case), row 1-based from the top. */
export function parseWpi(text: string, size: number): Result<number> {
  const t = text.trim();
  const m = /^([a-vA-V])\s+(\d{1,2})$/.exec(t);
  if (!m) return err(`bad WPI point '${t}' (expected 'COLUMN ROW', e.g. H 8)`);
  return onBoard(letterIndex(m[1]!), Number(m[2]) - 1, size, t);
}

/** Upper-case column, as players write it (the referee echoes it in lower case). */
export function makeWpi(index: number, size: number): string {
  const [col, row] = colRow(index, size);
  return `${LETTERS[col]!.toUpperCase()} ${row + 1}`;
}

/** Gomocup `x,y`, 0-based, x = column. */
export function parseGomocup(text: string, size: number): Result<number> {
  const t = text.trim();
  const m = /^(\d{1,2})\s*,\s*(\d{1,2})$/.exec(t);
  if (!m) return err(`bad Gomocup point '${t}' (expected x,y)`);
  return onBoard(Number(m[1]), Number(m[2]), size, t);
}

export function makeGomocup(index: number, size: number): string {
  const [col, row] = colRow(index, size);
  return `${col},${row}`;
}

export interface CoordCodec {
  parse(text: string, size: number): Result<number>;
  make(index: number, size: number): string;
}

/** All converters by protocol name, for adapters chosen at run time and for tests. */
export const COORDS: Readonly<Record<CoordProtocol, CoordCodec>> = {
  koth: { parse: parseKoth, make: makeKoth },
  codecup: { parse: parseCodecup, make: makeCodecup },
  alphano: { parse: parseAlphano, make: makeAlphano },
  wpi: { parse: parseWpi, make: makeWpi },
  gomocup: { parse: parseGomocup, make: makeGomocup },
};
