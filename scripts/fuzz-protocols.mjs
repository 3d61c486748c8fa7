#!/usr/bin/env node
/**
 * node scripts/fuzz-protocols.mjs [--sessions N] [--seed S] [--protocols koth,codecup,alphano,wpi,gomocup]
 *                                 [--jobs N] [--json] [--replay PROTOCOL:INDEX]
 *
 * Fuzzes the contest bot (the built CLI, `node dist/cli/main.js play`; run `npm run build`
 * first) under all five referee protocols. Each session is one bot process and one game the
 * script referees itself (KoTH, CodeCup, ALPHANO and Gomocup over pipes, WPI through its
 * files), with hostile lines interleaved: garbage, overlong lines (10 to 200 kB), absurd
 * numbers (TURN 99999999999999 5, INFO timeout_turn 1e300, points far off the board) and
 * commands out of order (DONE without BOARD, READY mid-game, Zz out of place, ...).
 *
 * It checks what docs/protocols.md promises: every move the bot sends is legal (on the board,
 * on an empty point), no crash (a signal, exit 70, a stack trace on stderr), no hang (an answer
 * within 30 s, an exit within 10 s of the end), each bad line gets its protocol's one clear
 * error (Gomocup: an ERROR or UNKNOWN answer; the others: exit 1 with a line on stderr, no
 * move) and nothing else changes, and no line the bot writes (stdout or stderr) is longer
 * than 512 characters. Anything else is a "wrong reaction".
 *
 * --sessions N   sessions per protocol (default 20)
 * --seed S       (default fuzz) session I of protocol P is seeded with S/P/I: the script's
 *                choices repeat; the bot's moves under a clock may not, on another machine
 * --jobs N       sessions at once (default 1; the bot's clocks are short, but a loaded
 *                machine can slow a session down)
 * --json         print the summary as one JSON object
 * --replay P:I   run only session I of protocol P and print its whole transcript
 *
 * Prints per protocol: sessions, lines sent (of them hostile), crashes, illegal moves,
 * hangs, wrong reactions, the bot's exit statuses and its longest output line. Exit status:
 * 0 when crashes, illegal moves, hangs and wrong reactions are all 0, 1 otherwise, 2 for a
 * bad option.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import seedrandom from 'seedrandom';
import { helpOnRequest } from './usage.mjs';

helpOnRequest(import.meta.url);

const NAME = 'fuzz-protocols';
const die = (msg) => {
  process.stderr.write(`${NAME}: ${msg} (see --help)\n`);
  process.exit(2);
};
let parsed;
try {
  parsed = parseArgs({
    options: {
      sessions: { type: 'string', default: '20' },
      seed: { type: 'string', default: 'fuzz' },
      protocols: { type: 'string', default: 'koth,codecup,alphano,wpi,gomocup' },
      jobs: { type: 'string', default: '1' },
      json: { type: 'boolean', default: false },
      replay: { type: 'string' },
    },
  });
} catch (e) {
  die(e.message.split('\n')[0].replace(/\.$/, ''));
}
const opt = parsed.values;
const count = (name, v, max) => {
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > max) die(`--${name} must be an integer in 1..${max}, got '${v}'`);
  return Number(v);
};
const ALL = ['koth', 'codecup', 'alphano', 'wpi', 'gomocup'];
const sessions = count('sessions', opt.sessions, 100_000);
const jobs = count('jobs', opt.jobs, 64);
const protocols = opt.protocols.split(',').filter(Boolean);
for (const p of protocols) if (!ALL.includes(p)) die(`unknown protocol '${p}' (${ALL.join(', ')})`);
let replay;
if (opt.replay !== undefined) {
  const m = /^([a-z]+):(\d+)$/.exec(opt.replay);
  if (!m || !ALL.includes(m[1])) die(`--replay needs PROTOCOL:INDEX, e.g. gomocup:7, got '${opt.replay}'`);
  replay = { protocol: m[1], index: Number(m[2]) };
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const main = join(root, 'dist', 'cli', 'main.js');
if (!existsSync(main)) die(`${main} is missing: run npm run build first`);
const { LineChild } = await import('../dist/match/referees/child.js');
const { RefGame, SimplePlayer } = await import('../dist/match/referees/simple-player.js');

/** A reply that takes longer than this is a hang (the clocks the script gives are at most a few seconds). */
const HANG_MS = 30_000;
/** The bot must exit within this after the end of a game or a protocol error. */
const EXIT_MS = 10_000;
/** The longest line the bot may write: errors quote at most 200 characters of a referee's line. */
const MAX_OUT_LINE = 512;
const BLACK = 1;
const WHITE = 2;

// --- one session --------------------------------------------------------------------------

class Session {
  constructor(protocol, index, args, opts = {}) {
    this.protocol = protocol;
    this.index = index;
    this.seed = `${opt.seed}/${protocol}/${index}`;
    this.rng = seedrandom(this.seed);
    this.player = new SimplePlayer(this.seed);
    this.child = new LineChild({ command: process.execPath, args: [main, 'play', '--protocol', protocol, ...args], cwd: opts.cwd });
    this.lines = 0;
    this.hostile = 0;
    this.findings = [];
    this.killed = false;
    this.maxOut = 0;
    this.over = false;
  }

