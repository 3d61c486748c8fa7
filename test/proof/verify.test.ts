import { describe, expect, test } from 'vitest';
import { BLACK, WHITE } from '../../src/core/types.js';
import { parseCertificate } from '../../src/proof/certificate.js';
import { formatReport, verifyCertificate, type VerifyOptions, type VerifyReport } from '../../src/proof/verify.js';
import { certificateText, FILLERS, IMMEDIATE_FIVE, PLAIN_VCF, VCT, type Fixture } from './fixtures.js';

function check(f: Fixture, opts: VerifyOptions = {}): VerifyReport {
  const c = parseCertificate(certificateText(f));
  if (!c.ok) throw new Error(`fixture does not parse: ${c.error.message}`);
  return verifyCertificate(c.value, opts);
}

describe('certificates that hold', () => {
  test('an immediate five needs no entries', () => {
    const r = check(IMMEDIATE_FIVE);
    expect(r.result).toBe('verified');
    expect(r.positions).toBe(1);
    expect(formatReport(r)).toMatch(/^VERIFIED 1 positions, 0 entries used/);
  });

  test('a loss for the side to move: white to move against an open four', () => {
    const r = check({ black: 'd8 e8 f8 g8', white: 'a1 f1 k1 o1', toMove: WHITE, winner: BLACK });
    expect(r.result).toBe('verified');
  });

  test('a plain VCF (two fours) needs no entries', () => {
    const r = check(PLAIN_VCF);
    expect(r.result).toBe('verified');
    expect(r.entriesUsed).toBe(0);
    expect(r.vcfCalls).toBe(1);
    expect(r.vcfNodes).toBeGreaterThanOrEqual(2);
  });

  test('a VCT with entries: every white reply is walked', () => {
    const r = check(VCT);
    expect(r.result).toBe('verified');
    expect(r.entriesUsed).toBe(3);
    expect(r.entriesUnused).toBe(0);
    // the root, one loser node after l5 (all 208 replies), two loser nodes after f12
    expect(r.positions).toBeGreaterThan(3 * 200);
    expect(formatReport(r)).toMatch(/^VERIFIED \d+ positions, 3 entries used/);
  });

  test('unused entries are counted, not fatal', () => {
    const r = check({ ...VCT, entries: [...VCT.entries!, { line: 'l5 a15', move: 'm5' }] });
    expect(r.result).toBe('verified');
    expect(r.entriesUsed).toBe(4); // l5 a15 is reached and its entry (m5, an open four) is followed
    const r2 = check({ ...VCT, entries: [...VCT.entries!, { line: 'a2 a15', move: 'm5' }] });
    expect(r2.result).toBe('verified');
    expect(r2.entriesUnused).toBe(1);
  });

  test('a loser four made by a forced block is answered by a four', () => {
    // Black's only fours at the root are h8 and i8 (e8-g8, d8 white). h8 forces white i8,
    // which makes white's four i5-i8 (i4 black): black must take i9, and i9 is a four
    // (f6 g7 h8 i9, open at e5 and j10), so the VCF wins.
    const r = check({ black: 'e8 f8 g8 f6 g7 i4', white: 'd8 i5 i6 i7 a1 o1', toMove: BLACK, winner: BLACK });
    expect(r.result).toBe('verified');
    expect(r.vcfNodes).toBeGreaterThanOrEqual(2);
  });
});

