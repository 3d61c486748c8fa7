/**
 * Pass-and-zone proofs of loser-to-move positions (src/book/pass.ts): the writer's half of
 * issue 24. Every position is built here on an 11x11 board; each proof is checked by the
 * independent checker, with zones and full width, and tampered with to see it fail.
 */
import { describe, expect, test } from 'vitest';
import { makePoint } from '../../src/core/notation.js';
import { WHITE } from '../../src/core/types.js';
import { Solver } from '../../src/search/solver.js';
import { provePass } from '../../src/book/pass.js';
import { boardFromStones } from '../../src/core/position.js';
import { makeCertificate, parseCertificate, type Strategy } from '../../src/proof/certificate.js';
import { verifyCertificate, type VerifyReport } from '../../src/proof/verify.js';
import { pts } from '../proof/fixtures.js';

const SIZE = 11;
// Black's diagonal open three f5 g6 h7 plus f7; White g5 e8, White to move. After a pass Black
// plays i8, an open four (e4 and j9): the zone is those three cells. White's blocks there are
// proven on their own (Black still wins); every other reply is covered by the pass strategy.
const QUIET = { black: 'f5 g6 h7 f7', white: 'g5 e8' };
const board = () => boardFromStones(SIZE, 'freestyle', pts(QUIET.black, SIZE), pts(QUIET.white, SIZE), WHITE);
const names = (qs: readonly number[] | null | undefined) => (qs ?? []).map((q) => makePoint(q, SIZE)).sort();

function check(s: Strategy, ignoreZones = false): VerifyReport {
  const c = parseCertificate(makeCertificate(s));
  if (!c.ok) throw new Error(c.error.message);
  return verifyCertificate(c.value, { ignoreZones });
}

