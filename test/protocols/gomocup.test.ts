import { describe, expect, it } from 'vitest';
import { GOMOCUP_BASE_MEMORY, GOMOCUP_TABLE_SHARE, GomocupProtocol, parseGomocupLine, ruleFromInfo } from '../../src/protocols/gomocup.js';
import { MAX_GAME_MS, MAX_TURN_MS } from '../../src/protocols/clock.js';
import { DEFAULT_TABLE_BITS, MIN_TABLE_BITS, tableBitsFor, tableBytes } from '../../src/search/engine.js';
import { BLACK, WHITE, bookBy, feed, outs } from './helpers.js';
import { planTime } from '../../src/search/timeman.js';
import { packageVersion } from '../../src/cli/version.js';

const XY = /^(\d+),(\d+)$/;
const xy = (s: string) => XY.exec(s)!.slice(1).map(Number) as [number, number];
const started = (opts: Partial<ConstructorParameters<typeof GomocupProtocol>[0]> = {}) => {
  const p = new GomocupProtocol({ seed: 's', ...opts });
  expect(p.handle('START 15').out).toEqual(['OK']);
  return p;
};

describe('Gomocup parsing', () => {
  it('parses commands case-insensitively with CR tolerated', () => {
    expect(parseGomocupLine('START 20\r')).toEqual({ ok: true, value: { kind: 'start', size: 20 } });
    expect(parseGomocupLine('turn 3, 4')).toEqual({ ok: true, value: { kind: 'turn', x: 3, y: 4 } });
    expect(parseGomocupLine('INFO timeout_turn 5000')).toEqual({ ok: true, value: { kind: 'info', key: 'timeout_turn', value: '5000' } });
    expect(parseGomocupLine('FOO 1')).toEqual({ ok: false, error: { kind: 'unknown', message: "command 'FOO'" } });
    expect(parseGomocupLine('TURN x').ok).toBe(false);
  });
  it('rule bit 1 means exactly five', () => {
    expect(ruleFromInfo(0)).toBe('freestyle');
    expect(ruleFromInfo(1)).toBe('standard');
    expect(ruleFromInfo(2)).toBe('freestyle');
  });
});

