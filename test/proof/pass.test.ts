/**
 * gomoku-proof/2: pass entries, ignore sets and zones (docs/formats.md 3.1-3.2), against
 * hand-built positions, most of them certificates tampered with on purpose. Every zone
 * verdict is compared with the full-width walk (`ignoreZones`).
 */
import { describe, expect, test } from 'vitest';
import { makePoint } from '../../src/core/notation.js';
import { BLACK, WHITE, type Color, type Rule } from '../../src/core/types.js';
import { makeCertificate, parseCertificate, type PassEntry, type Strategy, type StrategyEntry } from '../../src/proof/certificate.js';
import { formatReport, verifyCertificate, type VerifyReport } from '../../src/proof/verify.js';
import { fitZones } from '../../src/proof/zones.js';
import { FILLERS, PLAIN_VCF, pts } from './fixtures.js';

interface Spec {
  size?: number;
  rule?: Rule;
  black: string;
  white: string;
  toMove: Color;
  winner?: Color;
  /** [extra black, extra white, move]: a move entry for the root stones plus these. */
  entries?: [string, string, string][];
  /** [extra black, extra white, zone or undefined]: a pass entry. */
  passes?: [string, string, string | undefined][];
}

function strategy(s: Spec): Strategy {
  const size = s.size ?? 15;
  const p = (t: string) => pts(t, size);
  const black = p(s.black);
  const white = p(s.white);
  const entries: StrategyEntry[] = (s.entries ?? []).map(([b, w, m]) => ({ black: [...black, ...p(b)], white: [...white, ...p(w)], move: p(m)[0]! }));
  const passes: PassEntry[] = (s.passes ?? []).map(([b, w, z]) =>
    z === undefined ? { black: [...black, ...p(b)], white: [...white, ...p(w)] } : { black: [...black, ...p(b)], white: [...white, ...p(w)], zone: p(z) },
  );
  return { size, rule: s.rule ?? 'freestyle', root: { kind: 'stones', black, white, toMove: s.toMove }, winner: s.winner ?? BLACK, entries, passes };
}

function check(s: Strategy, ignoreZones = false): VerifyReport {
  const c = parseCertificate(makeCertificate(s));
  if (!c.ok) throw new Error(`does not parse: ${c.error.message}`);
  return verifyCertificate(c.value, { ignoreZones });
}

/** The zone verdict and the full-width verdict; zones may only ever accept less. */
function both(s: Strategy): { zone: VerifyReport; full: VerifyReport } {
  const zone = check(s);
  const full = check(s, true);
  if (zone.result === 'verified') expect(full.result).toBe('verified');
  return { zone, full };
}

const cellsOf = (z: readonly number[] | undefined, size = 15) => (z ?? []).map((q) => makePoint(q, size)).sort();
const sorted = (t: string) => t.split(' ').sort();

