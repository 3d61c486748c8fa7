/**
 * The runtime book: a read-only `BookProbe` for the engine and the protocol adapters.
 *
 * A missing, unreadable, corrupt or too-new book is "no book": `openBookProbe` returns
 * undefined after ONE warning through `onWarning` (library code never prints). A lookup
 * canonicalises the position (8 images of a few stones) and runs one prepared indexed
 * SELECT; a failing lookup (e.g. the file vanished) also warns once and answers "no hit".
 */
import type { Board } from '../core/board.js';
import type { BookHit, BookProbe } from '../search/types.js';
import { bookPositionOf, moveToCaller } from './canonical.js';
import { BookStore } from './store.js';

export interface BookProbeOptions {
  /** Called at most once per probe object (and once for a failed open). */
  onWarning?: (message: string) => void;
  /** Do not probe positions with more stones than this (default: no limit). */
  maxStones?: number;
}

export interface OpenedBookProbe {
  probe: BookProbe;
  close: () => void;
}

export function openBookProbe(path: string, opts: BookProbeOptions = {}): OpenedBookProbe | undefined {
  const warn = opts.onWarning ?? (() => {});
  const opened = BookStore.open(path, { readonly: true, busyTimeoutMs: 100 });
  if (!opened.ok) {
    warn(`no opening book: ${opened.error}`);
    return undefined;
  }
  const store = opened.value;
  const maxStones = opts.maxStones ?? Infinity;
  let failed = false;
  const probe: BookProbe = {
    probe(board: Board): BookHit | undefined {
      if (failed) return undefined;
      let stones = 0;
      for (let q = 0; q < board.area; q++) if (board.cells[q] !== 0) stones++;
      if (stones > maxStones) return undefined;
      const p = bookPositionOf(board);
      try {
        const r = store.lookup(board.rule, p.key);
        if (!r) return undefined;
        const hit: BookHit = { verdict: r.verdict, score: r.score, depth: r.depth };
        if (r.bestMove !== null) hit.bestMove = moveToCaller(p, r.bestMove);
        return hit;
      } catch (e) {
        failed = true;
        warn(`opening book '${path}' disabled: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      }
    },
  };
  return { probe, close: () => store.close() };
}
