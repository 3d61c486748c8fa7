import { describe, expect, test } from 'vitest';
import { runBookJob, type BookJob } from '../../src/book/job.js';
import { BLACK, WHITE } from '../../src/core/types.js';
import { MATE } from '../../src/search/types.js';
import { boardOf } from './helpers.js';

function jobOf(text: string, over: Partial<BookJob> = {}, size = 15): BookJob {
  const b = boardOf(text, size);
  return { id: 7, rule: 'freestyle', size, black: b.stones(BLACK), white: b.stones(WHITE), toMove: b.toMove, solveNodes: 20000, scoreNodes: 200, ...over };
}

describe('runBookJob', () => {
  test('a checked solver win: verdict, move, mate score, strategy entries', () => {
    // black to move, an open three plus a broken one: a short VCF exists
    const r = runBookJob(jobOf('B:f8,g8,h8,h10,h11;W:a1,a2,a3,a4,a15'));
    expect(r).toMatchObject({ id: 7, verdict: 'win' });
    expect(r.error).toBeUndefined();
    expect(r.bestMove).not.toBeNull();
    expect(r.score).toBe(MATE - r.pv.length);
    expect(r.entries!.length).toBeGreaterThan(0);
  });

  test('a loss: the side to move faces two fives', () => {
    const r = runBookJob(jobOf('B:c5,d5,e5,f5;W:a1,i1,a9', {}, 9));
    expect(r).toMatchObject({ verdict: 'loss', method: 'five', bestMove: null });
    expect(r.score).toBeLessThan(-MATE + 100);
  });

  test('unknown within the budget: an engine score and move instead', () => {
    const r = runBookJob(jobOf('h8 i9 h10', { solveNodes: 200 }));
    expect(r.verdict).toBe('unknown');
    expect(r.method).toBe('score');
    expect(r.bestMove).not.toBeNull();
    expect(Number.isFinite(r.score)).toBe(true);
    const none = runBookJob(jobOf('h8', { solveNodes: 0, scoreNodes: 0 }));
    expect(none).toMatchObject({ verdict: 'unknown', method: 'none', nodes: 0 });
  });
});