  chance(p) {
    return this.rng() < p;
  }

  int(lo, hi) {
    return lo + Math.floor(this.rng() * (hi - lo + 1));
  }

  pick(items) {
    return items[Math.floor(this.rng() * items.length)];
  }

  send(line, hostile = false) {
    this.lines++;
    if (hostile) this.hostile++;
    this.child.send(line);
  }

  finding(kind, detail) {
    this.findings.push({ kind, detail });
    this.over = true;
  }

  /** The next line from the bot; a hang or an exit is recorded (and ends the session). */
  async read(what) {
    const r = await this.child.read(HANG_MS);
    if (r.kind === 'line') {
      this.maxOut = Math.max(this.maxOut, r.line.length);
      if (r.line.length > MAX_OUT_LINE) this.finding('wrong', `an output line of ${r.line.length} characters`);
      return r.line;
    }
    if (r.kind === 'timeout') {
      this.finding('hang', `no answer to ${what} within ${HANG_MS} ms`);
      this.child.proc.kill('SIGKILL');
      this.killed = true;
    } else this.finding('wrong', `the bot ended its output while ${what} was due (exit ${await this.exitCode()})`);
    return undefined;
  }

  async exitCode() {
    for (let i = 0; i < 100 && this.child.exitCode === null && this.child.exitSignal === null; i++) await sleep(20);
    return this.child.exitCode ?? this.child.exitSignal;
  }

  /**
   * A hostile line that the protocol answers by ending the session (KoTH, CodeCup, ALPHANO,
   * WPI): no more output, exit 1, and an error line on stderr.
   */
  async expectErrorExit(what, before = this.stderrLines().length) {
    this.over = true;
    const r = await this.child.read(HANG_MS);
    if (r.kind === 'line') return this.finding('wrong', `answered '${clip(r.line)}' to ${what} instead of a protocol error`);
    if (r.kind === 'timeout') {
      this.finding('hang', `neither an answer nor an exit after ${what}`);
      this.child.proc.kill('SIGKILL');
      this.killed = true;
      return;
    }
    const code = await this.exitCode();
    if (code !== 1) this.finding(code === 70 ? 'crash' : 'wrong', `exit ${code} after ${what}, expected 1 (a protocol error)`);
    else if (this.stderrLines().length <= before) this.finding('wrong', `no error line on stderr after ${what}`);
  }

  stderrLines() {
    return this.child.stderr.split('\n').filter((l) => l !== '');
  }

  /** End of the session: the bot must exit by itself (with `expect`, when given), no crash, no stack trace. */
  async close(expect) {
    const self = await this.child.close(EXIT_MS);
    if (!self && !this.killed) this.finding('hang', `did not exit within ${EXIT_MS} ms of the end`);
    const code = this.child.exitCode;
    const signal = this.child.exitSignal;
    if (signal && !this.killed && self) this.finding('crash', `killed by ${signal}`);
    if (code === 70) this.finding('crash', 'exit 70 (internal error)');
    else if (expect !== undefined && self && code !== expect && !this.findings.length) this.finding('wrong', `exit ${code}, expected ${expect}`);
    if (/^\s+at .+:\d+(:\d+)?\)?$/m.test(this.child.stderr)) this.finding('crash', 'a stack trace on stderr');
    for (const l of this.stderrLines()) if (l.length > MAX_OUT_LINE) this.finding('wrong', `a stderr line of ${l.length} characters`);
    this.exit = signal && this.killed ? 'killed' : String(code ?? signal);
    this.maxErr = Math.max(0, ...this.stderrLines().map((l) => l.length));
  }

  /** A move of the script's own player (the simple greedy opponent of the local referees). */
  ourMove(g, colour) {
    return this.player.move(g, colour);
  }
}

const clip = (s, n = 120) => (s.length <= n ? s : `${s.slice(0, n)}… (${s.length} characters)`);

// --- hostile lines shared by the protocols ------------------------------------------------

const PRINTABLE = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,.;:()[]{}"\'!?#%&*+-=/\\|<>_~`^$@';

/** A line no protocol accepts: it starts with '~' (no command does), then printable noise, control characters or Unicode. */
function garbage(s) {
  const kind = s.int(0, 5);
  let t = '~';
  const n = s.int(0, 60);
  for (let i = 0; i < n; i++) {
    if (kind === 0) t += String.fromCharCode(s.int(1, 31)).replace(/[\n\r]/, '\t');
    else if (kind === 1) t += s.pick(['é', 'ß', '漢', '🙂', '\u200b', '\ufeff', '\u202e']);
    else t += PRINTABLE[s.int(0, PRINTABLE.length - 1)];
  }
  return s.pick([t, `${t} %s%n`, `~'; DROP TABLE games; --`, '~\x00\x01\x02', `~${'9'.repeat(s.int(20, 400))}`]);
}

