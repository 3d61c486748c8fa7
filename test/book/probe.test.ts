import { afterEach, describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { Board } from '../../src/core/board.js';
import { BLACK, WHITE } from '../../src/core/types.js';
import { TRANSFORMS, transformPoint } from '../../src/core/symmetry.js';
import { openBookProbe } from '../../src/book/probe.js';
import { queryBook } from '../../src/book/query.js';
import { bookPositionOf } from '../../src/book/canonical.js';
import { boardOf, openStore, putChild, putPosition, tempDir } from './helpers.js';
import { parsePoint } from '../../src/core/notation.js';

let tmp = tempDir();
afterEach(() => {
  tmp.cleanup();
  tmp = tempDir();
});

const pt = (s: string, size = 15) => (parsePoint(s, size) as { ok: true; value: number }).value;

/** The board `b` seen through transform t. */
function transformed(b: Board, t: (typeof TRANSFORMS)[number]): Board {
  const out = new Board(b.size, b.rule);
  for (const q of b.stones(BLACK)) out.put(transformPoint(t, q, b.size), BLACK);
  for (const q of b.stones(WHITE)) out.put(transformPoint(t, q, b.size), WHITE);
  out.setToMove(b.toMove);
  return out;
}

describe('lookups from all 8 orientations', () => {
  test('best move and children come back in the caller orientation', () => {
    const f = tmp.file('b.db');
    const s = openStore(f);
    // an asymmetric position: black h8 j8, white i10; black to move
    const root = boardOf('B:h8,j8;W:i10');
    putPosition(s, root, { verdict: 'win', score: 29980, depth: 11, bestMove: pt('i8') });
    putChild(s, root, pt('i8'), { verdict: 'loss', score: -29980 });
    putChild(s, root, pt('g7'), { verdict: 'unknown', score: 35 });
    for (const t of TRANSFORMS) {
      const b = transformed(root, t);
      const r = queryBook(s, b);
      expect(r.found).toBe(true);
      if (!r.found) continue;
      expect(r.verdict).toBe('win');
      expect(r.bestMove).toBe(transformPoint(t, pt('i8'), 15));
      expect(r.children.map((c) => c.move)).toEqual([transformPoint(t, pt('i8'), 15), transformPoint(t, pt('g7'), 15)]);
      expect(r.children.map((c) => c.verdict)).toEqual(['loss', 'unknown']);
    }
    s.close();
    const opened = openBookProbe(f)!;
    for (const t of TRANSFORMS) {
      const hit = opened.probe.probe(transformed(root, t));
      expect(hit).toEqual({ verdict: 'win', score: 29980, depth: 11, bestMove: transformPoint(t, pt('i8'), 15) });
    }
    // the rule is part of the lookup
    expect(opened.probe.probe(boardOf('B:h8,j8;W:i10', 15, 'standard'))).toBeUndefined();
    expect(opened.probe.probe(boardOf('h8'))).toBeUndefined();
    opened.close();
    // a row that was only listed (never evaluated) is no hit
    const w = openStore(f);
    const listed = boardOf('B:a1,b1;W:c1');
    w.ensure({ rule: 'freestyle', size: 15, key: bookPositionOf(listed).key, stones: 3, toMove: listed.toMove, opening: 'test' });
    w.close();
    const again = openBookProbe(f)!;
    expect(again.probe.probe(listed)).toBeUndefined();
    again.close();
  });

  test('a symmetric position: every orientation gets a best move that is an image of the stored one', () => {
    const s = openStore(tmp.file('sym.db'));
    const root = boardOf('h8'); // white to move, symmetric under all 8
    putPosition(s, root, { verdict: 'unknown', score: -40, bestMove: pt('i9') });
    const diagonals = new Set(TRANSFORMS.map((t) => transformPoint(t, pt('i9'), 15)));
    for (const t of TRANSFORMS) {
      const r = queryBook(s, transformed(root, t));
      expect(r.found && r.bestMove !== undefined && diagonals.has(r.bestMove)).toBe(true);
    }
    s.close();
  });
});

describe('openBookProbe', () => {
  test('a missing book is "no book" with exactly one warning', () => {
    const warnings: string[] = [];
    const p = openBookProbe(tmp.file('nope.db'), { onWarning: (m) => warnings.push(m) });
    expect(p).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^no opening book: /);
  });

  test('a corrupt or non-book file is "no book" with exactly one warning, never a throw', () => {
    const junk = tmp.file('junk.db');
    writeFileSync(junk, Buffer.alloc(8192, 0x5a));
    const plain = tmp.file('plain.db');
    const db = new Database(plain);
    db.exec('CREATE TABLE t (a)');
    db.close();
    for (const f of [junk, plain, tmp.dir]) {
      const warnings: string[] = [];
      expect(openBookProbe(f, { onWarning: (m) => warnings.push(m) })).toBeUndefined();
      expect(warnings).toHaveLength(1);
    }
  });

  test('a book that breaks after opening warns once and answers no hit', () => {
    const f = tmp.file('gone.db');
    const s = openStore(f);
    putPosition(s, boardOf('h8'), { verdict: 'unknown', score: 3 });
    s.close();
    const warnings: string[] = [];
    const p = openBookProbe(f, { onWarning: (m) => warnings.push(m) })!;
    p.close(); // simulate the handle going away under the probe
    expect(p.probe.probe(boardOf('h8'))).toBeUndefined();
    expect(p.probe.probe(boardOf('h8'))).toBeUndefined();
    expect(warnings).toHaveLength(1);
  });

  test('a warm lookup takes well under 1 ms', () => {
    const f = tmp.file('speed.db');
    const s = openStore(f);
    const boards: Board[] = [];
    s.transaction(() => {
      for (let i = 0; i < 300; i++) {
        const b = new Board(15, 'freestyle');
        const used = new Set<number>();
        for (let k = 0; k < 5; k++) {
          let q = (i * 37 + k * 101 + k * k * 13) % 225;
          while (used.has(q)) q = (q + 1) % 225;
          used.add(q);
          b.play(q);
        }
        boards.push(b);
        putPosition(s, b, { verdict: 'unknown', score: i, bestMove: [...Array(225).keys()].find((q) => !used.has(q)) });
      }
    });
    s.close();
    const p = openBookProbe(f)!;
    for (const b of boards) p.probe.probe(b); // warm
    const times: number[] = [];
    let hits = 0;
    for (const b of boards) {
      const t0 = performance.now();
      if (p.probe.probe(b)) hits++;
      times.push(performance.now() - t0);
    }
    p.close();
    times.sort((a, b) => a - b);
    expect(hits).toBe(boards.length);
    expect(times[times.length >> 1]!).toBeLessThan(0.5);
  });
});
