import { describe, expect, test } from 'vitest';
import seedrandom from 'seedrandom';
import {
  TRANSFORMS,
  IDENTITY,
  canonicalize,
  compose,
  fromCanonical,
  inverse,
  parsePositionKey,
  positionKey,
  toCanonical,
  transformPoint,
  transformPoints,
  type Transform,
} from '../../src/core/symmetry.js';
import { parsePoint } from '../../src/core/notation.js';
import { BLACK, WHITE, type Color } from '../../src/core/types.js';

const SIZES = [5, 6, 9, 15, 16, 22];

describe('dihedral transforms', () => {
  test.each(SIZES)('each transform is a bijection of the %i x %i board; the 8 are distinct', (n) => {
    const images = new Set<string>();
    for (const t of TRANSFORMS) {
      const seen = new Set<number>();
      const img: number[] = [];
      for (let q = 0; q < n * n; q++) {
        const r = transformPoint(t, q, n);
        expect(r).toBeGreaterThanOrEqual(0);
        expect(r).toBeLessThan(n * n);
        seen.add(r);
        img.push(r);
      }
      expect(seen.size).toBe(n * n);
      images.add(img.join(','));
    }
    expect(images.size).toBe(8);
  });

  test.each(SIZES)('distances are preserved on %i x %i (rotations and mirrors only)', (n) => {
    const xy = (q: number) => [q % n, Math.floor(q / n)] as const;
    for (const t of TRANSFORMS) {
      for (let q = 0; q < n * n; q += 3) {
        const p = (q * 7 + 1) % (n * n);
        const [ax, ay] = xy(q);
        const [bx, by] = xy(p);
        const [cx, cy] = xy(transformPoint(t, q, n));
        const [dx, dy] = xy(transformPoint(t, p, n));
        expect((cx - dx) ** 2 + (cy - dy) ** 2).toBe((ax - bx) ** 2 + (ay - by) ** 2);
      }
    }
  });

  test.each(SIZES)('group laws hold pointwise on %i x %i', (n) => {
    for (const a of TRANSFORMS) {
      expect(compose(a, IDENTITY)).toBe(a);
      expect(compose(IDENTITY, a)).toBe(a);
      expect(compose(a, inverse(a))).toBe(IDENTITY);
      expect(compose(inverse(a), a)).toBe(IDENTITY);
      for (const b of TRANSFORMS) {
        const ab = compose(a, b);
        const direct: number[] = [];
        const stepwise: number[] = [];
        for (let q = 0; q < n * n; q++) {
          direct.push(transformPoint(ab, q, n));
          stepwise.push(transformPoint(a, transformPoint(b, q, n), n));
        }
        expect(direct).toEqual(stepwise);
        for (const c of TRANSFORMS) expect(compose(compose(a, b), c)).toBe(compose(a, compose(b, c)));
      }
    }
  });

  test.each(SIZES)('every point round-trips through t and inverse(t) on %i x %i', (n) => {
    for (const t of TRANSFORMS) {
      for (let q = 0; q < n * n; q++) {
        expect(transformPoint(inverse(t), transformPoint(t, q, n), n)).toBe(q);
        expect(transformPoint(t, transformPoint(inverse(t), q, n), n)).toBe(q);
      }
    }
  });

  test('the centre of an odd board is fixed; the transforms have the orders of D4', () => {
    for (const t of TRANSFORMS) expect(transformPoint(t, 112, 15)).toBe(112);
    const order = (t: Transform) => {
      let k = 1;
      let x = t;
      while (x !== IDENTITY) {
        x = compose(x, t);
        k++;
      }
      return k;
    };
    const orders = TRANSFORMS.map(order).sort();
    // identity, 5 involutions (2 mirrors, 2 diagonal mirrors, 180 degrees), 2 quarter turns
    expect(orders).toEqual([1, 2, 2, 2, 2, 2, 4, 4]);
  });
});

function randomPosition(rng: () => number, n: number, stones: number): { black: number[]; white: number[]; toMove: Color } {
  const used = new Set<number>();
  const black: number[] = [];
  const white: number[] = [];
  for (let i = 0; i < stones; i++) {
    let q: number;
    do q = Math.floor(rng() * n * n);
    while (used.has(q));
    used.add(q);
    (i % 2 === 0 ? black : white).push(q);
  }
  return { black, white, toMove: stones % 2 === 0 ? BLACK : WHITE };
}

