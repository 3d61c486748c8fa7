/**
 * Line patterns, built once per rule by brute force from the rules themselves.
 *
 * A *line key* describes the 10 cells around a cell on one line (offsets -5..-1, +1..+5),
 * 2 bits each: 0 empty, 1 black, 2 white, 3 off-board. Slot s holds offset s-5 for s<5 and
 * s-4 for s>=5, so the key is `sum(code << 2*slot)`.
 *
 * `PATTERN_TABLE[rule][key]` gives, for a stone of each colour placed on the (empty) centre,
 * the pattern class it makes on that line: black in bits 0..2, white in bits 3..5.
 * Only shapes that *include the centre stone* count: a four elsewhere on the line is not
 * this cell's four.
 *
 * Classes (by the rules, nothing hand-tuned):
 *  FIVE       the stone makes five (freestyle: 5 or more; standard: exactly 5)
 *  OPEN_FOUR  after it, two or more cells would each make five with it (unstoppable on the line)
 *  FOUR       exactly one such cell
 *  OPEN_THREE some next stone makes an OPEN_FOUR
 *  THREE      some next stone makes a FOUR, none an OPEN_FOUR
 *  OPEN_TWO   some next stone makes an OPEN_THREE
 *  TWO        some next stone makes a THREE
 *  NONE       otherwise
 */
import type { Rule } from './types.js';
import { lazyTables } from './lazy.js';

export const P_NONE = 0;
export const P_TWO = 1;
export const P_OPEN_TWO = 2;
export const P_THREE = 3;
export const P_OPEN_THREE = 4;
export const P_FOUR = 5;
export const P_OPEN_FOUR = 6;
export const P_FIVE = 7;
export const PATTERN_NAMES = ['none', 'two', 'open-two', 'three', 'open-three', 'four', 'open-four', 'five'];

/** Combined class of one cell for one colour, from its four line patterns. */
export const C_NONE = 0;
export const C_TWO = 1; // some two
export const C_DOUBLE_TWO = 2; // two open twos: a double three next
export const C_CLOSED_THREE = 3; // a closed three: a four next
export const C_THREE = 4; // one open three
export const C_DOUBLE_THREE = 5;
export const C_FOUR = 6; // one four, no open three
export const C_FOUR_THREE = 7;
export const C_OPEN_FOUR = 8; // an open four or a double four: wins next move
export const C_FIVE = 9;
export const N_COMBINED = 10;
export const COMBINED_NAMES = ['none', 'two', 'double-two', 'closed-three', 'three', 'double-three', 'four', 'four-three', 'open-four', 'five'];

export const KEY_BITS = 20;
export const OFF_BOARD = 3;

/** Slot of a neighbour at `offset` (-5..-1, 1..5) inside a line key. */
export function slotOf(offset: number): number {
  return offset < 0 ? offset + 5 : offset + 4;
}

// --- classification over colour-relative lines -----------------------------------------
// A relative line is 11 cells, index 5 the centre (own stone placed); cells 1..9 are
// 0 empty / 1 own / 2 blocked; cells 0 and 10 only matter as own (1) or not (2).

function isFive(L: Uint8Array, exact: boolean): boolean {
  let n = 1;
  for (let i = 4; i >= 0 && L[i] === 1; i--) n++;
  for (let i = 6; i <= 10 && L[i] === 1; i++) n++;
  return exact ? n === 5 : n >= 5;
}

function memoIndex(L: Uint8Array): number {
  let idx = 0;
  for (let i = 9; i >= 1; i--) if (i !== 5) idx = idx * 3 + L[i]!;
  return idx + (L[0] === 1 ? 6561 : 0) + (L[10] === 1 ? 13122 : 0);
}

function classifier(exact: boolean) {
  const memo = new Int8Array(26244).fill(-1);
  const classify = (L: Uint8Array): number => {
    const mi = memoIndex(L);
    const cached = memo[mi]!;
    if (cached >= 0) return cached;
    let result = P_NONE;
    if (isFive(L, exact)) result = P_FIVE;
    else {
      let completions = 0;
      for (let e = 1; e <= 9; e++) {
        if (L[e] !== 0) continue;
        L[e] = 1;
        if (isFive(L, exact)) completions++;
        L[e] = 0;
      }
      if (completions >= 2) result = P_OPEN_FOUR;
      else if (completions === 1) result = P_FOUR;
      else {
        for (let e = 1; e <= 9; e++) {
          if (L[e] !== 0) continue;
          L[e] = 1;
          const p = classify(L);
          L[e] = 0;
          const lower = p === P_OPEN_FOUR ? P_OPEN_THREE : p === P_FOUR ? P_THREE : p === P_OPEN_THREE ? P_OPEN_TWO : p === P_THREE ? P_TWO : P_NONE;
          if (lower > result) result = lower;
        }
      }
    }
    memo[mi] = result;
    return result;
  };
  return classify;
}