describe('provePass', () => {
  test('proves the quiet position lost for White where the plain solver, on the same budget, does not', () => {
    const b = board();
    const plain = new Solver().solve(b, { maxNodes: 20000 });
    expect(plain.result).toBe('unknown');
    const p = provePass(b, { nodes: 100000, solver: new Solver() });
    expect(p.result).toBe('win');
    expect(p.nodes).toBeLessThan(40000);
    expect(makePoint(p.passMove!, SIZE)).toBe('i8');
    expect(names(p.zone)).toEqual(['e4', 'i8', 'j9']);
    expect(p.replies.map((r) => `${makePoint(r.move, SIZE)}:${r.how}`).sort()).toEqual(['e4:repaired', 'i8:proven', 'j9:repaired']);
    // the certificate as written: /2, one pass entry with its zone, verified with the zone and full width
    expect(p.certificate!.split('\n')[0]).toMatch(/"format":"gomoku-proof\/2"/);
    expect(p.report!.zoneCovered).toBe(SIZE * SIZE - 6 - 3);
    expect(check(p.strategy!).result).toBe('verified');
    expect(check(p.strategy!, true).result).toBe('verified');
    // the board is restored
    expect(b.stones(WHITE)).toEqual(pts(QUIET.white, SIZE).sort((x, y) => x - y));
  });

  test('repairs: the deepest position of a failing line that a short solve wins gets its entries; without repairs each reply is solved whole', () => {
    const p = provePass(board(), { nodes: 100000, solver: new Solver() });
    const e4 = pts('e4', SIZE)[0]!;
    // e4's repair: entries below White's e4, none at it (the position right after the reply
    // keeps the pass strategy's i8, found without the ignore set)
    const rootStones = pts(QUIET.black, SIZE).length + pts(QUIET.white, SIZE).length;
    const withE4 = p.strategy!.entries.filter((e) => e.white.includes(e4));
    expect(withE4.length).toBeGreaterThan(0);
    expect(withE4.some((e) => e.black.length + e.white.length === rootStones + 1)).toBe(false);
    const whole = provePass(board(), { nodes: 100000, repairNodes: 0, solver: new Solver() });
    expect(whole.result).toBe('win');
    expect(whole.replies.map((r) => r.how)).toEqual(['proven', 'proven', 'proven']);
  });

  test('progress: the number of replies first, then each one as it is decided (what `solve --pass` draws on a terminal)', () => {
    const events: string[] = [];
    const p = provePass(board(), { nodes: 100000, solver: new Solver(), onReplies: (n) => events.push(`replies ${n}`), onReply: (r) => events.push(r.how) });
    expect(events[0]).toBe('replies 3');
    expect(events.slice(1).sort()).toEqual(p.replies.map((r) => r.how).sort());
  });

  test('a zone missing one cell, or a reply whose entries are removed, fails the checker', () => {
    const p = provePass(board(), { nodes: 100000, solver: new Solver() });
    const s = p.strategy!;
    const pass = s.passes![0]!;
    const j9 = pts('j9', SIZE)[0]!;
    const noJ9 = check({ ...s, passes: [{ ...pass, zone: pass.zone!.filter((q) => q !== j9) }] });
    expect(noJ9.result).toBe('failed');
    expect(noJ9.reason).toMatch(/misses 1 supporting cell: j9/);
    // White's reply e4 has entries of its own (a repair); without every entry holding a White
    // e4 (j9's repair holds White's forced block there too) the checker fails on one of them
    const e4 = pts('e4', SIZE)[0]!;
    const noReply = check({ ...s, entries: s.entries.filter((e) => !e.white.includes(e4)) });
    expect(noReply.result).toBe('failed');
    expect(['e4', 'j9']).toContain(noReply.line[0]);
  });

  test('never claims a win it has not proven: the pass child lost, or a reply in the zone unproven', () => {
    // nothing for Black after a pass
    const calm = boardFromStones(SIZE, 'freestyle', pts('f6', SIZE), pts('e5', SIZE), WHITE);
    const none = provePass(calm, { nodes: 3000, solver: new Solver() });
    expect(none.result).toBe('unknown');
    expect(none.reason).toMatch(/pass child/);
    expect(none.certificate).toBeUndefined();
    // the replies get one node each: none of the three is proven
    const starved = provePass(board(), { nodes: 100000, replyNodes: 1, replyMs: 60000, solver: new Solver() });
    expect(starved.result).toBe('unknown');
    expect(starved.replies).toHaveLength(3);
    expect(starved.replies.filter((r) => r.how === 'unknown').length).toBeGreaterThan(0);
    expect(starved.reason).toMatch(/of the 3 replies the zone leaves were not proven/);
    expect(starved.certificate).toBeUndefined();
  });

  test('a zone above --max-zone is dropped: every reply walked, the certificate still verified', () => {
    const p = provePass(board(), { nodes: 100000, maxZone: 2, solver: new Solver() });
    expect(p.result).toBe('win');
    expect(p.zone).toBeNull();
    expect(p.support).toBe(3);
    expect(p.replies).toHaveLength(SIZE * SIZE - 6);
    expect(p.replies.filter((r) => r.how === 'proven' || r.how === 'repaired')).toHaveLength(3);
    expect(p.strategy!.passes![0]!.zone).toBeUndefined();
    expect(p.report!.zoneCovered).toBe(0);
  });

  test("a White three's window is in the zone, so the replies that make a White four are walked", () => {
    // White's three c2 d2 e2 (closed by Black's b2): f2 or g2 makes a White four. The window
    // c2-g2 has no Black stone and three White ones, so its empty cells are support (formats.md
    // 3.2 (c)) and both replies are walked, each needing its own answer
    const b = boardFromStones(SIZE, 'freestyle', pts(`${QUIET.black} b2`, SIZE), pts(`${QUIET.white} c2 d2 e2`, SIZE), WHITE);
    const p = provePass(b, { nodes: 200000, solver: new Solver() });
    expect(names(p.zone)).toEqual(expect.arrayContaining(['f2', 'g2']));
    expect(names(p.replies.map((r) => r.move))).toEqual(expect.arrayContaining(['f2', 'g2']));
    if (p.result === 'win') expect(check(p.strategy!, true).result).toBe('verified');
    else expect(p.certificate).toBeUndefined();
  });
});
