/**
 * Proof certificates, formats `gomoku-proof/1`, `/2` and `/3` (docs/formats.md sections 3-3.3).
 *
 * A certificate is JSON Lines: a header naming the root position, the rule and the winner,
 * then one strategy entry per line: a position where the winner is to move (its stone set)
 * and the winner's move there. Version 2 adds *pass entries* (a loser-to-move stone set with
 * `"pass":true` and optionally a `"zone"`); a writer emits `/2` only when it has one, so
 * every certificate without pass entries stays byte-for-byte version 1. Version 3 is version 2
 * with replies at pass entries that may have entries of their own (3.3); a writer asks for it.
 * This file owns the text in both directions:
 *  - `makeCertificate(strategy)` and `CertificateBuilder` (what the solver uses while it
 *    extracts a proof) write it;
 *  - `parseCertificate(text)` reads it into plain data, with errors that name the line.
 * What a certificate *means* is checked by verify.ts, which shares nothing with the solver.
 */
import type { Board } from '../core/board.js';
import { BLACK, WHITE, type Color, type Result, type Rule, colorName, err, ok, MIN_SIZE, MAX_SIZE } from '../core/types.js';
import {
  makeMoveList,
  makePoint,
  makeStoneSet,
  parsePoint,
  parsePosition,
  parseRule,
  resolveToMove,
  sortCertificateOrder,
  type PositionSpec,
} from '../core/notation.js';

export const CERTIFICATE_FORMAT = 'gomoku-proof/1';
/** Version 2: version 1 plus pass entries (formats.md 3.1) and their zones (3.2). */
export const CERTIFICATE_FORMAT_2 = 'gomoku-proof/2';
/** Version 3 (the project's own, formats.md 3.3): a reply at a pass entry with an entry of its own stays out of the ignore set. */
export const CERTIFICATE_FORMAT_3 = 'gomoku-proof/3';
const FORMATS = [CERTIFICATE_FORMAT, CERTIFICATE_FORMAT_2, CERTIFICATE_FORMAT_3] as const;

/** The root of a strategy: a move list (black first), or a stone set with its side to move. */
export type RootPosition = { kind: 'moves'; moves: readonly number[] } | { kind: 'stones'; black: readonly number[]; white: readonly number[]; toMove: Color };

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

/**
 * A pass entry: in the position with exactly these stones (the loser to move, looked up like
 * a move entry: exact stones, then without the branch's ignore set), the winner answers every
 * reply as if the loser had passed. `zone` (formats.md 3.2): the cells whose replies the
 * checker walks; every other reply is covered by the pass strategy. Without a zone every
 * reply is walked.
 */
export interface PassEntry {
  black: readonly number[];
  white: readonly number[];
  zone?: readonly number[];
}

/** What the solver hands over: everything a certificate says, as point indices. */
export interface Strategy {
  size: number;
  rule: Rule;
  root: RootPosition;
  winner: Color;
  entries: readonly StrategyEntry[];
  /** Pass entries; when there is at least one the certificate is written as `/2` (or `/3`, below). */
  passes?: readonly PassEntry[];
  /** The version written when there are pass entries: 2 (default) or 3 (formats.md 3.3). */
  version?: 2 | 3;
}

/** A parsed certificate. Points are internal indices for the header's board size. */
export interface Certificate {
  /** 1, 2 or 3 (`gomoku-proof/1`, `/2`, `/3`). */
  version: 1 | 2 | 3;
  size: number;
  rule: Rule;
  /** The header's position text, as written. */
  position: string;
  /** Root stones (in move order when the position was a move list). */
  root: { index: number; color: Color }[];
  toMove: Color;
  winner: Color;
  entries: ParsedEntry[];
  /** Pass entries (versions 2 and 3; empty for version 1). */
  passes: ParsedPass[];
}