/** 10 to 200 kB: an unknown word, or a known command with an endless argument. */
function overlong(s, heads) {
  const n = s.pick([10_000, 65_536, 100_000, 200_000]);
  return s.chance(0.5) ? `~${'X'.repeat(n)}` : `${s.pick(heads)} ${s.pick(['7', '9,', 'a', ' '])}`.padEnd(n, s.pick(['7', '9', 'x']));
}

const BLANKS = ['', '   ', '\t', '\r'];

// --- KoTH ---------------------------------------------------------------------------------

const KOTH = 15;
const kothBoard = (g) =>
  `[${g.moves
    .map((m) => ({ x: m.index % KOTH, y: Math.floor(m.index / KOTH), c: m.color }))
    .sort((a, b) => a.x - b.x || a.y - b.y)
    .map((m) => `((${m.x},${m.y}),"${m.c === BLACK ? 'B' : 'W'}")`)
    .join(',')}]`;
const kothPoints = (line) => [...line.matchAll(/\((\d+),(\d+)\)/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]) }));

/** Place the bot's points, each legal (on the board, empty, distinct), or record an illegal move. */
function botPlaces(s, g, pts, colours, size, line) {
  const qs = [];
  for (let i = 0; i < pts.length; i++) {
    const { x, y } = pts[i];
    const q = y * size + x;
    if (!g.onBoard(x, y) || !g.isEmpty(q) || qs.includes(q)) {
      s.finding('illegal', `'${clip(line)}': (${x},${y}) is ${g.onBoard(x, y) ? 'taken' : 'off the board'}`);
      return false;
    }
    qs.push(q);
  }
  qs.forEach((q, i) => g.place(q, colours[i]));
  return true;
}

async function kothSession(index) {
  const s = new Session('koth', index, ['fuzzer', String(index), '--time', '50']);
  const g = new RefGame(KOTH);
  const rate = s.pick([0, 0.05, 0.15, 0.3]);
  const plies = s.int(4, 40);
  let round = 0;
  let me; // the script's colour
  /** Maybe a hostile line before the next command; true when it ended the session. */
  const noise = async () => {
    if (!s.chance(rate)) return false;
    const kind = s.int(0, 4);
    if (kind === 0) {
      s.send(s.pick(BLANKS), true); // ignored
      return false;
    }
    const line =
      kind === 1
        ? garbage(s)
        : kind === 2
          ? overlong(s, ['B', 'C', '7', 'EXIT!'])
          : kind === 3
            ? s.pick([
                `${round} [((99999999999999,5),"B")]`,
                `${round} [((3,-1),"B")]`,
                `${round} [((1,1),"X")]`,
                `${round} [((2,2),"B"),((2,2),"W")]`,
                `${round} [(1,1)]`,
              ])
            : s.pick([`C ${kothBoard(g)}`, 'B []', `B [((7,7),"B")]`, 'C []']);
    // C with a board that does not hold 5 stones, B with other than 3: out of order
    if (kind === 4 && line.startsWith('C ') && g.moves.length === 5) return false;
    s.send(line, true);
    await s.expectErrorExit(`'${clip(line, 40)}'`);
    return true;
  };
  const turn = async () => {
    if (await noise()) return;
    const n = s.chance(0.1) ? s.pick(['99999999999999', '0', '007']) : String(++round);
    s.send(`${n} ${kothBoard(g)}`);
    const line = await s.read('a numbered board');
    if (line === undefined) return;
    if (!/^\(\d+,\d+\)$/.test(line.trim())) return s.finding('wrong', `expected (x,y), got '${clip(line)}'`);
    botPlaces(s, g, kothPoints(line), [3 - me], KOTH, line);
  };
  const over = () => s.over || g.moves.length >= plies || g.moves.some((m) => g.fiveAt(m.index)) || g.full();
  if (!(await noise())) {
    if (s.chance(0.5)) {
      // the bot opens (A): two black stones and a white one; we take white and add a stone
      s.send('A []');
      const line = await s.read('A []');
      if (line !== undefined) {
        if (!/^\(\d+,\d+\) \(\d+,\d+\) \(\d+,\d+\)$/.test(line.trim())) s.finding('wrong', `expected three points, got '${clip(line)}'`);
        else if (botPlaces(s, g, kothPoints(line), [BLACK, BLACK, WHITE], KOTH, line)) {
          me = WHITE;
          g.place(s.ourMove(g, WHITE), WHITE);
          // black (the bot) moves first
          while (!over()) {
            await turn();
            if (over()) break;
            g.place(s.ourMove(g, me), me);
          }
        }
      }
    } else {
      // we open; the bot chooses (B)
      const cells = s.player.openingCells(g, 3);
      g.place(cells[0], BLACK);
      g.place(cells[1], WHITE);
      g.place(cells[2], BLACK);
      s.send(`B ${kothBoard(g)}`);
      const line = await s.read('B board');
      if (line !== undefined) {
        const t = line.trim();
        let ok = true;
        if (t === 'B') me = WHITE;
        else if (/^W \(\d+,\d+\)$/.test(t)) {
          me = BLACK;
          ok = botPlaces(s, g, kothPoints(t), [WHITE], KOTH, t);
        } else if (/^\(\d+,\d+\) \(\d+,\d+\)$/.test(t)) {
          ok = botPlaces(s, g, kothPoints(t), [BLACK, WHITE], KOTH, t);
          me = BLACK; // as A we choose black: the bot is white
        } else {
          ok = false;
          s.finding('wrong', `expected B, W (x,y) or two points, got '${clip(line)}'`);
        }
        if (ok) {
          let botTurn = me === WHITE; // black moves first
          while (!over()) {
            if (botTurn) await turn();
            else g.place(s.ourMove(g, me), me);
            botTurn = !botTurn;
          }
        }
      }
    }
  }
  if (!s.over) s.send('EXIT fuzzer');
  await s.close(s.over ? undefined : 0);
  return s;
}