/** The key tables and window tables of the rules, made on first use (core/lazy.ts). */
const keyTables = lazyTables<Rule, Uint8Array>((rule) => buildPatternTable(rule));
const windowTables = lazyTables<Rule, Uint16Array>((rule) => buildWindowTable(rule, patternTable(rule)));

/** The pattern table for a rule (built on first use, or read from the build's copy). */
export function patternTable(rule: Rule): Uint8Array {
  return keyTables.get(rule);
}

/**
 * Saved tables: the build (scripts/postbuild.mjs) runs the builders below once and saves their
 * output next to dist/core/patterns.js, and the command line installs a source that reads them
 * (src/workers/tables.ts), so a bot process does not spend ~35 ms of its first answer classifying
 * lines. Core itself does no I/O: without a source, or when the source has nothing valid (a
 * missing file, a wrong size, a failed checksum), the table is built here. Tests compare the
 * saved tables with fresh builds.
 */
export type TableKind = 'keys' | 'window';
export type TableSource = (rule: Rule, kind: TableKind) => Uint8Array | undefined;

/** Install (or remove) the source of saved tables; only tables not built yet are affected. */
export function setTableSource(source: TableSource | undefined): void {
  keyTables.setLoader(source && ((rule) => loadTable(source, rule, 'keys', 1 << KEY_BITS)));
  windowTables.setLoader(
    source &&
      ((rule) => {
        const R = rule === 'standard' ? 5 : 4;
        const saved = loadTable(source, rule, 'window', 2 << (4 * R));
        return saved ? new Uint16Array(saved.buffer, saved.byteOffset, 1 << (4 * R)) : undefined;
      }),
  );
}

export function tableFileName(rule: Rule, kind: TableKind): string {
  return `pattern-${kind}-${rule}.bin`;
}

/** FNV-1a over the 32-bit words (tables are a multiple of 4 bytes), the checksum at the end
 *  of a table file. Words, not bytes: it runs at start-up in cold code. */
export function tableChecksum(bytes: Uint8Array): number {
  const words = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2);
  let h = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i]!, 0x01000193);
  return h >>> 0;
}

/** A saved table file's contents: the table (`bytes` long, copied to an aligned buffer) if
 *  the length and checksum are right, else undefined. */
export function checkTableFile(file: Uint8Array, bytes: number): Uint8Array | undefined {
  if (file.length !== bytes + 4) return undefined;
  const data = new Uint8Array(bytes);
  data.set(file.subarray(0, bytes));
  const sum = (file[bytes]! | (file[bytes + 1]! << 8) | (file[bytes + 2]! << 16) | (file[bytes + 3]! << 24)) >>> 0;
  return sum === tableChecksum(data) ? data : undefined;
}

function loadTable(source: TableSource, rule: Rule, kind: TableKind, bytes: number): Uint8Array | undefined {
  const file = source(rule, kind);
  return file ? checkTableFile(file, bytes) : undefined;
}

/** Codes of one side (5 slots) that can occur: off-board cells form the far end. */
function validSides(nearSlotFirst: boolean): number[] {
  const out: number[] = [];
  for (let code = 0; code < 1024; code++) {
    // walk from the slot nearest the centre outwards; once off-board, stay off-board
    let off = false;
    let good = true;
    for (let k = 1; k <= 5; k++) {
      const slot = nearSlotFirst ? 5 - k : k - 1; // left side: slot 4 is offset -1; right side (as 0..4): slot 0 is offset +1
      const v = (code >> (2 * slot)) & 3;
      if (v === OFF_BOARD) off = true;
      else if (off) good = false;
    }
    if (good) out.push(code);
  }
  return out;
}

// Weight of each line cell in memoIndex (cells 1..4 and 6..9 in base 3; outer cells 0/10 as
// "own" flags).
const CELL_WEIGHT = [6561, 1, 3, 9, 27, 0, 81, 243, 729, 2187, 13122];

/** Sum of memo-index weights of one side's 5 slots, for colour c (slot s -> cell s or s+1). */
function sideContribution(code: number, c: number, right: boolean): number {
  let idx = 0;
  for (let j = 0; j < 5; j++) {
    const v = (code >> (2 * j)) & 3;
    const cell = right ? j + 6 : j;
    const rel = v === 0 ? 0 : v === c ? 1 : 2;
    if (cell === 0 || cell === 10) idx += rel === 1 ? CELL_WEIGHT[cell]! : 0;
    else idx += rel * CELL_WEIGHT[cell]!;
  }
  return idx;
}