export interface ParsedPass {
  /** 1-based line number in the certificate text. */
  line: number;
  black: number[];
  white: number[];
  /** The zone's cells, or null when the entry has none (every reply is walked). */
  zone: number[] | null;
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

function headerLine(size: number, rule: Rule, root: RootPosition, winner: Color, version: 1 | 2 | 3 = 1): string {
  const header: Record<string, unknown> = { format: FORMATS[version - 1], rule, size };
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

function versionOf(strategy: Strategy): 1 | 2 | 3 {
  return (strategy.passes ?? []).length > 0 ? (strategy.version ?? 2) : 1;
}

function passLine(p: PassEntry, size: number): string {
  const o: Record<string, unknown> = { stones: makeStoneSet([...p.black], [...p.white], size), pass: true };
  if (p.zone) o.zone = sortCertificateOrder([...p.zone], size).map((q) => makePoint(q, size));
  return JSON.stringify(o);
}

/**
 * The certificate text for a strategy: the header, then the move entries and the pass
 * entries in the order given (use `CertificateBuilder` for a deduplicated, deterministic
 * order). `gomoku-proof/2` (or the strategy's `version`) exactly when there is a pass entry.
 * Ends with a newline.
 */
export function makeCertificate(strategy: Strategy): string {
  const lines = [headerLine(strategy.size, strategy.rule, strategy.root, strategy.winner, versionOf(strategy))];
  for (const e of strategy.entries) lines.push(entryLine(e.black, e.white, e.move, strategy.size));
  for (const p of strategy.passes ?? []) lines.push(passLine(p, strategy.size));
  return lines.join('\n') + '\n';
}

/**
 * The parsed form of a strategy, without going through the text (for a writer that checks
 * or fits zones on a large strategy: see zones.ts). Duplicate stone sets are not merged.
 */
export function certificateOf(strategy: Strategy): Certificate {
  const root: { index: number; color: Color }[] = [];
  let toMove: Color;
  let position: string;
  if (strategy.root.kind === 'moves') {
    strategy.root.moves.forEach((q, i) => root.push({ index: q, color: i % 2 === 0 ? BLACK : WHITE }));
    toMove = strategy.root.moves.length % 2 === 0 ? BLACK : WHITE;
    position = makeMoveList([...strategy.root.moves], strategy.size);
  } else {
    for (const q of strategy.root.black) root.push({ index: q, color: BLACK });
    for (const q of strategy.root.white) root.push({ index: q, color: WHITE });
    toMove = strategy.root.toMove;
    position = makeStoneSet([...strategy.root.black], [...strategy.root.white], strategy.size);
  }
  const passes = strategy.passes ?? [];
  return {
    version: versionOf(strategy),
    size: strategy.size,
    rule: strategy.rule,
    position,
    root,
    toMove,
    winner: strategy.winner,
    entries: strategy.entries.map((e, i) => ({ line: i + 2, black: [...e.black], white: [...e.white], move: e.move })),
    passes: passes.map((p, i) => ({
      line: strategy.entries.length + i + 2,
      black: [...p.black],
      white: [...p.white],
      zone: p.zone ? [...p.zone] : null,
    })),
  };
}

/**
 * Collects strategy entries during proof extraction. Entries are keyed by their stone set:
 * adding the same position twice keeps the first move (a later different move is counted in
 * `conflicts`, never written). Pass entries are kept apart from move entries (the same stone
 * set may carry both: formats.md 3.1); a second pass entry for the same stones merges its
 * zone into the first (a union of zones is a zone). Output is sorted by stone count, then by
 * the stone-set text, move entries first, so the same proof always gives the same file.
 */
export class CertificateBuilder {
  private readonly byStones = new Map<string, { black: number[]; white: number[]; move: number; count: number }>();
  private readonly passByStones = new Map<string, { black: number[]; white: number[]; zone: Set<number> | null; count: number }>();
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

  /**
   * Record a pass entry for these stones (the loser to move there, ignore set already left
   * out by the caller). `zone` undefined: no zone, every reply is walked; a zone for stones
   * that already have one is merged; "no zone" wins over any zone (it is always sound).
   */
  addPassStones(black: readonly number[], white: readonly number[], zone?: readonly number[]): void {
    const key = makeStoneSet([...black], [...white], this.size);
    const old = this.passByStones.get(key);
    if (old) {
      if (!zone) old.zone = null;
      else if (old.zone) for (const q of zone) old.zone.add(q);
      return;
    }
    this.passByStones.set(key, { black: [...black], white: [...white], zone: zone ? new Set(zone) : null, count: black.length + white.length });
  }

  has(board: Board): boolean {
    return this.byStones.has(makeStoneSet(board.stones(BLACK), board.stones(WHITE), this.size));
  }

  get entryCount(): number {
    return this.byStones.size;
  }

  get passCount(): number {
    return this.passByStones.size;
  }

  strategy(): Strategy {
    const ordered = <T extends { count: number }>(m: Map<string, T>): T[] => {
      const keys = [...m.keys()];
      keys.sort((a, b) => {
        const ca = m.get(a)!.count;
        const cb = m.get(b)!.count;
        return ca !== cb ? ca - cb : a < b ? -1 : a > b ? 1 : 0;
      });
      return keys.map((k) => m.get(k)!);
    };
    const entries = ordered(this.byStones).map((e) => ({ black: e.black, white: e.white, move: e.move }));
    const strategy: Strategy = { size: this.size, rule: this.rule, root: this.root, winner: this.winner, entries };
    if (this.passByStones.size > 0) {
      strategy.passes = ordered(this.passByStones).map((p) =>
        p.zone ? { black: p.black, white: p.white, zone: [...p.zone].sort((a, b) => a - b) } : { black: p.black, white: p.white },
      );
    }
    return strategy;
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
 * well-formedness only (valid points, no point twice, the move on an empty point, zone cells
 * on the board and off the entry's stones); whether they are right is verify.ts's business.
 * Two entries for the same stones with different moves (or two pass entries with different
 * zones) are an error (the strategy would be ambiguous). A pass entry in a version-1 file is
 * an error: a version-1 reader would not know it.
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
  const vi = FORMATS.indexOf(header.format as (typeof FORMATS)[number]);
  if (vi < 0)
    return fail(headerNo, `unsupported format ${JSON.stringify(header.format)} (expected "${FORMATS.slice(0, -1).join('", "')}" or "${FORMATS.at(-1)}")`);
  const version = (vi + 1) as 1 | 2 | 3;
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
  const passes: ParsedPass[] = [];
  const seen = new Map<string, ParsedEntry>();
  const seenPass = new Map<string, ParsedPass>();
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
    const isPass = obj.pass !== undefined;
    if (isPass) {
      if (version === 1) return fail(no, `a pass entry needs "format":"${CERTIFICATE_FORMAT_2}"`);
      if (obj.pass !== true) return fail(no, `"pass" must be true, got ${JSON.stringify(obj.pass)}`);
      if (obj.move !== undefined) return fail(no, 'an entry has either "move" or "pass", not both');
    } else {
      if (typeof obj.move !== 'string') return fail(no, 'entry has no "move" string');
      if (obj.zone !== undefined) return fail(no, '"zone" belongs to pass entries only');
    }
    if (!/^\s*([bBwW]\s*:[^;]*)?(;\s*[bBwW]\s*:[^;]*)?\s*$/.test(obj.stones) || !/[bBwW]\s*:/.test(obj.stones)) {
      return fail(no, `"stones" must be a stone set like B:h8,h9;W:i9, got ${JSON.stringify(obj.stones)}`);
    }
    const st = parsePosition(obj.stones, size);
    if (!st.ok) return fail(no, `stones: ${st.error}`);
    const black: number[] = [];
    const white: number[] = [];
    for (const s of st.value.moves) (s.color === BLACK ? black : white).push(s.index);
    // Numeric key (cheaper than the stone-set text; the order of the lists is irrelevant).
    const key = `${[...black].sort((a, b) => a - b).join(',')};${[...white].sort((a, b) => a - b).join(',')}`;

    if (isPass) {
      let zone: number[] | null = null;
      if (obj.zone !== undefined) {
        if (!Array.isArray(obj.zone)) return fail(no, '"zone" must be an array of points');
        const onStone = new Set([...black, ...white]);
        const cells = new Set<number>();
        for (const z of obj.zone) {
          if (typeof z !== 'string') return fail(no, `zone: ${JSON.stringify(z)} is not a point`);
          const p = parsePoint(z, size);
          if (!p.ok) return fail(no, `zone: ${p.error}`);
          if (onStone.has(p.value)) return fail(no, `zone: '${z}' is on a stone of the entry`);
          if (cells.has(p.value)) return fail(no, `zone: '${z}' is given twice`);
          cells.add(p.value);
        }
        zone = [...cells].sort((a, b) => a - b);
      }
      const entry: ParsedPass = { line: no, black, white, zone };
      const prev = seenPass.get(key);
      if (prev) {
        if (String(prev.zone) !== String(entry.zone)) return fail(no, `a second, different pass entry for the stones of line ${prev.line}`);
        continue;
      }
      seenPass.set(key, entry);
      passes.push(entry);
      continue;
    }

    const mv = parsePoint(obj.move as string, size);
    if (!mv.ok) return fail(no, `move: ${mv.error}`);
    if (black.includes(mv.value) || white.includes(mv.value)) return fail(no, `move '${obj.move as string}' is on an occupied point`);
    const entry: ParsedEntry = { line: no, black, white, move: mv.value };
    const prev = seen.get(key);
    if (prev) {
      if (prev.move !== entry.move) return fail(no, `a second, different move for the stones of line ${prev.line}`);
      continue;
    }
    seen.set(key, entry);
    entries.push(entry);
  }
  return ok({
    version,
    size,
    rule: rule.value,
    position: header.position,
    root: spec.value.moves,
    toMove: toMove.value,
    winner: winner.value,
    entries,
    passes,
  });
}
