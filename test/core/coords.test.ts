import { describe, expect, test } from 'vitest';
import {
  COORDS,
  COORD_PROTOCOLS,
  makeAlphano,
  makeCodecup,
  makeGomocup,
  makeKoth,
  makeWpi,
  parseAlphano,
  parseCodecup,
  parseGomocup,
  parseKoth,
  parseWpi,
} from '../../src/core/coords.js';
import { parsePoint } from '../../src/core/notation.js';
import { MAX_SIZE, MIN_SIZE } from '../../src/core/types.js';

const value = <T>(r: { ok: true; value: T } | { ok: false; error: string }): T => {
  if (!r.ok) throw new Error(r.error);
  return r.value;
};

describe('round trips over every point of every size', () => {
  for (const proto of COORD_PROTOCOLS) {
    test(proto, () => {
      const { parse, make } = COORDS[proto];
      const bad: string[] = [];
      let checked = 0;
      for (let size = MIN_SIZE; size <= MAX_SIZE; size++) {
        const seen = new Set<string>();
        for (let q = 0; q < size * size; q++) {
          const text = make(q, size);
          if (seen.has(text)) bad.push(`${size}: '${text}' made twice`);
          seen.add(text);
          for (const t of [text, `  ${text} \t`]) {
            const r = parse(t, size);
            if (!r.ok || r.value !== q) bad.push(`${size}: ${q} -> '${t}' -> ${JSON.stringify(r)}`);
          }
          checked++;
        }
      }
      expect(bad).toEqual([]);
      expect(checked).toBe(Array.from({ length: MAX_SIZE - MIN_SIZE + 1 }, (_, i) => (i + MIN_SIZE) ** 2).reduce((a, b) => a + b));
    });
  }
});

describe('the table of protocols.md, on the 15x15 centre and corners', () => {
  // internal index of (col, row from the top)
  const at = (col: number, row: number, size = 15) => row * size + col;
  const centre = value(parsePoint('h8', 15));
  test('centre', () => {
    expect(centre).toBe(at(7, 7));
    expect(makeKoth(centre, 15)).toBe('(7,7)');
    expect(makeCodecup(at(7, 7, 16), 16)).toBe('Hh');
    expect(makeAlphano(centre, 15)).toBe('8 8');
    expect(makeWpi(centre, 15)).toBe('H 8');
    expect(makeGomocup(centre, 15)).toBe('7,7');
  });
  test('axes: column vs row, top-left origin', () => {
    const q = at(3, 1); // column d, second row from the top = d14 in our notation
    expect(value(parsePoint('d14', 15))).toBe(q);
    expect(makeKoth(q, 15)).toBe('(3,1)');
    expect(makeAlphano(q, 15)).toBe('2 4'); // row first
    expect(makeWpi(q, 15)).toBe('D 2');
    expect(makeGomocup(q, 15)).toBe('3,1');
    const c = at(9, 2, 16); // CodeCup: row C, column j
    expect(makeCodecup(c, 16)).toBe('Cj');
    expect(value(parseCodecup('Cj', 16))).toBe(c);
  });
  test('corners on 20x20 (Gomocup)', () => {
    expect(makeGomocup(0, 20)).toBe('0,0');
    expect(makeGomocup(19, 20)).toBe('19,0');
    expect(makeGomocup(20 * 19, 20)).toBe('0,19');
    expect(value(parseGomocup('19,0', 20))).toBe(19);
  });
});

describe('lenient parsing', () => {
  test('spaces inside', () => {
    expect(value(parseKoth('( 7 , 8 )', 15))).toBe(8 * 15 + 7);
    expect(value(parseGomocup('7 , 8', 15))).toBe(8 * 15 + 7);
    expect(value(parseAlphano('8    9', 15))).toBe(7 * 15 + 8);
    expect(value(parseWpi('h   8', 15))).toBe(7 * 15 + 7);
  });
  test('letter case', () => {
    expect(value(parseWpi('h 8', 15))).toBe(value(parseWpi('H 8', 15)));
    expect(value(parseCodecup('hJ', 16))).toBe(value(parseCodecup('Hj', 16)));
  });
});

describe('errors name the token', () => {
  const cases: [string, (t: string, s: number) => { ok: boolean }, string, number][] = [
    ['koth', parseKoth, '(15,0)', 15],
    ['koth', parseKoth, '(7;7)', 15],
    ['koth', parseKoth, '7,7', 15],
    ['codecup', parseCodecup, 'Zz', 16],
    ['codecup', parseCodecup, 'Qa', 16],
    ['codecup', parseCodecup, 'H8', 16],
    ['alphano', parseAlphano, '0 8', 15],
    ['alphano', parseAlphano, '16 1', 15],
    ['alphano', parseAlphano, '8,8', 15],
    ['wpi', parseWpi, 'P 3', 15],
    ['wpi', parseWpi, 'H 0', 15],
    ['wpi', parseWpi, 'H8', 15],
    ['wpi', parseWpi, 'AB 3', 15],
    ['gomocup', parseGomocup, '20,0', 20],
    ['gomocup', parseGomocup, '-1,0', 20],
    ['gomocup', parseGomocup, '', 20],
  ];
  for (const [proto, parse, token, size] of cases) {
    test(`${proto} '${token}'`, () => {
      const r = parse(token, size) as { ok: false; error: string };
      expect(r.ok).toBe(false);
      expect(r.error).toContain(`'${token}'`);
    });
  }
});
