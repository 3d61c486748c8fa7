/**
 * The pattern tables and the incremental board, checked against naive scans written here
 * from the rules alone (nothing from patterns.ts but the tables and the class numbers).
 *
 * Line keys (header of patterns.ts): 10 neighbours of a cell on one line, offsets -5..-1
 * then +1..+5, 2 bits each (0 empty, 1 black, 2 white, 3 off-board); offset o sits in slot
 * o+5 (o<0) or o+4 (o>0). Off-board cells can only be the far end of each side.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { Board } from '../../src/core/board.js';
import {
  COMBINED_TABLE,
  C_CLOSED_THREE,
  C_DOUBLE_THREE,
  C_DOUBLE_TWO,
  C_FIVE,
  C_FOUR,
  C_FOUR_THREE,
  C_NONE,
  C_OPEN_FOUR,
  C_THREE,
  C_TWO,
  P_FIVE,
  P_FOUR,
  P_NONE,
  P_OPEN_FOUR,
  P_OPEN_THREE,
  P_OPEN_TWO,
  P_THREE,
  P_TWO,
  patternTable,
  windowIndex,
  windowTable,
  buildPatternTable,
  buildWindowTable,
  checkTableFile,
  tableChecksum,
  tableFileName,
} from '../../src/core/patterns.js';
import { SIDE_HI, SIDE_LO, ZOBRIST_HI, ZOBRIST_LO } from '../../src/core/zobrist.js';
import { MAX_AREA, type Color, type Rule } from '../../src/core/types.js';

const OFF = 3;

// --- valid keys, enumerated independently -------------------------------------------------

/** All contents of one side, nearest cell first: on-board cells (0/1/2), then off-board ones. */
function sideContents(): number[][] {
  const out: number[][] = [];
  const rec = (prefix: number[]) => {
    if (prefix.length === 5) return void out.push(prefix);
    for (const v of [0, 1, 2]) rec([...prefix, v]);
    rec([...prefix, ...Array(5 - prefix.length).fill(OFF)]);
  };
  rec([]);
  return out;
}

/** key from the cells at offsets -5..-1 (`left[k-1]` = offset -k) and +1..+5 (`right[k-1]` = offset +k). */
function keyOf(left: number[], right: number[]): number {
  let key = 0;
  for (let k = 1; k <= 5; k++) {
    key |= left[k - 1]! << (2 * (5 - k));
    key |= right[k - 1]! << (2 * (4 + k));
  }
  return key;
}

const SIDES = sideContents();

// --- the naive classification: windows of five on an 11-cell line ------------------------

/** Is there a five through the centre (index 5)? `exact`: the run may not continue on either side. */
function naiveFive(line: number[], c: number, exact: boolean): boolean {
  for (let s = 1; s <= 5; s++) {
    let all = true;
    for (let i = s; i < s + 5; i++) if (line[i] !== c) all = false;
    if (!all) continue;
    if (!exact) return true;
    if (line[s - 1] !== c && line[s + 5] !== c) return true;
  }
  return false;
}

function naiveClassifier(exact: boolean) {
  // memo by the line seen from c: 4 states per cell (empty, own, opponent, off-board), 4^11 lines
  const memo = new Int8Array(4 ** 11).fill(-1);
  const classify = (line: number[], c: number): number => {
    let id = 0;
    for (const v of line) id = id * 4 + (v === 0 ? 0 : v === c ? 1 : v === OFF ? 3 : 2);
    const hit = memo[id]!;
    if (hit >= 0) return hit;
    let r: number;
    if (naiveFive(line, c, exact)) r = P_FIVE;
    else {
      let fives = 0;
      const next = new Set<number>();
      for (let e = 0; e < line.length; e++) {
        if (line[e] !== 0) continue;
        const l2 = line.slice();
        l2[e] = c;
        if (naiveFive(l2, c, exact)) fives++;
        else next.add(classify(l2, c));
      }
      if (fives >= 2) r = P_OPEN_FOUR;
      else if (fives === 1) r = P_FOUR;
      else if (next.has(P_OPEN_FOUR)) r = P_OPEN_THREE;
      else if (next.has(P_FOUR)) r = P_THREE;
      else if (next.has(P_OPEN_THREE)) r = P_OPEN_TWO;
      else if (next.has(P_THREE)) r = P_TWO;
      else r = P_NONE;
    }
    memo[id] = r;
    return r;
  };
  return classify;
}

