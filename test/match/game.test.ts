import { afterAll, describe, expect, it } from 'vitest';
import { Board } from '../../src/core/board.js';
import { parsePosition } from '../../src/core/notation.js';
import { playGame } from '../../src/match/game.js';
import { liveClientCount } from '../../src/match/pbrain-client.js';
import { checkRecords } from '../../src/match/runner.js';
import { FAST, childPids, fixture } from './helpers.js';

function indices(text: string): number[] {
  const p = parsePosition(text, 15);
  if (!p.ok) throw new Error(p.error);
  return p.value.moves.map((m) => m.index);
}
const opening = (text: string) => ({ id: text || 'empty', moves: indices(text) });

afterAll(() => {
  expect(liveClientCount()).toBe(0);
  expect(childPids()).toEqual([]);
});

describe('playGame', () => {
  it('plays two legal engines to a five or a full board, and the record replays', async () => {
    const g = await playGame(1, fixture('random', 'r1', '--seed', '1'), fixture('random', 'r2', '--seed', '2'), opening(''), FAST);
    expect(['five', 'full-board']).toContain(g.reason);
    expect(g.moves.length).toBeGreaterThan(8);
    expect(checkRecords([g])).toEqual([]);
    if (g.reason === 'five') {
      const b = new Board(15);
      for (const m of g.moves) b.play(indices(m.move)[0]!);
      expect(b.lastMoveWon()).toBe(g.result === '1-0' ? 1 : 2);
    }
    expect(g.timeMs.black).toBeGreaterThanOrEqual(0);
    expect(g.moves.every((m) => m.ms >= 0 && m.ms < 1300)).toBe(true);
  });

  it('continues from an opening with the side to move (white after 3 stones)', async () => {
    const lines: string[] = [];
    const g = await playGame(2, fixture('random', 'r1', '--seed', '3'), fixture('random', 'r2', '--seed', '4'), opening('h8 i9 h10'), {
      ...FAST,
      onLine: (e, d, l) => lines.push(`${e}${d}${l}`),
    });
    expect(g.opening).toEqual(['h8', 'i9', 'h10']);
    expect(checkRecords([g])).toEqual([]);
    // white (r2) moves first, gets the whole opening as BOARD: h8 = 7,7 theirs; i9 = 8,6 own; h10 = 7,5 theirs
    const i = lines.indexOf('r2>BOARD');
    expect(lines.slice(i, i + 5)).toEqual(['r2>BOARD', 'r2>7,7,2', 'r2>8,6,1', 'r2>7,5,2', 'r2>DONE']);
    expect(lines.filter((l) => l.startsWith('r1>') && l.includes('BOARD')).length).toBe(1);
    expect(lines.some((l) => l.startsWith('r1>TURN') || l.startsWith('r2>TURN'))).toBe(true);
    expect(lines).toContain('r1>INFO timeout_turn 1000');
    expect(lines).toContain('r1>INFO timeout_match 20000');
    expect(lines).toContain('r1>INFO rule 0');
    expect(lines.filter((l) => l.endsWith('>END')).length).toBe(2);
  });

  it('a crashing engine loses with a clear reason', async () => {
    const g = await playGame(3, fixture('random', 'good'), fixture('crash', 'crashy', '--after', '2'), opening(''), FAST);
    expect(g.result).toBe('1-0');
    expect(g.reason).toBe('crash');
    expect(g.detail).toBe('white (crashy) exited with code 3');
    expect(checkRecords([g])).toEqual([]);
  });

  it('a hanging engine loses on time, and its helper process is killed', async () => {
    const g = await playGame(4, fixture('hang', 'hangy'), fixture('random', 'good'), opening(''), {
      ...FAST,
      tc: { turnMs: 200, matchMs: 0 },
      hangToleranceMs: 100,
    });
    expect(g.result).toBe('0-1');
    expect(g.reason).toBe('timeout');
    expect(g.detail).toBe('black (hangy) no reply within 300 ms');
  });

  it('an engine that prints garbage loses', async () => {
    const g = await playGame(5, fixture('random', 'good'), fixture('garbage', 'noisy', '--after', '1'), opening(''), FAST);
    expect(g.result).toBe('1-0');
    expect(g.reason).toBe('garbage');
    expect(g.detail).toBe("white (noisy) unexpected reply 'I think I will play somewhere nice'");
    expect(g.moves.length).toBe(3); // b, w, b, then white's second reply is garbage
  });

  it('an engine that plays an occupied point loses', async () => {
    const g = await playGame(6, fixture('occupied', 'echo'), fixture('random', 'good'), opening('h8'), FAST);
    expect(g.result).toBe('0-1');
    expect(g.reason).toBe('illegal');
    expect(g.detail).toMatch(/^black \(echo\) played [a-o]\d+ \(\d+,\d+\), which is occupied$/);
    expect(checkRecords([g])).toEqual([]);
  });

  it('an engine that cannot start loses; two that cannot start abort the game', async () => {
    const nope = { name: 'nope', argv: ['/nonexistent/pbrain'] };
    const g = await playGame(7, fixture('random', 'good'), nope, opening(''), FAST);
    expect(g).toMatchObject({ result: '1-0', reason: 'start-failed', detail: 'white (nope) failed to start: could not start (ENOENT)' });
    const h = await playGame(8, nope, { ...nope, name: 'nope2' }, opening(''), FAST);
    expect(h).toMatchObject({ result: '*', reason: 'aborted' });
  });

  it('a slow engine loses on the game clock', async () => {
    const g = await playGame(9, fixture('slow', 'slow', '--delay', '120'), fixture('random', 'good'), opening(''), {
      ...FAST,
      tc: { turnMs: 1000, matchMs: 500 },
      hangToleranceMs: 100,
    });
    expect(g.result).toBe('0-1');
    expect(g.reason).toBe('timeout');
    expect(g.timeMs.black).toBeGreaterThan(500);
    expect(g.moves.filter((_, i) => i % 2 === 0).length).toBeGreaterThanOrEqual(4);
  });
});

