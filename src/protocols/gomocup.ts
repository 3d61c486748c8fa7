/**
 * Gomocup "pbrain" (Piskvork) protocol with SWAP2BOARD (protocols.md section 5).
 * Coordinates `X,Y`, 0-based, X = column, Y = row.
 *
 * Managers differ in how a game starts (BEGIN, TURN, an empty BOARD, a one-stone BOARD),
 * so every command is accepted at any point after START. Bad input gets `ERROR <msg>`,
 * unknown commands `UNKNOWN <msg>`; nothing is ever thrown at the manager.
 */
import { BLACK, MAX_SIZE, MIN_SIZE, WHITE, type Color, type Result, type Rule, ok, err } from '../core/types.js';
import type { Limits } from '../search/types.js';
import { DEFAULT_TABLE_BITS, MIN_TABLE_BITS, tableBitsFor, tableBytes } from '../search/engine.js';
import { BotGame, type Stone } from '../bot/game.js';
import { BOT_NAME, BOT_VERSION, clip, reply, type BotOptions, type LineProtocol, type Reply } from './common.js';
import { MAX_GAME_MS, MAX_TURN_MS, capClock, limitsFor } from './clock.js';
import { SwapAdvisor } from '../bot/swap-advisor.js';

/** Used when the manager sends no `INFO timeout_turn`. */
export const GOMOCUP_DEFAULT_TURN_MS = 5000;
/** Commands a warm-up may keep waiting (they set up a game; no move is on the clock yet). */
const CALM_COMMANDS: ReadonlySet<GomocupCommand['kind']> = new Set(['blank', 'start', 'rectstart', 'restart', 'info', 'about']);
/** `time_left` value that means "no limit". */
export const GOMOCUP_UNLIMITED = 2147483647;
/**
 * What the bot needs besides its search tables (Node, the pattern tables, the book, the
 * swap advisor): measured about 65 MB resident after a move with the default tables
 * (20 MB) on top, so 96 MB leaves room for the garbage collector.
 */
export const GOMOCUP_BASE_MEMORY = 96 * 2 ** 20;
/** The share of the rest that the tables may take (V8's heap grows in steps). */
export const GOMOCUP_TABLE_SHARE = 0.6;

export type GomocupCommand =
  | { kind: 'start'; size: number }
  | { kind: 'rectstart'; width: number; height: number }
  | { kind: 'restart' }
  | { kind: 'info'; key: string; value: string }
  | { kind: 'begin' }
  | { kind: 'turn'; x: number; y: number }
  | { kind: 'board' }
  | { kind: 'swap2board' }
  | { kind: 'done' }
  | { kind: 'takeback'; x: number; y: number }
  | { kind: 'play'; x: number; y: number }
  | { kind: 'end' }
  | { kind: 'about' }
  | { kind: 'blank' };

export interface GomocupError {
  /** `unknown`: answer UNKNOWN; `bad`: answer ERROR. */
  kind: 'unknown' | 'bad';
  message: string;
}

const XY = /^(-?\d+)\s*,\s*(-?\d+)$/;

function parseXY(text: string, cmd: string): Result<{ x: number; y: number }, GomocupError> {
  const m = XY.exec(text.trim());
  if (!m) return err({ kind: 'bad', message: `${cmd} needs X,Y, got '${clip(text.trim())}'` });
  return ok({ x: Number(m[1]), y: Number(m[2]) });
}

