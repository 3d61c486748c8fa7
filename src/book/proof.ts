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
 *    move are found by their canonical key);
 *  - a position lost through a pass tree (pn-tree.ts EXPAND_ZONE) contributes its stored pass
 *    entry, zone and repairs, the proof of its pass child, and the proofs after the replies
 *    it lists; the certificate is then `gomoku-proof/3` (formats.md 3.3: a reply with a proof
 *    of its own does not join the ignore set, so nested pass entries read as their jobs
 *    checked them), and its zones are fitted to the whole (`fitMs`).
 * Any position the walk needs that the book does not hold as decided is a hole: the
 * assembly fails with the line that leads to it, and claims nothing.
 */
import { Board } from '../core/board.js';
import { BLACK, WHITE, err, ok, type Color, type Result } from '../core/types.js';
import { makePoint } from '../core/notation.js';
import { CertificateBuilder, makeCertificate } from '../proof/certificate.js';
import { fitZones } from '../proof/zones.js';
import { bookPositionOf, entryToCaller, moveToCaller, passToCaller } from './canonical.js';
import { EXPAND_ZONE } from './pn-tree.js';
import { EVAL_SOLVED, PASS_ENTRY, type BookStore } from './store.js';

export interface BookProof {
  certificate: string;
  winner: Color;
  entries: number;
  /** Pass entries (a /2 certificate when there is one). */
  passes: number;
  positions: number;
}

export function assembleProof(
  store: BookStore,
  root: Board,
  opts: { maxPositions?: number; fitMs?: number; fitPositions?: number } = {},
): Result<BookProof> {
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
  let treePasses = 0;
  const addStored = (p: ReturnType<typeof bookPositionOf>, id: number): boolean => {
    for (const e of store.proofEntries(id)) {
      if (e.move === PASS_ENTRY) {
        const c = passToCaller(p, e);
        if (!c) {
          failure = 'a stored pass entry is malformed';
          return false;
        }
        cb.addPassStones(c.black, c.white, c.zone);
        continue;
      }
      const c = entryToCaller(p, e);
      if (!c) {
        failure = 'a stored strategy entry is malformed';
        return false;
      }
      cb.addStones(c.black, c.white, c.move);
    }
    return true;
  };
  const follow = (m: number): void => {
    board.play(m);
    line.push(m);
    walk();
    if (!failure) line.pop();
    board.undo();
  };

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
      // a job's proof, by pass and zone too: its pass entries' stones and zones map like moves
      addStored(p, row.id);
      // (a win decided by a five has no entries: the checker sees the five itself)
      return;
    }
    if (want === 'loss' && row.expanded === EXPAND_ZONE) {
      if (!addStored(p, row.id)) return;
      treePasses++;
      const mover = board.toMove;
      board.setToMove(winner);
      line.push(-1);
      walk();
      if (!failure) line.pop();
      board.setToMove(mover);
      for (const e of store.children(row.id)) {
        if (failure) return;
        if (e.move !== PASS_ENTRY) follow(moveToCaller(p, e.move));
      }
      return;
    }
    if (want === 'win') {
      if (row.bestMove === null) {
        failure = 'a won position without a stored move';
        return;
      }
      const m = moveToCaller(p, row.bestMove);
      cb.add(board, m);
      follow(m);
      return;
    }
    for (let q = 0; q < board.area && !failure; q++) if (board.cells[q] === 0) follow(q);
  };
  walk();
  if (failure) {
    const path = line.map((q) => (q < 0 ? 'pass' : makePoint(q, board.size))).join(' ');
    return err(`cannot assemble a proof: ${failure}${path ? `; line from the position: ${path}` : ''}`);
  }
  if (treePasses === 0) return ok({ certificate: cb.toString(), winner, entries: cb.entryCount, passes: cb.passCount, positions: done.size });
  // zones stored by jobs cover their own proofs; the whole may meet them elsewhere (fitted
  // zones only grow, so a proof that still fails fails on a reply inside them)
  const fitOpts = { maxMs: opts.fitMs ?? 600_000, keepWithoutZone: true, ...(opts.fitPositions !== undefined ? { maxPositions: opts.fitPositions } : {}) };
  const fit = fitZones({ ...cb.strategy(), version: 3 }, fitOpts);
  const text = makeCertificate(fit.strategy);
  return ok({ certificate: text, winner, entries: cb.entryCount, passes: cb.passCount, positions: done.size });
}
