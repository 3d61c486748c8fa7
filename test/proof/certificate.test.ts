import { describe, expect, test } from 'vitest';
import { Board } from '../../src/core/board.js';
import { BLACK, WHITE } from '../../src/core/types.js';
import {
  CertificateBuilder,
  certificateOf,
  formatCertificateError,
  makeCertificate,
  parseCertificate,
  rootFromBoard,
  rootPosition,
  type Certificate,
  type RootPosition,
  type Strategy,
} from '../../src/proof/certificate.js';
import { parsePosition } from '../../src/core/notation.js';
import { pts } from './fixtures.js';

const HEADER = '{"format":"gomoku-proof/1","rule":"freestyle","size":15,"position":"h8 i9 h9 i8","winner":"black"}';

describe('makeCertificate', () => {
  test('header and entries in the documented form', () => {
    const text = makeCertificate({
      size: 15,
      rule: 'freestyle',
      root: { kind: 'moves', moves: pts('h8 i9 h9 i8') },
      winner: BLACK,
      entries: [{ black: pts('h10 h8 h9'), white: pts('i9 i8'), move: pts('h11')[0]! }],
    });
    expect(text).toBe(`${HEADER}\n{"stones":"B:h8,h9,h10;W:i8,i9","move":"h11"}\n`);
  });

  test('a stone-set root carries toMove', () => {
    const text = makeCertificate({
      size: 9,
      rule: 'standard',
      root: { kind: 'stones', black: pts('e5 a1', 9), white: [], toMove: WHITE },
      winner: BLACK,
      entries: [],
    });
    expect(JSON.parse(text.trim())).toEqual({
      format: 'gomoku-proof/1',
      rule: 'standard',
      size: 9,
      position: 'B:a1,e5;W:',
      toMove: 'white',
      winner: 'black',
    });
  });

  test('round trip through parseCertificate', () => {
    const text = makeCertificate({
      size: 15,
      rule: 'freestyle',
      root: { kind: 'moves', moves: pts('h8 i9') },
      winner: BLACK,
      entries: [
        { black: pts('h8'), white: pts('i9'), move: pts('h9')[0]! },
        { black: pts('h8 h9'), white: pts('i9 a1'), move: pts('h10')[0]! },
      ],
    });
    const c = parseCertificate(text);
    expect(c.ok).toBe(true);
    const v = (c as { value: Certificate }).value;
    expect(v.toMove).toBe(BLACK);
    expect(v.winner).toBe(BLACK);
    expect(v.root).toEqual([
      { index: pts('h8')[0], color: BLACK },
      { index: pts('i9')[0], color: WHITE },
    ]);
    expect(v.entries.map((e) => [e.line, e.move])).toEqual([
      [2, pts('h9')[0]],
      [3, pts('h10')[0]],
    ]);
    expect(v.entries[1]!.white.sort()).toEqual(pts('i9 a1').sort());
  });
});

test('rootPosition keeps the form of the input', () => {
  const moves = parsePosition('h8 i9 h9');
  if (!moves.ok) throw new Error(moves.error);
  expect(rootPosition(moves.value, WHITE)).toEqual({ kind: 'moves', moves: pts('h8 i9 h9') });
  const stones = parsePosition('B:h8,h9;W:i9,i8,a1');
  if (!stones.ok) throw new Error(stones.error);
  expect(rootPosition(stones.value, BLACK)).toEqual({ kind: 'stones', black: pts('h8 h9'), white: pts('i9 i8 a1'), toMove: BLACK });
});

test('rootFromBoard: stones and side to move of a live board', () => {
  const b = new Board(15);
  for (const q of pts('h8 i9 h9')) b.play(q);
  expect(rootFromBoard(b)).toEqual({ kind: 'stones', black: pts('h9 h8'), white: pts('i9'), toMove: WHITE });
});

