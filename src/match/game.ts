/**
 * One game between two pbrain engines, refereed on our own board.
 *
 * Protocol flow (GomocupJudge's, which every brain must accept): both engines get `START`
 * and the `INFO`s; each engine's FIRST move request is `BOARD` with every stone so far
 * (`BEGIN` instead when the board is empty), later requests are `TURN x,y`. Every request
 * is preceded by `INFO time_left`.
 *
 * The game ends when a move makes five (rule-aware: `standard` needs exactly five), the
 * board is full (draw), or a side misbehaves: no `OK` to START, a time-out, a crash, a
 * reply that is not a move (garbage), a point off the board or already taken (illegal).
 * A side that misbehaves loses; if both fail to start, the game is aborted (result `*`)
 * and counts for nobody.
 */
import { Board } from '../core/board.js';
import { makePoint } from '../core/notation.js';
import { BLACK, WHITE, type Color, type Rule, colorName } from '../core/types.js';
import { PbrainClient, UNLIMITED_MS, describeReply, type ClientOptions, type EngineCommand, type MoveReply, type StartReply } from './pbrain-client.js';

export interface TimeControl {
  /** `INFO timeout_turn`: limit per move (ms). */
  turnMs: number;
  /** `INFO timeout_match`: limit per game and side (ms); 0 = unlimited. */
  matchMs: number;
}

export interface GameOptions {
  size: number;
  rule: Rule;
  tc: TimeControl;
  hangToleranceMs: number;
  startTimeoutMs: number;
  /** `INFO max_memory` in bytes (not enforced); 0 = unlimited. */
  maxMemory: number;
  suspendWhenIdle: boolean;
  /** Minimum ms between an engine's last line and the next command to it (default 50). */
  replyGapMs?: number;
  /** How long an engine may take to exit after `END` before it is killed (ms). */
  endGraceMs: number;
  /**
   * Swap2 opening through `SWAP2BOARD` (protocols.md 5.3): the first engine (passed as
   * `black`) places 3 stones, the second takes black (`SWAP`), stays white and plays
   * stone 4, or places stones 4 and 5, and then the first chooses (`SWAP` = black, or stays
   * white and plays stone 6). The record's black and white are the final colours. Needs
   * an empty opening.
   */
  swap2?: boolean;
  /** Transcript hook: engine name, direction, line. */
  onLine?: (engine: string, dir: '>' | '<', line: string) => void;
}

export type EndReason = 'five' | 'full-board' | 'timeout' | 'crash' | 'garbage' | 'illegal' | 'start-failed' | 'aborted';

export interface GameRecord {
  /** 1-based game number in the match. */
  game: number;
  openingId: string;
  /** Opening stones, our notation, in move order. */
  opening: string[];
  black: string;
  white: string;
  size: number;
  rule: Rule;
  tc: TimeControl;
  /** Moves played by the engines after the opening: point and think time in ms. */
  moves: { move: string; ms: number }[];
  /** `1-0` black won, `0-1` white won, `1/2-1/2` draw, `*` aborted. */
  result: '1-0' | '0-1' | '1/2-1/2' | '*';
  reason: EndReason;
  /** The side at fault or the winner of a five, spelled out, e.g. "white (crashy) exited with code 3". */
  detail: string;
  /** Total think time per side (ms). */
  timeMs: { black: number; white: number };
  startedAt: string;
  /** Swap2 only: what each side chose, in order. */
  swap2?: string[];
}

function toXY(q: number, size: number): { x: number; y: number } {
  const x = q % size;
  return { x, y: (q - x) / size };
}

function failureReason(r: MoveReply | StartReply): EndReason {
  switch (r.kind) {
    case 'timeout':
      return 'timeout';
    case 'crash':
      return 'crash';
    case 'garbage':
      return 'garbage';
    case 'illegal':
      return 'illegal';
    default:
      return 'aborted';
  }
}