describe('certificates that fail, with the first failing line from the root', () => {
  test('a missing entry where no VCF exists', () => {
    const r = check({ ...VCT, entries: VCT.entries!.filter((e) => e.line !== 'l5 i5') });
    expect(r.result).toBe('failed');
    expect(r.line).toEqual(['l5', 'i5']);
    expect(formatReport(r)).toBe('FAILED no entry and no plain VCF for black; line from root: l5 i5');
  });

  test('no entries at all for a position that needs them', () => {
    const r = check({ ...VCT, entries: [] });
    expect(formatReport(r)).toBe('FAILED no entry and no plain VCF for black; line from root: (root)');
  });

  test('an entry whose move loses the thread', () => {
    const r = check({ ...VCT, entries: [{ line: '', move: 'a2' }, ...VCT.entries!.slice(1)] });
    expect(r.result).toBe('failed');
    expect(r.line).toEqual(['a2', 'a15']);
  });

  test('an entry that gives the loser a five', () => {
    // White already has d14-g14 (c14 black): l5 ignores it and white makes five at h14.
    const r = check({
      ...VCT,
      black: `${VCT.black} c14`,
      white: 'd14 e14 f14 g14 a1 k1 o1',
      entries: [{ line: '', move: 'l5' }],
    });
    expect(r.result).toBe('failed');
    expect(formatReport(r)).toBe('FAILED white can make five at h14; line from root: l5');
  });

  test('a loser counter-four the certificate ignores', () => {
    // White d14-f14 (c14 black) can answer l5 with g14, a four; black's block h14 is no four.
    const f: Fixture = { ...VCT, black: `${VCT.black} c14`, white: 'd14 e14 f14 a1 f1 k1 o1' };
    const r = check(f);
    expect(r.result).toBe('failed');
    expect(formatReport(r)).toBe('FAILED no entry and no plain VCF for black (white threatens five at h14); line from root: l5 g14');
  });

  test('a VCF that ignores a loser four made by a forced block', () => {
    // h8 (four, and h8 h9 h10 an open three) forces white i8, which makes white's four
    // i5-i8: black must take i9, which is no four, so the line fails. A checker that let
    // black ignore the four would accept h8 i8 h11 (an open four).
    const r = check({ black: 'e8 f8 g8 h9 h10 i4', white: 'd8 i5 i6 i7 a1 o1', toMove: BLACK, winner: BLACK });
    expect(formatReport(r)).toBe('FAILED no entry and no plain VCF for black; line from root: (root)');
  });

  test('an open four of the loser beats an open-four move of the winner', () => {
    // White has d3-g3 with c3 and h3 empty; black could make an open four (j8 k8 l8) but
    // white makes five first.
    const r = check({ black: 'j8 k8 l8 a15', white: 'd3 e3 f3 g3', toMove: BLACK, winner: BLACK });
    expect(formatReport(r)).toBe('FAILED no entry and no plain VCF for black (white threatens five at c3); line from root: (root)');
  });

  test('the loser has a five at the root of a loss certificate', () => {
    const r = check({ black: 'd8 e8 f8 g8 c3', white: 'd3 e3 f3 g3 a1', toMove: WHITE, winner: BLACK });
    expect(formatReport(r)).toBe('FAILED white can make five at h3; line from root: (root)');
  });

  test('the root already holds a five', () => {
    const r = check({ black: 'd8 e8 f8 g8 h8', white: 'a1 f1 k1 o1 o6', toMove: WHITE, winner: BLACK });
    expect(r.result).toBe('failed');
    expect(r.reason).toBe('the root position already holds a five');
  });

  test('a full board fails', () => {
    // 5x5: fill every point but one so that nobody has five; the loser's last reply fills it.
    // Rows (top to bottom) alternate so that no line of five is one colour.
    const rows = ['BBWWB', 'WWBBW', 'BBWWB', 'WWBBW', 'BBWW.'];
    const black: string[] = [];
    const white: string[] = [];
    rows.forEach((r, y) =>
      [...r].forEach((ch, x) => {
        const p = 'abcde'[x]! + String(5 - y);
        if (ch === 'B') black.push(p);
        if (ch === 'W') white.push(p);
      }),
    );
    const r = check({ black: black.join(' '), white: white.join(' '), toMove: WHITE, winner: BLACK, size: 5 });
    expect(r.result).toBe('failed');
    expect(r.reason).toBe('the board is full');
    expect(r.line).toEqual(['e1']);
  });
});

describe('replies settled by a VCF search', () => {
  // 22x22, white to move, two disjoint copies of the PLAIN_VCF shape: no reply stops both
  // and black has no open-four move, so each reply needs a VCF (most are settled by
  // replaying, and re-checking, the last winning VCF line).
  const shift = (p: string, dc: number, dr: number) =>
    'abcdefghijklmnopqrstuv'['abcdefghijklmnopqrstuv'.indexOf(p[0]!) + dc]! + String(Number(p.slice(1)) + dr);
  const copy = (l: string) =>
    `${l} ${l
      .split(' ')
      .map((p) => shift(p, 10, 8))
      .join(' ')}`;
  const twoVcfs: Fixture = { size: 22, black: copy(PLAIN_VCF.black), white: copy('d8 d11'), toMove: WHITE, winner: BLACK };

  test('every reply is answered', () => {
    const r = check(twoVcfs);
    expect(r.result).toBe('verified');
    expect(r.positions).toBe(1 + 22 * 22 - 20);
    expect(r.vcfCalls + r.lineReplays).toBe(22 * 22 - 20);
    expect(r.lineReplays).toBeGreaterThan(400);
  });

  test('a reply that makes a loser four breaks the replayed line', () => {
    // white b21 c21 d21 (a21 black): the reply e21 is a four; black's block f21 is no four.
    const r = check({ ...twoVcfs, black: `${twoVcfs.black} a21`, white: `${twoVcfs.white} b21 c21 d21` });
    expect(formatReport(r)).toBe('FAILED no entry and no plain VCF for black (white threatens five at f21); line from root: e21');
  });
});

