/**
 * A local imitation of the CodeCup 2020 referee (protocols.md section 2; the Caia kit is not
 * available). 16x16, moves `Rc`. The starter reads `Start` and writes three moves (B, W, B);
 * the second player reads them and answers a move or `Zz` (all stones change colour, the
 * starter — always black — moves next). The bot's thinking time is summed over the game
 * (from sending a line to reading the answer) and must stay within `gameMs`. `Quit` ends
 * the game in every case.
 */
import { BLACK, WHITE, type Color } from '../../core/types.js';
import { LineChild, type BotCommand } from './child.js';
import { AnswerTimes, RefGame, SimplePlayer, colourName, type GameReport, type Side } from './simple-player.js';

export interface CodecupRefereeOptions {
  bot: BotCommand;
  seed: string;
  /** Does the bot start (black)? Default: decided by the seed. */
  botStarts?: boolean;
  gameMs?: number;
  /** Probability that the simple opponent answers `Zz` (default 0.5). */
  swapRate?: number;
}

const SIZE = 16;

export function codecupMove(q: number): string {
  const col = q % SIZE;
  return String.fromCharCode(65 + (q - col) / SIZE) + String.fromCharCode(97 + col);
}

function parseMove(t: string): number | undefined {
  const m = /^([A-P])([a-p])$/.exec(t.trim());
  if (!m) return undefined;
  return (m[1]!.charCodeAt(0) - 65) * SIZE + (m[2]!.charCodeAt(0) - 97);
}

export async function runCodecupGame(o: CodecupRefereeOptions): Promise<GameReport> {
  const opp = new SimplePlayer(o.seed);
  const botStarts = o.botStarts ?? opp.random() < 0.5;
  const gameMs = o.gameMs ?? 30_000;
  const g = new RefGame(SIZE);
  const child = new LineChild(o.bot);
  const botColour: Color = botStarts ? BLACK : WHITE;
  let usedMs = 0;
  const times = new AnswerTimes();

  const finish = async (winner: GameReport['winner'], reason: GameReport['reason'], detail: string, fault?: Side): Promise<GameReport> => {
    child.send('Quit');
    await child.close(1000);
    const r: GameReport = {
      protocol: 'codecup',
      winner,
      reason,
      stones: g.moves.length,
      maxBotMs: times.max,
      firstBotMs: times.first,
      detail,
      transcript: child.transcript,
      botStderr: child.stderr,
      botColor: colourName(botColour),
    };
    if (fault) r.fault = fault;
    return r;
  };
  /** Read one bot line against the game clock. */
  const read = async (): Promise<string | GameReport> => {
    const r = await child.read(Math.max(0, gameMs - usedMs));
    usedMs += r.ms;
    times.add(r.ms);
    if (r.kind === 'timeout') return finish('opponent', 'timeout', `game time ${gameMs} ms used up`, 'bot');
    if (r.kind === 'eof') return finish('opponent', 'crash', `bot exited (code ${child.exitCode})`, 'bot');
    return r.line;
  };
  const illegal = (what: string) => finish('opponent', 'illegal', what, 'bot');
  const legal = (q: number | undefined): q is number => q !== undefined && g.isEmpty(q);

  let toMove: Color;
  if (botStarts) {
    child.send('Start');
    for (const c of [BLACK, WHITE, BLACK] as Color[]) {
      const l = await read();
      if (typeof l !== 'string') return l;
      const q = parseMove(l);
      if (!legal(q)) return illegal(`opening move '${l}' is illegal`);
      g.place(q, c);
    }
    if (opp.random() < (o.swapRate ?? 0.5)) {
      g.swapColours();
      child.send('Zz');
      toMove = BLACK;
    } else {
      const q = opp.move(g, WHITE);
      g.place(q, WHITE);
      child.send(codecupMove(q));
      toMove = BLACK;
    }
  } else {
    const cells = opp.openingCells(g, 3);
    for (const [i, q] of cells.entries()) {
      g.place(q, i === 1 ? WHITE : BLACK);
      child.send(codecupMove(q));
    }
    const l = await read();
    if (typeof l !== 'string') return l;
    if (l.trim() === 'Zz') {
      g.swapColours();
      toMove = BLACK;
    } else {
      const q = parseMove(l);
      if (!legal(q)) return illegal(`move '${l}' is illegal`);
      g.place(q, WHITE);
      toMove = BLACK;
    }
    // The opponent (black) moves next and its move is sent below.
  }

  // Main loop: the opponent's move is sent to the bot, which answers with its own.
  for (;;) {
    if (g.full()) return finish('draw', 'full', 'board full');
    let q: number;
    if (toMove === botColour) {
      const l = await read();
      if (typeof l !== 'string') return l;
      const p = parseMove(l);
      if (!legal(p)) return illegal(`move '${l}' is illegal`);
      q = p;
    } else {
      q = opp.move(g, toMove);
    }
    g.place(q, toMove);
    if (g.fiveAt(q)) return finish(toMove === botColour ? 'bot' : 'opponent', 'five', `${colourName(toMove)} made five`);
    if (toMove !== botColour) child.send(codecupMove(q));
    toMove = (3 - toMove) as Color;
  }
}
