/**
 * Proof certificates, format `gomoku-proof/1` (../shared/docs/formats.md section 3).
 *
 * A certificate is JSON Lines: a header naming the root position, the rule and the winner,
 * then one strategy entry per line: a position where the winner is to move (its stone set)
 * and the winner's move there. This file owns the text in both directions:
 *  - `makeCertificate(strategy)` and `CertificateBuilder` (what the solver uses while it
 *    extracts a proof) write it;
 *  - `parseCertificate(text)` reads it into plain data, with errors that name the line.
 * What a certificate *means* is checked by verify.ts, which shares nothing with the solver.
 */
import type { Board } from '../core/board.js';
import { BLACK, WHITE, type Color, type Result, type Rule, colorName, err, ok, MIN_SIZE, MAX_SIZE } from '../core/types.js';
import { makeMoveList, makePoint, makeStoneSet, parsePoint, parsePosition, parseRule, resolveToMove, type PositionSpec } from '../core/notation.js';

export const CERTIFICATE_FORMAT = 'gomoku-proof/1';

/** The root of a strategy: a move list (black first), or a stone set with its side to move. */
export type RootPosition =
  | { kind: 'moves'; moves: readonly number[] }
  | { kind: 'stones'; black: readonly number[]; white: readonly number[]; toMove: Color };

/** The root for a parsed position: a move list stays a move list, a stone set keeps its side to move. */
export function rootPosition(spec: PositionSpec, toMove: Color): RootPosition {
  if (spec.ordered) return { kind: 'moves', moves: spec.moves.map((m) => m.index) };
  return {
    kind: 'stones',
    black: spec.moves.filter((m) => m.color === BLACK).map((m) => m.index),
    white: spec.moves.filter((m) => m.color === WHITE).map((m) => m.index),
    toMove,
  };
}

/** The root for a board as it stands: its stones and side to move (stone-set form). */
export function rootFromBoard(board: Board): RootPosition {
  return { kind: 'stones', black: board.stones(BLACK), white: board.stones(WHITE), toMove: board.toMove };
}

/** One decision of the winner: in the position with exactly these stones, play `move`. */
export interface StrategyEntry {
  black: readonly number[];
  white: readonly number[];
  move: number;
}

/** What the solver hands over: everything a certificate says, as point indices. */
export interface Strategy {
  size: number;
  rule: Rule;
  root: RootPosition;
  winner: Color;
  entries: readonly StrategyEntry[];
}

/** A parsed certificate. Points are internal indices for the header's board size. */
export interface Certificate {
  size: number;
  rule: Rule;
  /** The header's position text, as written. */
  position: string;
  /** Root stones (in move order when the position was a move list). */
  root: { index: number; color: Color }[];
  toMove: Color;
  winner: Color;
  entries: ParsedEntry[];
}

export interface ParsedEntry {
  /** 1-based line number in the certificate text. */
  line: number;
  black: number[];
  white: number[];
  move: number;
}

export interface CertificateError {
  /** 1-based line number; 0 when the text as a whole is at fault (e.g. empty). */
  line: number;
  message: string;
}

export function formatCertificateError(e: CertificateError): string {
  return e.line > 0 ? `line ${e.line}: ${e.message}` : e.message;
}

function headerLine(size: number, rule: Rule, root: RootPosition, winner: Color): string {
  const header: Record<string, unknown> = { format: CERTIFICATE_FORMAT, rule, size };
  if (root.kind === 'moves') {
    header.position = makeMoveList([...root.moves], size);
  } else {
    header.position = makeStoneSet([...root.black], [...root.white], size);
    header.toMove = colorName(root.toMove);
  }
  header.winner = colorName(winner);
  return JSON.stringify(header);
}

function entryLine(black: readonly number[], white: readonly number[], move: number, size: number): string {
  return JSON.stringify({ stones: makeStoneSet([...black], [...white], size), move: makePoint(move, size) });
}

/**
 * The certificate text for a strategy: the header, then the entries in the order given
 * (use `CertificateBuilder` for a deduplicated, deterministic order). Ends with a newline.
 */
export function makeCertificate(strategy: Strategy): string {
  const lines = [headerLine(strategy.size, strategy.rule, strategy.root, strategy.winner)];
  for (const e of strategy.entries) lines.push(entryLine(e.black, e.white, e.move, strategy.size));
  return lines.join('\n') + '\n';
}

/**
 * Collects strategy entries during proof extraction. Entries are keyed by their stone set:
 * adding the same position twice keeps the first move (a later different move is counted in
 * `conflicts`, never written). Output is sorted by stone count, then by the stone-set text,
 * so the same proof always gives the same file.
 */
export class CertificateBuilder {
  private readonly byStones = new Map<string, { black: number[]; white: number[]; move: number; count: number }>();
  /** `add` calls whose position already had an entry with a different move. */
  conflicts = 0;

  constructor(
    readonly size: number,
    readonly rule: Rule,
    readonly root: RootPosition,
    readonly winner: Color,
  ) {}

  /** Record the winner's move in the board's current position (the winner must be to move). */
  add(board: Board, move: number): void {
    this.addStones(board.stones(BLACK), board.stones(WHITE), move);
  }

  addStones(black: readonly number[], white: readonly number[], move: number): void {
    const key = makeStoneSet([...black], [...white], this.size);
    const old = this.byStones.get(key);
    if (old) {
      if (old.move !== move) this.conflicts++;
      return;
    }
    this.byStones.set(key, { black: [...black], white: [...white], move, count: black.length + white.length });
  }

