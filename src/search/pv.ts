/**
 * The root principal line for reports: the triangular PV, completed where a table hit cut it
 * (the forced replies, a five and the block of a five, else the table's move, else an open
 * four) until a five.
 */
import type { Board } from '../core/board.js';
import { C_FIVE, C_FOUR, C_FOUR_THREE, C_OPEN_FOUR } from '../core/patterns.js';
import type { TransTable } from './tt.js';

/** How far the line is followed past a table cut. */
const MAX_PV_COMPLETION = 64;

/** The line from the root; the board is left as it was. */
export function rootPv(b: Board, tt: TransTable, pv: Int16Array, pvLen: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < pvLen; i++) {
    const m = pv[i]!;
    if (m < 0 || b.cells[m] !== 0) break;
    const five = ((b.state[m]! >>> (24 + 4 * (b.toMove - 1))) & 15) === C_FIVE;
    out.push(m);
    b.play(m);
    if (five) break;
  }
  let played = out.length;
  for (let guard = 0; guard < MAX_PV_COMPLETION && !(out.length > 0 && b.lastMoveWon()); guard++) {
    const me = b.toMove;
    const opp = 3 - me;
    const five = findCell(b, me, C_FIVE);
    if (five >= 0) {
      out.push(five);
      break;
    }
    if (b.counts[(opp - 1) * 16 + C_FIVE]! > 0) {
      // the forced block (after our open four, the opponent blocks one end)
      const f = findCell(b, opp as 1 | 2, C_FIVE);
      out.push(f);
      b.play(f);
      played++;
      continue;
    }
    if (tt.probe(b.hashLo, b.hashHi, 0) && tt.hitMove >= 0 && b.cells[tt.hitMove] === 0) {
      const m = tt.hitMove;
      out.push(m);
      b.play(m);
      played++;
      continue;
    }
    const of = findCell(b, me, C_OPEN_FOUR);
    if (of >= 0 && b.counts[(opp - 1) * 16 + C_FOUR]! + b.counts[(opp - 1) * 16 + C_FOUR_THREE]! + b.counts[(opp - 1) * 16 + C_OPEN_FOUR]! === 0) {
      out.push(of);
      b.play(of);
      played++;
      continue;
    }
    break;
  }
  for (let i = 0; i < played; i++) b.undo();
  return out;
}

function findCell(b: Board, c: number, cls: number): number {
  for (let q = 0; q < b.area; q++) if (b.cells[q] === 0 && ((b.state[q]! >>> (24 + 4 * (c - 1))) & 15) === cls) return q;
  return -1;
}