/** Play one game; never throws for engine misbehaviour, and leaves no process behind. */
export async function playGame(
  game: number,
  black: EngineCommand,
  white: EngineCommand,
  opening: { id: string; moves: number[] },
  o: GameOptions,
): Promise<GameRecord> {
  const { size } = o;
  const board = new Board(size, o.rule);
  for (const q of opening.moves) board.play(q);
  const record: GameRecord = {
    game,
    openingId: opening.id,
    opening: opening.moves.map((q) => makePoint(q, size)),
    black: black.name,
    white: white.name,
    size,
    rule: o.rule,
    tc: { ...o.tc },
    moves: [],
    result: '*',
    reason: 'aborted',
    detail: '',
    timeMs: { black: 0, white: 0 },
    startedAt: new Date().toISOString(),
  };
  const copts = (name: string): Partial<ClientOptions> => {
    const c: Partial<ClientOptions> = {
      hangToleranceMs: o.hangToleranceMs,
      startTimeoutMs: o.startTimeoutMs,
      suspendWhenIdle: o.suspendWhenIdle,
    };
    if (o.replyGapMs !== undefined) c.replyGapMs = o.replyGapMs;
    if (o.onLine) {
      const f = o.onLine;
      c.onLine = (dir, line) => f(name, dir, line);
    }
    return c;
  };
  const clients: Record<Color, PbrainClient> = {
    [BLACK]: PbrainClient.spawn(black, copts(black.name)),
    [WHITE]: PbrainClient.spawn(white, copts(white.name)),
  } as Record<Color, PbrainClient>;
  const names: Record<Color, string> = { [BLACK]: black.name, [WHITE]: white.name } as Record<Color, string>;
  const label = (c: Color) => `${colorName(c)} (${names[c]})`;
  /** Swap2: the engines change colours. */
  const swapColours = () => {
    [clients[BLACK], clients[WHITE]] = [clients[WHITE], clients[BLACK]];
    [names[BLACK], names[WHITE]] = [names[WHITE], names[BLACK]];
    record.black = names[BLACK];
    record.white = names[WHITE];
  };
  const finish = (result: GameRecord['result'], reason: EndReason, detail: string) => {
    record.result = result;
    record.reason = reason;
    record.detail = detail;
  };
  // A side that misbehaved gets no END grace: it is killed at once.
  const faulty = new Set<PbrainClient>();
  const loses = (c: Color, r: MoveReply | StartReply, what = '') => {
    faulty.add(clients[c]);
    finish(c === BLACK ? '0-1' : '1-0', failureReason(r), `${label(c)} ${what}${describeReply(r)}`);
  };

  const timeLeft = (cl: PbrainClient) => (o.tc.matchMs > 0 ? o.tc.matchMs - cl.usedMs : UNLIMITED_MS);
  const bad = (c: Color, line: string, why: string) => {
    faulty.add(clients[c]);
    finish(c === BLACK ? '0-1' : '1-0', 'garbage', `${label(c)} answered SWAP2BOARD with '${line}': ${why}`);
  };
  /**
   * Ask the engine playing `c` at this Swap2 stage; place the stones it gives (all checked
   * first). Returns the reply, or undefined when the engine failed (the game is decided).
   */
  const swap2Ask = async (c: Color, allowed: number[], swapAllowed: boolean): Promise<'swap' | number | undefined> => {
    const cl = clients[c];
    const left = timeLeft(cl);
    const stones = [];
    for (let i = 0; i < board.ply; i++) stones.push(toXY(board.history[i]!, size));
    const r = await cl.swap2board(stones, Math.min(o.tc.turnMs, left), left);
    record.timeMs[c === BLACK ? 'black' : 'white'] = Math.round(cl.usedMs);
    if (r.kind === 'swap') {
      if (swapAllowed) return 'swap';
      bad(c, 'SWAP', `expected ${allowed.join(' or ')} point(s)`);
      return undefined;
    }
    if (r.kind !== 'stones') {
      loses(c, r);
      return undefined;
    }
    const line = describeReply(r);
    if (!allowed.includes(r.points.length)) {
      bad(c, line, `expected ${swapAllowed ? 'SWAP or ' : ''}${allowed.join(' or ')} point(s)`);
      return undefined;
    }
    const qs = r.points.map((p) => p.y * size + p.x);
    for (let i = 0; i < qs.length; i++) {
      if (board.cells[qs[i]!] !== 0 || qs.indexOf(qs[i]!) !== i) {
        faulty.add(cl);
        finish(c === BLACK ? '0-1' : '1-0', 'illegal', `${label(c)} answered SWAP2BOARD with '${line}': ${makePoint(qs[i]!, size)} is occupied`);
        return undefined;
      }
    }
    qs.forEach((q, i) => {
      board.play(q);
      record.moves.push({ move: makePoint(q, size), ms: i === 0 ? Math.round(r.ms) : 0 });
    });
    return qs.length;
  };
  /** The Swap2 phase; false when an engine failed in it. */
  const swap2Opening = async (): Promise<boolean> => {
    const log: string[] = [];
    record.swap2 = log;
    const first = names[BLACK];
    const second = names[WHITE];
    if ((await swap2Ask(BLACK, [3], false)) === undefined) return false;
    log.push(`${first} placed 3 stones`);
    const r2 = await swap2Ask(WHITE, [1, 2], true);
    if (r2 === undefined) return false;
    if (r2 === 'swap') {
      swapColours();
      log.push(`${second} took black`);
      return true;
    }
    if (r2 === 1) {
      log.push(`${second} stayed white and played stone 4`);
      return true;
    }
    log.push(`${second} placed stones 4 and 5`);
    swapColours(); // the first engine now chooses, as white by default
    const r3 = await swap2Ask(WHITE, [1], true);
    if (r3 === undefined) return false;
    if (r3 === 'swap') {
      swapColours();
      log.push(`${first} took black`);
    } else log.push(`${first} stayed white and played stone 6`);
    return true;
  };

  try {
    const starts = await Promise.all([clients[BLACK].start(size), clients[WHITE].start(size)]);
    const bad = ([BLACK, WHITE] as Color[]).filter((c) => starts[c - 1]!.kind !== 'ok');
    if (bad.length === 2) {
      faulty.add(clients[BLACK]).add(clients[WHITE]);
      finish('*', 'aborted', `neither engine started: ${label(BLACK)} ${describeReply(starts[0]!)}; ${label(WHITE)} ${describeReply(starts[1]!)}`);
      return record;
    }
    if (bad.length === 1) {
      const c = bad[0]!;
      loses(c, starts[c - 1]!, 'failed to start: ');
      record.reason = 'start-failed';
      return record;
    }
    for (const c of [BLACK, WHITE] as Color[]) {
      const cl = clients[c];
      cl.info('timeout_turn', o.tc.turnMs);
      cl.info('timeout_match', o.tc.matchMs);
      cl.info('max_memory', o.maxMemory);
      cl.info('game_type', 1);
      cl.info('rule', o.rule === 'standard' ? 1 : 0);
      cl.suspend();
    }
    if (o.swap2 && !(await swap2Opening())) return record;
    const asked: Record<Color, boolean> = { [BLACK]: false, [WHITE]: false } as Record<Color, boolean>;
    for (;;) {
      const c = board.toMove;
      const cl = clients[c];
      const left = o.tc.matchMs > 0 ? o.tc.matchMs - cl.usedMs : UNLIMITED_MS;
      const limit = Math.min(o.tc.turnMs, left);
      let reply: MoveReply;
      if (!asked[c]) {
        asked[c] = true;
        if (board.ply === 0) reply = await cl.begin(limit, left);
        else {
          const stones = [];
          for (let i = 0; i < board.ply; i++) {
            const q = board.history[i]!;
            stones.push({ ...toXY(q, size), own: board.cells[q] === c });
          }
          reply = await cl.board(stones, limit, left);
        }
      } else {
        const last = toXY(board.history[board.ply - 1]!, size);
        reply = await cl.turn(last.x, last.y, limit, left);
      }
      record.timeMs[c === BLACK ? 'black' : 'white'] = Math.round(cl.usedMs);
      if (reply.kind !== 'move') {
        loses(c, reply);
        return record;
      }
      const q = reply.y * size + reply.x;
      if (board.cells[q] !== 0) {
        faulty.add(cl);
        finish(c === BLACK ? '0-1' : '1-0', 'illegal', `${label(c)} played ${makePoint(q, size)} (${reply.x},${reply.y}), which is occupied`);
        return record;
      }
      board.play(q);
      record.moves.push({ move: makePoint(q, size), ms: Math.round(reply.ms) });
      if (board.lastMoveWon()) {
        finish(c === BLACK ? '1-0' : '0-1', 'five', `${label(c)} made five with ${makePoint(q, size)}`);
        return record;
      }
      if (board.isFull()) {
        finish('1/2-1/2', 'full-board', 'the board is full');
        return record;
      }
    }
  } finally {
    await Promise.all([clients[BLACK], clients[WHITE]].map((cl) => (faulty.has(cl) ? cl.kill() : cl.end(o.endGraceMs))));
  }
}