describe('pass entries without zones (3.1)', () => {
  // White to move against Black's PLAIN_VCF: every reply walked, each answered by a VCF.
  const base: Spec = { black: PLAIN_VCF.black, white: `d8 d11 ${FILLERS}`, toMove: WHITE };

  test('a /1 certificate reports as before; the same with a pass entry is /2 and counts its passes', () => {
    const v1 = check(strategy(base));
    expect(v1.result).toBe('verified');
    expect(v1.passEntries).toBeUndefined();
    expect(formatReport(v1)).not.toMatch(/pass/);
    const v2 = check(strategy({ ...base, passes: [['', '', undefined]] }));
    expect(v2.result).toBe('verified');
    expect(v2.positions).toBe(v1.positions);
    expect(v2.passesUsed).toBe(1);
    expect(v2.zoneCovered).toBe(0);
    expect(formatReport(v2)).toMatch(/; 1 pass positions, 0 zone checks, 0 replies covered by zones, 0 ignore-set look-ups$/);
  });

  test("the winner's move is looked up under the exact stones, then without the ignore set", () => {
    // 9x9: black's open threes c2-e2 and c8-e8, white to move, a pass at the root. The entry
    // for the root stones (as if white passed) plays b2, an open four; each reply joins the
    // ignore set, so that entry answers every reply...
    const s: Spec = { size: 9, black: 'c2 d2 e2 c8 d8 e8', white: 'h4 h5', toMove: WHITE, entries: [['', '', 'b2']], passes: [['', '', undefined]] };
    // ... including the reply on b2 itself, where it is on a stone:
    expect(formatReport(check(strategy(s)))).toBe('FAILED the entry on line 2 plays b2, which is taken; line from root: b2');
    // an entry for the exact stones after b2 comes first (b8, the other open four)
    const r = check(strategy({ ...s, entries: [...s.entries!, ['', 'b2', 'b8']] }));
    expect(r.result).toBe('verified');
    expect(r.entriesUsed).toBe(2);
    // every other reply found b2 without the ignore set (a reply at f2 leaves b2 a four,
    // whose block a2 is followed by the VCF b8)
    expect(r.ignoreLookups).toBe(81 - 8 - 1);
  });

  test('a pass entry and a move entry on the same stones are kept apart', () => {
    const s = strategy({ ...base, entries: [['', '', 'h11']], passes: [['', '', undefined]] });
    const text = makeCertificate(s);
    const c = parseCertificate(text);
    expect(c.ok).toBe(true);
    if (!c.ok) return;
    expect(c.value.version).toBe(2);
    expect(c.value.entries).toHaveLength(1);
    expect(c.value.passes).toHaveLength(1);
    // the move entry answers every reply (found without the ignore set), h11 included
    expect(formatReport(verifyCertificate(c.value))).toBe('FAILED the entry on line 2 plays h11, which is taken; line from root: h11');
  });
});

