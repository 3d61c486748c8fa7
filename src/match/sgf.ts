/**
 * SGF (FF[4], GM[4] = Gomoku) for game viewers. Points use SGF letters: column from the
 * left, then row from the TOP (`aa` is the top-left corner), which is our internal index
 * order, so `h8` on 15x15 is `hh`. The opening stones come first as ordinary moves, so
 * viewers number them. RE: `B+` / `W+` for a five, `B+T` / `W+T` when the loser ran out of
 * time, `B+F` / `W+F` for a forfeit (crash, garbage, illegal move, failed start), `0` for a
 * draw, `Void` for an aborted game. The reason is also in the root comment.
 */
import { parsePoint } from '../core/notation.js';
import type { GameRecord } from './game.js';

const SGF_LETTERS = 'abcdefghijklmnopqrstuvwxyz';

export function sgfPoint(index: number, size: number): string {
  const col = index % size;
  const row = (index - col) / size;
  return SGF_LETTERS[col]! + SGF_LETTERS[row]!;
}

function esc(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/]/g, '\\]');
}

export function sgfResult(g: GameRecord): string {
  if (g.result === '*') return 'Void';
  if (g.result === '1/2-1/2') return '0';
  const w = g.result === '1-0' ? 'B' : 'W';
  if (g.reason === 'five') return `${w}+`;
  if (g.reason === 'timeout') return `${w}+T`;
  return `${w}+F`;
}

export function gameToSgf(g: GameRecord): string {
  const tc = `${g.tc.turnMs}ms/move, ${g.tc.matchMs ? `${g.tc.matchMs}ms/game` : 'no game limit'}`;
  const root =
    `;FF[4]GM[4]CA[UTF-8]AP[gomoku-tss match]SZ[${g.size}]` +
    `PB[${esc(g.black)}]PW[${esc(g.white)}]RE[${sgfResult(g)}]` +
    `DT[${g.startedAt.slice(0, 10)}]GN[game ${g.game}, opening ${esc(g.openingId)}]RU[${g.rule}]` +
    `TM[${Math.round(g.tc.matchMs / 1000)}]` +
    `C[${esc(`${g.reason}: ${g.detail} (${tc}; opening ${g.opening.length} stones)`)}]`;
  const nodes: string[] = [];
  const all = [...g.opening.map((m) => ({ move: m, ms: -1 })), ...g.moves];
  for (let i = 0; i < all.length; i++) {
    const p = parsePoint(all[i]!.move, g.size);
    if (!p.ok) throw new Error(`bug: bad point in record: ${p.error}`);
    const colour = i % 2 === 0 ? 'B' : 'W';
    const ms = all[i]!.ms;
    nodes.push(`;${colour}[${sgfPoint(p.value, g.size)}]${ms >= 0 ? `C[${ms} ms]` : ''}`);
  }
  return `(${root}\n${nodes.join('')})\n`;
}
