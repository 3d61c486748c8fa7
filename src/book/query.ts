/**
 * `book query` as plain data (formats.md section 4): the stored verdict of a position, seen
 * from its side to move, and its children in the book, with every move mapped back to the
 * caller's orientation. A child's verdict and score are the child's own (from the side to
 * move there, i.e. the opponent of the caller's side to move).
 */
import type { Board } from '../core/board.js';
import type { Verdict } from '../search/types.js';
import { bookPositionOf, moveToCaller } from './canonical.js';
import { EXPAND_ZONE } from './pn-tree.js';
import { PASS_ENTRY, type BookStore } from './store.js';

export interface QueryChild {
  move: number;
  verdict: Verdict;
  score: number;
}

export type QueryResult =
  | { found: false }
  | {
      found: true;
      verdict: Verdict;
      score: number;
      depth: number;
      bestMove?: number;
      children: QueryChild[];
      opening: string;
      method: string | null;
      nodes: number;
      /** A decided position's proof: the entries of its own job's strategy, or 1 + the children its tree proof uses. */
      proofSize: number;
      /** Proven by pass and zone: by one pass job, or as a pass tree (pn-tree.ts EXPAND_ZONE). */
      byPass: boolean;
    };

export function queryBook(store: BookStore, board: Board): QueryResult {
  const p = bookPositionOf(board);
  const row = store.get(board.rule, p.key);
  if (!row) return { found: false };
  const children: QueryChild[] = [];
  for (const e of store.children(row.id)) {
    if (e.move === PASS_ENTRY) continue; // a pass child (a proof by pass and zone) is no move
    const c = store.getById(e.child);
    if (!c) continue;
    children.push({ move: moveToCaller(p, e.move), verdict: c.verdict, score: c.score });
  }
  const best = row.bestMove === null ? undefined : moveToCaller(p, row.bestMove);
  // the best move first, then the children best for the caller (lowest score for the opponent)
  const rank = (c: QueryChild) => (c.move === best ? -Infinity : c.verdict === 'loss' ? -1e9 + c.score : c.verdict === 'win' ? 1e9 + c.score : c.score);
  children.sort((a, b) => rank(a) - rank(b) || a.move - b.move);
  const out: QueryResult = { found: true, verdict: row.verdict, score: row.score, depth: row.depth, children, opening: row.opening, method: row.method, nodes: row.nodes, proofSize: row.proofSize, byPass: row.method === 'pass' || row.expanded === EXPAND_ZONE };
  if (best !== undefined) out.bestMove = best;
  return out;
}

/** The JSON object of formats.md section 4, points written by `point`. */
export function queryJson(r: QueryResult, point: (q: number) => string): Record<string, unknown> {
  if (!r.found) return { verdict: 'unknown', found: false };
  const o: Record<string, unknown> = { verdict: r.verdict, score: r.score, depth: r.depth };
  if (r.bestMove !== undefined) o.bestMove = point(r.bestMove);
  o.children = r.children.map((c) => ({ move: point(c.move), verdict: c.verdict, score: c.score }));
  return o;
}