describe('CertificateBuilder', () => {
  test('dedups by stone set, counts conflicts, writes a deterministic order', () => {
    const root = { kind: 'moves' as const, moves: pts('h8 i9') };
    const make = (order: 'ab' | 'ba') => {
      const bld = new CertificateBuilder(15, 'freestyle', root, BLACK);
      const a = new Board(15);
      for (const q of pts('h8 i9 h9 i10')) a.play(q);
      const b = new Board(15);
      for (const q of pts('h8 i9')) b.play(q);
      if (order === 'ab') {
        bld.add(a, pts('h10')[0]!);
        bld.add(b, pts('h9')[0]!);
      } else {
        bld.add(b, pts('h9')[0]!);
        bld.add(a, pts('h10')[0]!);
      }
      // the same position by another move order: a duplicate, not a new entry
      const a2 = new Board(15);
      for (const q of pts('h9 i10 h8 i9')) a2.play(q);
      bld.add(a2, pts('h10')[0]!);
      expect(bld.has(a2)).toBe(true);
      bld.add(a2, pts('h7')[0]!); // a different move for a known position: ignored, counted
      expect(bld.entryCount).toBe(2);
      expect(bld.conflicts).toBe(1);
      return bld.toString();
    };
    const t1 = make('ab');
    expect(make('ba')).toBe(t1);
    const lines = t1.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe('{"stones":"B:h8;W:i9","move":"h9"}');
    expect(lines[2]).toBe('{"stones":"B:h8,h9;W:i9,i10","move":"h10"}');
  });
});

describe('version 2: pass entries', () => {
  const root: RootPosition = { kind: 'stones', black: pts('h8 i9'), white: pts('h9'), toMove: WHITE };

  test('the writer picks the format: /1 without pass entries, /2 with one; zones in certificate order', () => {
    const s: Strategy = { size: 15, rule: 'freestyle', root, winner: BLACK, entries: [{ black: pts('h8 i9'), white: pts('h9'), move: pts('g8')[0]! }] };
    expect(makeCertificate(s).startsWith('{"format":"gomoku-proof/1"')).toBe(true);
    expect(makeCertificate({ ...s, passes: [] }).startsWith('{"format":"gomoku-proof/1"')).toBe(true);
    const text = makeCertificate({
      ...s,
      passes: [
        { black: pts('h8 i9'), white: pts('h9'), zone: pts('g8 a1 g9') },
        { black: pts('h8 i9 g8'), white: pts('h9 a15') },
      ],
    });
    expect(text.split('\n')).toEqual([
      '{"format":"gomoku-proof/2","rule":"freestyle","size":15,"position":"B:h8,i9;W:h9","toMove":"white","winner":"black"}',
      '{"stones":"B:h8,i9;W:h9","move":"g8"}',
      '{"stones":"B:h8,i9;W:h9","pass":true,"zone":["a1","g8","g9"]}',
      '{"stones":"B:g8,h8,i9;W:h9,a15","pass":true}',
      '',
    ]);
    const c = parseCertificate(text);
    expect(c.ok).toBe(true);
    if (!c.ok) return;
    expect(c.value.version).toBe(2);
    expect(c.value.passes.map((p) => [p.line, p.zone])).toEqual([
      [3, pts('g8 a1 g9').sort((a, b) => a - b)],
      [4, null],
    ]);
    // certificateOf gives what parsing the text gives (lists compared as sets)
    const direct = certificateOf({
      ...s,
      passes: [
        { black: pts('h8 i9'), white: pts('h9'), zone: pts('g8 a1 g9') },
        { black: pts('h8 i9 g8'), white: pts('h9 a15') },
      ],
    });
    const num = (l: readonly number[] | null) => l && [...l].sort((a, b) => a - b);
    const norm = (x: Certificate) => ({
      version: x.version,
      toMove: x.toMove,
      winner: x.winner,
      root: [...x.root].sort((a, b) => a.index - b.index),
      entries: x.entries.map((e) => ({ line: e.line, black: num(e.black), white: num(e.white), move: e.move })),
      passes: x.passes.map((p) => ({ line: p.line, black: num(p.black), white: num(p.white), zone: num(p.zone) })),
    });
    expect(norm(direct)).toEqual(norm(c.value));
  });

  test('CertificateBuilder: pass entries apart from move entries, zones merged, "no zone" wins', () => {
    const b = new CertificateBuilder(15, 'freestyle', root, BLACK);
    b.addStones(pts('h8 i9'), pts('h9'), pts('g8')[0]!);
    b.addPassStones(pts('h8 i9'), pts('h9'), pts('g8'));
    b.addPassStones(pts('i9 h8'), pts('h9'), pts('g9'));
    b.addPassStones(pts('h8 i9 g8'), pts('h9 a15'), pts('a1'));
    b.addPassStones(pts('h8 i9 g8'), pts('h9 a15'));
    expect(b.entryCount).toBe(1);
    expect(b.passCount).toBe(2);
    const s = b.strategy();
    expect(s.passes).toEqual([
      { black: pts('h8 i9'), white: pts('h9'), zone: pts('g8 g9').sort((x, y) => x - y) },
      { black: pts('h8 i9 g8'), white: pts('h9 a15') },
    ]);
    expect(b.toString().startsWith('{"format":"gomoku-proof/2"')).toBe(true);
    const plain = new CertificateBuilder(15, 'freestyle', root, BLACK);
    plain.addStones(pts('h8 i9'), pts('h9'), pts('g8')[0]!);
    expect(plain.strategy().passes).toBeUndefined();
    expect(plain.toString().startsWith('{"format":"gomoku-proof/1"')).toBe(true);
  });
});