export function parseGomocupLine(line: string): Result<GomocupCommand, GomocupError> {
  const t = line.trim();
  if (t === '') return ok({ kind: 'blank' });
  const sp = t.search(/\s/);
  const head = (sp < 0 ? t : t.slice(0, sp)).toUpperCase();
  const rest = sp < 0 ? '' : t.slice(sp + 1).trim();
  switch (head) {
    case 'START': {
      if (!/^\d+$/.test(rest)) return err({ kind: 'bad', message: `START needs a size, got '${clip(rest)}'` });
      return ok({ kind: 'start', size: Number(rest) });
    }
    case 'RECTSTART': {
      const m = /^(\d+)\s*,\s*(\d+)$/.exec(rest);
      if (!m) return err({ kind: 'bad', message: `RECTSTART needs W,H, got '${clip(rest)}'` });
      return ok({ kind: 'rectstart', width: Number(m[1]), height: Number(m[2]) });
    }
    case 'RESTART':
      return ok({ kind: 'restart' });
    case 'INFO': {
      const m = /^(\S+)\s*(.*)$/.exec(rest);
      if (!m) return err({ kind: 'bad', message: 'INFO needs a key' });
      return ok({ kind: 'info', key: m[1]!.toLowerCase(), value: m[2]!.trim() });
    }
    case 'BEGIN':
      return ok({ kind: 'begin' });
    case 'TURN':
    case 'TAKEBACK':
    case 'PLAY': {
      const p = parseXY(rest, head);
      if (!p.ok) return p;
      const kind = head === 'TURN' ? 'turn' : head === 'TAKEBACK' ? 'takeback' : 'play';
      return ok({ kind, ...p.value });
    }
    case 'BOARD':
      return ok({ kind: 'board' });
    case 'SWAP2BOARD':
      return ok({ kind: 'swap2board' });
    case 'DONE':
      return ok({ kind: 'done' });
    case 'END':
      return ok({ kind: 'end' });
    case 'ABOUT':
      return ok({ kind: 'about' });
    default:
      return err({ kind: 'unknown', message: `command '${clip(head)}'` });
  }
}

/** A line inside BOARD (`X,Y,F`) or SWAP2BOARD (`X,Y`). */
export function parseBoardEntry(line: string, withField: boolean): Result<{ x: number; y: number; f: number }> {
  const t = line.trim();
  const m = withField ? /^(-?\d+)\s*,\s*(-?\d+)\s*,\s*(\d+)$/.exec(t) : /^(-?\d+)\s*,\s*(-?\d+)$/.exec(t);
  if (!m) return err(`bad ${withField ? 'BOARD' : 'SWAP2BOARD'} line '${clip(t)}'`);
  const f = withField ? Number(m[3]) : 0;
  if (withField && (f < 1 || f > 3)) return err(`bad field value ${clip(m[3]!)} in '${clip(t)}'`);
  return ok({ x: Number(m[1]), y: Number(m[2]), f });
}

export function ruleFromInfo(value: number): Rule {
  return (value & 1) !== 0 ? 'standard' : 'freestyle';
}

/** The INFO keys this adapter reads (a bad value of any other key is not our business). */
const KNOWN_INFO = new Set(['timeout_turn', 'timeout_match', 'time_left', 'max_memory', 'game_type', 'max_node', 'rule', 'folder']);

type Mode = { kind: 'normal' } | { kind: 'board' | 'swap2'; entries: { x: number; y: number; f: number }[]; error?: string };

export class GomocupProtocol implements LineProtocol {
  readonly name = 'gomocup';
  game: BotGame;
  private advisor: SwapAdvisor;
  private started = false;
  private mode: Mode = { kind: 'normal' };
  /** Our colour in the current game, when known. */
  me: Color | undefined;
  /** INFO values (ms / bytes); undefined = not sent. */
  timeoutTurn: number | undefined;
  timeoutMatch: number | undefined;
  timeLeft: number | undefined;
  maxMemory: number | undefined;
  /** `INFO max_node`: a node limit per move (0 or absent: none). */
  maxNode: number | undefined;
  gameType: number | undefined;
  folder: string | undefined;
  rule: Rule = 'freestyle';
  private pendingMessages: string[] = [];
  /** INFO keys whose bad or capped value was already reported. */
  private readonly reportedInfo = new Set<string>();
  private answered = 0;
  /** The manager sent a command after we were up (session.ts): our start-up is not on its clock. */
  private waited = false;
  /** Games started in this process (c-gomoku-cli reuses it): varies the opening seed. */
  private games = 0;

  constructor(private readonly opts: BotOptions & { debug?: boolean }) {
    this.game = new BotGame(15, 'freestyle', { seed: opts.seed, book: opts.book });
    this.advisor = new SwapAdvisor(this.game, { seed: opts.seed, budgetMs: 1000 });
  }

