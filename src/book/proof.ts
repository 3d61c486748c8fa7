/**
 * A `gomoku-proof/1` certificate assembled from the book (formats.md section 3), or `/2` when
 * a position was proven by a pass job (its stored pass entry and zone, formats.md 3.1-3.2).
 *
 * Walking from the asked position, in the caller's orientation:
 *  - a position decided by a job (EVAL_SOLVED) contributes its stored strategy entries,
 *    mapped from the canonical orientation back to the caller's;
 *  - a position won through the tree contributes one entry (its stones, the stored best
 *    move) and the proof of the position after that move;
 *  - a position lost through the tree (every move listed and refuted) contributes, for EVERY
 *    empty cell, the proof of the position after that reply (symmetric twins of a listed
 *    move are found by their canonical key).
 * Any position the walk needs that the book does not hold as decided is a hole: the
 * assembly fails with the line that leads to it, and claims nothing.
 */
import { Board } from '../core/board.js';
import { BLACK, WHITE, err, ok, type Color, type Result } from '../core/types.js';
import { makePoint } from '../core/notation.js';
import { CertificateBuilder } from '../proof/certificate.js';
import { bookPositionOf, entryToCaller, moveToCaller, passToCaller } from './canonical.js';
import { EVAL_SOLVED, PASS_ENTRY, type BookStore } from './store.js';

export interface BookProof {
  certificate: string;
  winner: Color;
  entries: number;
  /** Pass entries (a /2 certificate when there is one). */
  passes: number;
  positions: number;
}

export function assembleProof(store: BookStore, root: Board, opts: { maxPositions?: number } = {}): Result<BookProof> {
  const board = root.clone();
  const first = store.get(board.rule, bookPositionOf(board).key);
  if (!first) return err('the position is not in the book');
  if (first.verdict !== 'win' && first.verdict !== 'loss') return err(`the book has no proof for this position (verdict ${first.verdict})`);
  const winner: Color = first.verdict === 'win' ? board.toMove : ((3 - board.toMove) as Color);
  const cb = new CertificateBuilder(board.size, board.rule, { kind: 'stones', black: board.stones(BLACK), white: board.stones(WHITE), toMove: board.toMove }, winner);
  const done = new Set<string>();
  const line: number[] = [];
  const maxPositions = opts.maxPositions ?? 1_000_000;
  let failure: string | undefined;

  const walk = (): void => {
    if (failure) return;
    const p = bookPositionOf(board);
    if (done.has(p.key)) return;
    if (done.size >= maxPositions) {
      failure = `more than ${maxPositions} positions`;
      return;
    }
    done.add(p.key);
    const row = store.get(board.rule, p.key);
    const want = board.toMove === winner ? 'win' : 'loss';
    if (!row || row.verdict !== want) {
      failure = `the book does not hold this position as a ${want} (${row ? row.verdict : 'absent'})`;
      return;
    }
    if ((row.evaluated & EVAL_SOLVED) !== 0) {
      for (const e of store.proofEntries(row.id)) {
        if (e.move === PASS_ENTRY) {
          // a job's proof by pass and zone: its pass entry, stones and zone mapped like moves
          const c = passToCaller(p, e);
          if (!c) {
            failure = 'a stored pass entry is malformed';
            return;
          }
          cb.addPassStones(c.black, c.white, c.zone);
          continue;
        }
        const c = entryToCaller(p, e);
        if (!c) {
          failure = 'a stored strategy entry is malformed';
          return;
        }
        cb.addStones(c.black, c.white, c.move);
      }
      // (a win decided by a five has no entries: the checker sees the five itself)
      return;
    }
    if (want === 'win') {
      if (row.bestMove === null) {
        failure = 'a won position without a stored move';
        return;
      }
      const m = moveToCaller(p, row.bestMove);
      cb.add(board, m);
      board.play(m);
      line.push(m);
      walk();
      if (!failure) line.pop();
      board.undo();
      return;
    }
    for (let q = 0; q < board.area && !failure; q++) {
      if (board.cells[q] !== 0) continue;
      board.play(q);
      line.push(q);
      walk();
      if (!failure) line.pop();
      board.undo();
    }
  };
  walk();
  if (failure) {
    const path = line.map((q) => makePoint(q, board.size)).join(' ');
    return err(`cannot assemble a proof: ${failure}${path ? `; line from the position: ${path}` : ''}`);
  }
  return ok({ certificate: cb.toString(), winner, entries: cb.entryCount, passes: cb.passCount, positions: done.size });
}