describe('parseCertificate: malformed input names the line', () => {
  const entry = '{"stones":"B:h8,h9;W:i8,i9","move":"h10"}';
  const cases: [string, string, number, RegExp][] = [
    ['empty text', '\n\n', 0, /empty certificate/],
    ['header not JSON', '{"format":', 1, /header is not valid JSON/],
    ['header not an object', '[1,2]', 1, /not a JSON object/],
    ['wrong format', HEADER.replace('gomoku-proof/1', 'gomoku-proof/9'), 1, /unsupported format "gomoku-proof\/9"/],
    ['bad rule', HEADER.replace('freestyle', 'renju'), 1, /unknown rule 'renju'/],
    ['bad size', HEADER.replace('"size":15', '"size":40'), 1, /"size" must be an integer in 5..22/],
    ['bad position', HEADER.replace('h8 i9 h9 i8', 'h8 z9'), 1, /position: bad point 'z9'/],
    ['bad winner', HEADER.replace('"winner":"black"', '"winner":"nobody"'), 1, /"winner" must be "black" or "white"/],
    ['ambiguous side', HEADER.replace('"h8 i9 h9 i8"', '"B:h8,h9,h10;W:"'), 1, /need an explicit side/],
    ['entry not JSON', `${HEADER}\n${entry}\n{"stones":`, 3, /not valid JSON/],
    ['entry without move', `${HEADER}\n{"stones":"B:h8;W:"}`, 2, /no "move"/],
    ['stones not a stone set', `${HEADER}\n{"stones":"h8 h9","move":"h10"}`, 2, /must be a stone set/],
    ['bad point in stones', `${HEADER}\n{"stones":"B:h8,z9;W:","move":"h10"}`, 2, /stones: bad point 'z9'/],
    ['point twice', `${HEADER}\n{"stones":"B:h8;W:h8","move":"h10"}`, 2, /given twice/],
    ['move off the board', `${HEADER}\n{"stones":"B:h8;W:","move":"h16"}`, 2, /move: point 'h16' is off the 15x15 board/],
    ['move occupied', `${HEADER}\n{"stones":"B:h8;W:i9","move":"i9"}`, 2, /occupied/],
    ['conflicting duplicate', `${HEADER}\n${entry}\n\n${entry.replace('h10', 'h11')}`, 4, /different move for the stones of line 2/],
  ];
  for (const [name, text, line, re] of cases) {
    test(name, () => {
      const r = parseCertificate(text);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.line).toBe(line);
      expect(r.error.message).toMatch(re);
      expect(formatCertificateError(r.error)).toBe(line > 0 ? `line ${line}: ${r.error.message}` : r.error.message);
    });
  }

  test('an identical duplicate entry is accepted once; blank lines and CRLF are fine', () => {
    const r = parseCertificate(`\r\n${HEADER}\r\n${entry}\r\n\r\n${entry}\r\n`);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.entries).toHaveLength(1);
  });
});