describe('Gomocup transcripts', () => {
  it('START / RECTSTART / RESTART', () => {
    const p = new GomocupProtocol({ seed: 's' });
    expect(p.handle('START 20').out).toEqual(['OK']);
    expect(p.game.size).toBe(20);
    expect(p.handle('START 40').out[0]).toMatch(/^ERROR /);
    expect(p.handle('RECTSTART 20,15').out[0]).toMatch(/^ERROR /);
    expect(p.handle('RECTSTART 15,15').out).toEqual(['OK']);
    expect(p.game.size).toBe(15);
    p.handle('BEGIN');
    expect(p.handle('RESTART').out).toEqual(['OK']);
    expect(p.game.stones).toHaveLength(0);
  });

  it('BEGIN then TURN: legal answers on the board', () => {
    const p = started();
    const [b] = feed(p, ['BEGIN']);
    const first = xy(b!.out[0]!);
    expect(p.me).toBe(BLACK);
    const [t] = feed(p, ['TURN 0,0']);
    const second = xy(t!.out[0]!);
    expect(second).not.toEqual(first);
    expect(second).not.toEqual([0, 0]);
  });

  it('second player: TURN as the first command after START makes us white', () => {
    const p = started();
    const out = p.handle('TURN 7,7').out;
    expect(out[0]).toMatch(XY);
    expect(out[0]).not.toBe('7,7');
    expect(p.me).toBe(WHITE);
  });

  it('INFO: every known key is kept, unknown keys ignored, no answer', () => {
    const p = started();
    const rs = feed(p, [
      'INFO timeout_turn 1000',
      'INFO timeout_match 60000',
      'INFO time_left 59000',
      'INFO max_memory 83886080',
      'INFO game_type 1',
      'INFO rule 1',
      'INFO folder /tmp/x',
      'INFO evaluate 7,7',
      'INFO thread_num 4',
      'INFO something_new 9',
    ]);
    expect(outs(rs)).toEqual([]);
    expect([p.timeoutTurn, p.timeoutMatch, p.timeLeft, p.maxMemory, p.gameType, p.folder]).toEqual([1000, 60000, 59000, 83886080, 1, '/tmp/x']);
    expect(p.rule).toBe('standard');
    expect(p.game.rule).toBe('standard');
    const l = p.limits();
    expect(l.turnMs).toBe(1000);
    expect(l.overheadMs).toBeGreaterThan(0); // the first answer: Node's start-up
    expect(l.gameLeftMs).toBe(59000);
    expect(l.matchMs).toBe(60000);
    expect(l.nodes).toBeUndefined();
  });

  it('INFO max_node limits the nodes per move (overriding --nodes); 0 lifts it', () => {
    const p = started({ nodes: 5000 });
    expect(p.limits().nodes).toBe(5000);
    feed(p, ['INFO max_node 20000']);
    expect(p.limits().nodes).toBe(20000);
    feed(p, ['INFO max_node 0']);
    expect(p.limits().nodes).toBe(5000);
  });

  it('INFO timeout_turn 0 means play fast; time_left caps the turn', () => {
    const p = started();
    feed(p, ['INFO timeout_turn 0']);
    expect(p.limits().turnMs).toBeLessThanOrEqual(200);
    feed(p, ['INFO timeout_turn 30000', 'INFO time_left 2000']);
    expect(planTime(p.limits(), 0).maximumMs).toBeLessThan(2000);
  });

  it('absurd clocks are capped at a sane maximum; each capped or bad INFO value is one MESSAGE before the next move and one error line', () => {
    const p = started({ timeMs: 300 });
    const rs = feed(p, [
      'INFO timeout_turn 99999999999999',
      'INFO timeout_match 1e15',
      'INFO time_left 99999999999',
      'INFO time_left 99999999999',
      'INFO max_node lots',
      'INFO time_left 2147483647',
    ]);
    expect(outs(rs)).toEqual([]);
    expect([p.timeoutTurn, p.timeoutMatch, p.timeLeft]).toEqual([MAX_TURN_MS, MAX_GAME_MS, 2147483647]);
    expect(rs.map((r) => r.log[0])).toEqual([
      'error: INFO timeout_turn of 99999999999999 ms is over the maximum of 600000 ms (10 min); read as 600000',
      'error: INFO timeout_match of 1000000000000000 ms is over the maximum of 86400000 ms (24 h); read as 86400000',
      'error: INFO time_left of 99999999999 ms is over the maximum of 86400000 ms (24 h); read as 86400000',
      // time_left comes before every move: reported once
      'INFO time_left of 99999999999 ms is over the maximum of 86400000 ms (24 h); read as 86400000 (again)',
      "error: INFO max_node: bad value 'lots' ignored",
      undefined,
    ]);
    const out = p.handle('BEGIN').out;
    expect(out.slice(0, -1)).toEqual([
      'MESSAGE INFO timeout_turn of 99999999999999 ms is over the maximum of 600000 ms (10 min); read as 600000',
      'MESSAGE INFO timeout_match of 1000000000000000 ms is over the maximum of 86400000 ms (24 h); read as 86400000',
      'MESSAGE INFO time_left of 99999999999 ms is over the maximum of 86400000 ms (24 h); read as 86400000',
      "MESSAGE INFO max_node: bad value 'lots' ignored",
    ]);
    expect(out[out.length - 1]).toMatch(XY);
  });

  it('INFO rule outside the bit sums 0..15 is refused, not read bit by bit', () => {
    const p = started();
    const r = p.handle('INFO rule 99999999999999');
    expect(r.log).toEqual(["error: INFO rule: bad value '99999999999999' ignored (a bit sum 0..15)"]);
    expect(p.rule).toBe('freestyle');
    p.handle('INFO rule 1');
    expect(p.rule).toBe('standard');
  });

  it('INFO max_memory sizes the search tables (0: the default sizes; too little: the smallest, with one error)', () => {
    const p = started();
    expect(p.game.engine.tableBits).toEqual(DEFAULT_TABLE_BITS);
    const r = p.handle('INFO max_memory 367001600');
    const bits = tableBitsFor((367001600 - GOMOCUP_BASE_MEMORY) * GOMOCUP_TABLE_SHARE);
    expect(p.game.engine.tableBits).toEqual(bits);
    expect(tableBytes(bits)).toBeGreaterThan(tableBytes(DEFAULT_TABLE_BITS));
    expect(GOMOCUP_BASE_MEMORY + tableBytes(bits)).toBeLessThan(367001600);
    expect(r.out).toEqual([]);
    const small = p.handle('INFO max_memory 50000000');
    expect(p.game.engine.tableBits).toEqual(MIN_TABLE_BITS);
    expect(small.log[0]).toMatch(/^error: INFO max_memory 50000000 is less than the bot needs \(about \d+ MB\); using the smallest tables$/);
    p.handle('INFO max_memory 0');
    expect(p.game.engine.tableBits).toEqual(DEFAULT_TABLE_BITS);
    // a move with resized tables is still a legal move
    p.handle('INFO max_memory 200000000');
    expect(p.handle('BEGIN').out.at(-1)).toMatch(XY);
  });

  it('an overlong unknown line is answered and logged in 200 characters and its length', () => {
    const p = started();
    const r = p.handle('X'.repeat(100_000));
    expect(r.out).toEqual([`UNKNOWN command '${'X'.repeat(200)}… (100000 characters)'`]);
    expect(r.log.join('').length).toBeLessThan(300);
    const bad = p.handle('TURN ' + '7'.repeat(100_000));
    expect(bad.out[0]!.length).toBeLessThan(300);
  });

  it('renju/caro rule bits are announced with MESSAGE before the next move', () => {
    const p = started();
    feed(p, ['INFO rule 4']);
    const out = p.handle('BEGIN').out;
    expect(out[0]).toMatch(/^MESSAGE rule 4/);
    expect(out[1]).toMatch(XY);
  });

  it('BOARD: an empty board acts like BEGIN; one stone (c-gomoku-cli style) makes us white', () => {
    const p = started();
    const rs = feed(p, ['BOARD', 'DONE']);
    expect(rs[1]!.out[0]).toMatch(XY);
    expect(p.me).toBe(BLACK);
    const q = started();
    const rq = feed(q, ['BOARD', '7,7,2', 'DONE']);
    expect(outs(rq)).toHaveLength(1);
    expect(rq[2]!.out[0]).not.toBe('7,7');
    expect(q.me).toBe(WHITE);
    // Then TURN continues the game.
    expect(q.handle('TURN 0,0').out[0]).toMatch(XY);
  });

  it("BOARD with own and opponent stones: blocks the opponent's four", () => {
    const p = started();
    const rs = feed(p, ['BOARD', '3,3,2', '4,3,2', '5,3,2', '6,3,2', '0,0,1', '14,14,1', '0,14,1', '14,0,2', 'DONE']);
    expect(['2,3', '7,3']).toContain(rs.at(-1)!.out[0]);
  });

  it('TAKEBACK removes a stone; a missing stone is an ERROR', () => {
    const p = started();
    feed(p, ['TURN 7,7']);
    expect(p.handle('TAKEBACK 7,7').out).toEqual(['OK']);
    expect(p.game.stones).toHaveLength(1);
    expect(p.handle('TAKEBACK 7,7').out[0]).toMatch(/^ERROR /);
    // The cell is free again.
    expect(p.handle('TURN 7,7').out[0]).toMatch(XY);
  });

  it('PLAY places our stone and echoes it; ABOUT; END exits', () => {
    const p = started();
    expect(p.handle('PLAY 3,4').out).toEqual(['3,4']);
    expect(p.game.colorAt(4 * 15 + 3)).toBe(BLACK);
    expect(p.handle('ABOUT').out[0]).toMatch(/^name="gomoku-tss", version="[\d.]+", author=".*", country=".*"$/);
    expect(p.handle('ABOUT').out[0]).toContain(`version="${packageVersion()}"`); // BOT_VERSION follows package.json
    const end = p.handle('END');
    expect(end.out).toEqual([]);
    expect(end.exit).toBe(0);
  });

  it('SWAP2BOARD, empty: proposes three stones', () => {
    const p = started();
    const rs = feed(p, ['SWAP2BOARD', 'DONE']);
    const parts = rs[1]!.out[0]!.split(' ');
    expect(parts).toHaveLength(3);
    for (const t of parts) expect(t).toMatch(XY);
    expect(new Set(parts).size).toBe(3);
  });

  const three = ['SWAP2BOARD', '7,7', '8,7', '8,8', 'DONE'];
  it('SWAP2BOARD, 3 stones: SWAP when black scores better', () => {
    const p = started({ book: bookBy((tm, n) => (n === 3 && tm === WHITE ? 'loss' : undefined)) });
    expect(feed(p, three).at(-1)!.out).toEqual(['SWAP']);
    expect(p.me).toBe(BLACK);
  });
  it('SWAP2BOARD, 3 stones: stays white with one move when white scores better', () => {
    const p = started({ book: bookBy((tm, n) => (n === 3 && tm === WHITE ? 'win' : n === 4 && tm === BLACK ? 'loss' : undefined)) });
    const out = feed(p, three).at(-1)!.out;
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(XY);
    expect(['7,7', '8,7', '8,8']).not.toContain(out[0]);
    expect(p.me).toBe(WHITE);
  });
  it('SWAP2BOARD, 3 stones: balanced -> adds two stones (seeded)', () => {
    // a book that calls every 3- and 4-stone position a draw: balanced whatever the evaluation says
    const book = bookBy((_tm, n) => (n === 3 || n === 4 ? 'draw' : undefined));
    let out: string[] = [];
    for (let s = 0; s < 50; s++) {
      const p = new GomocupProtocol({ seed: `b${s}`, book });
      p.handle('START 15');
      out = feed(p, three).at(-1)!.out;
      if (out[0]!.split(' ').length === 2) break;
    }
    const parts = out[0]!.split(' ');
    expect(parts).toHaveLength(2);
    for (const t of parts) expect(['7,7', '8,7', '8,8']).not.toContain(t);
  });
  it('SWAP2BOARD, 5 stones: SWAP or one move', () => {
    const five = ['SWAP2BOARD', '7,7', '8,7', '8,8', '6,6', '9,9', 'DONE'];
    const a = started({ book: bookBy((tm, n) => (n === 5 && tm === WHITE ? 'loss' : undefined)) });
    expect(feed(a, five).at(-1)!.out).toEqual(['SWAP']);
    const b = started({ book: bookBy((tm, n) => (n === 5 && tm === WHITE ? 'win' : undefined)) });
    const out = feed(b, five).at(-1)!.out;
    expect(out[0]).toMatch(XY);
    expect(['7,7', '8,7', '8,8', '6,6', '9,9']).not.toContain(out[0]);
  });
  it('SWAP2BOARD with a wrong stone count or a duplicate is an ERROR', () => {
    const p = started();
    expect(feed(p, ['SWAP2BOARD', '7,7', 'DONE']).at(-1)!.out[0]).toMatch(/^ERROR /);
    expect(feed(p, ['SWAP2BOARD', '7,7', '7,7', '8,8', 'DONE']).at(-1)!.out[0]).toMatch(/^ERROR /);
  });

  it('CRLF and LF lines read the same', () => {
    const a = started();
    const b = started();
    expect(outs(feed(a, ['BOARD\r', '7,7,2\r', 'DONE\r']))).toEqual(outs(feed(b, ['BOARD', '7,7,2', 'DONE'])));
  });

  describe('bad input', () => {
    it('an occupied or off-board TURN gets ERROR and no move', () => {
      const p = started();
      feed(p, ['TURN 7,7']);
      expect(p.handle('TURN 7,7').out).toEqual([expect.stringMatching(/^ERROR .*occupied/)]);
      expect(p.handle('TURN 15,3').out).toEqual([expect.stringMatching(/^ERROR .*off the board/)]);
    });
    it('unknown commands get UNKNOWN, garbage arguments ERROR', () => {
      const p = started();
      expect(p.handle('HELLO there').out[0]).toMatch(/^UNKNOWN /);
      expect(p.handle('TURN a,b').out[0]).toMatch(/^ERROR /);
      expect(p.handle('START x').out[0]).toMatch(/^ERROR /);
    });
    it('a truncated BOARD (a command before DONE) answers ERROR, then obeys the command', () => {
      const p = started();
      const rs = feed(p, ['BOARD', '7,7,1', 'TURN 3,3']);
      expect(rs[2]!.out[0]).toMatch(/^ERROR BOARD ended without DONE/);
      expect(rs[2]!.out[1]).toMatch(XY);
    });
    it('a bad line inside BOARD makes DONE answer ERROR', () => {
      const p = started();
      const rs = feed(p, ['BOARD', '7,7,9', 'garbage', 'DONE']);
      expect(rs[3]!.out[0]).toMatch(/^ERROR /);
      expect(outs(rs.slice(0, 3))).toEqual([]);
    });
    it('BEGIN before START and DONE without BOARD are ERRORs', () => {
      const p = new GomocupProtocol({ seed: 's' });
      expect(p.handle('BEGIN').out[0]).toMatch(/^ERROR /);
      expect(started().handle('DONE').out[0]).toMatch(/^ERROR /);
    });
    it('EOF inside BOARD ends cleanly with a log line', () => {
      const p = started();
      feed(p, ['BOARD', '7,7,1']);
      const r = p.eof();
      expect(r.exit).toBe(0);
      expect(r.log[0]).toMatch(/inside BOARD/);
    });
  });
});