  has(board: Board): boolean {
    return this.byStones.has(makeStoneSet(board.stones(BLACK), board.stones(WHITE), this.size));
  }

  get entryCount(): number {
    return this.byStones.size;
  }

  strategy(): Strategy {
    const keys = [...this.byStones.keys()];
    keys.sort((a, b) => {
      const ca = this.byStones.get(a)!.count;
      const cb = this.byStones.get(b)!.count;
      return ca !== cb ? ca - cb : a < b ? -1 : a > b ? 1 : 0;
    });
    const entries = keys.map((k) => {
      const e = this.byStones.get(k)!;
      return { black: e.black, white: e.white, move: e.move };
    });
    return { size: this.size, rule: this.rule, root: this.root, winner: this.winner, entries };
  }

  toString(): string {
    return makeCertificate(this.strategy());
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseSide(v: unknown, field: string): Result<Color> {
  if (v === 'black') return ok(BLACK);
  if (v === 'white') return ok(WHITE);
  return err(`"${field}" must be "black" or "white", got ${JSON.stringify(v)}`);
}

/**
 * Parse certificate text. Blank lines are ignored; every other line must be a JSON object.
 * Errors name the 1-based line and what is wrong with it. Entries are checked for
 * well-formedness only (valid points, no point twice, the move on an empty point); whether
 * they are right is verify.ts's business. Two entries for the same stones with different
 * moves are an error (the strategy would be ambiguous).
 */
export function parseCertificate(text: string): Result<Certificate, CertificateError> {
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  if (i >= lines.length) return err({ line: 0, message: 'empty certificate (no header line)' });

  const headerNo = i + 1;
  const fail = (line: number, message: string) => err({ line, message });
  let header: unknown;
  try {
    header = JSON.parse(lines[i]!);
  } catch {
    return fail(headerNo, 'header is not valid JSON');
  }
  if (!isRecord(header)) return fail(headerNo, 'header is not a JSON object');
  if (header.format !== CERTIFICATE_FORMAT) {
    return fail(headerNo, `unsupported format ${JSON.stringify(header.format)} (expected "${CERTIFICATE_FORMAT}")`);
  }
  if (typeof header.rule !== 'string') return fail(headerNo, '"rule" is missing');
  const rule = parseRule(header.rule);
  if (!rule.ok) return fail(headerNo, rule.error);
  const size = header.size;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < MIN_SIZE || size > MAX_SIZE) {
    return fail(headerNo, `"size" must be an integer in ${MIN_SIZE}..${MAX_SIZE}, got ${JSON.stringify(size)}`);
  }
  if (typeof header.position !== 'string') return fail(headerNo, '"position" is missing');
  const spec = parsePosition(header.position, size);
  if (!spec.ok) return fail(headerNo, `position: ${spec.error}`);
  let explicit: Color | undefined;
  if (header.toMove !== undefined) {
    const s = parseSide(header.toMove, 'toMove');
    if (!s.ok) return fail(headerNo, s.error);
    explicit = s.value;
  }
  const toMove = resolveToMove(spec.value, explicit);
  if (!toMove.ok) return fail(headerNo, toMove.error);
  const winner = parseSide(header.winner, 'winner');
  if (!winner.ok) return fail(headerNo, winner.error);

  const entries: ParsedEntry[] = [];
  const seen = new Map<string, ParsedEntry>();
  for (i = i + 1; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === '') continue;
    const no = i + 1;
    let obj: unknown;
    try {
      obj = JSON.parse(raw);
    } catch {
      return fail(no, 'not valid JSON');
    }
    if (!isRecord(obj)) return fail(no, 'entry is not a JSON object');
    if (typeof obj.stones !== 'string') return fail(no, 'entry has no "stones" string');
    if (typeof obj.move !== 'string') return fail(no, 'entry has no "move" string');
    if (!/^\s*([bBwW]\s*:[^;]*)?(;\s*[bBwW]\s*:[^;]*)?\s*$/.test(obj.stones) || !/[bBwW]\s*:/.test(obj.stones)) {
      return fail(no, `"stones" must be a stone set like B:h8,h9;W:i9, got ${JSON.stringify(obj.stones)}`);
    }
    const st = parsePosition(obj.stones, size);
    if (!st.ok) return fail(no, `stones: ${st.error}`);
    const mv = parsePoint(obj.move, size);
    if (!mv.ok) return fail(no, `move: ${mv.error}`);
    const black: number[] = [];
    const white: number[] = [];
    for (const s of st.value.moves) {
      if (s.index === mv.value) return fail(no, `move '${obj.move}' is on an occupied point`);
      (s.color === BLACK ? black : white).push(s.index);
    }
    const entry: ParsedEntry = { line: no, black, white, move: mv.value };
    // Numeric key (cheaper than the stone-set text; the order of the lists is irrelevant).
    const key = `${[...black].sort((a, b) => a - b).join(',')};${[...white].sort((a, b) => a - b).join(',')}`;
    const prev = seen.get(key);
    if (prev) {
      if (prev.move !== entry.move) return fail(no, `a second, different move for the stones of line ${prev.line}`);
      continue;
    }
    seen.set(key, entry);
    entries.push(entry);
  }
  return ok({
    size,
    rule: rule.value,
    position: header.position,
    root: spec.value.moves,
    toMove: toMove.value,
    winner: winner.value,
    entries,
  });
}