// --- CodeCup ------------------------------------------------------------------------------

const CC = 16;
const ccMove = (q) => String.fromCharCode(65 + Math.floor(q / CC)) + String.fromCharCode(97 + (q % CC));
const ccParse = (t) => {
  const m = /^([A-P])([a-p])$/.exec(t);
  return m ? { x: m[2].charCodeAt(0) - 97, y: m[1].charCodeAt(0) - 65 } : undefined;
};

async function codecupSession(index) {
  const s = new Session('codecup', index, ['--time', '3000', '--seed', String(index)]);
  const g = new RefGame(CC);
  const rate = s.pick([0, 0.05, 0.15, 0.3]);
  const plies = s.int(4, 40);
  let me = WHITE;
  let started = false;
  const noise = async () => {
    if (!s.chance(rate)) return false;
    const kind = s.int(0, 4);
    if (kind === 0) {
      s.send(s.pick(BLANKS), true);
      return false;
    }
    const taken = g.moves.length ? ccMove(s.pick(g.moves).index) : 'Zq';
    const line =
      kind === 1
        ? garbage(s)
        : kind === 2
          ? overlong(s, ['Start', 'Quit', 'Hh'])
          : kind === 3
            ? s.pick(['Zq', 'Hz', 'Hj99999999999999', 'A`', 'hH'])
            : s.pick(['Query', 'Stop', 'Starter', 'Quitting', started ? 'Start' : 'Zz', g.moves.length > 3 ? 'Zz' : 'Stop', taken]);
    s.send(line, true);
    await s.expectErrorExit(`'${clip(line, 40)}'`);
    return true;
  };
  const botMove = async () => {
    const line = await s.read('a move');
    if (line === undefined) return;
    const p = ccParse(line.trim());
    if (!p) return s.finding('wrong', `expected a move like Hj, got '${clip(line)}'`);
    botPlaces(s, g, [p], [me], CC, line);
  };
  const over = () => s.over || g.moves.length >= plies || g.moves.some((m) => g.fiveAt(m.index)) || g.full();
  if (!(await noise())) {
    if (s.chance(0.5)) {
      // the bot starts: three stones (black, white, black)
      s.send('Start');
      started = true;
      const three = [];
      for (let i = 0; i < 3 && !s.over; i++) three.push(await s.read('Start'));
      if (!s.over) {
        const pts = three.map((l) => ccParse(l.trim()));
        if (pts.some((p) => !p)) s.finding('wrong', `expected three moves, got ${three.map((l) => `'${clip(l)}'`).join(' ')}`);
        else if (botPlaces(s, g, pts, [BLACK, WHITE, BLACK], CC, three.join(' '))) {
          me = BLACK;
          let botTurn = false;
          if (s.chance(0.3) && !(await noise())) {
            // we refuse: every stone changes colour and the starter (the bot, black now) moves
            s.send('Zz');
            g.swapColours();
            botTurn = true;
          }
          while (!over()) {
            if (botTurn) await botMove();
            else {
              if (await noise()) break;
              const q = s.ourMove(g, 3 - me);
              g.place(q, 3 - me);
              s.send(ccMove(q));
            }
            botTurn = !botTurn;
          }
        }
      }
    } else {
      // we start: three stones, then the bot answers a move or Zz
      const cells = s.player.openingCells(g, 3);
      [BLACK, WHITE, BLACK].forEach((c, i) => g.place(cells[i], c));
      for (const q of cells) s.send(ccMove(q));
      me = WHITE;
      const line = await s.read('the three opening stones');
      if (line !== undefined) {
        let botTurn = false;
        if (line.trim() === 'Zz')
          g.swapColours(); // the bot keeps the two-stone side (white); black moves
        else {
          const p = ccParse(line.trim());
          if (!p) s.finding('wrong', `expected a move or Zz, got '${clip(line)}'`);
          else botPlaces(s, g, [p], [me], CC, line);
        }
        while (!over()) {
          if (botTurn) await botMove();
          else {
            if (await noise()) break;
            const q = s.ourMove(g, 3 - me);
            g.place(q, 3 - me);
            s.send(ccMove(q));
          }
          botTurn = !botTurn;
        }
      }
    }
  }
  if (!s.over) s.send('Quit');
  await s.close(s.over ? undefined : 0);
  return s;
}

