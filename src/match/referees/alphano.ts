/**
 * A local imitation of the ALPHANO judge, problem 7 (protocols.md section 3; the real judge
 * is online only). `READY FIRST|SECOND` must be answered `OK` within `readyMs` (3 s);
 * each `TURN <my> <opp>` must be answered `MOVE x y` (x = row, y = column, 1-based) within
 * the bot's remaining clock (20 s per player, no increment). `OPP x y t` precedes every
 * TURN except the first player's first. `FINISH` ends the game. Bad format or an illegal
 * move = RE, no answer in time = TLE; both are losses.
 */
import { BLACK, WHITE, type Color } from '../../core/types.js';
import { LineChild, type BotCommand } from './child.js';
import { AnswerTimes, RefGame, SimplePlayer, colourName, type GameReport, type Side } from './simple-player.js';

export interface AlphanoRefereeOptions {
  bot: BotCommand;
  seed: string;
  botFirst?: boolean;
  clockMs?: number;
  readyMs?: number;
}

const SIZE = 15;

export async function runAlphanoGame(o: AlphanoRefereeOptions): Promise<GameReport> {
  const opp = new SimplePlayer(o.seed);
  const botFirst = o.botFirst ?? opp.random() < 0.5;
  const botColour: Color = botFirst ? BLACK : WHITE;
  let botClock = o.clockMs ?? 20_000;
  let oppClock = o.clockMs ?? 20_000;
  const g = new RefGame(SIZE);
  const child = new LineChild(o.bot);
  const times = new AnswerTimes();

  const finish = async (winner: GameReport['winner'], reason: GameReport['reason'], detail: string, fault?: Side): Promise<GameReport> => {
    child.send('FINISH');
    await child.close(1000);
    const r: GameReport = {
      protocol: 'alphano',
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

  child.send(`READY ${botFirst ? 'FIRST' : 'SECOND'}`);
  const ready = await child.read(o.readyMs ?? 3000);
  times.add(ready.ms);
  if (ready.kind === 'timeout') return finish('opponent', 'timeout', 'no OK to READY in time', 'bot');
  if (ready.kind === 'eof') return finish('opponent', 'crash', 'bot exited before OK', 'bot');
  if (ready.line.trim() !== 'OK') return finish('opponent', 'protocol', `expected OK, got '${ready.line}'`, 'bot');

  let toMove: Color = BLACK;
  let lastOpp: { q: number; ms: number } | undefined;
  for (;;) {
    if (g.full()) return finish('draw', 'full', 'board full');
    let q: number;
    if (toMove === botColour) {
      if (lastOpp) child.send(`OPP ${Math.floor(lastOpp.q / SIZE) + 1} ${(lastOpp.q % SIZE) + 1} ${lastOpp.ms}`);
      child.send(`TURN ${Math.max(0, Math.floor(botClock))} ${Math.max(0, Math.floor(oppClock))}`);
      const r = await child.read(botClock);
      times.add(r.ms);
      botClock -= r.ms;
      if (r.kind === 'timeout') return finish('opponent', 'timeout', 'TLE', 'bot');
      if (r.kind === 'eof') return finish('opponent', 'crash', `bot exited (code ${child.exitCode})`, 'bot');
      const m = /^MOVE\s+(\d+)\s+(\d+)$/.exec(r.line.trim());
      if (!m) return finish('opponent', 'protocol', `RE: bad answer '${r.line}'`, 'bot');
      const x = Number(m[1]);
      const y = Number(m[2]);
      if (!g.onBoard(y - 1, x - 1) || !g.isEmpty((x - 1) * SIZE + (y - 1))) return finish('opponent', 'illegal', `RE: illegal move ${x} ${y}`, 'bot');
      q = (x - 1) * SIZE + (y - 1);
    } else {
      const t0 = performance.now();
      q = opp.move(g, toMove);
      const ms = Math.max(1, Math.round(performance.now() - t0));
      oppClock -= ms;
      lastOpp = { q, ms };
    }
    g.place(q, toMove);
    if (g.fiveAt(q)) return finish(toMove === botColour ? 'bot' : 'opponent', 'five', `${colourName(toMove)} made five`);
    toMove = (3 - toMove) as Color;
  }
}