describe('pattern tables vs a naive line scan, every valid key', () => {
  test('there are 364 possible contents per side (3^5 + 3^4 + ... + 1)', () => {
    expect(SIDES.length).toBe(364);
  });

  for (const rule of ['freestyle', 'standard'] as Rule[]) {
    test(`${rule}: both colours, ${364 * 364} keys`, () => {
      const table = patternTable(rule);
      const classify = naiveClassifier(rule === 'standard');
      const bad: string[] = [];
      const seen = new Set<number>();
      const hist = new Map<string, number>();
      for (const left of SIDES) {
        for (const right of SIDES) {
          const key = keyOf(left, right);
          seen.add(key);
          for (const c of [1, 2]) {
            const line = [...left.slice().reverse(), c, ...right];
            const want = classify(line, c);
            const got = (table[key]! >> (3 * (c - 1))) & 7;
            hist.set(`${c}:${want}`, (hist.get(`${c}:${want}`) ?? 0) + 1);
            if (got !== want && bad.length < 10) bad.push(`${line.join('')} colour ${c}: table ${got}, naive ${want}`);
          }
        }
      }
      expect(bad).toEqual([]);
      expect(seen.size).toBe(364 * 364); // distinct keys: the enumeration covers each once
      // every class occurs for both colours (the comparison is not vacuous)
      for (const c of [1, 2]) for (let p = P_NONE; p <= P_FIVE; p++) expect(hist.get(`${c}:${p}`) ?? 0).toBeGreaterThan(0);
    });
  }

  test('freestyle never depends on the cells 5 away; standard does (so the board updates 4 vs 5 neighbours)', () => {
    const free = patternTable('freestyle');
    const std = patternTable('standard');
    let checked = 0;
    let stdDiffers = 0;
    for (const left of SIDES) {
      for (const right of SIDES) {
        const key = keyOf(left, right);
        for (const a of left[4] === OFF ? [OFF] : [0, 1, 2]) {
          for (const b of right[4] === OFF ? [OFF] : [0, 1, 2]) {
            const l2 = [...left.slice(0, 4), a];
            const r2 = [...right.slice(0, 4), b];
            const k2 = keyOf(l2, r2);
            if (free[k2] !== free[key]) throw new Error(`freestyle depends on offset 5: ${left} | ${right} vs ${l2} | ${r2}`);
            if (std[k2] !== std[key]) stdDiffers++;
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(364 * 364);
    expect(stdDiffers).toBeGreaterThan(0);
  });

  for (const rule of ['freestyle', 'standard'] as Rule[]) {
    test(`${rule}: the board's window table agrees with the key table on every valid key`, () => {
      const table = patternTable(rule);
      const win = windowTable(rule);
      const R = rule === 'standard' ? 5 : 4;
      for (const left of SIDES) {
        for (const right of SIDES) {
          // the line as bitboards around the centre (bit R): black bits, white bits, off-board = both
          let b = 0;
          let w = 0;
          for (let k = 1; k <= R; k++) {
            for (const [v, bit] of [
              [left[k - 1]!, R - k],
              [right[k - 1]!, R + k],
            ] as const) {
              if (v & 1) b |= 1 << bit;
              if (v & 2) w |= 1 << bit;
            }
          }
          const got = win[windowIndex(b, w, R)]!;
          const want = table[keyOf(left, right)]!;
          if (got !== ((want & 7) | ((want >> 3) << 12))) throw new Error(`${rule} ${left} | ${right}: window ${got}, key ${want}`);
        }
      }
    });
  }
});

// --- combined classes -------------------------------------------------------------------

/** The combined class of four line patterns, spelled out from the class names. */
function naiveCombined(ps: number[]): number {
  const n = (p: number) => ps.filter((x) => x === p).length;
  if (n(P_FIVE) > 0) return C_FIVE;
  if (n(P_OPEN_FOUR) > 0 || n(P_FOUR) >= 2) return C_OPEN_FOUR; // wins next move
  if (n(P_FOUR) === 1) return n(P_OPEN_THREE) > 0 ? C_FOUR_THREE : C_FOUR;
  if (n(P_OPEN_THREE) >= 2) return C_DOUBLE_THREE;
  if (n(P_OPEN_THREE) === 1) return C_THREE;
  if (n(P_THREE) > 0) return C_CLOSED_THREE;
  if (n(P_OPEN_TWO) >= 2) return C_DOUBLE_TWO;
  if (n(P_OPEN_TWO) + n(P_TWO) > 0) return C_TWO;
  return C_NONE;
}

test('COMBINED_TABLE vs a naive combination, all 4096 pattern quadruples', () => {
  const bad: string[] = [];
  for (let p0 = 0; p0 < 8; p0++)
    for (let p1 = 0; p1 < 8; p1++)
      for (let p2 = 0; p2 < 8; p2++)
        for (let p3 = 0; p3 < 8; p3++) {
          const got = COMBINED_TABLE[p0 | (p1 << 3) | (p2 << 6) | (p3 << 9)];
          const want = naiveCombined([p0, p1, p2, p3]);
          if (got !== want) bad.push(`${[p0, p1, p2, p3]}: ${got} vs ${want}`);
        }
  expect(bad).toEqual([]);
});

// --- the incremental board vs a board computed from scratch --------------------------------

const DX = [1, 0, 1, -1];
const DY = [0, 1, 1, 1];

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Run length of colour c through (x, y) along d, counting (x, y) itself as c. */
function runThrough(cells: ArrayLike<number>, size: number, x: number, y: number, d: number, c: number): number {
  let n = 1;
  for (const sgn of [1, -1]) {
    let nx = x + sgn * DX[d]!;
    let ny = y + sgn * DY[d]!;
    while (nx >= 0 && ny >= 0 && nx < size && ny < size && cells[ny * size + nx] === c) {
      n++;
      nx += sgn * DX[d]!;
      ny += sgn * DY[d]!;
    }
  }
  return n;
}

function naiveWins(cells: ArrayLike<number>, size: number, q: number, c: number, rule: Rule): boolean {
  const x = q % size;
  const y = (q - x) / size;
  for (let d = 0; d < 4; d++) {
    const n = runThrough(cells, size, x, y, d, c);
    if (rule === 'standard' ? n === 5 : n >= 5) return true;
  }
  return false;
}

/** Everything the board keeps, computed from the stones alone. */
function fromScratch(cells: number[], size: number, rule: Rule, toMove: Color) {
  const table = patternTable(rule);
  const area = size * size;
  const fullKeys = new Int32Array(area * 4);
  const pats = new Map<number, number>();
  const comb = new Map<number, [number, number]>();
  const counts = new Int32Array(32);
  for (let q = 0; q < area; q++) {
    const x = q % size;
    const y = (q - x) / size;
    let packed = 0;
    for (let d = 0; d < 4; d++) {
      const left: number[] = [];
      const right: number[] = [];
      for (let k = 1; k <= 5; k++) {
        for (const [sgn, side] of [
          [-1, left],
          [1, right],
        ] as const) {
          const nx = x + sgn * k * DX[d]!;
          const ny = y + sgn * k * DY[d]!;
          side.push(nx < 0 || ny < 0 || nx >= size || ny >= size ? OFF : cells[ny * size + nx]!);
        }
      }
      const full = keyOf(left, right);
      fullKeys[q * 4 + d] = full;
      const t = table[full]!;
      packed |= ((t & 7) << (3 * d)) | ((t >> 3) << (12 + 3 * d));
    }
    if (cells[q] === 0) {
      pats.set(q, packed);
      const cb = naiveCombined([0, 1, 2, 3].map((d) => (packed >> (3 * d)) & 7));
      const cw = naiveCombined([0, 1, 2, 3].map((d) => (packed >> (12 + 3 * d)) & 7));
      comb.set(q, [cb, cw]);
      counts[cb]!++;
      counts[16 + cw]!++;
    }
  }
  let lo = toMove === 2 ? SIDE_LO : 0;
  let hi = toMove === 2 ? SIDE_HI : 0;
  for (let q = 0; q < area; q++) {
    if (cells[q] === 0) continue;
    lo ^= ZOBRIST_LO[(cells[q]! - 1) * MAX_AREA + q]!;
    hi ^= ZOBRIST_HI[(cells[q]! - 1) * MAX_AREA + q]!;
  }
  return { fullKeys, pats, comb, counts, lo, hi };
}

/** Element-wise equality, failing with the first differing index (much faster than toEqual per ply). */
function same(label: string, a: ArrayLike<number>, b: ArrayLike<number>): void {
  if (a.length !== b.length) throw new Error(`${label}: length ${a.length} vs ${b.length}`);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) throw new Error(`${label}[${i}]: ${a[i]} vs ${b[i]}`);
}

function checkAgainstScratch(b: Board, cells: number[], toMove: Color): void {
  const size = b.size;
  same('cells', b.cells, cells);
  expect(b.toMove).toBe(toMove);
  const s = fromScratch(cells, size, b.rule, toMove);
  for (let i = 0; i < size * size * 4; i++) {
    if (b.keyOf(i >> 2, i & 3) !== s.fullKeys[i]) throw new Error(`keyOf(${i >> 2}, ${i & 3}): ${b.keyOf(i >> 2, i & 3)} vs ${s.fullKeys[i]}`);
  }
  for (const [q, p] of s.pats) {
    if ((b.state[q]! & 0xffffff) !== p) throw new Error(`patterns at ${q}: ${b.state[q]! & 0xffffff} vs ${p}`);
    const [cb, cw] = s.comb.get(q)!;
    if (b.classOf(q, 1) !== cb || b.classOf(q, 2) !== cw) throw new Error(`comb at ${q}`);
    for (let d = 0; d < 4; d++) {
      if (b.patternOf(q, 1, d) !== ((p >> (3 * d)) & 7)) throw new Error(`patternOf(${q}, black, ${d})`);
      if (b.patternOf(q, 2, d) !== ((p >> (12 + 3 * d)) & 7)) throw new Error(`patternOf(${q}, white, ${d})`);
    }
    // makesFive == a naive five check with the stone placed
    for (const c of [1, 2] as Color[]) {
      const want = naiveWins(cells, size, q, c, b.rule);
      if (b.makesFive(q, c) !== want) throw new Error(`makesFive(${q}, ${c}) = ${!want}`);
    }
  }
  same('counts', b.counts, s.counts);
  for (let c = 1 as Color; c <= 2; c++) for (let k = 0; k < 10; k++) expect(b.count(c, k)).toBe(s.counts[(c - 1) * 16 + k]);
  expect([b.hashLo | 0, b.hashHi | 0]).toEqual([s.lo | 0, s.hi | 0]);
  for (let q = 0; q < size * size; q++) {
    const want = cells[q] !== 0 && naiveWins(cells, size, q, cells[q]!, b.rule);
    if (b.hasFiveAt(q) !== want) throw new Error(`hasFiveAt(${q}) = ${!want}`);
  }
}

function snapshot(b: Board) {
  return {
    cells: b.cells.slice(),
    keys: Int32Array.from({ length: b.area * 4 }, (_, i) => b.keyOf(i >> 2, i & 3)),
    state: b.state.slice(),
    counts: b.counts.slice(),
    hash: [b.hashLo, b.hashHi],
    ply: b.ply,
    toMove: b.toMove,
    history: b.history.slice(0, b.ply),
  };
}

function sameSnapshot(a: ReturnType<typeof snapshot>, b: ReturnType<typeof snapshot>): void {
  for (const k of ['cells', 'keys', 'state', 'counts', 'hash', 'history'] as const) same(k, a[k], b[k]);
  expect([a.ply, a.toMove]).toEqual([b.ply, b.toMove]);
}

/** A random move, usually near the stones so that real shapes (fours, threes, fives) occur. */
function pickMove(b: Board, r: () => number): number {
  const size = b.size;
  const empties: number[] = [];
  const near: number[] = [];
  for (let q = 0; q < b.area; q++) {
    if (b.cells[q] !== 0) continue;
    empties.push(q);
    const x = q % size;
    const y = (q - x) / size;
    let close = false;
    for (let dy = -2; dy <= 2 && !close; dy++)
      for (let dx = -2; dx <= 2 && !close; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx >= 0 && ny >= 0 && nx < size && ny < size && b.cells[ny * size + nx] !== 0) close = true;
      }
    if (close) near.push(q);
  }
  const pool = near.length > 0 && r() < 0.85 ? near : empties;
  return pool[Math.floor(r() * pool.length)]!;
}

describe('incremental board == board from scratch', () => {
  const configs: [number, Rule, number][] = [
    [5, 'freestyle', 6],
    [5, 'standard', 6],
    [6, 'standard', 4],
    [7, 'freestyle', 4],
    [9, 'standard', 3],
    [15, 'freestyle', 2],
    [15, 'standard', 2],
    [22, 'freestyle', 1],
    [22, 'standard', 1],
  ];
  for (const [size, rule, games] of configs) {
    test(`${size}x${size} ${rule}: ${games} random games, every ply checked, undo exact`, () => {
      const r = rng(size * 1000 + (rule === 'standard' ? 1 : 0));
      let fives = 0;
      for (let g = 0; g < games; g++) {
        const b = new Board(size, rule);
        const cells = new Array<number>(size * size).fill(0);
        const start = snapshot(b);
        checkAgainstScratch(b, cells, 1);
        const maxPly = Math.min(size * size, 90);
        while (b.ply < maxPly) {
          const before = snapshot(b);
          const q = pickMove(b, r);
          const c = b.toMove;
          // sometimes: play, undo, and the board must be exactly as before
          b.play(q);
          b.undo();
          sameSnapshot(snapshot(b), before);
          b.play(q);
          cells[q] = c;
          checkAgainstScratch(b, cells, (3 - c) as Color);
          const won = naiveWins(cells, size, q, c, rule);
          expect(b.lastMoveWon()).toBe(won ? c : 0);
          if (won) {
            fives++;
            if (r() < 0.5) break; // else play on: the tables must stay right after a five too
          }
        }
        // unwind to the empty board
        while (b.ply > 0) b.undo();
        sameSnapshot(snapshot(b), start);
      }
      if (size <= 9) expect(fives).toBeGreaterThan(0);
    });
  }

  test('put() and setToMove() keep the hash and the side to move consistent', () => {
    const b = new Board(15, 'freestyle');
    const cells = new Array<number>(225).fill(0);
    for (const [q, c] of [
      [112, 1],
      [113, 1],
      [97, 2],
      [98, 1],
    ] as [number, Color][]) {
      b.put(q, c);
      cells[q] = c;
    }
    checkAgainstScratch(b, cells, 2);
    b.setToMove(1);
    checkAgainstScratch(b, cells, 1);
    const c2 = b.clone();
    checkAgainstScratch(c2, cells, 1);
  });
});

describe('the tables the build saves (dist/core, read at start-up instead of classifying)', () => {
  for (const rule of ['freestyle', 'standard'] as Rule[]) {
    test(`${rule}: the saved key and window tables are the fresh builds, with a valid checksum`, () => {
      const keys = buildPatternTable(rule);
      const win = buildWindowTable(rule, keys);
      for (const [kind, want] of [
        ['keys', keys],
        ['window', new Uint8Array(win.buffer)],
      ] as const) {
        const file = new URL(`../../dist/core/${tableFileName(rule, kind)}`, import.meta.url);
        expect(existsSync(file), `${file.pathname} is missing: run npm run build`).toBe(true);
        const buf = readFileSync(file);
        expect(buf.length).toBe(want.length + 4);
        const saved = new Uint8Array(buf.subarray(0, want.length));
        expect(Buffer.compare(saved, want)).toBe(0);
        expect(buf.readUInt32LE(want.length)).toBe(tableChecksum(new Uint8Array(saved)));
        // what the loader accepts: exactly this file; one changed byte or a cut file is refused
        expect(Buffer.compare(checkTableFile(buf, want.length)!, want)).toBe(0);
        const bad = Uint8Array.from(buf);
        bad[12345] ^= 1;
        expect(checkTableFile(bad, want.length)).toBeUndefined();
        expect(checkTableFile(buf.subarray(0, buf.length - 1), want.length)).toBeUndefined();
      }
      // and the module's tables are the same (loaded from the files when run from dist)
      expect(Buffer.compare(patternTable(rule), keys)).toBe(0);
      expect(Buffer.compare(new Uint8Array(windowTable(rule).buffer), new Uint8Array(win.buffer))).toBe(0);
    });
  }
});
