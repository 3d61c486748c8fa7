import { BLACK, WHITE, type Color } from '../../src/core/types.js';
import type { Board } from '../../src/core/board.js';
import type { BookHit, BookProbe } from '../../src/search/types.js';
import type { LineProtocol, Reply } from '../../src/protocols/common.js';

/** Feed lines; return every reply (one per line). */
export function feed(p: LineProtocol, lines: string[]): Reply[] {
  return lines.map((l) => p.handle(l));
}

/** All output lines of a list of replies. */
export const outs = (rs: Reply[]): string[] => rs.flatMap((r) => r.out);

/** A book that answers by the side to move and the stone count (tests force opening branches with it). */
export function bookBy(f: (toMove: Color, stones: number) => BookHit['verdict'] | undefined): BookProbe {
  return {
    probe(board: Board): BookHit | undefined {
      const v = f(board.toMove, board.ply);
      return v ? { verdict: v, score: 0, depth: 1 } : undefined;
    },
  };
}

export { BLACK, WHITE };