  inputWaited(): void {
    this.waited = true;
  }

  private error(msg: string, log: string[] = []): Reply {
    return reply([`ERROR ${msg}`], [...log, `error: ${msg}`]);
  }

  private newGame(size: number): void {
    this.game.reset(size, this.rule);
    this.games++;
    this.me = undefined;
    this.mode = { kind: 'normal' };
  }

  /** Time for one Swap2 decision: a third of a turn (with the add-two option it may use almost twice that). */
  private decisionMs(): number {
    const l = this.limits();
    return Math.max(20, Math.floor((l.turnMs ?? GOMOCUP_DEFAULT_TURN_MS) / 3));
  }

  /** Per-turn time: `timeout_turn` (0 = play fast), capped by `--time`, paced by `time_left`. */
  limits(): Limits {
    let turnMs = this.timeoutTurn === undefined ? GOMOCUP_DEFAULT_TURN_MS : this.timeoutTurn === 0 ? 200 : this.timeoutTurn;
    if (this.opts.timeMs !== undefined) turnMs = Math.min(turnMs, this.opts.timeMs);
    const c: Parameters<typeof limitsFor>[0] = { turnMs, ply: this.game.stones.length, first: this.answered === 0 && !this.waited };
    if (this.timeLeft !== undefined && this.timeLeft !== GOMOCUP_UNLIMITED && this.timeoutMatch !== 0) c.gameLeftMs = Math.max(0, this.timeLeft);
    if (this.timeoutMatch !== undefined && this.timeoutMatch > 0) c.matchMs = this.timeoutMatch;
    const limits = limitsFor(c);
    const nodes = this.maxNode ?? this.opts.nodes;
    if (nodes !== undefined) limits.nodes = nodes;
    return limits;
  }

  /** Only commands that ask for an answer on the clock (a move, a Swap2 choice) or end the session stop a warm-up. */
  urgent(line: string): boolean {
    if (this.mode.kind !== 'normal') return true;
    const p = parseGomocupLine(line);
    return !p.ok || !CALM_COMMANDS.has(p.value.kind);
  }

  handle(line: string): Reply {
    if (this.mode.kind !== 'normal') {
      const r = this.boardLine(line);
      if (r) return r;
    }
    const p = parseGomocupLine(line);
    if (!p.ok) {
      if (p.error.kind === 'unknown') return reply([`UNKNOWN ${p.error.message}`], [`unknown ${p.error.message}`]);
      return this.error(p.error.message);
    }
    return this.command(p.value);
  }

  /** Inside BOARD/SWAP2BOARD: an entry, DONE, or (truncated block) a command; undefined = handle as a command. */
  private boardLine(line: string): Reply | undefined {
    const mode = this.mode as Exclude<Mode, { kind: 'normal' }>;
    const t = line.trim();
    if (t === '') return reply();
    if (t.toUpperCase() === 'DONE') {
      this.mode = { kind: 'normal' };
      if (mode.error) return this.error(mode.error);
      return mode.kind === 'board' ? this.boardDone(mode.entries) : this.swap2Done(mode.entries);
    }
    const e = parseBoardEntry(t, mode.kind === 'board');
    if (e.ok) {
      mode.entries.push(e.value);
      return reply();
    }
    const asCmd = parseGomocupLine(t);
    if (asCmd.ok) {
      // A command arrived before DONE: the block was truncated. Report it, then obey the command.
      this.mode = { kind: 'normal' };
      const first = this.error(`${mode.kind === 'board' ? 'BOARD' : 'SWAP2BOARD'} ended without DONE`);
      const then = this.command(asCmd.value);
      const r = reply([...first.out, ...then.out], [...first.log, ...then.log]);
      if (then.exit !== undefined) r.exit = then.exit;
      return r;
    }
    mode.error ??= e.error;
    return reply([], [`error: ${e.error}`]);
  }

  private needStart(): Reply | undefined {
    return this.started ? undefined : this.error('no START yet');
  }

