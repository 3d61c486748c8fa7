/**
 * The checker against a deliberately naive re-statement of formats.md section 3: plain
 * arrays, run counting for fives, no memo, no shortcuts, every reply walked. On random
 * small positions and random entries the two must agree on the verdict and on the first
 * failing line from the root.
 */
import { expect, test } from 'vitest';
import { makePoint } from '../../src/core/notation.js';
import type { Color, Rule } from '../../src/core/types.js';
import { makeCertificate, parseCertificate } from '../../src/proof/certificate.js';
import { verifyCertificate } from '../../src/proof/verify.js';

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

class Naive {
  constructor(
    readonly size: number,
    readonly rule: Rule,
    readonly cells: number[],
  ) {}
  makesFive(q: number, c: number): boolean {
    const n = this.size;
    const x0 = q % n,
      y0 = Math.floor(q / n);
    for (const [dx, dy] of [
      [1, 0],
      [0, 1],
      [1, 1],
      [1, -1],
    ] as const) {
      let run = 1;
      for (const s of [1, -1]) {
        let x = x0 + s * dx,
          y = y0 + s * dy;
        while (x >= 0 && y >= 0 && x < n && y < n && this.cells[y * n + x] === c) {
          run++;
          x += s * dx;
          y += s * dy;
        }
      }
      if (this.rule === 'standard' ? run === 5 : run >= 5) return true;
    }
    return false;
  }
  fives(c: number): number[] {
    const out: number[] = [];
    for (let q = 0; q < this.cells.length; q++) if (this.cells[q] === 0 && this.makesFive(q, c)) out.push(q);
    return out;
  }
  readonly vcfMemo = new Map<string, boolean>();
  /** Plain VCF, straight from the definition (memoised by the whole board as text). */
  vcf(W: number): boolean {
    const key = this.cells.join('');
    let v = this.vcfMemo.get(key);
    if (v === undefined) {
      v = this.vcfSearch(W);
      this.vcfMemo.set(key, v);
    }
    return v;
  }
  private vcfSearch(W: number): boolean {
    const L = 3 - W;
    if (this.fives(W).length > 0) return true;
    const lf = this.fives(L);
    if (lf.length >= 2) return false;
    const moves = lf.length === 1 ? lf : this.cells.flatMap((v, q) => (v === 0 ? [q] : []));
    for (const m of moves) {
      this.cells[m] = W;
      const wf = this.fives(W);
      let won = wf.length >= 2;
      if (wf.length === 1) {
        this.cells[wf[0]!] = L;
        won = this.vcf(W);
        this.cells[wf[0]!] = 0;
      }
      this.cells[m] = 0;
      if (won) return true;
    }
    return false;
  }
}

type Verdict = { ok: true } | { ok: false; line: number[] };

function naiveWalk(b: Naive, W: number, toMove: number, entries: Map<string, number>, path: number[]): Verdict {
  const L = 3 - W;
  if (toMove === W) {
    if (b.fives(W).length > 0) return { ok: true };
    const key = b.cells.join('');
    const m = entries.get(key);
    if (m !== undefined) {
      b.cells[m] = W;
      const r = naiveWalk(b, W, L, entries, [...path, m]);
      b.cells[m] = 0;
      return r;
    }
    return b.vcf(W) ? { ok: true } : { ok: false, line: path };
  }
  if (b.fives(L).length > 0) return { ok: false, line: path };
  if (!b.cells.includes(0)) return { ok: false, line: path };
  for (let r = 0; r < b.cells.length; r++) {
    if (b.cells[r] !== 0) continue;
    b.cells[r] = L;
    const v = naiveWalk(b, W, W, entries, [...path, r]);
    b.cells[r] = 0;
    if (!v.ok) return v;
  }
  return { ok: true };
}

test('the checker agrees with the naive semantics on random positions', () => {
  const rnd = lcg(2024);
  let verified = 0;
  let failed = 0;
  let withEntries = 0;
  for (let trial = 0; trial < 100; trial++) {
    const size = 7 + Math.floor(rnd() * 2);
    const rule: Rule = trial % 3 === 0 ? 'standard' : 'freestyle';
    const area = size * size;
    const cells = new Array<number>(area).fill(0);
    const b = new Naive(size, rule, cells);
    // Random stones, biased towards the winner-to-be so that wins are common, without any
    // five on the board; the side to move is explicit (stone-set root).
    const W = (rnd() < 0.5 ? 1 : 2) as Color;
    const toMove = (rnd() < 0.7 ? W : 3 - W) as Color;
    const nStones = 8 + Math.floor(rnd() * 14);
    for (let i = 0; i < nStones; i++) {
      const q = Math.floor(rnd() * area);
      const color = rnd() < 0.62 ? W : 3 - W;
      if (cells[q] !== 0 || b.makesFive(q, color)) continue;
      cells[q] = color;
    }
    // Random entries: at the root (if the winner moves) and after random first moves.
    const entries = new Map<string, number>();
    const entryList: { black: number[]; white: number[]; move: number }[] = [];
    const addEntry = () => {
      if (entries.has(cells.join(''))) return;
      const empty = cells.flatMap((v, q) => (v === 0 ? [q] : []));
      // prefer moves next to stones, so some entries are sensible
      const near = empty.filter((q) => [1, -1, size, -size, size + 1, size - 1].some((d) => cells[q + d] === W));
      const pool = near.length > 0 && rnd() < 0.8 ? near : empty;
      const m = pool[Math.floor(rnd() * pool.length)]!;
      entries.set(cells.join(''), m);
      entryList.push({
        black: cells.flatMap((v, q) => (v === 1 ? [q] : [])),
        white: cells.flatMap((v, q) => (v === 2 ? [q] : [])),
        move: m,
      });
    };
    if (toMove === W && rnd() < 0.6) addEntry();
    const snapshot = [...cells];
    // entries two plies deep: a winner move then a loser reply (or one reply if the loser moves first)
    for (let k = 0; k < 3; k++) {
      const empty = cells.flatMap((v, q) => (v === 0 ? [q] : []));
      const seq = toMove === W ? 2 : 1;
      let c: number = toMove;
      const played: number[] = [];
      for (let i = 0; i < seq; i++) {
        const q = empty[Math.floor(rnd() * empty.length)]!;
        if (cells[q] !== 0) break;
        cells[q] = c;
        played.push(q);
        c = 3 - c;
      }
      if (played.length === seq && c === W) addEntry();
      for (const q of played) cells[q] = 0;
    }
    expect(cells).toEqual(snapshot);

    const text = makeCertificate({
      size,
      rule,
      root: {
        kind: 'stones',
        black: cells.flatMap((v, q) => (v === 1 ? [q] : [])),
        white: cells.flatMap((v, q) => (v === 2 ? [q] : [])),
        toMove,
      },
      winner: W,
      entries: entryList,
    });
    const parsed = parseCertificate(text);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const got = verifyCertificate(parsed.value);
    const want = naiveWalk(b, W, toMove, entries, []);
    const ctx = `trial ${trial}: ${text}`;
    expect(got.result, ctx).toBe(want.ok ? 'verified' : 'failed');
    if (!want.ok) expect(got.line, ctx).toEqual(want.line.map((q) => makePoint(q, size)));
    if (want.ok) verified++;
    else failed++;
    if (want.ok && got.entriesUsed > 0) withEntries++;
  }
  // the sample must exercise both outcomes
  expect(verified).toBeGreaterThan(10);
  expect(withEntries).toBeGreaterThan(3);
  expect(failed).toBeGreaterThan(15);
});