// --- ALPHANO ------------------------------------------------------------------------------

const AL = 15;

async function alphanoSession(index) {
  // no --time: the referee's clock (and its cap) decides
  const s = new Session('alphano', index, ['--seed', String(index)]);
  const g = new RefGame(AL);
  const rate = s.pick([0, 0.05, 0.15, 0.3]);
  const plies = s.int(2, 30);
  const first = s.chance(0.5);
  const me = first ? WHITE : BLACK;
  let botClock = 3000;
  let ready = false;
  let pending; // our move the bot has not heard of yet (OPP comes just before its TURN)
  const noise = async () => {
    if (!s.chance(rate)) return false;
    const kind = s.int(0, 4);
    if (kind === 0) {
      s.send(s.pick(BLANKS), true);
      return false;
    }
    const known = g.moves.filter((m) => m.index !== pending);
    const taken = known.length ? known[0].index : undefined;
    const line =
      kind === 1
        ? garbage(s)
        : kind === 2
          ? overlong(s, ['TURN', 'OPP', 'READY'])
          : kind === 3
            ? s.pick(['OPP 0 9 50', 'OPP 99999999999999 5 5', 'OPP 16 1 0', 'TURN 12 abc', 'TURN 1e5 5', 'OPP -1 -1 5'])
            : !ready
              ? s.pick(['TURN 1000 1000', 'OPP 8 8 50'])
              : taken !== undefined
                ? s.pick([`READY ${s.pick(['FIRST', 'SECOND'])}`, `OPP ${Math.floor(taken / AL) + 1} ${(taken % AL) + 1} 10`])
                : 'READY THIRD';
    s.send(line, true);
    await s.expectErrorExit(`'${clip(line, 40)}'`);
    return true;
  };
  if (!(await noise())) {
    s.send(`READY ${first ? 'SECOND' : 'FIRST'}`);
    ready = true;
    const ok = await s.read('READY');
    if (ok !== undefined && ok.trim() !== 'OK') s.finding('wrong', `expected OK, got '${clip(ok)}'`);
    let botTurn = !first;
    let last;
    while (!s.over && g.moves.length < plies && !g.full() && !g.moves.some((m) => g.fiveAt(m.index))) {
      if (!botTurn) {
        last = s.ourMove(g, 3 - me);
        g.place(last, 3 - me);
        pending = last;
      } else {
        if (await noise()) break;
        if (last !== undefined) s.send(`OPP ${Math.floor(last / AL) + 1} ${(last % AL) + 1} ${s.chance(0.1) ? '99999999999999' : s.int(1, 200)}`);
        pending = undefined;
        // absurd clocks are valid lines: the bot caps them and still moves
        const absurd = s.chance(0.08);
        const clock = absurd ? s.pick(['99999999999999', '-5', '0']) : String(Math.max(0, Math.round(botClock)));
        if (await noise()) break;
        const t0 = performance.now();
        s.send(`TURN ${clock} 3000`, absurd);
        const line = await s.read(`TURN ${clock}`);
        botClock -= performance.now() - t0;
        if (line === undefined) break;
        const m = /^MOVE (\d+) (\d+)$/.exec(line.trim());
        if (!m) s.finding('wrong', `expected MOVE x y, got '${clip(line)}'`);
        else botPlaces(s, g, [{ x: Number(m[2]) - 1, y: Number(m[1]) - 1 }], [me], AL, line);
      }
      botTurn = !botTurn;
    }
  }
  if (!s.over) s.send('FINISH');
  await s.close(s.over ? undefined : 0);
  return s;
}

// --- Gomocup ------------------------------------------------------------------------------