  private command(c: GomocupCommand): Reply {
    switch (c.kind) {
      case 'blank':
        return reply();
      case 'start': {
        if (c.size < MIN_SIZE || c.size > MAX_SIZE) return this.error(`unsupported size ${c.size} (${MIN_SIZE}..${MAX_SIZE})`);
        this.started = true;
        this.newGame(c.size);
        return reply(['OK'], [`start ${c.size}`]);
      }
      case 'rectstart': {
        if (c.width !== c.height) return this.error(`rectangular boards are not supported (${c.width}x${c.height})`);
        if (c.width < MIN_SIZE || c.width > MAX_SIZE) return this.error(`unsupported size ${c.width}`);
        this.started = true;
        this.newGame(c.width);
        return reply(['OK'], [`rectstart ${c.width},${c.height}`]);
      }
      case 'restart': {
        const s = this.needStart();
        if (s) return s;
        this.newGame(this.game.size);
        return reply(['OK'], ['restart']);
      }
      case 'info':
        return this.info(c.key, c.value);
      case 'about':
        return reply([`name="${this.opts.name ?? BOT_NAME}", version="${BOT_VERSION}", author="gomoku-tss authors", country="-"`]);
      case 'end':
        return reply([], ['end'], 0);
      case 'done':
        return this.error('DONE without BOARD or SWAP2BOARD');
      case 'board':
      case 'swap2board': {
        const s = this.needStart();
        if (s) return s;
        this.mode = { kind: c.kind === 'board' ? 'board' : 'swap2', entries: [] };
        return reply();
      }
      case 'begin': {
        const s = this.needStart();
        if (s) return s;
        if (this.game.stones.length > 0) return this.error('BEGIN on a board that is not empty');
        this.me = BLACK;
        return this.move([]);
      }
      case 'turn': {
        const s = this.needStart();
        if (s) return s;
        const q = this.cell(c.x, c.y);
        if (typeof q === 'string') return this.error(`TURN ${c.x},${c.y}: ${q}`);
        if (this.me === undefined) this.me = this.game.count(BLACK) > this.game.count(WHITE) ? BLACK : WHITE;
        this.game.place(q, (3 - this.me) as Color);
        return this.move([]);
      }
      case 'play': {
        const s = this.needStart();
        if (s) return s;
        const q = this.cell(c.x, c.y);
        if (typeof q === 'string') return this.error(`PLAY ${c.x},${c.y}: ${q}`);
        this.me ??= this.game.count(BLACK) === this.game.count(WHITE) ? BLACK : WHITE;
        this.game.place(q, this.me);
        return reply([`${c.x},${c.y}`]);
      }
      case 'takeback': {
        const s = this.needStart();
        if (s) return s;
        if (!this.game.onBoard(c.x, c.y)) return this.error(`TAKEBACK ${c.x},${c.y}: off the board`);
        if (!this.game.remove(this.game.index(c.x, c.y))) return this.error(`TAKEBACK ${c.x},${c.y}: no stone there`);
        return reply(['OK']);
      }
    }
  }

  /** The index of X,Y if it is on the board and empty, else why not. */
  private cell(x: number, y: number): number | string {
    if (!this.game.onBoard(x, y)) return 'off the board';
    const q = this.game.index(x, y);
    if (!this.game.isEmpty(q)) return 'occupied';
    return q;
  }

  /**
   * `INFO max_memory` sizes the search tables: what is left after the process's own needs,
   * with room to spare (GomocupJudge counts the whole process, and exceeding is a loss);
   * 0 (no limit) keeps the default sizes.
   */
  private sizeTables(bytes: number): Reply {
    const engine = this.game.engine;
    if (bytes <= 0) {
      engine.setTableBits(DEFAULT_TABLE_BITS);
      return reply([], ['max_memory: no limit, default tables']);
    }
    const budget = (bytes - GOMOCUP_BASE_MEMORY) * GOMOCUP_TABLE_SHARE;
    const bits = tableBitsFor(budget);
    engine.setTableBits(bits);
    const mb = (b: number) => `${Math.round(b / 2 ** 20)} MB`;
    if (budget < tableBytes(MIN_TABLE_BITS)) {
      return this.infoError(
        'max_memory',
        `INFO max_memory ${bytes} is less than the bot needs (about ${mb(GOMOCUP_BASE_MEMORY + tableBytes(MIN_TABLE_BITS))}); using the smallest tables`,
      );
    }
    return reply([], [`max_memory ${mb(bytes)}: search tables ${mb(tableBytes(bits))}`]);
  }

