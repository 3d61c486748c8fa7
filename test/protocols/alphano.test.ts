import { describe, expect, it } from 'vitest';
import { ALPHANO_MAX_CLOCK_MS, AlphanoProtocol, formatAlphanoMove, parseAlphanoLine } from '../../src/protocols/alphano.js';
import { BLACK, WHITE, feed } from './helpers.js';

const MOVE = /^MOVE (\d+) (\d+)$/;

describe('ALPHANO', () => {
  it('parses commands and writes x = row, y = column, 1-based', () => {
    expect(parseAlphanoLine('TURN 20000 19950')).toEqual({ ok: true, value: { kind: 'turn', myMs: 20000, oppMs: 19950 } });
    expect(parseAlphanoLine('OPP 8 9 50')).toEqual({ ok: true, value: { kind: 'opp', index: 7 * 15 + 8, ms: 50 } });
    expect(formatAlphanoMove(7 * 15 + 8)).toBe('MOVE 8 9');
    expect(parseAlphanoLine('OPP 0 9 50').ok).toBe(false);
    expect(parseAlphanoLine('READY THIRD').ok).toBe(false);
  });

  it('FIRST: OK, a move per TURN, nothing for OPP, exit on FINISH', () => {
    const p = new AlphanoProtocol({ seed: '1' });
    const rs = feed(p, ['READY FIRST', 'TURN 20000 20000']);
    expect(rs[0]!.out).toEqual(['OK']);
    expect(p.me).toBe(BLACK);
    const m = MOVE.exec(rs[1]!.out[0]!)!;
    const first = [Number(m[1]), Number(m[2])];
    expect(feed(p, ['OPP 1 1 30'])[0]!.out).toEqual([]);
    const second = MOVE.exec(feed(p, ['TURN 19000 19970'])[0]!.out[0]!)!;
    expect([Number(second[1]), Number(second[2])]).not.toEqual(first);
    expect([Number(second[1]), Number(second[2])]).not.toEqual([1, 1]);
    expect(feed(p, ['FINISH'])[0]!.exit).toBe(0);
  });

  it("SECOND: the opponent's move comes first as OPP", () => {
    const p = new AlphanoProtocol({ seed: '2' });
    const rs = feed(p, ['READY SECOND', 'OPP 8 8 50', 'TURN 20000 19950']);
    expect(rs[0]!.out).toEqual(['OK']);
    expect(p.me).toBe(WHITE);
    expect(rs[2]!.out[0]).toMatch(MOVE);
    expect(rs[2]!.out[0]).not.toBe('MOVE 8 8');
  });

  it('bad input: occupied OPP, garbage, TURN before READY -> exit 1, no move', () => {
    const p = new AlphanoProtocol({ seed: '3' });
    const rs = feed(p, ['READY SECOND', 'OPP 8 8 50', 'OPP 8 8 50']);
    expect(rs[2]!.exit).toBe(1);
    expect(rs[2]!.out).toEqual([]);
    expect(new AlphanoProtocol({ seed: '3' }).handle('TURN 1 1').exit).toBe(1);
    expect(new AlphanoProtocol({ seed: '3' }).handle('MOVE 1 1').exit).toBe(1);
    expect(new AlphanoProtocol({ seed: '3' }).eof().exit).toBe(0);
  });

  it('a second READY once the game is under way is one clear error, not a cleared board; before any move it is answered again', () => {
    const p = new AlphanoProtocol({ seed: '4' });
    const rs = feed(p, ['READY FIRST', 'READY FIRST', 'TURN 20000 20000']);
    expect(rs.map((r) => r.out)).toEqual([['OK'], ['OK'], [expect.stringMatching(MOVE)]]);
    const again = p.handle('READY SECOND');
    expect(again).toEqual({ out: [], log: ['alphano: READY in the middle of a game (1 stone on the board); the game is not restarted'], exit: 1 });
    expect(p.game.stones).toHaveLength(1);
  });

  it('an absurd clock (TURN 99999999999999 5) is capped, with one error line, and the move still comes', () => {
    const p = new AlphanoProtocol({ seed: '5', timeMs: 200 });
    const rs = feed(p, ['READY SECOND', 'OPP 8 8 50', 'TURN 99999999999999 5']);
    expect(rs[2]!.out[0]).toMatch(MOVE);
    expect(rs[2]!.log[0]).toBe(
      `alphano: error: TURN clock of 99999999999999 ms is over the maximum of ${ALPHANO_MAX_CLOCK_MS} ms (1 min); read as ${ALPHANO_MAX_CLOCK_MS}`,
    );
    // an ordinary clock says nothing
    expect(feed(p, ['OPP 1 1 30', 'TURN 19000 19000'])[1]!.log.some((l) => /error/.test(l))).toBe(false);
  });

  it('an overlong bad line is quoted in 200 characters', () => {
    const r = new AlphanoProtocol({ seed: '6' }).handle('TURN ' + '9'.repeat(50_000) + 'x');
    expect(r.exit).toBe(1);
    expect(r.log[0]!.length).toBeLessThan(300);
    expect(r.log[0]).toMatch(/… \(50006 characters\)'$/);
  });
});
