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

// --- positions (the web board's SGF export and import) ------------------------------

/** A position as SGF knows it: setup stones (AB/AW), then moves, and the side to move. */
export interface SgfPosition {
  size: number;
  rule?: 'freestyle' | 'standard';
  setup: { black: number[]; white: number[] };
  moves: { index: number; color: 1 | 2 }[];
  /** PL: the side to move, when the file says it. */
  toMove?: 1 | 2;
}

/** One game record: the setup as AB/AW (with PL) in the root, the moves as nodes. */
export function positionToSgf(p: SgfPosition): string {
  const pts = (l: readonly number[]) => l.map((q) => `[${sgfPoint(q, p.size)}]`).join('');
  let root = `;FF[4]GM[4]CA[UTF-8]AP[gomoku-tss serve]SZ[${p.size}]`;
  if (p.rule) root += `RU[${p.rule}]`;
  if (p.setup.black.length > 0) root += `AB${pts(p.setup.black)}`;
  if (p.setup.white.length > 0) root += `AW${pts(p.setup.white)}`;
  if (p.toMove !== undefined && (p.setup.black.length > 0 || p.setup.white.length > 0)) root += `PL[${p.toMove === 1 ? 'B' : 'W'}]`;
  const nodes = p.moves.map((m) => `;${m.color === 1 ? 'B' : 'W'}[${sgfPoint(m.index, p.size)}]`).join('');
  return `(${root}\n${nodes})\n`;
}

type SgfNode = Map<string, string[]>;

/** The main line of the first game tree: its nodes, each a map of property -> values. */
function sgfMainLine(text: string): SgfNode[] | string {
  const s = text;
  let i = s.indexOf('(');
  if (i < 0) return "not an SGF file (no '(')";
  i++;
  const nodes: SgfNode[] = [];
  let depth = 1;
  // after the first variation of a branch closes, skip the rest of that branch
  let skipping = 0;
  while (i < s.length && depth > 0) {
    const c = s[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(') {
      depth++;
      if (skipping === 0 && nodes.length === 0) return 'SGF: a variation before the root node';
      i++;
    } else if (c === ')') {
      depth--;
      i++;
      if (depth >= 1 && skipping === 0)
        skipping = depth; // the main line ended inside a branch: skip its siblings
      else if (skipping > 0 && depth < skipping) skipping = depth;
    } else if (c === ';') {
      i++;
      const node: SgfNode = new Map();
      for (;;) {
        while (i < s.length && /\s/.test(s[i]!)) i++;
        const m = /^[A-Za-z]+/.exec(s.slice(i, i + 16));
        if (!m) break;
        const name = m[0].replace(/[a-z]/g, ''); // FF[3]-style lower-case letters are ignored
        i += m[0].length;
        const values: string[] = [];
        for (;;) {
          while (i < s.length && /\s/.test(s[i]!)) i++;
          if (s[i] !== '[') break;
          i++;
          let v = '';
          while (i < s.length && s[i] !== ']') {
            if (s[i] === '\\' && i + 1 < s.length) i++;
            v += s[i];
            i++;
          }
          if (i >= s.length) return `SGF: property ${name} is not closed with ']'`;
          i++;
          values.push(v);
        }
        if (values.length === 0) return `SGF: property ${name} has no value`;
        node.set(name, [...(node.get(name) ?? []), ...values]);
      }
      if (skipping === 0) nodes.push(node);
    } else {
      return `SGF: unexpected '${c}'`;
    }
  }
  if (nodes.length === 0) return 'SGF: no game record';
  return nodes;
}

/**
 * Read the main line of an SGF game record (GM[4]): size, RU when it names a rule, AB/AW
 * setup, B/W moves and PL. Points and sizes are checked here; duplicates and the side to
 * move are left to the position parser the caller feeds the result to.
 */
export function parseSgf(text: string): { ok: true; value: SgfPosition } | { ok: false; error: string } {
  const bad = (error: string) => ({ ok: false as const, error });
  const line = sgfMainLine(text);
  if (typeof line === 'string') return bad(line);
  const root = line[0]!;
  const gm = root.get('GM')?.[0];
  if (gm !== undefined && gm.trim() !== '4') return bad(`SGF: GM[${gm}] is not Gomoku (GM[4])`);
  let size = 15;
  const sz = root.get('SZ')?.[0];
  if (sz !== undefined) {
    const m = /^\s*(\d+)\s*(?::\s*(\d+)\s*)?$/.exec(sz);
    if (!m || (m[2] !== undefined && m[2] !== m[1])) return bad(`SGF: SZ[${sz}] is not a square board size`);
    size = Number(m[1]);
    if (size < 5 || size > 22) return bad(`SGF: board size ${size} is not in 5..22`);
  }
  const point = (v: string): number | string => {
    const t = v.trim();
    if (!/^[a-z]{2}$/.test(t)) return t === '' ? 'a pass (empty move)' : `bad SGF point '${v}'`;
    const col = t.charCodeAt(0) - 97;
    const row = t.charCodeAt(1) - 97;
    if (col >= size || row >= size) return `SGF point '${v}' is off the ${size}x${size} board`;
    return row * size + col;
  };
  const out: SgfPosition = { size, setup: { black: [], white: [] }, moves: [] };
  const ru = root.get('RU')?.[0]?.trim().toLowerCase();
  if (ru === 'freestyle' || ru === 'standard') out.rule = ru;
  for (let n = 0; n < line.length; n++) {
    const node = line[n]!;
    for (const [prop, color] of [
      ['AB', 1],
      ['AW', 2],
    ] as const) {
      for (const v of node.get(prop) ?? []) {
        if (out.moves.length > 0) return bad(`SGF: setup stones (${prop}) after moves are not supported`);
        const q = point(v);
        if (typeof q === 'string') return bad(`SGF: ${prop}: ${q}`);
        (color === 1 ? out.setup.black : out.setup.white).push(q);
      }
    }
    if (node.has('AE')) return bad('SGF: removing stones (AE) is not supported');
    for (const [prop, color] of [
      ['B', 1],
      ['W', 2],
    ] as const) {
      const vs = node.get(prop);
      if (!vs) continue;
      const q = point(vs[0]!);
      if (typeof q === 'string') return bad(`SGF: move ${out.moves.length + 1}: ${q}`);
      out.moves.push({ index: q, color });
    }
    const pl = node.get('PL')?.[0]?.trim().toUpperCase();
    if (pl === 'B' || pl === 'W') out.toMove = pl === 'B' ? 1 : 2;
  }
  if (out.moves.length > 0) out.toMove = out.moves[out.moves.length - 1]!.color === 1 ? 2 : 1;
  return { ok: true, value: out };
}