  /** One error about an INFO value: a MESSAGE before the next answer (never an unasked-for ERROR, which a manager would read as our reply) and stderr. */
  private infoError(key: string, text: string): Reply {
    const first = !this.reportedInfo.has(key);
    this.reportedInfo.add(key);
    if (first) this.pendingMessages.push(text);
    // time_left comes before every move: report a key once, not on every move
    return reply([], first ? [`error: ${text}`] : [`${text} (again)`]);
  }

  /** A clock INFO value, capped at its sane maximum (clock.ts). */
  private clock(key: string, n: number, max: number): { ms: number; reply: Reply } {
    const c = capClock(n, max, `INFO ${key}`);
    return { ms: c.ms, reply: c.note ? this.infoError(key, c.note) : reply() };
  }

  private info(key: string, value: string): Reply {
    const n = Number(value);
    const num = value !== '' && Number.isFinite(n);
    if (!num && key !== 'folder' && KNOWN_INFO.has(key)) {
      return this.infoError(key, `INFO ${key}: bad value '${clip(value)}' ignored`);
    }
    switch (key) {
      case 'timeout_turn': {
        const c = this.clock(key, Math.max(0, n), MAX_TURN_MS);
        this.timeoutTurn = c.ms;
        return c.reply;
      }
      case 'timeout_match': {
        const c = this.clock(key, Math.max(0, n), MAX_GAME_MS);
        this.timeoutMatch = c.ms;
        return c.reply;
      }
      case 'time_left': {
        if (n === GOMOCUP_UNLIMITED) {
          this.timeLeft = n;
          return reply();
        }
        const c = this.clock(key, n, MAX_GAME_MS);
        this.timeLeft = c.ms;
        return c.reply;
      }
      case 'max_memory':
        this.maxMemory = n;
        return this.sizeTables(n);
      case 'game_type':
        if (num) this.gameType = n;
        break;
      case 'max_node':
        if (num) this.maxNode = n > 0 ? Math.floor(n) : undefined;
        break;
      case 'folder':
        this.folder = value;
        break;
      case 'rule': {
        // a bit sum of 1, 2, 4 and 8: anything else (99999999999999 would set bit 1 by accident) is refused
        if (!Number.isInteger(n) || n < 0 || n > 15) return this.infoError(key, `INFO rule: bad value '${clip(value)}' ignored (a bit sum 0..15)`);
        const rule = ruleFromInfo(n);
        if ((n & 4) !== 0 || (n & 8) !== 0) this.pendingMessages.push(`rule ${n}: renju/caro are not supported, playing ${rule}`);
        if (rule !== this.rule) {
          this.rule = rule;
          const stones = this.game.stones.map((s) => ({ ...s }));
          this.game.reset(this.game.size, rule);
          this.game.setStones(stones);
        }
        break;
      }
      default:
        // evaluate, max_depth, thread_num and anything unknown: ignored.
        return reply([], [`info ${clip(key)} ignored`]);
    }
    return reply();
  }

  private boardDone(entries: { x: number; y: number; f: number }[]): Reply {
    const size = this.game.size;
    const seen = new Set<number>();
    let ours = 0;
    let theirs = 0;
    for (const e of entries) {
      if (!this.game.onBoard(e.x, e.y)) return this.error(`BOARD ${e.x},${e.y}: off the board`);
      const q = e.y * size + e.x;
      if (seen.has(q)) return this.error(`BOARD ${e.x},${e.y}: given twice`);
      seen.add(q);
      if (e.f === 1) ours++;
      else theirs++;
    }
    // Equal counts: we are black; otherwise the side with fewer stones (us, to move) is white.
    const me: Color = ours === theirs ? BLACK : ours < theirs ? WHITE : BLACK;
    const stones: Stone[] = entries.map((e) => ({ index: e.y * size + e.x, color: e.f === 1 ? me : ((3 - me) as Color) }));
    this.game.setStones(stones);
    this.me = me;
    const log = entries.some((e) => e.f === 3) ? ['BOARD: field 3 read as an opponent stone'] : [];
    return this.move(log);
  }