async function gomocupSession(index) {
  const s = new Session('gomocup', index, ['--seed', String(index)]);
  const size = s.pick([15, 15, 20]);
  const g = new RefGame(size);
  const rate = s.pick([0, 0.1, 0.3, 0.5]);
  const plies = s.int(2, 40);
  let me = BLACK; // the bot's colour
  let leftMs = 30_000;
  let started = false;
  let lastOurs; // our last move, when the bot has not heard of it yet
  const xy = (q) => `${q % size},${Math.floor(q / size)}`;
  /** The answer to a command that must be answered: MESSAGE/DEBUG lines first, then `want`. */
  const answer = async (what, want) => {
    for (;;) {
      const line = await s.read(what);
      if (line === undefined) return undefined;
      if (/^(MESSAGE|DEBUG) /i.test(line)) continue;
      if (!want.test(line)) {
        s.finding('wrong', `expected ${want} to ${clip(what, 40)}, got '${clip(line)}'`);
        return undefined;
      }
      return line;
    }
  };
  const empty = () => {
    for (;;) {
      const q = s.int(0, size * size - 1);
      if (g.isEmpty(q)) return q;
    }
  };
  /** Hostile lines: each gets ERROR or UNKNOWN (or, for an INFO, nothing now) and changes nothing. */
  const noise = async () => {
    while (!s.over && s.chance(rate)) {
      const kind = s.int(0, 5);
      const known = g.moves.filter((m) => m.index !== lastOurs);
      const taken = known.length ? s.pick(known).index : undefined;
      if (kind === 0) {
        s.send(s.pick(BLANKS), true);
        continue;
      }
      if (kind === 1 || kind === 2) {
        const line = kind === 1 ? garbage(s) : overlong(s, ['TURN', 'START', 'RECTSTART', 'TAKEBACK']);
        s.send(line, true);
        const unknown = line.startsWith('~');
        await answer(`'${clip(line, 40)}'`, unknown ? /^UNKNOWN / : /^(ERROR|UNKNOWN) /);
        continue;
      }
      if (kind === 3) {
        // absurd INFO values: no answer now, at most a MESSAGE before the next move
        s.send(
          s.pick([
            'INFO timeout_turn 99999999999999',
            'INFO timeout_match 1e300',
            'INFO time_left 99999999999',
            'INFO max_memory 99999999999999999999',
            'INFO max_memory 1',
            'INFO rule 99999999999999',
            'INFO max_node 1e300',
            'INFO timeout_turn -5',
            'INFO time_left abc',
            'INFO game_type -1',
          ]),
          true,
        );
        continue;
      }
      // out of order, bad numbers, bad blocks: ERROR, nothing changes
      const choices = ['TURN 99999999999999,5', 'TURN -1,-1', 'TURN 7', 'PLAY 99,99', 'START 999999', 'RECTSTART 15,20', 'DONE', `TAKEBACK ${xy(empty())}`];
      // blocks only after START (before it, each of their lines gets its own answer)
      if (started) choices.push(['SWAP2BOARD', '7,7', '8,8', 'DONE'], ['BOARD', '7,7,1', '~what', 'DONE'], ['BOARD', '99999999999999,1,1', 'DONE']);
      if (taken !== undefined) choices.push(`TURN ${xy(taken)}`, 'BEGIN');
      if (!started) choices.push('TURN 7,7', 'BEGIN', 'RESTART');
      const c = s.pick(choices);
      const lines = Array.isArray(c) ? c : [c];
      for (const l of lines) s.send(l, true);
      await answer(`'${lines.join(' / ')}'`, /^ERROR /);
    }
    return s.over;
  };
  const botMove = async (what) => {
    const line = await answer(what, /^\d+,\d+$/);
    if (line === undefined) return;
    const [x, y] = line.split(',').map(Number);
    botPlaces(s, g, [{ x, y }], [me], size, line);
  };
  if (s.chance(0.1)) await noise(); // before START
  if (!s.over) {
    s.send(`START ${size}`);
    started = true;
    await answer('START', /^OK$/);
  }
  if (!s.over) {
    for (const l of ['INFO timeout_turn 200', `INFO timeout_match ${leftMs}`, 'INFO rule 0', 'INFO game_type 1']) s.send(l);
    if (s.chance(0.5)) s.send(`INFO max_memory ${s.pick([367001600, 83886080, 0])}`);
    await noise();
  }
  let botTurn = s.chance(0.5);
  me = botTurn ? BLACK : WHITE;
  let told = false; // has the bot had its first command (BEGIN or BOARD, or TURN)?
  while (!s.over && g.moves.length < plies && !g.full() && !g.moves.some((m) => g.fiveAt(m.index))) {
    if (!botTurn) {
      lastOurs = s.ourMove(g, 3 - me);
      g.place(lastOurs, 3 - me);
      botTurn = true;
      continue;
    }
    if (await noise()) break;
    s.send(`INFO time_left ${Math.round(leftMs)}`);
    const t0 = performance.now();
    if (g.moves.length === 0) {
      if (s.chance(0.5)) s.send('BEGIN');
      else for (const l of ['BOARD', 'DONE']) s.send(l); // GomocupJudge: an empty BOARD
    } else if (lastOurs === undefined || (!told && s.chance(0.5)) || s.chance(0.1)) {
      // the whole position (c-gomoku-cli sends the second player's first move this way)
      s.send('BOARD');
      for (const m of g.moves) s.send(`${xy(m.index)},${m.color === me ? 1 : 2}`);
      s.send('DONE');
    } else s.send(`TURN ${xy(lastOurs)}`);
    told = true;
    lastOurs = undefined;
    await botMove('a move');
    leftMs = Math.max(1000, leftMs - (performance.now() - t0));
    botTurn = false;
    if (!s.over && g.moves.length >= 3 && s.chance(0.05)) {
      // take back the bot's move and ours before it, as Piskvork does; then we play again
      const [a, b] = g.moves.slice(-2);
      for (const m of [b, a]) {
        s.send(`TAKEBACK ${xy(m.index)}`);
        if ((await answer('TAKEBACK', /^OK$/)) === undefined) break;
        g.cells[m.index] = 0;
        g.moves.pop();
      }
    }
  }
  if (!s.over) s.send('END');
  await s.close(s.over ? undefined : 0);
  return s;
}

