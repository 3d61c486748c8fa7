import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeMoveList } from '../../src/core/notation.js';
import { loadOpenings, parseOpenings } from '../../src/match/opening-files.js';

const moves = (r: ReturnType<typeof parseOpenings>, size = 15) => {
  if (!r.ok) throw new Error(r.error);
  return r.value.map((o) => makeMoveList(o.moves, size));
};

describe('openings', () => {
  it('reads centre-relative lines (x right, y down from the centre)', () => {
    const text = '0,0, 1,0, 1,3\n\n# comment\n-7,-7, 7,7\n';
    expect(moves(parseOpenings(text, 'p.txt', 15))).toEqual(['h8 i8 i5', 'a15 o1']);
    // on 20x20 the centre is 10,10: k10 (x=10, y=10 from the top -> rank 10)
    expect(moves(parseOpenings('0,0,-10,-10', 'g.txt', 20), 20)).toEqual(['k10 a20']);
  });

  it('reads our own move lists', () => {
    expect(moves(parseOpenings('h8 i9 h10\nh8,h9\nh8i8j8\n', 'm.txt', 15))).toEqual(['h8 i9 h10', 'h8 h9', 'h8 i8 j8']);
  });

  it('reads the centre-relative JSON list', () => {
    const json = JSON.stringify({
      coordinateSystem: 'center-relative-x-y',
      openings: [
        {
          id: 'a',
          coordinates: [
            [0, 0],
            [1, -1],
          ],
        },
      ],
    });
    const r = parseOpenings(json, 'g.json', 15);
    expect(moves(r)).toEqual(['h8 i9']);
    expect(r.ok && r.value[0]!.id).toBe('a');
  });

  it('reads the named-openings JSON and the puzzle JSON', () => {
    const named = JSON.stringify({ openings: [{ kind: 'direct', moves: ['H8', 'H9', 'H10'], nameJa: 'Kansei' }] });
    const r = parseOpenings(named, 'n.json', 15);
    expect(moves(r)).toEqual(['h8 h9 h10']);
    expect(r.ok && r.value[0]!.id).toBe('Kansei');
    const puzzles = JSON.stringify({ puzzles: [{ stones: 'H8H9', title: 't1' }, { stones: 'H8H9' }, { stones: 'H8I9J10' }, { labels: [] }] });
    expect(moves(parseOpenings(puzzles, 'q.json', 15))).toEqual(['h8 h9', 'h8 i9 j10']);
  });

  it('skips openings made for a bigger board when asked, and says which', () => {
    const skipped: string[] = [];
    expect(moves(parseOpenings('0,0\n-8,0\n1,1\n', 'p.txt', 15, 'freestyle', { skipped }))).toEqual(['h8', 'i7']);
    expect(skipped).toEqual(['p.txt:2: point -8,0 (centre-relative) is off the 15x15 board']);
    expect(parseOpenings('-8,0\n', 'p.txt', 15, 'freestyle', { skipped: [] })).toEqual({
      ok: false,
      error: 'p.txt: no opening fits the 15x15 board (p.txt:1: point -8,0 (centre-relative) is off the 15x15 board)',
    });
  });

  it('names the line and point of a bad opening', () => {
    expect(parseOpenings('0,0\n-8,0\n', 'p.txt', 15)).toEqual({ ok: false, error: 'p.txt:2: point -8,0 (centre-relative) is off the 15x15 board' });
    expect(parseOpenings('0,0, 0,0', 'p.txt', 15)).toEqual({ ok: false, error: 'p.txt:1: point h8 is given twice' });
    expect(parseOpenings('0,0, 1', 'p.txt', 15)).toEqual({ ok: false, error: 'p.txt:1: odd number of coordinates' });
    expect(parseOpenings('h8 a1 i8 a2 j8 a3 k8 a4 l8', 'm.txt', 15)).toEqual({ ok: false, error: 'm.txt:1: the opening already holds a five' });
    expect(parseOpenings('h8 z9', 'm.txt', 15).ok).toBe(false);
    expect(parseOpenings('{"openings":[{"coordinates":[[0,0]]}]}', 'x.json', 15).ok).toBe(false);
    expect(parseOpenings('\n\n', 'e.txt', 15)).toEqual({ ok: false, error: 'e.txt: no openings found' });
  });

  const dir = mkdtempSync(join(tmpdir(), 'openings-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('loads a file and reports a missing one', () => {
    writeFileSync(join(dir, 'o.txt'), '0,0, 1,1\r\n0,0, 1,0\r\n');
    expect(moves(loadOpenings(join(dir, 'o.txt'), 15))).toEqual(['h8 i7', 'h8 i8']);
    const r = loadOpenings(join(dir, 'missing.txt'), 15);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toContain('(ENOENT)');
  });
});

describe('randomOpenings', () => {
  it('makes distinct, reproducible openings near the centre', async () => {
    const { randomOpenings } = await import('../../src/match/opening-files.js');
    const a = randomOpenings(50, 15, 's1');
    const b = randomOpenings(50, 15, 's1');
    const c = randomOpenings(50, 15, 's2');
    if (!a.ok || !b.ok || !c.ok) throw new Error('failed');
    expect(a.value).toEqual(b.value);
    expect(a.value).not.toEqual(c.value);
    expect(new Set(a.value.map((o) => o.moves.join(','))).size).toBe(50);
    for (const o of a.value) {
      expect(o.moves).toHaveLength(3);
      expect(new Set(o.moves).size).toBe(3);
      for (const q of o.moves) {
        expect(q % 15).toBeGreaterThanOrEqual(4);
        expect(q % 15).toBeLessThanOrEqual(10);
        expect(Math.floor(q / 15)).toBeGreaterThanOrEqual(4);
        expect(Math.floor(q / 15)).toBeLessThanOrEqual(10);
      }
    }
    expect(randomOpenings(5, 15, 'x', 9).ok).toBe(false);
  });
});
