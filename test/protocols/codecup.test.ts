import { describe, expect, it } from 'vitest';
import { CodecupProtocol, formatCodecupMove, parseCodecupLine, parseCodecupMove } from '../../src/protocols/codecup.js';
import { BLACK, WHITE, bookBy, feed, outs } from './helpers.js';

const MOVE = /^[A-P][a-p]$/;

describe('CodeCup parsing', () => {
  it('reads moves as uppercase row + lowercase column', () => {
    expect(parseCodecupMove('Hj')).toEqual({ ok: true, value: 7 * 16 + 9 });
    expect(formatCodecupMove(7 * 16 + 9)).toBe('Hj');
    expect(parseCodecupMove('hJ').ok).toBe(false);
    expect(parseCodecupMove('Qa').ok).toBe(false);
  });
  it('reads Start, Quit and Zz leniently', () => {
    expect(parseCodecupLine('Start').ok && parseCodecupLine('Start\r')).toEqual({ ok: true, value: { kind: 'start' } });
    expect(parseCodecupLine('Quit')).toEqual({ ok: true, value: { kind: 'quit' } });
    expect(parseCodecupLine('Zz')).toEqual({ ok: true, value: { kind: 'swap' } });
  });
  it('matches whole commands, not prefixes: Query does not quit, Stop is not Start', () => {
    expect(parseCodecupLine('start')).toEqual({ ok: true, value: { kind: 'start' } });
    expect(parseCodecupLine(' QUIT ')).toEqual({ ok: true, value: { kind: 'quit' } });
    for (const w of ['Query', 'Stop', 'Starter', 'Quitting']) {
      expect(parseCodecupLine(w)).toEqual({ ok: false, error: `unknown command '${w}' (expected Start, Quit, Zz or a move like Hj)` });
    }
    // two letters are a move: these are off the 16x16 board, not Quit or Start
    for (const w of ['Qu', 'St']) expect(parseCodecupLine(w)).toEqual({ ok: false, error: `move '${w}' is off the board` });
    const p = new CodecupProtocol({ seed: '1' });
    const [r] = feed(p, ['Query']);
    expect(r).toMatchObject({ out: [], exit: 1 });
    expect(r!.log).toEqual(["codecup: unknown command 'Query' (expected Start, Quit, Zz or a move like Hj)"]);
  });
  it('an overlong line is quoted in 200 characters and its length', () => {
    const r = parseCodecupLine('Q'.repeat(100_000));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toBe(`unknown command '${'Q'.repeat(200)}… (100000 characters)' (expected Start, Quit, Zz or a move like Hj)`);
  });
});

describe('CodeCup transcripts', () => {
  it("as starter: three distinct stones, then a move after the opponent's 4th move, then Quit", () => {
    const p = new CodecupProtocol({ seed: '1' });
    const [s] = feed(p, ['Start']);
    expect(s!.out).toHaveLength(3);
    expect(new Set(s!.out).size).toBe(3);
    for (const m of s!.out) expect(m).toMatch(MOVE);
    const taken = new Set(s!.out);
    const free = ['Aa', 'Ab', 'Ac'].find((m) => !taken.has(m))!;
    const [r] = feed(p, [free]);
    expect(r!.out).toHaveLength(1);
    expect(taken.has(r!.out[0]!) || r!.out[0] === free).toBe(false);
    expect(p.me).toBe(BLACK);
    expect(feed(p, ['Quit'])[0]!.exit).toBe(0);
  });

  it('as starter receiving Zz: our single stone turns black and we move', () => {
    const p = new CodecupProtocol({ seed: '2' });
    const opening = feed(p, ['Start'])[0]!.out;
    const [r] = feed(p, ['Zz']);
    expect(r!.out).toHaveLength(1);
    expect(opening).not.toContain(r!.out[0]);
    // After Zz: stone 2 (ours) is black, stones 1 and 3 white; we (black) just added one more.
    const colours = p.game.stones.map((s) => s.color);
    expect(colours).toEqual([WHITE, BLACK, WHITE, BLACK]);
  });

  it('as second player accepting: plays the 4th move as white', () => {
    const p = new CodecupProtocol({ seed: '3', book: bookBy((tm, n) => (n === 3 ? 'win' : undefined)) });
    const rs = feed(p, ['Hh', 'Hi', 'Ii']);
    expect(outs(rs.slice(0, 2))).toEqual([]);
    expect(rs[2]!.out[0]).toMatch(MOVE);
    expect(['Hh', 'Hi', 'Ii']).not.toContain(rs[2]!.out[0]);
    expect(p.me).toBe(WHITE);
  });

  it("as second player refusing: prints Zz, then answers black's next move", () => {
    const p = new CodecupProtocol({ seed: '4', book: bookBy((tm, n) => (n === 3 ? 'loss' : undefined)) });
    const rs = feed(p, ['Hh', 'Hi', 'Ii']);
    expect(rs[2]!.out).toEqual(['Zz']);
    // Stones 1 and 3 are now white (ours), stone 2 black.
    expect(p.game.stones.map((s) => s.color)).toEqual([WHITE, BLACK, WHITE]);
    const [r] = feed(p, ['Gg']);
    expect(r!.out[0]).toMatch(MOVE);
    expect(['Hh', 'Hi', 'Ii', 'Gg']).not.toContain(r!.out[0]);
  });

  it('bad input: an occupied point or garbage from the referee exits 1 and prints no move', () => {
    const p = new CodecupProtocol({ seed: '5' });
    const [, , , bad] = feed(p, ['Hh', 'Hi', 'Ii', 'Hh']);
    // (the third line produced our answer; the repeated Hh is occupied)
    expect(bad!.out).toEqual([]);
    expect(bad!.exit).toBe(1);
    const q = new CodecupProtocol({ seed: '5' });
    const r = q.handle('xyzzy');
    expect(r.out).toEqual([]);
    expect(r.exit).toBe(1);
    expect(new CodecupProtocol({ seed: '5' }).handle('Zz').exit).toBe(1);
  });

  it('ignores blank lines and ends cleanly on EOF', () => {
    const p = new CodecupProtocol({ seed: '6' });
    expect(p.handle('   ').out).toEqual([]);
    expect(p.eof().exit).toBe(0);
  });

  it('spends the game budget by the injected clock', () => {
    let t = 0;
    const p = new CodecupProtocol({ seed: '7', timeMs: 1000, now: () => (t += 400) });
    feed(p, ['Start', 'Aa']);
    expect(p.handle('Ab').out[0]).toMatch(MOVE);
  });
});