describe('canonical keys', () => {
  test('documented example: h8 i9 on 15x15', () => {
    const p = (s: string) => (parsePoint(s, 15) as { ok: true; value: number }).value;
    expect(canonicalize(15, [p('h8')], [p('i9')], BLACK).key).toBe('15.b.3g.30');
  });

  test('all 8 images of random positions share one key, and mapped moves land on the same cells', () => {
    const rng = seedrandom('symmetry');
    for (let iter = 0; iter < 300; iter++) {
      const n = SIZES[iter % SIZES.length]!;
      const stones = Math.floor(rng() * Math.min(12, n * n - 1));
      const pos = randomPosition(rng, n, stones);
      const base = canonicalize(n, pos.black, pos.white, pos.toMove);
      const move = Math.floor(rng() * n * n);
      const baseMove = toCanonical(base, move, n);
      for (const t of TRANSFORMS) {
        const b = transformPoints(t, pos.black, n);
        const w = transformPoints(t, pos.white, n);
        const f = canonicalize(n, b, w, pos.toMove);
        expect(f.key).toBe(base.key);
        // the canonical image of the stones is the key
        expect(positionKey(n, transformPoints(f.transform, b, n), transformPoints(f.transform, w, n), pos.toMove)).toBe(f.key);
        // a move seen from orientation t maps to a canonical cell equivalent to baseMove
        const cm = toCanonical(f, transformPoint(t, move, n), n);
        if (cm !== baseMove) {
          // only possible when the canonical position is symmetric: some stabiliser maps one to the other
          const kb = parsePositionKey(f.key)!;
          const stab = TRANSFORMS.filter((s) => positionKey(n, transformPoints(s, kb.black, n), transformPoints(s, kb.white, n), kb.toMove) === f.key);
          expect(stab.some((s) => transformPoint(s, cm, n) === baseMove)).toBe(true);
        }
        // a canonical move maps back to the caller's orientation, then to the same canonical cell
        expect(toCanonical(f, fromCanonical(f, baseMove, n), n)).toBe(baseMove);
      }
    }
  });

  test('a stored canonical move comes back to each caller as the same physical cell', () => {
    // asymmetric position, so the transform is unique
    const n = 15;
    const black = [112, 113, 128];
    const white = [97, 140];
    const move = 114;
    const base = canonicalize(n, black, white, BLACK);
    const stored = toCanonical(base, move, n);
    for (const t of TRANSFORMS) {
      const f = canonicalize(n, transformPoints(t, black, n), transformPoints(t, white, n), BLACK);
      expect(fromCanonical(f, stored, n)).toBe(transformPoint(t, move, n));
    }
  });

  test('side to move and colours are part of the key; key parses back', () => {
    const a = canonicalize(9, [40], [41], BLACK).key;
    const b = canonicalize(9, [40], [41], WHITE).key;
    const c = canonicalize(9, [41], [40], BLACK).key;
    expect(new Set([a, b, c]).size).toBe(3);
    expect(parsePositionKey(a)).toEqual({ size: 9, toMove: BLACK, black: [40], white: parsePositionKey(a)!.white });
    expect(parsePositionKey(a)!.white).toHaveLength(1);
    expect(parsePositionKey('15.b.zz.')).toBeUndefined();
    expect(parsePositionKey('5.b.0p.')).toBeUndefined(); // 25 is off a 5x5 board
    expect(parsePositionKey('22.w..')).toEqual({ size: 22, toMove: WHITE, black: [], white: [] });
  });

  test('canonicalising 300 ten-stone positions is fast', () => {
    const rng = seedrandom('speed');
    const ps = Array.from({ length: 300 }, () => randomPosition(rng, 15, 10));
    const t0 = performance.now();
    for (let r = 0; r < 10; r++) for (const p of ps) canonicalize(15, p.black, p.white, p.toMove);
    const per = (performance.now() - t0) / 3000;
    expect(per).toBeLessThan(0.1);
  });
});