describe('zones (3.2)', () => {
  // Black's PLAIN_VCF (h11 forces i11, then h8 is a double four), white to move.
  const vcf: Spec = { black: PLAIN_VCF.black, white: `d8 d11 ${FILLERS}`, toMove: WHITE, passes: [['', '', undefined]] };

  test("the support of a VCF pass strategy: the winner's moves, the blocks, a double four's two five cells", () => {
    const f = fitZones(strategy(vcf));
    expect(f.report.result).toBe('verified');
    expect(cellsOf(f.strategy.passes![0]!.zone)).toEqual(sorted('h11 i11 h8 i8 h12'));
    const { zone, full } = both(f.strategy);
    expect(zone.result).toBe('verified');
    expect(zone.zoneChecks).toBe(1);
    expect(zone.zoneCovered).toBe(15 * 15 - 16 - 5);
    expect(zone.positions).toBeLessThan(10);
    expect(full.positions).toBeGreaterThan(200);
    expect(formatReport(zone)).toMatch(/1 zone checks, 204 replies covered by zones/);
  });

  test('a zone missing any one supporting cell fails, naming it', () => {
    for (const missing of ['h11', 'i11', 'h8', 'i8', 'h12']) {
      const zone = 'h11 i11 h8 i8 h12'
        .split(' ')
        .filter((c) => c !== missing)
        .join(' ');
      const r = check(strategy({ ...vcf, passes: [['', '', zone]] }));
      expect(formatReport(r)).toBe(`FAILED the zone of the pass entry on line 2 misses 1 supporting cell: ${missing}; line from root: (root)`);
    }
    // a bigger zone is fine (it only walks more)
    expect(check(strategy({ ...vcf, passes: [['', '', 'h11 i11 h8 i8 h12 a2 h7']] })).result).toBe('verified');
  });

  test("a loser's block that builds a loser three makes its window support", () => {
    // White j12 k13: black's forced-block i11 gives white i11 j12 k13 in a window without
    // black (i11..m15), so one more white stone there (l14 or m15) would be a four.
    const s: Spec = { ...vcf, white: `d8 d11 j12 k13 ${FILLERS}` };
    const f = fitZones(strategy(s));
    expect(f.report.result).toBe('verified');
    expect(cellsOf(f.strategy.passes![0]!.zone)).toEqual(sorted('h11 i11 h8 i8 h12 l14 m15'));
    const r = check(strategy({ ...s, passes: [['', '', 'h11 i11 h8 i8 h12 l14']] }));
    expect(r.reason).toBe('the zone of the pass entry on line 2 misses 1 supporting cell: m15');
  });

  test('a far reply that defeats the pass strategy: its cells are support, and the walk refutes it', () => {
    // White b15 c15 d15 (a15 black): the far reply e15 is a four whose block f15 is no four.
    const s: Spec = { ...vcf, black: `${PLAIN_VCF.black} a15`, white: `d8 d11 b15 c15 d15 o1 o6` };
    // a zone of the VCF's cells only does not hold the support
    const naive = check(strategy({ ...s, passes: [['', '', 'h11 i11 h8 i8 h12']] }));
    expect(formatReport(naive)).toBe('FAILED the zone of the pass entry on line 2 misses 2 supporting cells: e15 f15; line from root: (root)');
    // with them the replies are walked, and e15 refutes the strategy, as in the full walk
    const { zone, full } = both(strategy({ ...s, passes: [['', '', 'h11 i11 h8 i8 h12 e15 f15']] }));
    expect(formatReport(zone)).toBe('FAILED no entry and no plain VCF for black (white threatens five at f15); line from root: e15');
    expect(formatReport(full)).toBe(formatReport(zone));
    // two white stones there: one far reply makes only a three, and it is covered
    const two = fitZones(strategy({ ...s, white: `d8 d11 b15 c15 o1 o6 o11` }));
    expect(two.report.result).toBe('verified');
    expect(cellsOf(two.strategy.passes![0]!.zone)).toEqual(sorted('h11 i11 h8 i8 h12'));
  });

  test('a zone on a standard-rule board, and a wrong winner', () => {
    const f = fitZones(strategy({ ...vcf, rule: 'standard' }));
    expect(f.report.result).toBe('verified');
    expect(both(f.strategy).zone.result).toBe('verified');
    const wrong = check({ ...f.strategy, winner: WHITE });
    expect(wrong.result).toBe('failed');
    expect(check({ ...f.strategy, winner: WHITE }, true).result).toBe('failed');
  });
});

