/**
 * Hand-built positions and certificates for the proof tests (15x15 unless stated).
 * Every position here is constructed by the project; see the comments for why each one is
 * (or is not) a win.
 */
import { parsePoint } from '../../src/core/notation.js';
import { BLACK, type Color, type Rule } from '../../src/core/types.js';
import { makeCertificate, type StrategyEntry } from '../../src/proof/certificate.js';

export function pts(s: string, size = 15): number[] {
  return s
    .split(/[\s,]+/)
    .filter((t) => t !== '')
    .map((t) => {
      const p = parsePoint(t, size);
      if (!p.ok) throw new Error(p.error);
      return p.value;
    });
}

export interface Fixture {
  black: string;
  white: string;
  toMove: Color;
  winner: Color;
  rule?: Rule;
  size?: number;
  /** Each entry: the moves played from the root (alternating from toMove), then the winner's move. */
  entries?: { line: string; move: string }[];
}

export function entriesOf(f: Fixture): StrategyEntry[] {
  const size = f.size ?? 15;
  return (f.entries ?? []).map(({ line, move }) => {
    const black = pts(f.black, size);
    const white = pts(f.white, size);
    let c: Color = f.toMove;
    for (const q of pts(line, size)) {
      (c === BLACK ? black : white).push(q);
      c = (3 - c) as Color;
    }
    if (c !== f.winner) throw new Error(`entry after '${line}' is not a winner-to-move position`);
    return { black, white, move: pts(move, size)[0]! };
  });
}

export function certificateText(f: Fixture): string {
  const size = f.size ?? 15;
  return makeCertificate({
    size,
    rule: f.rule ?? 'freestyle',
    root: { kind: 'stones', black: pts(f.black, size), white: pts(f.white, size), toMove: f.toMove },
    winner: f.winner,
    entries: entriesOf(f),
  });
}

/** Isolated white stones (no two within one window of five), to balance stone counts. */
export const FILLERS = 'a1 f1 k1 o1 o6 o11';

/** Black to move has a simple four (c8 is white): h8 is an immediate five. */
export const IMMEDIATE_FIVE: Fixture = {
  black: 'd8 e8 f8 g8',
  white: 'c8 a1 k1 o1',
  toMove: BLACK,
  winner: BLACK,
};

/**
 * A plain VCF of at least two fours: closed threes e8-g8 (d8 white) and e11-g11 (d11 white)
 * plus h9 h10. h11 (four in row 11, forcing i11) also makes h9-h11; then h8 is a double
 * four (row 8 and column h8-h11). No entries needed.
 */
export const PLAIN_VCF: Fixture = {
  black: 'e8 f8 g8 h9 h10 e11 f11 g11',
  white: `d8 d11 ${FILLERS}`,
  toMove: BLACK,
  winner: BLACK,
};

/**
 * A VCT that needs entries. Black j5 k5, a fork prepared at f12 (d12 e12 in row 12, f9 f10
 * in column f). Black plays l5 (open three j5-l5); every white reply except the blocks i5
 * and m5 allows an open four at once. After either block black plays f12: an open three
 * (d12-f12) and a broken three (f9 f10 _ f12) that no single stone stops, so every reply
 * allows an open four. Without the entries for the blocks black has no VCF (only m5/n5).
 */
export const VCT: Fixture = {
  black: 'j5 k5 d12 e12 f9 f10',
  white: FILLERS,
  toMove: BLACK,
  winner: BLACK,
  entries: [
    { line: '', move: 'l5' },
    { line: 'l5 i5', move: 'f12' },
    { line: 'l5 m5', move: 'f12' },
  ],
};