/** Classify every line key of a rule (the tables' source of truth). */
export function buildPatternTable(rule: Rule): Uint8Array {
  const classify = classifier(rule === 'standard');
  // the class of every relative line, by memo index (decoded once per index)
  const byIndex = new Int8Array(26244).fill(-1);
  const L = new Uint8Array(11);
  const classOfIndex = (idx: number): number => {
    let v = byIndex[idx]!;
    if (v >= 0) return v;
    let r = idx % 6561;
    for (const cell of [1, 2, 3, 4, 6, 7, 8, 9]) {
      L[cell] = r % 3;
      r = (r - L[cell]!) / 3;
    }
    const outer = (idx - (idx % 6561)) / 6561;
    L[0] = outer & 1 ? 1 : 2;
    L[10] = outer & 2 ? 1 : 2;
    L[5] = 1;
    v = classify(L);
    byIndex[idx] = v;
    return v;
  };
  const table = new Uint8Array(1 << KEY_BITS);
  const left = validSides(true);
  const right = validSides(false);
  const lB = left.map((code) => sideContribution(code, 1, false));
  const lW = left.map((code) => sideContribution(code, 2, false));
  const rB = right.map((code) => sideContribution(code, 1, true));
  const rW = right.map((code) => sideContribution(code, 2, true));
  for (let i = 0; i < left.length; i++) {
    const lc = left[i]!;
    for (let j = 0; j < right.length; j++) {
      table[lc | (right[j]! << 10)] = classOfIndex(lB[i]! + rB[j]!) | (classOfIndex(lW[i]! + rW[j]!) << 3);
    }
  }
  return table;
}

/**
 * The index of a cell's window into `windowTable`: `b` and `w` are the black and white bits
 * of the line shifted so that bit R is the cell itself (both bits set = off-board); the R
 * cells each side are kept, the centre dropped: black offsets -R..-1, +1..+R in bits 0..2R-1,
 * then the same for white.
 */
export function windowIndex(b: number, w: number, R: number): number {
  const low = (1 << R) - 1;
  return (b & low) | (((b >> (R + 1)) & low) << R) | (((w & low) | (((w >> (R + 1)) & low) << R)) << (2 * R));
}

/**
 * The pattern table indexed by `windowIndex` (R = 4 in freestyle, 5 in standard), each entry
 * spread to the board's state layout: the black pattern in bits 0..2, the white one in bits
 * 12..14, so `windowTable(rule)[windowIndex(...)] === spread(patternTable(rule)[key])` for the
 * same cells. Freestyle patterns never depend on the cells 5 away (a run reaching them is
 * already five or more), so its table has 2^16 entries (128 KB); standard's has 2^20.
 */
export function windowTable(rule: Rule): Uint16Array {
  return windowTables.get(rule);
}

/** Derive the window table of a rule from its key table. */
export function buildWindowTable(rule: Rule, full: Uint8Array): Uint16Array {
  const R = rule === 'standard' ? 5 : 4;
  const t = new Uint16Array(1 << (4 * R));
  // bit i of a side-by-side mask is offset i-R (i < R) or i-R+1 (i >= R): slot i+5-R either way
  const shiftOf = new Int32Array(2 * R).map((_, i) => 2 * (i + 5 - R));
  for (let idx = 0; idx < t.length; idx++) {
    let key = 0;
    for (let i = 0; i < 2 * R; i++) key |= (((idx >> i) & 1) | (((idx >> (2 * R + i)) & 1) << 1)) << shiftOf[i]!;
    if (R === 4) {
      // the cells 5 away: off-board beyond an off-board cell, else (irrelevant) empty
      if ((key & 0xc) === 0xc) key |= OFF_BOARD;
      if (((key >> 16) & 3) === OFF_BOARD) key |= OFF_BOARD << 18;
    }
    const v = full[key]!;
    t[idx] = (v & 7) | ((v >> 3) << 12);
  }
  return t;
}

/** COMBINED_TABLE[p0 | p1<<3 | p2<<6 | p3<<9] for one colour's four line patterns. */
export const COMBINED_TABLE: Uint8Array = (() => {
  const t = new Uint8Array(4096);
  for (let i = 0; i < 4096; i++) {
    const n = new Int8Array(8);
    for (let d = 0; d < 4; d++) n[(i >> (3 * d)) & 7]!++;
    let c = C_NONE;
    const fours = n[P_FOUR]!;
    if (n[P_FIVE]) c = C_FIVE;
    else if (n[P_OPEN_FOUR] || fours >= 2) c = C_OPEN_FOUR;
    else if (fours === 1 && n[P_OPEN_THREE]) c = C_FOUR_THREE;
    else if (fours === 1) c = C_FOUR;
    else if (n[P_OPEN_THREE]! >= 2) c = C_DOUBLE_THREE;
    else if (n[P_OPEN_THREE] === 1) c = C_THREE;
    else if (n[P_THREE]) c = C_CLOSED_THREE;
    else if (n[P_OPEN_TWO]! >= 2) c = C_DOUBLE_TWO;
    else if (n[P_OPEN_TWO] || n[P_TWO]) c = C_TWO;
    t[i] = c;
  }
  return t;
})();
