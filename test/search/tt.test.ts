import { describe, expect, it } from 'vitest';
import { TransTable, BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, toTT, fromTT } from '../../src/search/tt.js';
import { MATE } from '../../src/search/types.js';

describe('transposition table', () => {
  it('stores and probes an entry exactly', () => {
    const tt = new TransTable(10);
    expect(tt.probe(123, 456, 0)).toBe(false);
    tt.store(123, 456, 0, 7, BOUND_EXACT, -42, 112);
    expect(tt.probe(123, 456, 0)).toBe(true);
    expect([tt.hitMove, tt.hitDepth, tt.hitBound, tt.hitScore]).toEqual([112, 7, BOUND_EXACT, -42]);
    // a different position in the same bucket does not match
    expect(tt.probe(123, 458, 0)).toBe(false);
    expect(tt.probe(123 + (1 << 10), 456, 0)).toBe(false);
  });

  it('keeps mate scores relative to the node', () => {
    const tt = new TransTable(10);
    // found at ply 4: mate in 5 plies from the root = 1 ply from the node... stored as distance from the node
    tt.store(9, 9, 4, 3, BOUND_LOWER, MATE - 5, -1);
    expect(tt.probe(9, 9, 10)).toBe(true);
    expect(tt.hitScore).toBe(MATE - 11);
    expect(tt.hitMove).toBe(-1);
    tt.store(10, 10, 2, 3, BOUND_UPPER, -(MATE - 6), 5);
    tt.probe(10, 10, 0);
    expect(tt.hitScore).toBe(-(MATE - 4));
    for (const s of [0, 17, -300, MATE - 9, -(MATE - 12)]) expect(fromTT(toTT(s, 6), 6)).toBe(s);
  });

  it('replacement: depth-preferred way keeps the deeper entry, the other way takes the rest', () => {
    const tt = new TransTable(4);
    const stride = 1 << 4;
    tt.store(1, 100, 0, 10, BOUND_EXACT, 1, 1);
    tt.store(1 + stride, 200, 0, 2, BOUND_EXACT, 2, 2); // shallower: goes to the always-replace way
    tt.store(1 + 2 * stride, 300, 0, 3, BOUND_EXACT, 3, 3); // replaces the shallow one, not the deep one
    expect(tt.probe(1, 100, 0)).toBe(true);
    expect(tt.probe(1 + stride, 200, 0)).toBe(false);
    expect(tt.probe(1 + 2 * stride, 300, 0)).toBe(true);
    // a deeper result takes way 0 and moves the old way-0 entry down
    tt.store(1 + 3 * stride, 400, 0, 12, BOUND_EXACT, 4, 4);
    expect(tt.probe(1 + 3 * stride, 400, 0)).toBe(true);
    expect(tt.probe(1, 100, 0)).toBe(true);
    // a new search (generation) lets shallow results replace old deep ones
    tt.newSearch();
    tt.store(1 + 4 * stride, 500, 0, 1, BOUND_EXACT, 5, 5);
    expect(tt.probe(1 + 4 * stride, 500, 0)).toBe(true);
    // updating a stored position without a move keeps its move
    tt.store(1 + 4 * stride, 500, 0, 2, BOUND_LOWER, 6, -1);
    tt.probe(1 + 4 * stride, 500, 0);
    expect([tt.hitMove, tt.hitDepth, tt.hitScore]).toEqual([5, 2, 6]);
  });
});

describe('proof-number table', () => {
  it('a new search may replace the solved entries of earlier ones, which stay readable until then', async () => {
    const { PnTable, INF } = await import('../../src/search/pntt.js');
    const tt = new PnTable(4); // 8 buckets of 2 ways
    // fill every slot with solved entries (keys 0..15 hit buckets 0..7 twice)
    for (let k = 0; k < 16; k++) tt.store(k, 1000 + k, 0, INF, 5, k);
    for (let k = 0; k < 16; k++) expect(tt.find(k, 1000 + k)).toBeGreaterThanOrEqual(0);
    // same search: an unsolved entry cannot push out a solved one
    tt.store(3 + 8 * 5, 77, 4, 4, 1, -1);
    expect(tt.find(3 + 8 * 5, 77)).toBe(-1);
    // next search: the old entries are still there to read ...
    tt.newSearch();
    expect(tt.pn[tt.find(3, 1003)]).toBe(0);
    // ... but give way to the new search's entries, solved or not
    tt.store(3 + 8 * 5, 77, 4, 4, 1, -1);
    const e = tt.find(3 + 8 * 5, 77);
    expect(e).toBeGreaterThanOrEqual(0);
    expect([tt.pn[e], tt.dn[e]]).toEqual([4, 4]);
    // and once both ways of a bucket hold the new search's solved entries, the old rule holds again
    tt.store(3 + 8 * 5, 77, 0, INF, 1, 9);
    tt.store(3 + 8 * 6, 78, INF, 0, 1, -1);
    expect(tt.find(3, 1003)).toBe(-1);
    tt.store(3 + 8 * 7, 79, 2, 2, 1, -1);
    expect(tt.find(3 + 8 * 7, 79)).toBe(-1);
    expect(tt.find(3 + 8 * 5, 77)).toBeGreaterThanOrEqual(0);
  });
});