describe('rules', () => {
  // Black d8 e8 f8 g8 _ i8 with c8 white: h8 makes six.
  const overline: Fixture = { black: 'd8 e8 f8 g8 i8', white: 'c8 a1 f1 k1 o1', toMove: BLACK, winner: BLACK };

  test('an overline wins in freestyle', () => {
    expect(check(overline).result).toBe('verified');
  });

  test('an overline is no five in standard', () => {
    const r = check({ ...overline, rule: 'standard' });
    expect(formatReport(r)).toBe('FAILED no entry and no plain VCF for black; line from root: (root)');
  });

  test("the loser's overline is no five in standard", () => {
    // White d3 e3 f3 g3 _ i3 (c3 black); white to move, black has an open four.
    const f: Fixture = { black: 'd8 e8 f8 g8 c3', white: 'd3 e3 f3 g3 i3', toMove: WHITE, winner: BLACK };
    expect(check(f).result).toBe('failed');
    expect(check({ ...f, rule: 'standard' }).result).toBe('verified');
  });

  test('standard: exactly five still wins next to an overline shape', () => {
    // c8 white, d8-g8 black, i8 empty, j8 black: h8 gives d8-h8 exactly five (i8 empty).
    const r = check({ black: 'd8 e8 f8 g8 j8', white: 'c8 a1 f1 k1 o1', toMove: BLACK, winner: BLACK, rule: 'standard' });
    expect(r.result).toBe('verified');
    expect(r.positions).toBe(1);
  });
});

describe('budgets', () => {
  test('a position budget gives unknown, not a verdict', () => {
    const r = check(VCT, { maxPositions: 50 });
    expect(r.result).toBe('unknown');
    expect(r.reason).toMatch(/position budget \(50\)/);
    expect(formatReport(r)).toMatch(/^UNKNOWN position budget/);
  });

  test('a time budget gives unknown', () => {
    let t = 0;
    const r = check(VCT, { maxMs: 100, clock: () => (t += 50) });
    expect(r.result).toBe('unknown');
    expect(r.reason).toMatch(/time budget/);
  });

  test('a VCF node budget gives unknown', () => {
    const r = check(PLAIN_VCF, { maxVcfNodes: 1 });
    expect(r.result).toBe('unknown');
    expect(r.reason).toMatch(/VCF node budget/);
  });
});

test('fixtures use isolated fillers', () => {
  expect(FILLERS.split(' ')).toHaveLength(6);
});

describe('a larger certificate (scripts/chain-certificate.mjs)', () => {
  test('a chain of 4 threes and a fork: 31 entries, all used', async () => {
    const { chainCertificate } = await import('../../scripts/chain-certificate.mjs');
    const c = parseCertificate(chainCertificate(4));
    expect(c.ok).toBe(true);
    if (!c.ok) return;
    const r = verifyCertificate(c.value);
    expect(r.result).toBe('verified');
    expect(r.entries).toBe(31);
    expect(r.entriesUsed).toBe(31);
    expect(r.positions).toBeGreaterThan(14_000);
  });

  test('one missing entry deep in the tree is found, with its line', async () => {
    const { chainCertificate } = await import('../../scripts/chain-certificate.mjs');
    // slot 0: three e2 blocked at f2; slot 1: m2 blocked at j2; slot 2: t2 blocked at u2
    const c = parseCertificate(chainCertificate(4, ['e2', 'f2', 'm2', 'j2', 't2', 'u2']));
    if (!c.ok) throw new Error(c.error.message);
    const r = verifyCertificate(c.value);
    expect(formatReport(r)).toBe('FAILED no entry and no plain VCF for black; line from root: e2 f2 m2 j2 t2 u2');
  });
});
