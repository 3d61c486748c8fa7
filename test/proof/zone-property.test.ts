/**
 * Zones against the full-width walk, on random small positions (7x7 to 9x9, both rules).
 *
 * A brute-force writer (this file; plain arrays, run counting, nothing from src/ but the
 * certificate text) builds pass certificates: the loser to move at the root with a pass
 * entry, the winner's plan "as if the loser passed" made of up to two quiet moves, each
 * followed by another pass entry, and a plain VCF at the end; replies that spoil the plan at
 * the root get exact entries of their own where the writer finds one. Zones come from
 * fitZones (the checker's own support) and from tampering: zones grown by random cells,
 * zones that lose a random cell, and zones of random cells.
 *
 * The property: whenever the checker accepts with zones, it also accepts with every reply
 * walked (`ignoreZones`), and so does a naive /2 walk written here from formats.md 3.1 (no
 * memo, no shortcuts) where the board is small enough for it. The test counts the accepted
 * cases, those with replies covered by zones and those with nested passes, so the property
 * cannot hold vacuously.
 */
import { expect, test } from 'vitest';
import type { Color, Rule } from '../../src/core/types.js';
import { makeCertificate, parseCertificate, type PassEntry, type Strategy, type StrategyEntry } from '../../src/proof/certificate.js';
import { verifyCertificate, type VerifyReport } from '../../src/proof/verify.js';
import { fitZones } from '../../src/proof/zones.js';
import { transformPoint, type Transform } from '../../src/core/symmetry.js';

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

const DIRS = [
  [1, 0],
  [0, 1],
  [1, 1],
  [1, -1],
] as const;

