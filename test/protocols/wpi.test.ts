import { describe, expect, it } from 'vitest';
import { WPI_IO_OVERHEAD_MS, WpiPlayer, formatWpiMove, parseWpiMove } from '../../src/protocols/wpi.js';
import { limitsFor } from '../../src/protocols/clock.js';
import { planTime } from '../../src/search/timeman.js';
import { BLACK, WHITE } from './helpers.js';

const LINE = /^me ([A-O]) (\d+)$/;

describe('WPI translator', () => {
  it("reads the referee's lowercase echo and writes uppercase columns, rows from the top", () => {
    expect(parseWpiMove('beta h 8\n')).toEqual({ ok: true, value: { team: 'beta', index: 7 * 15 + 7 } });
    expect(parseWpiMove('alpha A 1')).toEqual({ ok: true, value: { team: 'alpha', index: 0 } });
    expect(parseWpiMove('')).toEqual({ ok: true, value: undefined });
    expect(formatWpiMove('alpha', 14 * 15 + 14)).toBe('alpha O 15');
    expect(parseWpiMove('beta H').ok).toBe(false);
    expect(parseWpiMove('beta AB 3').ok).toBe(false);
    expect(parseWpiMove('beta P 3').ok).toBe(false);
  });

  it('first player: empty move_file -> we move; later moves answer the opponent', () => {
    const p = new WpiPlayer({ seed: '1', name: 'me', timeMs: 300 });
    const r = p.onTurn('');
    expect(p.role).toBe('first');
    expect(r.out[0]).toMatch(LINE);
    const r2 = p.onTurn('opp a 1\n');
    expect(r2.out[0]).toMatch(LINE);
    expect(r2.out[0]).not.toBe(r.out[0]);
    expect(p.me).toBe(BLACK);
  });

  it('first player whose stone was taken (its own cell echoed): moves again as white', () => {
    const p = new WpiPlayer({ seed: '2', name: 'me', timeMs: 300 });
    const first = p.onTurn('').out[0]!;
    const [, c, r] = LINE.exec(first)!;
    const again = p.onTurn(`opp ${c!.toLowerCase()} ${r}\n`);
    expect(p.me).toBe(WHITE);
    expect(again.out[0]).toMatch(LINE);
    expect(again.out[0]).not.toBe(first);
    expect(p.game.stones).toHaveLength(2);
  });

  it('second player: takes a central first stone (swap), keeps white against a corner stone', () => {
    const p = new WpiPlayer({ seed: '3', name: 'me', timeMs: 300 });
    expect(p.onTurn('opp h 8\n').out).toEqual(['me H 8']);
    expect(p.me).toBe(BLACK);
    // Then the first player moves again; we answer normally.
    expect(p.onTurn('opp g 7\n').out[0]).toMatch(LINE);
    const q = new WpiPlayer({ seed: '3', name: 'me', timeMs: 300 });
    const r = q.onTurn('opp a 1\n').out[0]!;
    expect(r).not.toBe('me A 1');
    expect(q.me).toBe(WHITE);
  });

  it('bad input: occupied, garbage, our own name -> exit 1 and nothing to write', () => {
    const p = new WpiPlayer({ seed: '4', name: 'me', timeMs: 300 });
    p.onTurn('opp a 1');
    const occ = p.onTurn('opp a 1');
    expect(occ.exit).toBe(1);
    expect(occ.out).toEqual([]);
    expect(new WpiPlayer({ seed: '4', name: 'me', timeMs: 300 }).onTurn('junk').exit).toBe(1);
    expect(new WpiPlayer({ seed: '4', name: 'me', timeMs: 300 }).onTurn('me h 8').exit).toBe(1);
    expect(new WpiPlayer({ seed: '4', name: 'me', timeMs: 300 }).onEnd('END: TIE! board full!').exit).toBe(0);
  });

  it('a short --time still leaves a positive search budget (never "no limit")', () => {
    const plan = (turnMs: number) => planTime(limitsFor({ turnMs, overheadMs: WPI_IO_OVERHEAD_MS, ply: 10 }), 10);
    expect(plan(10_000).maximumMs).toBeLessThanOrEqual(10_000 - WPI_IO_OVERHEAD_MS);
    expect(plan(10_000).maximumMs).toBeGreaterThan(10_000 - WPI_IO_OVERHEAD_MS - 200);
    // the referee's I/O cannot take more than 3/4 of a short limit: a positive budget remains
    expect(plan(200).maximumMs).toBeGreaterThan(0);
    expect(plan(200).maximumMs).toBeLessThanOrEqual(50);
    expect(plan(1).maximumMs).toBeGreaterThan(0);
  });
});
