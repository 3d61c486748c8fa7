#!/usr/bin/env node
/**
 * npm run bench:first-answer [-- --runs N --protocols koth-a,koth-b,gomocup-start,...]
 *
 * The bot's first answer as a referee sees it: start `node dist/cli/main.js play --protocol P`
 * (the shipped book, the saved pattern tables), write the referee's first command and time
 * from the spawn to the first line on stdout. N runs per case (default 9), median and the
 * slowest, then the process is told to quit (or killed). Cases:
 *   koth-a         KoTH `A []` (propose 2 black + 1 white stones)
 *   koth-b         KoTH `B [3 stones]` (take a side or add stones)
 *   gomocup-start  Gomocup `START 15` (answer OK), without the warm-up (`--warm-up 0`)
 *   gomocup-warm   the same with the default warm-up: OK comes when it ends (about 1 s; not held
 *                  to the 300 ms target, docs/protocols.md "Warm-up")
 *   gomocup-swap2  Gomocup `START 15` then `SWAP2BOARD` / `DONE` (propose 3 stones; timed to the
 *                  answer of SWAP2BOARD, i.e. the second line)
 *   codecup        CodeCup `Start` (three opening stones)
 *   alphano        ALPHANO `READY FIRST` (answer OK)
 * The book issue's target: every case but gomocup-warm under 300 ms. (A command asking for a
 * move ends the warm-up at once, so gomocup-swap2 is timed with it.)
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { helpOnRequest } from './usage.mjs';
import { median } from './stats.mjs';

helpOnRequest(import.meta.url);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli', 'main.js');
if (!existsSync(cli)) {
  console.error('bench-first-answer: dist/ is missing; run `npm run build` first');
  process.exit(2);
}

const CASES = {
  'koth-a': { protocol: 'koth', input: ['A []'], answerLine: 1, quit: 'EXIT' },
  'koth-b': { protocol: 'koth', input: ['B [((7,7),"B"),((7,8),"W"),((8,8),"B")]'], answerLine: 1, quit: 'EXIT' },
  'gomocup-start': { protocol: 'gomocup', input: ['START 15'], answerLine: 1, quit: 'END', args: ['--warm-up', '0'] },
  'gomocup-warm': { protocol: 'gomocup', input: ['START 15'], answerLine: 1, quit: 'END', slow: true },
  'gomocup-swap2': { protocol: 'gomocup', input: ['START 15', 'SWAP2BOARD', 'DONE'], answerLine: 2, quit: 'END' },
  codecup: { protocol: 'codecup', input: ['Start'], answerLine: 1, quit: 'Quit' },
  alphano: { protocol: 'alphano', input: ['READY FIRST'], answerLine: 1, quit: 'FINISH' },
};

const args = process.argv.slice(2);
let runs = 9;
let names = Object.keys(CASES);
for (let i = 0; i < args.length; i += 2) {
  const v = args[i + 1];
  if (args[i] === '--runs' && v !== undefined && Number.isInteger(Number(v)) && Number(v) > 0) runs = Number(v);
  else if (args[i] === '--protocols' && v !== undefined && v.split(',').every((n) => n in CASES)) names = v.split(',');
  else {
    console.error(`bench-first-answer: bad option '${args[i]}${v === undefined ? '' : ` ${v}`}' (see --help)`);
    process.exit(2);
  }
}

/** Spawn the bot, feed the case's lines, resolve with ms from spawn to its answer line. */
function once(c) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [cli, 'play', '--protocol', c.protocol, '--seed', '1', ...(c.args ?? [])], { stdio: ['pipe', 'pipe', 'pipe'] });
    let buf = '';
    let lines = 0;
    let done = false;
    const timer = setTimeout(() => finish(new Error(`no answer within 10 s`)), 10_000);
    function finish(err, ms) {
      if (done) return;
      done = true;
      clearTimeout(timer);
      try {
        child.stdin.end(`${c.quit}\n`);
      } catch {}
      setTimeout(() => child.kill('SIGKILL'), 500).unref();
      if (err) reject(err);
      else resolve(ms);
    }
    child.stdout.on('data', (d) => {
      buf += d.toString();
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (line === '' || line.startsWith('MESSAGE') || line.startsWith('DEBUG')) continue;
        if (++lines === c.answerLine) finish(null, Number(process.hrtime.bigint() - t0) / 1e6);
      }
    });
    child.on('error', (e) => finish(e));
    child.on('exit', (code) => finish(new Error(`exited with ${code} before answering`)));
    child.stdin.write(c.input.map((l) => `${l}\n`).join(''));
  });
}

let over = 0;
for (const name of names) {
  const ms = [];
  try {
    for (let i = 0; i < runs; i++) ms.push(await once(CASES[name]));
  } catch (e) {
    console.error(`bench-first-answer: ${name}: ${e.message}`);
    process.exit(1);
  }
  const med = median(ms);
  if (med >= 300 && !CASES[name].slow) over++;
  console.log(
    `${name.padEnd(14)} median ${med.toFixed(0).padStart(4)} ms  slowest ${Math.max(...ms)
      .toFixed(0)
      .padStart(4)} ms  (${runs} runs)`,
  );
}
if (over) console.log(`${over} case(s) with a median of 300 ms or more`);