// --- WPI (files) --------------------------------------------------------------------------

const WPI = 15;
const mtime = (p) => {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return undefined;
  }
};
const rm = (p) => {
  try {
    unlinkSync(p);
  } catch {
    /* absent */
  }
};

async function wpiSession(index) {
  const dir = mkdtempSync(join(tmpdir(), 'fuzz-wpi-'));
  const f = (n) => join(dir, n);
  const s = new Session('wpi', index, ['--name', 'alpha', '--dir', dir, '--poll-ms', '5', '--time', '200', '--seed', String(index)], { cwd: dir });
  const g = new RefGame(WPI);
  const rate = s.pick([0, 0.05, 0.15, 0.3]);
  const plies = s.int(2, 30);
  let turns = 0;
  const wpiMove = (team, q, lower = true) => `${team} ${String.fromCharCode((lower ? 97 : 65) + (q % WPI))} ${Math.floor(q / WPI) + 1}`;
  /** One turn: move_file = `content`, then alpha.go; the bot's line, or undefined after an exit or a hang. */
  const turn = async (content, hostile, what) => {
    writeFileSync(f('move_file'), content);
    s.lines++;
    if (hostile) s.hostile++;
    s.child.transcript.push(`> move_file: ${clip(content, 200)}`);
    const before = mtime(f('move_file'));
    await sleep(10);
    writeFileSync(f('alpha.go'), 'go!\n');
    const t0 = performance.now();
    while (mtime(f('move_file')) === before) {
      if (s.child.exitCode !== null || s.child.exitSignal !== null) return undefined;
      if (performance.now() - t0 > HANG_MS) {
        s.finding('hang', `no move within ${HANG_MS} ms of ${what}`);
        s.child.proc.kill('SIGKILL');
        s.killed = true;
        return undefined;
      }
      await sleep(5);
    }
    await sleep(5);
    const line = (readFileSync(f('move_file'), 'utf8').split('\n')[0] ?? '').trim();
    rm(f('alpha.go'));
    s.child.transcript.push(`< move_file: ${clip(line, 200)}`);
    s.maxOut = Math.max(s.maxOut, line.length);
    return line;
  };
  const botLine = (line) => {
    const m = /^alpha ([A-Za-z]) (\d+)$/.exec(line);
    if (!m) {
      s.finding('wrong', `expected 'alpha COL ROW', got '${clip(line)}'`);
      return undefined;
    }
    return { x: m[1].toLowerCase().charCodeAt(0) - 97, y: Number(m[2]) - 1 };
  };
  const hostileTurn = async () => {
    const kind = s.int(0, 3);
    const out = [`alpha h 8\n`];
    // an occupied point the bot knows of (not our move it is yet to hear of, nor its own first
    // stone on move 2: taking that is the first-move swap)
    const known = g.moves.filter((m) => m.index !== last);
    if (known.length >= 2) out.push(`${wpiMove('beta', s.pick(known).index)}\n`);
    if (turns > 0) out.push(''); // empty in the middle of the game
    const content =
      kind === 0
        ? `${garbage(s).replace(/\s/g, '_')}\n` // one word: a garbage line of three words could be a move of another team
        : kind === 1
          ? `beta ${'h'.repeat(s.pick([10_000, 100_000]))} 8\n`
          : kind === 2
            ? s.pick(['beta Z 99999999999999\n', 'beta AB 3\n', 'beta h\n', 'beta h 0\n', 'beta h -3\n'])
            : s.pick(out);
    const before = s.stderrLines().length;
    const line = await turn(content, true, `move_file '${clip(content.trim(), 40)}'`);
    if (line !== undefined && !s.over) s.finding('wrong', `moved '${clip(line)}' after a bad move_file '${clip(content.trim(), 40)}'`);
    else if (!s.over) await s.expectErrorExit(`move_file '${clip(content.trim(), 40)}'`, before);
    s.over = true;
    return true;
  };
  writeFileSync(f('move_file'), '');
  const botFirst = s.chance(0.5);
  const me = botFirst ? BLACK : WHITE;
  let botColour = me;
  let last = botFirst ? undefined : s.player.centreish(g);
  if (last !== undefined) g.place(last, BLACK);
  while (!s.over && g.moves.length < plies && !g.full() && !g.moves.some((m) => g.fiveAt(m.index))) {
    if (s.chance(rate) && (await hostileTurn())) break;
    const content = last === undefined ? '' : `${wpiMove('beta', last, s.chance(0.5))}\n`;
    const line = await turn(content, false, 'a turn');
    if (line === undefined) {
      if (!s.over) s.finding('wrong', `exit ${await s.exitCode()} during a valid turn`);
      break;
    }
    const p = botLine(line);
    if (!p) break;
    const q = p.y * WPI + p.x;
    turns++;
    if (!botFirst && turns === 1 && q === g.moves[0].index) {
      // the first-move swap: the first stone is the bot's (black) now; we move again, as white
      botColour = BLACK;
    } else if (!botPlaces(s, g, [p], [botColour], WPI, line)) break;
    if (g.moves.some((m) => g.fiveAt(m.index)) || g.full()) break;
    last = s.ourMove(g, 3 - botColour);
    g.place(last, 3 - botColour);
  }
  if (s.child.exitCode === null && s.child.exitSignal === null) {
    // the end of the game (also after a finding, so the bot is not left waiting for files)
    writeFileSync(f('end_game'), 'END: alpha WINS!  beta LOSES!  5 in a row!\n');
    writeFileSync(f('alpha.go'), 'go!\n');
  }
  await s.close(s.over ? undefined : 0);
  rmSync(dir, { recursive: true, force: true });
  return s;
}