/** A board with run counting for fives, straight from the rules. */
class Naive {
  readonly vcfMemo = new Map<string, boolean>();
  constructor(
    readonly size: number,
    readonly rule: Rule,
    readonly cells: number[],
  ) {}
  makesFive(q: number, c: number): boolean {
    const n = this.size;
    const x0 = q % n,
      y0 = Math.floor(q / n);
    for (const [dx, dy] of DIRS) {
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
  /** Plain VCF for W to move (the winner's five cells first). */
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
  /** The first move of a plain VCF (a five cell first), or -1. */
  vcfMove(W: number): number {
    const wf = this.fives(W);
    if (wf.length > 0) return wf[0]!;
    const L = 3 - W;
    const lf = this.fives(L);
    if (lf.length >= 2) return -1;
    const moves = lf.length === 1 ? lf : this.cells.flatMap((v, q) => (v === 0 ? [q] : []));
    for (const m of moves) {
      this.cells[m] = W;
      const f = this.fives(W);
      let won = f.length >= 2;
      if (f.length === 1) {
        this.cells[f[0]!] = L;
        won = this.vcf(W);
        this.cells[f[0]!] = 0;
      }
      this.cells[m] = 0;
      if (won) return m;
    }
    return -1;
  }
  stones(c: number): number[] {
    return this.cells.flatMap((v, q) => (v === c ? [q] : []));
  }
}

/** Keys as the naive walk sees them: the board with the ignore set's cells emptied. */
function keyOf(cells: number[], ignore: Set<number> | null): string {
  if (!ignore || ignore.size === 0) return cells.join('');
  return cells.map((v, q) => (ignore.has(q) ? 0 : v)).join('');
}

/**
 * formats.md 3.1 read literally: every reply at a pass entry joins the branch's ignore set
 * (with `v3`, 3.3: unless the position after it has an entry, looked up as below);
 * look-ups under the exact stones, then without the ignore set; no memo of positions.
 * Returns false on the first failing branch, null when the work budget runs out.
 */
function naiveWalk(
  b: Naive,
  W: number,
  toMove: number,
  moves: Map<string, number>,
  passes: Set<string>,
  ignore: Set<number>,
  budget: { n: number },
  v3 = false,
): boolean | null {
  if (--budget.n < 0) return null;
  const L = 3 - W;
  const find = (): number | undefined => moves.get(keyOf(b.cells, null)) ?? (ignore.size > 0 ? moves.get(keyOf(b.cells, ignore)) : undefined);
  if (toMove === W) {
    if (b.fives(W).length > 0) return true;
    const m = find();
    if (m !== undefined) {
      if (b.cells[m] !== 0) return false;
      b.cells[m] = W;
      const r = naiveWalk(b, W, L, moves, passes, ignore, budget, v3);
      b.cells[m] = 0;
      return r;
    }
    return b.vcf(W);
  }
  if (b.fives(L).length > 0) return false;
  if (!b.cells.includes(0)) return false;
  const pass = passes.has(keyOf(b.cells, null)) || (ignore.size > 0 && passes.has(keyOf(b.cells, ignore)));
  for (let r = 0; r < b.cells.length; r++) {
    if (b.cells[r] !== 0) continue;
    b.cells[r] = L;
    // 3.3: a reply whose position has an entry of its own stays out of the ignore set
    const ignored = pass && !(v3 && find() !== undefined);
    if (ignored) ignore.add(r);
    const v = naiveWalk(b, W, W, moves, passes, ignore, budget, v3);
    if (ignored) ignore.delete(r);
    b.cells[r] = 0;
    if (v !== true) return v;
  }
  return true;
}

interface Plan {
  entries: { cells: number[]; move: number }[];
  passes: number[][];
}

/**
 * The writer's plan for W to move (the loser having passed): a five or a plain VCF, else a
 * quiet move near W's stones after which, the loser passing again, a plan of depth - 1 wins.
 * The first `quiet` levels make a quiet move even where a VCF wins (a plan a writer may well
 * make, and the way to nested pass entries here).
 */
function plan(b: Naive, W: number, depth: number, rnd: () => number, quiet = 0): Plan | null {
  if (quiet === 0 && (b.fives(W).length > 0 || b.vcf(W))) return { entries: [], passes: [] };
  if (depth === 0 || b.fives(3 - W).length > 0) return null;
  const n = b.size;
  const near = b.cells.flatMap((v, q) => {
    if (v !== 0) return [];
    const x = q % n,
      y = Math.floor(q / n);
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const xx = x + dx,
          yy = y + dy;
        if (xx >= 0 && yy >= 0 && xx < n && yy < n && b.cells[yy * n + xx] === W) return [q];
      }
    return [];
  });
  for (let i = near.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [near[i], near[j]] = [near[j]!, near[i]!];
  }
  // Among a few random candidates, those that leave W the most open-four moves first, so
  // that a quiet move keeps spare threats for the replies the zone walks.
  const openFourMoves = (): number => {
    let n = 0;
    for (let q = 0; q < b.cells.length; q++) {
      if (b.cells[q] !== 0) continue;
      b.cells[q] = W;
      if (b.fives(W).length >= 2) n++;
      b.cells[q] = 0;
    }
    return n;
  };
  const ranked = near.slice(0, 8).map((m) => {
    b.cells[m] = W;
    const n = openFourMoves();
    b.cells[m] = 0;
    return { m, n };
  });
  ranked.sort((x, y) => y.n - x.n);
  for (const { m } of ranked) {
    const before = [...b.cells];
    b.cells[m] = W;
    const sub = b.fives(3 - W).length === 0 ? plan(b, W, depth - 1, rnd, Math.max(0, quiet - 1)) : null;
    const after = [...b.cells];
    b.cells[m] = 0;
    if (sub) return { entries: [{ cells: before, move: m }, ...sub.entries], passes: [after, ...sub.passes] };
  }
  return null;
}

/** A point ('c5') as a cell index (row 1 at the bottom), for reading the report's lines. */
function pointIndex(p: string, size: number): number {
  const col = p.charCodeAt(0) - 97;
  const row = Number(p.slice(1));
  return (size - row) * size + col;
}

function stonesOf(cells: number[], c: number): number[] {
  return cells.flatMap((v, q) => (v === c ? [q] : []));
}

function verdict(s: Strategy, ignoreZones = false): VerifyReport {
  const c = parseCertificate(makeCertificate(s));
  if (!c.ok) throw new Error(`writer made a bad certificate: ${c.error.message}`);
  return verifyCertificate(c.value, { ignoreZones, maxMs: 20_000 });
}

/** The strategy seen in another of the 8 orientations (every cell mapped by `t`). */
function transformed(s: Strategy, t: Transform): Strategy {
  const f = (xs: readonly number[]) => xs.map((q) => transformPoint(t, q, s.size));
  if (s.root.kind !== 'stones') throw new Error('a stone-set root');
  return {
    ...s,
    root: { ...s.root, black: f(s.root.black), white: f(s.root.white) },
    entries: s.entries.map((e) => ({ black: f(e.black), white: f(e.white), move: transformPoint(t, e.move, s.size) })),
    passes: (s.passes ?? []).map((q) => ({ black: f(q.black), white: f(q.white), ...(q.zone ? { zone: f(q.zone) } : {}) })),
  };
}

function newStats() {
  return {
    trials: 0,
    planned: 0,
    patched: 0,
    /** Version 3: replies at pass entries given entries of their own (3.3). */
    ownPatched: 0,
    zoneVerified: 0,
    withCovered: 0,
    nested: 0,
    /** Version 3: accepted with zones where some reply kept out of the ignore set by its own entry. */
    withOwnReplies: 0,
    fullVerified: 0,
    naiveChecked: 0,
    naiveVerified: 0,
    tamperedRejected: 0,
    zoneFailed: 0,
    /** Variants checked again in another orientation (the verdict must not change). */
    turned: 0,
  };
}

/** One random position, its plan, patches and zone variants, checked against the full walk (and the naive one). */
function trial(rnd: () => number, trial: number, version: 2 | 3, stats: ReturnType<typeof newStats>): void {
  {
    stats.trials++;
    const size = 7 + Math.floor(rnd() * 3);
    const rule: Rule = trial % 3 === 2 ? 'standard' : 'freestyle';
    const area = size * size;
    const cells = new Array<number>(area).fill(0);
    const b = new Naive(size, rule, cells);
    const W = (rnd() < 0.5 ? 1 : 2) as Color;
    const L = 3 - W;
    // The winner's open threes (three in a line, both ends empty): one is blocked by a single
    // reply, two rarely; then random stones biased to the winner, and a few loser pairs and
    // triples in line so that far loser stones can add up (the trap of 3.2).
    const nThrees = 1 + (rnd() < 0.65 ? 1 : 0);
    for (let k = 0, tries = 0; k < nThrees && tries < 50; tries++) {
      const [dx, dy] = DIRS[Math.floor(rnd() * 4)]!;
      const x = Math.floor(rnd() * size),
        y = Math.floor(rnd() * size);
      const line: number[] = [];
      for (let j = -1; j <= 3; j++) {
        const xx = x + dx * j,
          yy = y + dy * j;
        if (xx < 0 || yy < 0 || xx >= size || yy >= size) break;
        line.push(yy * size + xx);
      }
      if (line.length < 5 || line.some((q) => cells[q] !== 0)) continue;
      for (const q of line.slice(1, 4)) cells[q] = W;
      k++;
    }
    const nStones = 4 + Math.floor(rnd() * 10);
    for (let i = 0; i < nStones; i++) {
      const q = Math.floor(rnd() * area);
      const color = rnd() < 0.5 ? W : L;
      if (cells[q] !== 0 || b.makesFive(q, color)) continue;
      cells[q] = color;
    }
    for (let k = Math.floor(rnd() * 3); k > 0; k--) {
      const [dx, dy] = DIRS[Math.floor(rnd() * 4)]!;
      const x = Math.floor(rnd() * size),
        y = Math.floor(rnd() * size);
      const len = 2 + Math.floor(rnd() * 2);
      for (let j = 0; j < len; j++) {
        const xx = x + dx * j,
          yy = y + dy * j;
        if (xx < 0 || yy < 0 || xx >= size || yy >= size) break;
        const q = yy * size + xx;
        if (cells[q] === 0 && !b.makesFive(q, L)) cells[q] = L;
      }
    }
    if (b.fives(L).length > 0 || b.fives(W).length > 0) return; // the loser moves first: no fours at the root
    const root = [...cells];
    // Under 3.1 one quiet move at most: inside a pass strategy a nested pass whose own
    // strategy starts with an entry cannot survive the reply on that entry's cell (see
    // docs/proof-zones.md), so nested plans end in a VCF. Under 3.3 that reply gets its own
    // entry, so plans may make two.
    const quiet = version === 2 ? (rnd() < 0.5 ? 0 : 1) : Math.floor(rnd() * 3);
    const p = plan(b, W, Math.max(quiet, 1 + Math.floor(rnd() * 2)), rnd, quiet);
    expect(cells).toEqual(root);
    if (!p) return;
    stats.planned++;
    const toEntry = (e: { cells: number[]; move: number }): StrategyEntry => ({ black: stonesOf(e.cells, 1), white: stonesOf(e.cells, 2), move: e.move });
    const entries: StrategyEntry[] = p.entries.map(toEntry);
    const passes: PassEntry[] = [root, ...p.passes].map((c) => ({ black: stonesOf(c, 1), white: stonesOf(c, 2) }));
    const strategy: Strategy = {
      size,
      rule,
      root: { kind: 'stones', black: stonesOf(root, 1), white: stonesOf(root, 2), toMove: L as Color },
      winner: W as Color,
      entries,
      passes,
      version,
    };
    // A reply that spoils the plan (the failing line goes through it) gets a plan of its own
    // where the writer finds one: its first move keyed under the stones the checker looks it
    // up by, pass entries after it, and a VCF. Under 3.1 only replies at the root (looked up
    // under the exact stones first); under 3.3 also the replies at the plan's own pass
    // entries, keyed with the plan's moves and without the replies before them (the deepest
    // such reply on the line first).
    let fit = fitZones(strategy);
    const planMoves = p.entries.map((e) => e.move);
    const patched = new Set<string>();
    /** The board after the line's loser move at index k, as it is keyed, or null when it is no reply at a plan position. */
    const keyedAfter = (line: readonly string[], k: number): number[] | null => {
      const rp = line[k];
      if (rp === undefined || rp === 'pass' || k / 2 > planMoves.length) return null;
      const c = [...root];
      for (let j = 0; j < k; j += 2) {
        // an earlier reply with an entry of its own would be part of the key: not this shape
        if (line[j] !== 'pass' && patched.has(keyedAfter(line, j)?.join('') ?? '')) return null;
        const m = planMoves[j / 2]!;
        if (line[j + 1] !== undefined && pointIndex(line[j + 1]!, size) !== m) return null;
        c[m] = W;
      }
      const r = pointIndex(rp, size);
      if (c[r] !== 0) return null;
      c[r] = L;
      return c;
    };
    for (let patch = 0; patch < 8 && fit.report.result === 'failed'; patch++) {
      const line = fit.report.line;
      let after: number[] | null = null;
      let depth = 0;
      for (let k = version === 3 ? line.length - 1 - ((line.length - 1) % 2) : 0; k >= 0 && after === null; k -= 2) {
        const c = keyedAfter(line, k);
        if (c && !patched.has(c.join(''))) {
          after = c;
          depth = k;
        }
      }
      if (!after) break;
      patched.add(after.join(''));
      cells.splice(0, area, ...after);
      const own = b.fives(L).length <= 1 ? plan(b, W, 1, rnd) : null;
      // a VCF needs no entry, except to override the plan's move found without the ignore set
      if (own && own.entries.length === 0) {
        const m = b.vcfMove(W);
        if (m >= 0) own.entries.push({ cells: [...cells], move: m });
      }
      cells.splice(0, area, ...root);
      if (!own || own.entries.length === 0) break;
      entries.push(toEntry(own.entries[0]!));
      passes.push(...own.passes.map((c) => ({ black: stonesOf(c, 1), white: stonesOf(c, 2) })));
      stats.patched++;
      if (depth > 0) stats.ownPatched++;
      fit = fitZones(strategy);
    }
    expect(cells).toEqual(root);
    const fitted = fit.strategy;

    // The variants: fitted zones; grown by random cells; one cell lost; random zones.
    const variants: Strategy[] = [fitted];
    // (zone cells on an entry's own stones are malformed, so they are left out)
    const withZones = (f: (z: number[]) => number[]) => ({
      ...fitted,
      passes: fitted.passes!.map((q) => ({ ...q, zone: [...new Set(f([...(q.zone ?? [])]))].filter((x) => !q.black.includes(x) && !q.white.includes(x)) })),
    });
    const randomCells = (n: number) => Array.from({ length: n }, () => Math.floor(rnd() * area));
    variants.push(withZones((z) => [...z, ...randomCells(4)]));
    variants.push(withZones((z) => (z.length > 0 && rnd() < 0.7 ? z.filter((_, i) => i !== Math.floor(rnd() * z.length)) : z)));
    variants.push(withZones(() => randomCells(Math.floor(rnd() * area))));
    let nv: boolean | null | undefined;
    for (const [vi, s] of variants.entries()) {
      const z = verdict(s);
      if (z.result === 'unknown') continue;
      // The full walk meets positions in another order in another orientation, and must say
      // the same. (Zones need not: a zone holds the support of the checker's own walk, whose
      // plain VCFs are the first it finds, in its order; a writer fits them to the text.)
      if (vi === 0) {
        const at = verdict(s, true);
        const turned = verdict(transformed(s, (1 + (trial % 7)) as Transform), true);
        if (turned.result !== 'unknown' && at.result !== 'unknown') {
          stats.turned++;
          expect(turned.result, `trial ${trial} turned: ${makeCertificate(s)}`).toBe(at.result);
        }
      }
      if (z.result === 'failed') {
        if (/misses \d+ supporting/.test(z.reason!)) {
          stats.zoneFailed++;
          if (vi > 0) stats.tamperedRejected++;
        }
        continue;
      }
      stats.zoneVerified++;
      if (z.zoneCovered! > 0) stats.withCovered++;
      if (p.passes.length > 0 && z.zoneChecks! > 1) stats.nested++;
      if ((z.ownReplies ?? 0) > 0) stats.withOwnReplies++;
      const full = verdict(s, true);
      const ctx = `trial ${trial} variant ${vi}: ${makeCertificate(s)}`;
      expect(full.result, ctx).toBe('verified');
      stats.fullVerified++;
      // the naive walk where the board leaves it little enough work
      const moves = new Map<string, number>();
      for (const e of s.entries) {
        const c = new Array<number>(area).fill(0);
        for (const q of e.black) c[q] = 1;
        for (const q of e.white) c[q] = 2;
        moves.set(c.join(''), e.move);
      }
      const passKeys = new Set(
        s.passes!.map((q) => {
          const c = new Array<number>(area).fill(0);
          for (const x of q.black) c[x] = 1;
          for (const x of q.white) c[x] = 2;
          return c.join('');
        }),
      );
      // (zones do not change it, so once per trial, on the writer's board with its VCF memo)
      if (nv === undefined) nv = naiveWalk(b, W, L, moves, passKeys, new Set(), { n: 200_000 }, version === 3);
      expect(cells).toEqual(root);
      if (nv !== null) {
        stats.naiveChecked++;
        expect(nv, `naive: ${ctx}`).toBe(true);
        stats.naiveVerified++;
      }
    }
  }
}

test('zones (3.1, 3.2): whenever the zone checker accepts, the full-width walk accepts too', () => {
  const rnd = lcg(7);
  const stats = newStats();
  for (let t = 0; t < 160; t++) trial(rnd, t, 2, stats);
  console.log(`zone property: ${JSON.stringify(stats)}`);
  expect(stats.zoneVerified).toBeGreaterThan(40);
  expect(stats.withCovered).toBeGreaterThan(30);
  expect(stats.nested).toBeGreaterThan(5);
  expect(stats.naiveChecked).toBeGreaterThan(20);
  expect(stats.tamperedRejected).toBeGreaterThan(5);
  expect(stats.turned).toBeGreaterThan(40);
});

test('zones under 3.3 (gomoku-proof/3): plans with two quiet moves, replies with entries of their own; the full walks agree', () => {
  const rnd = lcg(11);
  const stats = newStats();
  for (let t = 0; t < 160; t++) trial(rnd, t, 3, stats);
  console.log(`zone property /3: ${JSON.stringify(stats)}`);
  expect(stats.zoneVerified).toBeGreaterThan(40);
  expect(stats.withCovered).toBeGreaterThan(30);
  expect(stats.nested).toBeGreaterThan(5);
  expect(stats.ownPatched).toBeGreaterThan(3);
  expect(stats.withOwnReplies).toBeGreaterThan(3);
  expect(stats.naiveChecked).toBeGreaterThan(20);
  expect(stats.tamperedRejected).toBeGreaterThan(5);
  expect(stats.turned).toBeGreaterThan(40);
});
