/**
 * The local referees judge real child processes: here tiny scripted bots that break the
 * rules in known ways (games with the real CLI are in test/cli/commands/play.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { runAlphanoGame } from '../../../src/match/referees/alphano.js';
import { runCodecupGame } from '../../../src/match/referees/codecup.js';
import { kothBoard, kothTuples, runKothGame } from '../../../src/match/referees/koth.js';
import { RefGame, SimplePlayer } from '../../../src/match/referees/simple-player.js';
import { runWpiGame } from '../../../src/match/referees/wpi.js';
import { BLACK, WHITE } from '../../../src/core/types.js';

/** A bot written as a Node script: `onLine(line, write)` in the body. */
const scripted = (body: string) => ({
  command: process.execPath,
  args: [
    '-e',
    `const rl=require('readline').createInterface({input:process.stdin});const write=(s)=>process.stdout.write(s+'\\n');let n=0;rl.on('line',(line)=>{n++;${body}});`,
    '--',
  ],
});

describe('referee helpers', () => {
  it('KoTH board text is sorted by (x,y), tuples are read with spaces ignored', () => {
    const g = new RefGame(15);
    g.place(15 * 1 + 0, WHITE);
    g.place(0, BLACK);
    g.place(15 * 14 + 14, BLACK);
    expect(kothBoard(g)).toBe('[((0,0),"B"),((0,1),"W"),((14,14),"B")]');
    expect(kothTuples('(0 , 0) (0,12)')).toEqual([
      [0, 0],
      [0, 12],
    ]);
    expect(kothTuples('(0,0) x')).toBeUndefined();
  });

  it('the simple player takes a five and blocks one', () => {
    const g = new RefGame(15);
    for (let x = 0; x < 4; x++) g.place(x, BLACK);
    const p = new SimplePlayer('1');
    expect(p.move(g, BLACK)).toBe(4);
    expect(p.move(g, WHITE)).toBe(4);
  });
});

describe('referees catch rule breaking', () => {
  it('KoTH: an occupied answer is illegal; the bot still gets EXIT', async () => {
    const r = await runKothGame({ bot: scripted(`write('(7,7) (7,7) (8,8)')`), seed: '1', botIsA: true });
    expect(r.reason).toBe('illegal');
    expect(r.fault).toBe('bot');
    expect(r.transcript.at(-1)).toBe('> EXIT simple');
  });

  it('KoTH: no answer in time is a timeout', async () => {
    const r = await runKothGame({ bot: scripted(''), seed: '1', botIsA: false, answerMs: 200 });
    expect(r.reason).toBe('timeout');
    expect(r.fault).toBe('bot');
  });

  it('CodeCup: a crash is reported as a crash', async () => {
    const r = await runCodecupGame({ bot: scripted('process.exit(3)'), seed: '1', botStarts: true });
    expect(r.reason).toBe('crash');
    expect(r.fault).toBe('bot');
  });

  it('CodeCup: an off-board move is illegal', async () => {
    const r = await runCodecupGame({ bot: scripted(`write('Zz')`), seed: '2', botStarts: true });
    expect(r.reason).toBe('illegal');
  });

  it('ALPHANO: OK is required within the READY limit; garbage to TURN is RE', async () => {
    const slow = await runAlphanoGame({ bot: scripted(''), seed: '1', readyMs: 300 });
    expect(slow.reason).toBe('timeout');
    const bad = await runAlphanoGame({ bot: scripted(`write(n===1?'OK':'MOVE 99 1')`), seed: '1', botFirst: true });
    expect(bad.reason).toBe('illegal');
    expect(bad.fault).toBe('bot');
  });

  it('WPI: a bot that never writes loses on time and the end_game text follows the original', async () => {
    const r = await runWpiGame({ bot: scripted(''), seed: '1', botFirst: true, sleepMs: 20, pollMs: 5, readDelayMs: 5, turnMs: 300 });
    expect(r.reason).toBe('timeout');
    expect(r.endGame).toBe('END: simple WINS!  bot LOSES!  out of time');
  });
});