// --- the run ------------------------------------------------------------------------------

const RUNNERS = { koth: kothSession, codecup: codecupSession, alphano: alphanoSession, wpi: wpiSession, gomocup: gomocupSession };

if (replay) {
  const s = await RUNNERS[replay.protocol](replay.index);
  for (const l of s.child.transcript) process.stdout.write(`${clip(l, 300)}\n`);
  process.stdout.write(
    `# exit ${s.exit}; stderr:\n${s.child.stderr
      .split('\n')
      .map((l) => `# ${clip(l, 300)}`)
      .join('\n')}\n`,
  );
  for (const x of s.findings) process.stdout.write(`# ${x.kind}: ${x.detail}\n`);
  process.exit(s.findings.length ? 1 : 0);
}

const t0 = Date.now();
const summary = {
  seed: opt.seed,
  sessionsPerProtocol: sessions,
  protocols: {},
  totals: { sessions: 0, lines: 0, hostile: 0, crashes: 0, illegal: 0, hangs: 0, wrong: 0 },
};
const findings = [];
for (const p of protocols) {
  const st = { sessions: 0, lines: 0, hostile: 0, crashes: 0, illegal: 0, hangs: 0, wrong: 0, exits: {}, longestOutput: 0, longestStderr: 0, seconds: 0 };
  const tp = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < sessions) {
      const i = next++;
      let s;
      try {
        s = await RUNNERS[p](i);
      } catch (e) {
        // a bug of this script, not of the bot: say so and stop
        process.stderr.write(`${NAME}: ${p}:${i}: the fuzzer failed: ${e.stack ?? e}\n`);
        process.exit(3);
      }
      st.sessions++;
      st.lines += s.lines;
      st.hostile += s.hostile;
      st.exits[s.exit] = (st.exits[s.exit] ?? 0) + 1;
      st.longestOutput = Math.max(st.longestOutput, s.maxOut);
      st.longestStderr = Math.max(st.longestStderr, s.maxErr ?? 0);
      for (const x of s.findings) {
        st[{ crash: 'crashes', illegal: 'illegal', hang: 'hangs', wrong: 'wrong' }[x.kind]]++;
        findings.push({
          protocol: p,
          session: i,
          ...x,
          tail: s.child.transcript.slice(-6).map((l) => clip(l, 160)),
          stderr: s
            .stderrLines()
            .slice(-3)
            .map((l) => clip(l, 160)),
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, sessions) }, worker));
  st.seconds = Math.round((Date.now() - tp) / 100) / 10;
  summary.protocols[p] = st;
  for (const k of Object.keys(summary.totals)) summary.totals[k] += st[k];
  if (!opt.json) {
    const exits = Object.entries(st.exits)
      .sort()
      .map(([k, v]) => `${k}:${v}`)
      .join(' ');
    process.stdout.write(
      `${p.padEnd(8)} sessions ${st.sessions}  lines ${st.lines} (hostile ${st.hostile})  crashes ${st.crashes}  illegal moves ${st.illegal}  hangs ${st.hangs}  ` +
        `wrong reactions ${st.wrong}  exits ${exits}  longest line out ${st.longestOutput}, on stderr ${st.longestStderr}  (${st.seconds} s)\n`,
    );
  }
}
summary.seconds = Math.round((Date.now() - t0) / 1000);
summary.findings = findings.slice(0, 50);
const bad = summary.totals.crashes + summary.totals.illegal + summary.totals.hangs + summary.totals.wrong;
if (opt.json) process.stdout.write(JSON.stringify(summary) + '\n');
else {
  const t = summary.totals;
  process.stdout.write(
    `total    sessions ${t.sessions}  lines ${t.lines} (hostile ${t.hostile})  crashes ${t.crashes}  illegal moves ${t.illegal}  hangs ${t.hangs}  wrong reactions ${t.wrong}  (${summary.seconds} s, seed ${opt.seed})\n`,
  );
  for (const x of findings.slice(0, 20)) {
    process.stderr.write(
      `${x.protocol}:${x.session} ${x.kind}: ${x.detail}  (rerun: node scripts/${NAME}.mjs --seed ${opt.seed} --replay ${x.protocol}:${x.session})\n`,
    );
    for (const l of x.tail) process.stderr.write(`    ${l}\n`);
    for (const l of x.stderr) process.stderr.write(`    stderr: ${l}\n`);
  }
}
process.exit(bad === 0 ? 0 : 1);