  private swap2Done(entries: { x: number; y: number; f: number }[]): Reply {
    const size = this.game.size;
    const stones: Stone[] = [];
    const seen = new Set<number>();
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      if (!this.game.onBoard(e.x, e.y)) return this.error(`SWAP2BOARD ${e.x},${e.y}: off the board`);
      const q = e.y * size + e.x;
      if (seen.has(q)) return this.error(`SWAP2BOARD ${e.x},${e.y}: given twice`);
      seen.add(q);
      stones.push({ index: q, color: i % 2 === 0 ? BLACK : WHITE });
    }
    const fmt = (q: number) => {
      const [x, y] = this.game.colRow(q);
      return `${x},${y}`;
    };
    this.answered++;
    // Built here, not at START: the INFO timeouts arrive after START.
    this.advisor = new SwapAdvisor(this.game, { seed: `${this.opts.seed}/${this.games}`, budgetMs: this.decisionMs() });
    if (stones.length === 0) {
      const three = this.advisor.proposeThree(WHITE);
      this.game.setStones(three);
      this.me = undefined;
      return reply([three.map((s) => fmt(s.index)).join(' ')], ['swap2: we propose three stones']);
    }
    if (stones.length === 3) {
      this.game.setStones(stones);
      const d = this.advisor.chooseAfterThree(stones, WHITE);
      if (d.kind === 'black') {
        this.me = BLACK;
        return reply(['SWAP'], ['swap2: we take black']);
      }
      if (d.kind === 'white') {
        this.me = WHITE;
        this.game.place(d.move, WHITE);
        return reply([fmt(d.move)], ['swap2: we stay white and play stone 4']);
      }
      this.me = undefined;
      for (const s of d.stones) this.game.place(s.index, s.color);
      return reply([d.stones.map((s) => fmt(s.index)).join(' ')], ['swap2: we add two stones']);
    }
    if (stones.length === 5) {
      this.game.setStones(stones);
      const d = this.advisor.chooseAfterFive(stones, WHITE);
      if (d.kind === 'black') {
        this.me = BLACK;
        return reply(['SWAP'], ['swap2: we take black']);
      }
      this.me = WHITE;
      this.game.place(d.move, WHITE);
      return reply([fmt(d.move)], ['swap2: we stay white and play stone 6']);
    }
    this.answered--;
    return this.error(`SWAP2BOARD needs 0, 3 or 5 stones, got ${stones.length}`);
  }

  private move(log: string[]): Reply {
    const me = this.me ?? BLACK;
    this.me = me;
    const t = this.game.think(me, this.limits());
    const out: string[] = this.pendingMessages.map((m) => `MESSAGE ${m}`);
    this.pendingMessages = [];
    for (const l of t.log) out.push(`MESSAGE ${l}`);
    if (t.move < 0) return reply([...out, 'ERROR board is full'], [...log, ...t.log]);
    if (this.opts.debug && t.result) {
      const r = t.result;
      const ab = r.stop === undefined ? '' : ` ms ${r.ms} search-from ${r.searchFromMs ?? 0} stop ${r.stop}`;
      out.push(`DEBUG depth ${r.depth} score ${r.score} nodes ${r.nodes} source ${r.source}${ab}`);
    }
    this.game.place(t.move, me);
    this.answered++;
    const [x, y] = this.game.colRow(t.move);
    out.push(`${x},${y}`);
    return reply(out, [...log, ...t.log]);
  }

  /** An exception inside the adapter (a bug): answer ERROR rather than nothing. */
  internalError(message: string): Reply {
    return reply([`ERROR internal error`], [message]);
  }

  eof(): Reply {
    const where = this.mode.kind === 'normal' ? '' : ` inside ${this.mode.kind === 'board' ? 'BOARD' : 'SWAP2BOARD'}`;
    return reply([], [`gomocup: end of input${where} before END`], 0);
  }
}
