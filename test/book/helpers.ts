import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Board } from '../../src/core/board.js';
import { parsePosition, resolveToMove } from '../../src/core/notation.js';
import type { Rule } from '../../src/core/types.js';
import { BookStore } from '../../src/book/store.js';
import { bookPositionOf, moveToCanonical } from '../../src/book/canonical.js';

export function tempDir(): { dir: string; file: (name: string) => string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'gomoku-book-'));
  return { dir, file: (n) => path.join(dir, n), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function boardOf(text: string, size = 15, rule: Rule = 'freestyle'): Board {
  const spec = parsePosition(text, size);
  if (!spec.ok) throw new Error(spec.error);
  const tm = resolveToMove(spec.value);
  if (!tm.ok) throw new Error(tm.error);
  const b = new Board(size, rule);
  for (const m of spec.value.moves) b.put(m.index, m.color);
  b.setToMove(tm.value);
  return b;
}

export function openStore(file: string): BookStore {
  const r = BookStore.open(file);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

/** Store `board` with a verdict and an optional best move (caller orientation); returns the row id. */
export function putPosition(store: BookStore, board: Board, v: { verdict: 'win' | 'loss' | 'draw' | 'unknown'; score: number; depth?: number; bestMove?: number; opening?: string }): number {
  const p = bookPositionOf(board);
  const row = store.ensure({ rule: board.rule, size: board.size, key: p.key, stones: p.stones, toMove: board.toMove, opening: v.opening ?? 'test' });
  store.update(row.id, {
    verdict: v.verdict,
    score: v.score,
    depth: v.depth ?? 1,
    bestMove: v.bestMove === undefined ? null : moveToCanonical(p, v.bestMove),
    pn: 1,
    dn: 1,
    proofSize: 0,
    addNodes: 10,
    method: 'test',
    evaluated: 1,
  });
  return row.id;
}

/** Store the child reached by `move` (caller orientation) and link it to the parent. */
export function putChild(store: BookStore, parent: Board, move: number, v: { verdict: 'win' | 'loss' | 'draw' | 'unknown'; score: number }): number {
  const pid = store.get(parent.rule, bookPositionOf(parent).key)!.id;
  const child = parent.clone();
  child.play(move);
  const cid = putPosition(store, child, v);
  store.addEdge(pid, moveToCanonical(bookPositionOf(parent), move), cid);
  return cid;
}
