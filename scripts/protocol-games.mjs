#!/usr/bin/env node
// Plays N games per protocol through the local referees (src/match/referees) against the
// simple opponent, with the real CLI as a child process, and reports the counts that the
// issue's "done when" asks for: illegal moves, timeouts, crashes (all must be 0).
//
//   npx tsc -p . && node scripts/protocol-games.mjs [--games 20] [--protocols koth,codecup,alphano,wpi] [--wpi-sleep 50] [--time MS]
//
// --time MS: the bot's time per move (KoTH per answer, ALPHANO and WPI per move, CodeCup 30x that
// for the whole game); the referees keep their real limits. Default: the bot's own defaults.
//
// The bot is the built CLI, `node dist/cli/main.js play`.
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { runKothGame } from '../dist/match/referees/koth.js';
import { runCodecupGame } from '../dist/match/referees/codecup.js';
import { runAlphanoGame } from '../dist/match/referees/alphano.js';
import { runWpiGame } from '../dist/match/referees/wpi.js';
import { helpOnRequest } from './usage.mjs';

helpOnRequest(import.meta.url);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const games = Number(opt('games', '20'));
const protocols = opt('protocols', 'koth,codecup,alphano,wpi').split(',');
const wpiSleep = Number(opt('wpi-sleep', '50'));
const timeMs = opt('time', undefined);
const t = (ms) => (timeMs === undefined ? [] : ['--time', String(ms)]);

const bot = (protocol, extra = []) => ({ command: process.execPath, args: [join(root, 'dist/cli/main.js'), 'play', '--protocol', protocol, ...extra] });

const runners = {
  koth: (i) => runKothGame({ bot: bot('koth', t(timeMs)), seed: `g${i}`, botIsA: i % 2 === 0 }),
  codecup: (i) => runCodecupGame({ bot: bot('codecup', ['--seed', `g${i}`, ...t(30 * Number(timeMs))]), seed: `g${i}`, botStarts: i % 2 === 0 }),
  alphano: (i) => runAlphanoGame({ bot: bot('alphano', ['--seed', `g${i}`, ...t(timeMs)]), seed: `g${i}`, botFirst: i % 2 === 0 }),
  wpi: (i) =>
    runWpiGame({
      bot: bot('wpi', ['--seed', `g${i}`, '--poll-ms', '10', ...t(timeMs)]),
      seed: `g${i}`,
      botFirst: i % 2 === 0,
      sleepMs: wpiSleep,
      pollMs: 10,
      readDelayMs: 20,
    }),
};

let bad = 0;
for (const p of protocols) {
  const run = runners[p];
  if (!run) {
    console.error(`unknown protocol ${p}`);
    process.exit(2);
  }
  const c = { bot: 0, opponent: 0, draw: 0, illegal: 0, timeout: 0, crash: 0, protocol: 0, maxMs: 0, firstMs: 0 };
  const t0 = Date.now();
  for (let i = 0; i < games; i++) {
    const r = await run(i);
    if (r.winner in c) c[r.winner]++;
    if (r.fault === 'bot') {
      c[r.reason]++;
      console.error(`${p} game ${i}: ${r.reason}: ${r.detail}\n${r.botStderr}\n${r.transcript.slice(-6).join('\n')}`);
    } else if (r.fault === 'opponent') console.error(`${p} game ${i}: opponent fault ${r.reason}: ${r.detail}`);
    c.maxMs = Math.max(c.maxMs, Math.round(r.maxBotMs));
    c.firstMs = Math.max(c.firstMs, Math.round(r.firstBotMs));
  }
  const faults = c.illegal + c.timeout + c.crash + c.protocol;
  bad += faults;
  console.log(
    `${p.padEnd(8)} games ${games}  bot wins ${c.bot}  opponent wins ${c.opponent}  draws ${c.draw}  ` +
      `illegal ${c.illegal}  timeouts ${c.timeout}  crashes ${c.crash}  protocol errors ${c.protocol}  ` +
      `slowest answer ${c.maxMs} ms (first answer, with start-up: up to ${c.firstMs} ms)  (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
  );
}
process.exit(bad === 0 ? 0 : 1);