describe('the trap: far loser stones that add up over nested passes', () => {
  // 9x9. Black: open threes c2-e2 and c8-e8; white: h4 h5 (two in column h, no black there),
  // white to move. The plan: white passes, black plays a5 (a quiet move), white passes
  // again, black makes an open four (a VCF: no entry). Inside the inner pass strategy two
  // white stones may be on the board unseen (the two covered replies), so every window
  // without black holding two white stones is support: column h (h1-h3, h6-h8).
  // Both far replies h6 and h7 look harmless alone (a three at most), but together with h4
  // h5 they make an open four that black's plan (a5, then the open four) ignores.
  const S = 9;
  const near = 'a2 b2 f2 g2 a8 b8 f8 g8 h1 h2 h3 h6 h7 h8 a5';
  const trap = (withColumnEntries: boolean): Spec => ({
    size: S,
    black: 'c2 d2 e2 c8 d8 e8',
    white: 'h4 h5',
    toMove: WHITE,
    entries: [
      ['', '', 'a5'],
      // the replies the outer zone walks get their own answer (an open four), except
      // column h unless asked: there the plan's own a5 is wrong
      ...near
        .split(' ')
        .filter((x) => withColumnEntries || !x.startsWith('h'))
        .map((x): [string, string, string] => ['', x, ['a2', 'b2', 'f2', 'g2'].includes(x) ? 'b8' : 'b2']),
    ],
    passes: [
      ['', '', undefined],
      ['a5', '', undefined],
    ],
  });
  const naiveZones = (f: Strategy) => ({ ...f, passes: f.passes!.map((p) => ({ ...p, zone: p.zone!.filter((q) => !makePoint(q, S).startsWith('h')) })) });

  test('with its own answers for the column replies, the plan verifies, with and without zones', () => {
    const f = fitZones(strategy(trap(true)));
    expect(f.report.result).toBe('verified');
    const [outer, inner] = f.strategy.passes!.map((p) => cellsOf(p.zone, S));
    for (const c of ['h1', 'h2', 'h3', 'h6', 'h7', 'h8']) {
      expect(inner).toContain(c);
      expect(outer).toContain(c); // the outer support holds the inner one
    }
    const { zone, full } = both(f.strategy);
    expect(zone.result).toBe('verified');
    expect(zone.zoneChecks).toBe(2);
    expect(zone.zoneCovered).toBeGreaterThan(100);
    expect(full.result).toBe('verified');
  });

  test('without them the full walk refutes the plan, and so does the zone check', () => {
    const f = fitZones(strategy(trap(false)));
    const full = check(f.strategy, true);
    expect(full.result).toBe('failed');
    expect(full.line).toEqual(['h8', 'a5', 'h7']);
    expect(full.reason).toMatch(/^no entry and no plain VCF for black \(white threatens five/);
    expect(formatReport(f.report)).toBe(formatReport(full));
  });

  test('zones that walk every reply making a loser four, but not column h, are rejected', () => {
    // No single reply at either pass makes a white four (white has two stones in a line),
    // so a checker that walked only four-making replies would accept these zones: the
    // trap. The inner pass strategy's support holds column h (two unseen white stones).
    const f = fitZones(strategy(trap(false)));
    const naive = naiveZones(f.strategy);
    const r = check(naive);
    expect(formatReport(r)).toBe('FAILED the zone of the pass entry on line 13 misses 6 supporting cells: h8 h7 h6 h3 h2 h1; line from root: pass a5');
    // the inner zone right, the outer one naive: the outer support holds the inner support
    const r2 = check({ ...naive, passes: [naive.passes![0]!, f.strategy.passes![1]!] });
    expect(r2.reason).toMatch(/^the zone of the pass entry on line 12 misses 6 supporting cells: h8 h7 h6 h3 h2 h1$/);
    expect(r2.line).toEqual([]);
  });
});

describe('support from the shortcuts', () => {
  test('a listed open four that decides replies inside the pass strategy: its cells are support', () => {
    // 9x9. Black c2 d2 and the open three c8-e8. Plan: white passes, black e2 (an open three
    // c2-e2): every white reply then leaves an open-four move (row 2 or row 8), found as a
    // listed triple. A white stone already on b2 (a covered reply) would make the row-2
    // three closed, and then white's b8 would leave black nothing: b2 must be support.
    const s = strategy({ size: 9, black: 'c2 d2 c8 d8 e8', white: 'h4 h5', toMove: WHITE, entries: [['', '', 'e2']], passes: [['', '', undefined]] });
    const f = fitZones(s);
    const zone = cellsOf(f.strategy.passes![0]!.zone, 9);
    for (const c of ['e2', 'b2', 'a2', 'f2', 'g2', 'b8', 'a8', 'f8']) expect(zone).toContain(c);
    // the replies on those cells need answers of their own: the zone check finds that, as
    // the full walk does
    const full = check(s, true);
    expect(f.report.result).toBe('failed');
    expect(full.result).toBe('failed');
    expect(f.report.line).toEqual(full.line);
  });

  test('a VCF line replayed from outside the pass strategy adds its support', () => {
    // White to move against PLAIN_VCF, no pass at the root: every reply is answered by the
    // VCF (h11 i11 h8), mostly by replaying the last line. After the reply o15 black plays
    // the quiet a13 and passes there: the pass strategy's first VCF is a replay of a line
    // found outside it. Its cells must be support all the same.
    const s = strategy({
      black: PLAIN_VCF.black,
      white: `d8 d11 ${FILLERS}`,
      toMove: WHITE,
      entries: [['', 'o15', 'a13']],
      passes: [['a13', 'o15', undefined]],
    });
    const f = fitZones(s);
    expect(f.report.result).toBe('verified');
    expect(f.report.lineReplays).toBeGreaterThan(100);
    expect(cellsOf(f.strategy.passes![0]!.zone)).toEqual(sorted('h11 i11 h8 i8 h12'));
    expect(both(f.strategy).zone.result).toBe('verified');
  });
});

describe('support across pass strategies and levels', () => {
  // Two copies of a VCF closed by the board's edge (no white stone needed): a8-c8, d9 d10,
  // a11-c11 (d11 forces e11, then d8 is a double four) and its mirror on the right.
  const EDGE = 'a8 b8 c8 d9 d10 a11 b11 c11 o8 n8 m8 l9 l10 o11 n11 m11';

  test('a position proven in one pass strategy and met again as the start of another brings its support', () => {
    // Root: white to move, a pass with a15 in its zone (so that reply is walked). Inside the
    // pass strategy black plays g14 and white's reply a15 gets a VCF: that position is
    // proven, with its support, at level 1. At the top level the reply a15 is answered by
    // g14 too, and there the same stones carry a second pass entry: its strategy's first
    // position is the one proven before, and its zone must still hold that VCF.
    for (const cached of ['vcf', 'entry'] as const) {
      const s: Spec = {
        black: EDGE,
        white: 'h1 h15',
        toMove: WHITE,
        entries: [
          ['', '', 'g14'],
          ['', 'a15', 'g14'],
          ['', 'g14', 'd11'],
          // with 'entry': the position is decided by an entry (d11) in both strategies, so
          // the memo hit is on the loser's node after it
          ...(cached === 'entry'
            ? ([
                ['g14', 'a15', 'd11'],
                ['g14', '', 'd11'],
                ['g14', 'a15 d11', 'l11'],
              ] as [string, string, string][])
            : []),
        ],
        passes: [
          ['', '', 'a15'],
          ['g14', 'a15', undefined],
        ],
      };
      const f = fitZones(strategy(s));
      expect(f.report.result).toBe('verified');
      // (the second strategy meets the position in another context: a plain VCF there comes
      // from the VCF memo with its support, an entry's line is walked again)
      const alone = fitZones(strategy({ ...s, black: `${EDGE} g14`, white: 'h1 h15 a15', passes: [['', '', undefined]], entries: [] }));
      expect(cellsOf(alone.strategy.passes![0]!.zone)).toEqual(sorted('d11 e11 d8 e8 d12'));
      expect(cellsOf(f.strategy.passes![1]!.zone)).toEqual(sorted('d11 e11 d8 e8 d12'));
      expect(both(f.strategy).zone.result).toBe('verified');
    }
  });

  test('inside a nested pass strategy a block that gives the loser two stones in a window makes it support', () => {
    // PLAIN_VCF behind two passes: white passes, black plays the quiet a15, white passes
    // again, black's VCF h11 (block i11), h8. White j12: after the block i11 white has i11
    // j12 in the window i11-m15, and two unseen white stones there (k13 l14) would make a
    // four. At level 1 (one pass) that window would not count; at level 2 it does.
    const s: Spec = {
      black: PLAIN_VCF.black,
      white: `d8 d11 j12 ${FILLERS}`,
      toMove: WHITE,
      entries: [['', '', 'a15']],
      passes: [
        ['', '', undefined],
        ['a15', '', undefined],
      ],
    };
    const f = fitZones(strategy(s));
    const inner = cellsOf(f.strategy.passes![1]!.zone);
    for (const c of ['k13', 'l14', 'm15']) expect(inner).toContain(c);
    // one pass only: the same VCF, the same block, and the window is no support
    const one = fitZones(strategy({ ...s, black: `${PLAIN_VCF.black} a15`, entries: [], passes: [['', '', undefined]] }));
    expect(one.report.result).toBe('verified');
    expect(cellsOf(one.strategy.passes![0]!.zone)).toEqual(sorted('h11 i11 h8 i8 h12'));
  });
});

describe('replies with entries of their own (3.3, gomoku-proof/3)', () => {
  // Two VCFs closed by the board's edge: A on the left (d11 forces e11, then d8 is a double
  // four), B its mirror on the right (l11, k11, l8). White to move with a pass entry; the plan
  // as if white passed: the quiet h3, a second pass entry, then A. At that second pass entry
  // white gets a second free stone, and the replies that spoil A (A's cells, d11 first) need
  // B instead: entries of their own keyed without the first reply, which joined the ignore
  // set, so that one entry serves every first reply. First replies that spoil A or B (or take
  // h3) get exact entries playing the other one.
  const A = ['d11', 'e11', 'd8', 'e8', 'd7', 'd12'];
  const Bc = ['l11', 'k11', 'l8', 'k8', 'l7', 'l12'];
  const s: Spec = {
    black: 'a8 b8 c8 d9 d10 a11 b11 c11 o8 n8 m8 l9 l10 o11 n11 m11',
    white: 'h1 h15',
    toMove: WHITE,
    entries: [
      ['', '', 'h3'],
      ['h3', '', 'd11'],
      ...[...A, 'h3'].map((r): [string, string, string] => ['', r, 'l11']),
      ...Bc.map((r): [string, string, string] => ['', r, 'd11']),
      ...A.map((r): [string, string, string] => ['h3', r, 'l11']),
    ],
    passes: [
      ['', '', undefined],
      ['h3', '', undefined],
    ],
  };
  const v3 = (x: Strategy): Strategy => ({ ...x, version: 3 });

  test("under 3.1 the second pass entry's replies can only be answered by its plan; under 3.3 by their own entries", () => {
    expect(makeCertificate(strategy(s))).toMatch(/^\{"format":"gomoku-proof\/2"/);
    expect(formatReport(check(strategy(s)))).toBe('FAILED the entry on line 3 plays d11, which is taken; line from root: a15 h3 d11');
    const text = makeCertificate(v3(strategy(s)));
    expect(text).toMatch(/^\{"format":"gomoku-proof\/3"/);
    const parsed = parseCertificate(text);
    expect(parsed.ok && parsed.value.version).toBe(3);
    const r = check(v3(strategy(s)));
    expect(r.result).toBe('verified');
    expect(r.entriesUnused).toBe(0);
    // A's six cells at the second pass entry, under each first reply that joined the ignore set
    expect(r.ownReplies).toBeGreaterThan(6 * 150);
    expect(formatReport(r)).toMatch(/, \d+ replies with their own entries$/);
  });

  test('a reply with an entry of its own follows that entry: a wrong one fails', () => {
    const bad = v3(strategy({ ...s, entries: s.entries!.map((e) => (e[0] === 'h3' && e[1] === 'd11' ? ['h3', 'd11', 'h13'] : e)) }));
    const r = check(bad);
    expect(r.result).toBe('failed');
    // (the first reply whose branch loses: g14 lets white build a four on the diagonal to h15)
    expect(r.line.slice(0, 4)).toEqual(['g14', 'h3', 'd11', 'h13']);
  });

  test('with zones: the nested plan is checked once, its in-zone replies walked with their own entries, and the full walk agrees', () => {
    const f = fitZones(
      v3(
        strategy({
          ...s,
          passes: [
            ['', '', ''],
            ['h3', '', ''],
          ],
        }),
      ),
    );
    expect(f.report.result).toBe('verified');
    expect(f.strategy.version).toBe(3);
    expect(cellsOf(f.strategy.passes![1]!.zone)).toEqual(sorted('d11 d12 d8 e11 e8'));
    expect(cellsOf(f.strategy.passes![0]!.zone)).toEqual(sorted('d11 d12 d8 e11 e8 h3 k11 k8 l11 l12 l8'));
    const { zone, full } = both(f.strategy);
    expect(zone.result).toBe('verified');
    expect(zone.zoneChecks).toBe(2);
    expect(zone.ownReplies).toBeGreaterThan(0);
    expect(zone.positions).toBeLessThan(100);
    expect(full.positions).toBeGreaterThan(10_000);
    // the same zones under 3.1: the nested reply d11 falls back to the plan's own d11
    expect(formatReport(check({ ...f.strategy, version: 2 }))).toBe('FAILED the entry on line 3 plays d11, which is taken; line from root: pass h3 d11');
  });
});

describe('malformed version-2 and -3 certificates', () => {
  const header2 = '{"format":"gomoku-proof/2","rule":"freestyle","size":15,"position":"h8 i9 h9","winner":"black"}';
  const header1 = header2.replace('gomoku-proof/2', 'gomoku-proof/1');
  const cases: [string, string, RegExp][] = [
    ['a pass entry in a version-1 file', `${header1}\n{"stones":"B:h8,h9;W:i9","pass":true}`, /line 2: a pass entry needs "format":"gomoku-proof\/2"/],
    ['a zone on a move entry', `${header2}\n{"stones":"B:h8,h9;W:i9","move":"h10","zone":["a1"]}`, /line 2: "zone" belongs to pass entries only/],
    ['pass and move', `${header2}\n{"stones":"B:h8,h9;W:i9","pass":true,"move":"h10"}`, /either "move" or "pass"/],
    ['pass not true', `${header2}\n{"stones":"B:h8,h9;W:i9","pass":1}`, /"pass" must be true/],
    ['zone not an array', `${header2}\n{"stones":"B:h8,h9;W:i9","pass":true,"zone":"a1"}`, /"zone" must be an array/],
    ['zone off the board', `${header2}\n{"stones":"B:h8,h9;W:i9","pass":true,"zone":["a16"]}`, /zone: point 'a16' is off the 15x15 board/],
    ['zone on a stone', `${header2}\n{"stones":"B:h8,h9;W:i9","pass":true,"zone":["i9"]}`, /zone: 'i9' is on a stone of the entry/],
    ['zone cell twice', `${header2}\n{"stones":"B:h8,h9;W:i9","pass":true,"zone":["a1","a1"]}`, /given twice/],
    [
      'two different zones for the same stones',
      `${header2}\n{"stones":"B:h8,h9;W:i9","pass":true,"zone":["a1"]}\n{"stones":"B:h8,h9;W:i9","pass":true}`,
      /line 3: a second, different pass entry for the stones of line 2/,
    ],
    ['a move on a stone', `${header2}\n{"stones":"B:h8,h9;W:i9","move":"h9"}`, /occupied/],
  ];
  for (const [name, text, re] of cases) {
    test(name, () => {
      const r = parseCertificate(text);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(`line ${r.error.line}: ${r.error.message}`).toMatch(re);
    });
  }

  test('version 3 parses like version 2, keeps its number, and the same mistakes fail', () => {
    const header3 = header2.replace('gomoku-proof/2', 'gomoku-proof/3');
    const r = parseCertificate(`${header3}\n{"stones":"B:h8,h9;W:i9","pass":true,"zone":["a1"]}`);
    expect(r.ok && r.value.version).toBe(3);
    const bad = parseCertificate(`${header3}\n{"stones":"B:h8,h9;W:i9","pass":true,"zone":["i9"]}`);
    expect(!bad.ok && bad.error.message).toMatch(/zone: 'i9' is on a stone of the entry/);
    const v4 = parseCertificate(header2.replace('gomoku-proof/2', 'gomoku-proof/4'));
    expect(!v4.ok && v4.error.message).toBe('unsupported format "gomoku-proof/4" (expected "gomoku-proof/1", "gomoku-proof/2" or "gomoku-proof/3")');
  });

  test('the same pass entry twice is accepted once', () => {
    const r = parseCertificate(
      `${header2}\n{"stones":"B:h8,h9;W:i9","pass":true,"zone":["a1","b1"]}\n{"stones":"B:h8,h9;W:i9","pass":true,"zone":["b1","a1"]}`,
    );
    expect(r.ok && r.value.passes.length).toBe(1);
  });
});