describe('playGame with Swap2', () => {
  const S2 = { ...FAST, swap2: true };
  const p1 = (policy: string) => fixture('random', 'first', '--seed', '21', '--swap2', policy);
  const p2 = (policy: string) => fixture('random', 'second', '--seed', '22', '--swap2', policy);

  it('second stays white and plays stone 4', async () => {
    const lines: string[] = [];
    const g = await playGame(1, p1('play'), p2('play'), opening(''), { ...S2, onLine: (e, d, l) => lines.push(`${e}${d}${l}`) });
    expect(g.swap2).toEqual(['first placed 3 stones', 'second stayed white and played stone 4']);
    expect(g).toMatchObject({ black: 'first', white: 'second' });
    expect(g.moves.slice(0, 3).map((m) => m.move)).toEqual(['h8', 'i8', 'h6']);
    expect(lines.slice(lines.indexOf('second>SWAP2BOARD'), lines.indexOf('second>SWAP2BOARD') + 5)).toEqual([
      'second>SWAP2BOARD',
      'second>7,7',
      'second>8,7',
      'second>7,9',
      'second>DONE',
    ]);
    expect(lines).toContain('first>BOARD'); // the game goes on with BOARD for each side's first move
    expect(checkRecords([g])).toEqual([]);
  });

  it('second takes black with SWAP', async () => {
    const g = await playGame(2, p1('play'), p2('swap'), opening(''), S2);
    expect(g.swap2).toEqual(['first placed 3 stones', 'second took black']);
    expect(g).toMatchObject({ black: 'second', white: 'first' });
    expect(checkRecords([g])).toEqual([]);
  });

  it('second places two stones; first then chooses black or white', async () => {
    const a = await playGame(3, p1('swap'), p2('two'), opening(''), S2);
    expect(a.swap2).toEqual(['first placed 3 stones', 'second placed stones 4 and 5', 'first took black']);
    expect(a).toMatchObject({ black: 'first', white: 'second' });
    expect(a.moves.length).toBeGreaterThanOrEqual(6);
    expect(checkRecords([a])).toEqual([]);
    const b = await playGame(4, p1('play'), p2('two'), opening(''), S2);
    expect(b.swap2).toEqual(['first placed 3 stones', 'second placed stones 4 and 5', 'first stayed white and played stone 6']);
    expect(b).toMatchObject({ black: 'second', white: 'first' });
    expect(checkRecords([b])).toEqual([]);
  });

  it('a wrong number of stones loses', async () => {
    const g = await playGame(5, p1('bad'), p2('play'), opening(''), S2);
    expect(g).toMatchObject({ result: '0-1', reason: 'garbage', black: 'first' });
    expect(g.detail).toBe("black (first) answered SWAP2BOARD with '7,7 8,8': expected 3 point(s)");
    expect(checkRecords([g])).toEqual([]);
  });
});
