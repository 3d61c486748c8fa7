/**
 * Book export: JSON Lines (one position a line, canonical orientation, formats.md notation)
 * and the Yixin/Rapfi database format (book/yxdb.ts).
 */
import { makePoint, makeStoneSet } from '../core/notation.js';
import { colorName } from '../core/types.js';
import { parsePositionKey } from '../core/symmetry.js';
import type { BookStore, PositionRow } from './store.js';
import { encodeYxdb, labelOf, YX_BOUND_EXACT, YX_RULE_FREESTYLE, YX_RULE_STANDARD, type YxdbRecord } from './yxdb.js';

/** One JSON object for a stored position (all moves in the canonical orientation). */
export function positionJson(r: PositionRow): Record<string, unknown> {
  const k = parsePositionKey(r.key);
  const o: Record<string, unknown> = {
    rule: r.rule,
    size: r.size,
    position: k ? makeStoneSet(k.black, k.white, r.size) : r.key,
    toMove: colorName(r.toMove),
    key: r.key,
    opening: r.opening,
    verdict: r.verdict,
    score: r.score,
    depth: r.depth,
  };
  if (r.bestMove !== null) o.bestMove = makePoint(r.bestMove, r.size);
  Object.assign(o, { pn: r.pn, dn: r.dn, proofSize: r.proofSize, nodes: r.nodes, method: r.method, updated: r.updated });
  return o;
}

export function* exportJsonl(store: BookStore): IterableIterator<string> {
  for (const r of store.positions()) yield JSON.stringify(positionJson(r)) + '\n';
}

/** Book rows as yxdb records (the stored orientation is canonical; Rapfi canonicalises too). */
export function* yxdbRecords(store: BookStore): IterableIterator<YxdbRecord> {
  for (const r of store.positions()) {
    const k = parsePositionKey(r.key);
    if (!k) continue;
    const text = r.bestMove !== null ? `best ${makePoint(r.bestMove, r.size)}` : '';
    yield {
      rule: r.rule === 'standard' ? YX_RULE_STANDARD : YX_RULE_FREESTYLE,
      width: r.size,
      height: r.size,
      black: k.black,
      white: k.white,
      toMove: k.toMove,
      label: labelOf(r.verdict),
      value: r.score,
      depth: Math.max(0, Math.min(8191, r.depth)),
      bound: YX_BOUND_EXACT,
      text,
    };
  }
}

export function exportYxdb(store: BookStore): { bytes: Uint8Array; written: number; skipped: number } {
  return encodeYxdb(yxdbRecords(store));
}
