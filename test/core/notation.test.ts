import { describe, expect, test } from 'vitest';
import {
  COLUMN_LETTERS,
  makeMoveList,
  makePoint,
  makeStoneSet,
  parsePoint,
  parsePosition,
  parseRule,
  pointIndex,
  resolveToMove,
  sortCertificateOrder,
} from '../../src/core/notation.js';
import { BLACK, MAX_SIZE, MIN_SIZE, WHITE } from '../../src/core/types.js';

const SIZES = Array.from({ length: MAX_SIZE - MIN_SIZE + 1 }, (_, i) => i + MIN_SIZE);

function value<T>(r: { ok: true; value: T } | { ok: false; error: string }): T {
  if (!r.ok) throw new Error(r.error);
  return r.value;
}
function error(r: { ok: boolean; error?: string }): string {
  expect(r.ok).toBe(false);
  return r.error!;
}

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
function shuffled<T>(a: T[], r: () => number): T[] {
  const b = a.slice();
  for (let i = b.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [b[i], b[j]] = [b[j]!, b[i]!];
  }
  return b;
}

describe('points', () => {
  test('round trip of every point on every size, both cases', () => {
    const bad: string[] = [];
    for (const size of SIZES) {
      const seen = new Set<string>();
      for (let q = 0; q < size * size; q++) {
        const p = makePoint(q, size);
        if (p !== p.toLowerCase() || seen.has(p)) bad.push(`${size}: ${q} -> ${p}`);
        seen.add(p);
        for (const t of [p, p.toUpperCase(), ` ${p} `]) {
          const r = parsePoint(t, size);
          if (!r.ok || r.value !== q) bad.push(`${size}: '${t}' -> ${JSON.stringify(r)}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  test('rows count from the bottom, columns from the left; internal row 0 is the top', () => {
    expect(value(parsePoint('h8', 15))).toBe(pointIndex(7, 7, 15));
    expect(value(parsePoint('a1', 15))).toBe(14 * 15); // bottom-left
    expect(value(parsePoint('a15', 15))).toBe(0); // top-left
    expect(value(parsePoint('o1', 15))).toBe(224); // bottom-right
    expect(makePoint(0, 22)).toBe('a22');
    expect(makePoint(21, 22)).toBe('v22');
    expect(COLUMN_LETTERS).toHaveLength(22);
  });

  test('off-board and malformed points name the token', () => {
    expect(error(parsePoint('p8', 15))).toBe("point 'p8' is off the 15x15 board");
    expect(error(parsePoint('h16', 15))).toBe("point 'h16' is off the 15x15 board");
    expect(error(parsePoint('h0', 15))).toBe("point 'h0' is off the 15x15 board");
    expect(error(parsePoint('f1', 5))).toBe("point 'f1' is off the 5x5 board");
    for (const t of ['z5', '8h', 'h', '', 'h-1', 'hh8', 'w1', 'h100']) expect(error(parsePoint(t, 22))).toContain(`'${t}'`);
  });
});

describe('positions', () => {
  test('the three move-list spellings are the same', () => {
    const a = value(parsePosition('h8 i9 h9'));
    expect(value(parsePosition('h8,i9,h9'))).toEqual(a);
    expect(value(parsePosition('h8i9h9'))).toEqual(a);
    expect(value(parsePosition('  H8 , I9,h9  '))).toEqual(a);
    expect(value(parsePosition('h8, i9 ,,h9,'))).toEqual(a);
    expect(a).toEqual({
      size: 15,
      ordered: true,
      moves: [
        { index: value(parsePoint('h8', 15)), color: BLACK },
        { index: value(parsePoint('i9', 15)), color: WHITE },
        { index: value(parsePoint('h9', 15)), color: BLACK },
      ],
    });
  });

  test('two-digit rows run together: h10i11j12 on 22x22', () => {
    const p = value(parsePosition('h10i11j12v22a1', 22));
    expect(p.moves.map((m) => makePoint(m.index, 22))).toEqual(['h10', 'i11', 'j12', 'v22', 'a1']);
  });

  test('the empty position', () => {
    for (const t of ['', '   ', 'B:;W:', 'B:', 'W:']) {
      const p = value(parsePosition(t));
      expect(p.moves).toEqual([]);
      expect(value(resolveToMove(p))).toBe(BLACK);
    }
  });

  test('stone sets', () => {
    const p = value(parsePosition('B:h8,h9;W:i9'));
    expect(p.ordered).toBe(false);
    expect(p.moves.map((m) => [makePoint(m.index, 15), m.color])).toEqual([
      ['h8', BLACK],
      ['h9', BLACK],
      ['i9', WHITE],
    ]);
    expect(value(parsePosition('b: h8 h9 ; w: i9'))).toEqual(p);
    expect(value(parsePosition('B:h8,h9 W:i9'))).toEqual(p);
    expect(
      value(parsePosition('W:i9;B:h8,h9'))
        .moves.map((m) => m.color)
        .sort(),
    ).toEqual([1, 1, 2]);
    expect(value(parsePosition('B:h8;W:')).moves).toHaveLength(1);
    expect(value(parsePosition('B:;W:i9')).moves).toHaveLength(1);
  });

  test('property: random move lists round-trip through every spelling, on every size', () => {
    const r = rng(7);
    for (const size of SIZES) {
      for (let rep = 0; rep < 5; rep++) {
        const n = Math.floor(r() * Math.min(size * size, 60));
        const pts = shuffled(
          Array.from({ length: size * size }, (_, i) => i),
          r,
        ).slice(0, n);
        const texts = [makeMoveList(pts, size), pts.map((q) => makePoint(q, size)).join(','), pts.map((q) => makePoint(q, size)).join('')];
        for (const t of texts) {
          const p = value(parsePosition(t, size));
          expect(p.moves.map((m) => m.index)).toEqual(pts);
          expect(p.moves.map((m) => m.color)).toEqual(pts.map((_, i) => (i % 2 === 0 ? BLACK : WHITE)));
          expect(value(resolveToMove(p))).toBe(n % 2 === 0 ? BLACK : WHITE);
        }
      }
    }
  });

  test('property: random stone sets round-trip through makeStoneSet, lists in certificate order', () => {
    const r = rng(11);
    for (const size of SIZES) {
      for (let rep = 0; rep < 5; rep++) {
        const pts = shuffled(
          Array.from({ length: size * size }, (_, i) => i),
          r,
        ).slice(0, Math.floor(r() * 40));
        const cut = Math.floor(r() * (pts.length + 1));
        const black = pts.slice(0, cut);
        const white = pts.slice(cut);
        const text = makeStoneSet(black, white, size);
        const p = value(parsePosition(text, size));
        expect(p.ordered).toBe(false);
        expect(p.moves.filter((m) => m.color === BLACK).map((m) => m.index)).toEqual(sortCertificateOrder(black, size));
        expect(p.moves.filter((m) => m.color === WHITE).map((m) => m.index)).toEqual(sortCertificateOrder(white, size));
        expect(makeStoneSet(black, white, size)).toBe(text); // canonical
      }
    }
  });

  test('certificate order: bottom row first, then by column', () => {
    const pts = ['h8', 'a1', 'b1', 'a2', 'o15', 'h9'].map((t) => value(parsePoint(t, 15)));
    expect(sortCertificateOrder(pts, 15).map((q) => makePoint(q, 15))).toEqual(['a1', 'b1', 'a2', 'h8', 'h9', 'o15']);
    expect(makeStoneSet(pts.slice(0, 3), pts.slice(3), 15)).toBe('B:a1,b1,h8;W:a2,h9,o15');
  });
});

describe('errors name the offending token (formats.md section 1)', () => {
  const cases: [string, number, string][] = [
    ['h8 i9 z9', 15, "bad point 'z9'"],
    ['h8 i9 p9', 15, "point 'p9' is off the 15x15 board"],
    ['h8 i9 h16', 15, "point 'h16' is off the 15x15 board"],
    ['h8 i9 H8', 15, "point 'H8' is given twice"],
    ['h8i9h8', 15, "point 'h8' is given twice"],
    ['h8 #! i9', 15, "bad point '#!'"],
    ['h8 i100', 15, "bad point 'i100'"],
    ['h8,,x', 15, "bad point 'x'"],
    ['h8 i9 h', 15, "bad point 'h'"],
    ['h8 8h', 15, "bad point '8h'"],
    ['f1', 5, "point 'f1' is off the 5x5 board"],
    ['B:h8,zz;W:', 15, "bad point 'zz'"],
    ['B:h8;W:h8', 15, "point 'h8' is given twice"],
    ['B:h8;X:i9', 15, "bad stone set part 'X:i9' (expected B:... or W:...)"],
    ['B:h8;W:p1', 15, "point 'p1' is off the 15x15 board"],
  ];
  for (const [text, size, msg] of cases) {
    test(`'${text}' on ${size}x${size}`, () => {
      expect(error(parsePosition(text, size))).toBe(msg);
    });
  }

  test('bad sizes', () => {
    for (const s of [4, 23, 0, -1, 15.5, NaN]) expect(error(parsePosition('h8', s))).toContain(`board size ${s} is not in 5..22`);
  });

  test('the side to move', () => {
    const set = (t: string) => value(parsePosition(t));
    expect(value(resolveToMove(set('B:h8;W:')))).toBe(WHITE);
    expect(value(resolveToMove(set('B:h8;W:i9')))).toBe(BLACK);
    expect(error(resolveToMove(set('B:h8,h9;W:')))).toBe('stone counts (black 2, white 0) need an explicit side to move (--to-move black|white)');
    expect(error(resolveToMove(set('B:;W:i9')))).toContain('(black 0, white 1)');
    expect(value(resolveToMove(set('B:h8,h9;W:'), WHITE))).toBe(WHITE);
    expect(value(resolveToMove(set('B:h8;W:i9'), WHITE))).toBe(WHITE); // a stone set may name any side
    expect(value(resolveToMove(set('h8 i9'), BLACK))).toBe(BLACK);
    expect(error(resolveToMove(set('h8 i9'), WHITE))).toBe('--to-move white contradicts the move list (2 moves)');
  });

  test('rules', () => {
    expect(value(parseRule('Freestyle'))).toBe('freestyle');
    expect(value(parseRule(' standard '))).toBe('standard');
    expect(error(parseRule('renju'))).toBe("unknown rule 'renju' (expected freestyle or standard)");
  });
});
