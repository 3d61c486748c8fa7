/**
 * A local imitation of the KoTH judge (protocols.md section 1; the real judge's source was
 * not found). One bot process per game, started with argv `<opponent> <seed>` appended.
 * Swap2 driven by the judge (`A []`, `B BOARD`, `C BOARD`), then black moves first and
 * each answer is one `(x,y)`. The judge enforces `answerMs` per answer (the real one has
 * no limit; the seed asks for well under 500 ms), detects illegal answers and fives, and
 * always sends `EXIT <winner>` / `EXIT TIE` at the end.
 */
import { BLACK, WHITE, type Color } from '../../core/types.js';
import { LineChild, type BotCommand } from './child.js';
import { AnswerTimes, RefGame, SimplePlayer, colourName, type GameReport, type Side } from './simple-player.js';

export interface KothRefereeOptions {
  bot: BotCommand;
  seed: string;
  /** Does the bot open (player A)? Default: decided by the seed. */
  botIsA?: boolean;
  answerMs?: number;
  botName?: string;
  opponentName?: string;
}

const SIZE = 15;

export function kothBoard(g: RefGame): string {
  const entries = g
    .stones()
    .map((s) => ({ x: s.index % SIZE, y: Math.floor(s.index / SIZE), c: s.color }))
    .sort((a, b) => a.x - b.x || a.y - b.y)
    .map((s) => `((${s.x},${s.y}),"${s.c === BLACK ? 'B' : 'W'}")`);
  return `[${entries.join(',')}]`;
}

/** `(x,y)` tuples in a bot answer (spaces ignored, as the judge does). */
export function kothTuples(text: string): [number, number][] | undefined {
  const t = text.replace(/\s+/g, '');
  const out: [number, number][] = [];
  const re = /\((\d+),(\d+)\)/y;
  let pos = 0;
  while (pos < t.length) {
    re.lastIndex = pos;
    const m = re.exec(t);
    if (!m) return undefined;
    out.push([Number(m[1]), Number(m[2])]);
    pos = re.lastIndex;
  }
  return out;
}

export async function runKothGame(o: KothRefereeOptions): Promise<GameReport> {
  const opp = new SimplePlayer(o.seed);
  const botIsA = o.botIsA ?? opp.random() < 0.5;
  const botName = o.botName ?? 'bot';
  const oppName = o.opponentName ?? 'simple';
  const answerMs = o.answerMs ?? 5000;
  const g = new RefGame(SIZE);
  const child = new LineChild({ ...o.bot, args: [...o.bot.args, oppName, o.seed] });
  const times = new AnswerTimes();
  let botColour: Color | undefined;
  let round = 0;

  const finish = async (winner: GameReport['winner'], reason: GameReport['reason'], detail: string, fault?: Side): Promise<GameReport> => {
    child.send(`EXIT ${winner === 'bot' ? botName : winner === 'opponent' ? oppName : 'TIE'}`);
    const clean = await child.close(500);
    if (!clean && !fault && reason !== 'crash') detail += ' (bot did not exit within 0.5 s)';
    const r: GameReport = {
      protocol: 'koth',
      winner,
      reason,
      stones: g.moves.length,
      maxBotMs: times.max,
      firstBotMs: times.first,
      detail,
      transcript: child.transcript,
      botStderr: child.stderr,
    };
    if (fault) r.fault = fault;
    if (botColour) r.botColor = colourName(botColour);
    return r;
  };

  /** Ask the bot; undefined + a finished report on failure. */
  const ask = async (line: string): Promise<string | GameReport> => {
    child.send(line);
    const r = await child.read(answerMs);
    times.add(r.ms);
    if (r.kind === 'timeout') return finish('opponent', 'timeout', `no answer to '${line.slice(0, 30)}' within ${answerMs} ms`, 'bot');
    if (r.kind === 'eof') return finish('opponent', 'crash', `bot exited (code ${child.exitCode}) after '${line.slice(0, 30)}'`, 'bot');
    return r.line;
  };
  const illegal = (what: string) => finish('opponent', 'illegal', what, 'bot');
  const cellOk = (x: number, y: number) => g.onBoard(x, y) && g.isEmpty(y * SIZE + x);

  if (botIsA) {
    const a = await ask('A []');
    if (typeof a !== 'string') return a;
    const t = kothTuples(a);
    if (!t || t.length !== 3) return illegal(`bad opening '${a}'`);
    for (const [i, [x, y]] of t.entries()) {
      if (!cellOk(x, y)) return illegal(`opening stone (${x},${y}) is illegal`);
      g.place(y * SIZE + x, i < 2 ? BLACK : WHITE);
    }
    const choice = opp.random();
    if (choice < 1 / 3)
      botColour = WHITE; // opponent answers B
    else if (choice < 2 / 3) {
      botColour = BLACK; // opponent answers W XY
      g.place(opp.move(g, WHITE), WHITE);
    } else {
      g.place(opp.move(g, BLACK), BLACK);
      g.place(opp.move(g, WHITE), WHITE);
      const c = await ask(`C ${kothBoard(g)}`);
      if (typeof c !== 'string') return c;
      const cc = c.replace(/[\s"]/g, '');
      if (cc !== 'B' && cc !== 'W') return illegal(`bad colour answer '${c}'`);
      botColour = cc === 'B' ? BLACK : WHITE;
    }
  } else {
    const [b1, b2, w] = opp.openingCells(g, 3) as [number, number, number];
    g.place(b1, BLACK);
    g.place(b2, BLACK);
    g.place(w, WHITE);
    const b = await ask(`B ${kothBoard(g)}`);
    if (typeof b !== 'string') return b;
    const bb = b.replace(/[\s"]/g, '');
    if (bb === 'B') botColour = BLACK;
    else if (bb.startsWith('W')) {
      const t = kothTuples(bb.slice(1));
      if (!t || t.length !== 1 || !cellOk(t[0]![0], t[0]![1])) return illegal(`bad answer '${b}'`);
      g.place(t[0]![1] * SIZE + t[0]![0], WHITE);
      botColour = WHITE;
    } else {
      const t = kothTuples(bb);
      if (!t || t.length !== 2) return illegal(`bad answer '${b}'`);
      for (const [i, [x, y]] of t.entries()) {
        if (!cellOk(x, y)) return illegal(`stone (${x},${y}) is illegal`);
        g.place(y * SIZE + x, i === 0 ? BLACK : WHITE);
      }
      botColour = opp.random() < 0.5 ? BLACK : WHITE; // the opponent (A) chooses
      botColour = (3 - botColour) as Color;
    }
  }

  // Main phase: black moves first (the seed's rule).
  let toMove: Color = BLACK;
  for (;;) {
    if (g.full()) return finish('draw', 'full', 'board full');
    let q: number;
    if (toMove === botColour) {
      const a = await ask(`${round} ${kothBoard(g)}`);
      if (typeof a !== 'string') return a;
      const t = kothTuples(a);
      if (!t || t.length !== 1) return illegal(`bad move '${a}'`);
      const [x, y] = t[0]!;
      if (!cellOk(x, y)) return illegal(`move (${x},${y}) is illegal`);
      q = y * SIZE + x;
    } else {
      q = opp.move(g, toMove);
    }
    g.place(q, toMove);
    if (g.fiveAt(q)) return finish(toMove === botColour ? 'bot' : 'opponent', 'five', `${colourName(toMove)} made five`);
    toMove = (3 - toMove) as Color;
    round++;
  }
}
