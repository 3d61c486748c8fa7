/**
 * `gomoku play` as a real process: argument errors, dialogues over pipes (CRLF, bad input,
 * EOF), and end-to-end games through every local referee (2 per protocol; the 20-game run
 * is scripts/protocol-games.mjs). Builds dist/ once, here only (one file builds, so
 * parallel test files never race on dist/).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runAlphanoGame } from '../../../src/match/referees/alphano.js';
import { runCodecupGame } from '../../../src/match/referees/codecup.js';
import { runKothGame } from '../../../src/match/referees/koth.js';
import type { GameReport } from '../../../src/match/referees/simple-player.js';
import { runWpiGame } from '../../../src/match/referees/wpi.js';

const root = join(import.meta.dirname, '../../..');

/** The built CLI, as `npx gomoku` runs it. */
const main = join(root, 'dist/cli/main.js');

const cli = (args: string[], input = '') => spawnSync(process.execPath, [main, 'play', ...args], { input, encoding: 'utf8', timeout: 20_000 });
const bot = (protocol: string, extra: string[] = []) => ({ command: process.execPath, args: [main, 'play', '--protocol', protocol, ...extra] });

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', root], { stdio: 'inherit' });
}, 120_000);

const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at /);

describe('gomoku play: arguments', () => {
  it('bad arguments: one line on stderr, exit 2', () => {
    for (const args of [
      ['--protocol', 'nope'],
      ['--protocol', 'koth', '--time', '-3'],
      ['--protocol', 'wpi', '--dir', '/no/such/dir'],
      ['--protocol', 'gomocup', '--warm-up', '-1'],
      ['--protocol', 'gomocup', '--warm-up', '20000'],
    ]) {
      const r = cli(args);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^gomoku: /);
    }
  });
  it('a missing book is one warning, and the bot plays on without it', () => {
    const r = cli(['--protocol', 'gomocup', '--book', '/no/such/book']);
    expect(r.status).toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^gomoku: no opening book/);
  });
  it('--help works', () => {
    const r = cli(['--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/--protocol/);
  });
});

describe('gomoku play: dialogues over pipes', () => {
  it('Gomocup with CRLF: START, INFO, SWAP2BOARD (all three cases), BOARD, TURN, END', () => {
    const input = [
      'START 15',
      'INFO timeout_turn 1000',
      'INFO rule 1',
      'SWAP2BOARD',
      'DONE',
      'SWAP2BOARD',
      '7,7',
      '8,7',
      '8,8',
      'DONE',
      'SWAP2BOARD',
      '7,7',
      '8,7',
      '8,8',
      '6,6',
      '9,9',
      'DONE',
      'BOARD',
      '7,7,1',
      '8,8,2',
      'DONE',
      'TURN 0,0',
      'END',
      '',
    ].join('\r\n');
    const r = cli(['--protocol', 'gomocup'], input);
    expect(r.status).toBe(0);
    const out = r.stdout.trim().split('\n');
    expect(out[0]).toBe('OK');
    expect(out[1]).toMatch(/^\d+,\d+ \d+,\d+ \d+,\d+$/);
    expect(out[2]).toMatch(/^(SWAP|\d+,\d+|\d+,\d+ \d+,\d+)$/);
    expect(out[3]).toMatch(/^(SWAP|\d+,\d+)$/);
    expect(out[4]).toMatch(/^\d+,\d+$/);
    expect(out[5]).toMatch(/^\d+,\d+$/);
    expect(out).toHaveLength(6);
  });

  it('bad input never yields a stack trace or a move: KoTH garbage, CodeCup occupied, Gomocup unknown + occupied', () => {
    const k = cli(['--protocol', 'koth', 'bob', '7'], 'what is this\n');
    expect(k.status).toBe(1);
    expect(k.stdout).toBe('');
    noStack(k.stderr);
    const c = cli(['--protocol', 'codecup'], 'Hh\nHi\nIi\nHh\n');
    expect(c.status).toBe(1);
    expect(c.stdout.trim().split('\n')).toHaveLength(1);
    expect(c.stderr).toMatch(/occupied/);
    noStack(c.stderr);
    const g = cli(['--protocol', 'gomocup'], 'START 15\nFROB\nTURN 7,7\nTURN 7,7\nEND\n');
    const lines = g.stdout.trim().split('\n');
    expect(lines[1]).toMatch(/^UNKNOWN /);
    expect(lines[3]).toMatch(/^ERROR .*occupied/);
    expect(g.status).toBe(0);
  });

  it('EOF mid-game and a truncated BOARD end cleanly; --log keeps a transcript', () => {
    const log = join(mkdtempSync(join(tmpdir(), 'play-')), 't.log');
    const r = cli(['--protocol', 'gomocup', '--log', log], 'START 15\nBOARD\n7,7,1\n');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('OK\n');
    const a = cli(['--protocol', 'alphano', '--log', log], 'READY FIRST\nTURN 20000 20000\n');
    expect(a.status).toBe(0);
    expect(a.stdout).toMatch(/^OK\nMOVE \d+ \d+\n$/);
    const t = readFileSync(log, 'utf8');
    expect(t).toMatch(/< START 15/);
    expect(t).toMatch(/end of input inside BOARD/);
    expect(t).toMatch(/> MOVE \d+ \d+/);
  });

  it('KoTH seeds from its positional seed: same seed, same opening', () => {
    const a = cli(['--protocol', 'koth', 'bob', '12345'], 'A []\nEXIT bob\n');
    const b = cli(['--protocol', 'koth', 'bob', '12345'], 'A []\nEXIT bob\n');
    expect(a.status).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).toMatch(/^\(\d+,\d+\) \(\d+,\d+\) \(\d+,\d+\)\n$/);
  });
});

describe('gomoku play: hostile input, one clear error each (real sessions over pipes)', () => {
  const slow = (args: string[], input: string) => spawnSync(process.execPath, [main, 'play', ...args], { input, encoding: 'utf8', timeout: 90_000 });

  it('a 100 kB unknown Gomocup line is answered and reported in a few hundred characters, not echoed whole', () => {
    const r = cli(['--protocol', 'gomocup', '--verbose'], `START 15\n${'X'.repeat(100_000)}\nEND\n`);
    expect(r.status).toBe(0);
    const out = r.stdout.split('\n');
    expect(out[0]).toBe('OK');
    expect(out[1]).toMatch(/^UNKNOWN command 'X{200}… \(100000 characters\)'$/);
    expect(r.stdout.length).toBeLessThan(400);
    expect(r.stderr.length).toBeLessThan(1000);
  });

  it('ALPHANO TURN 99999999999999 5: the clock is capped with one error line, and the move comes', () => {
    const r = slow(['--protocol', 'alphano', '--book', 'none'], 'READY SECOND\nOPP 8 8 50\nTURN 99999999999999 5\nFINISH\n');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^OK\nMOVE \d+ \d+\n$/);
    expect(r.stderr).toBe('gomoku: alphano: error: TURN clock of 99999999999999 ms is over the maximum of 60000 ms (1 min); read as 60000\n');
  });

  it('Gomocup: an absurd timeout_turn is capped, announced with MESSAGE and one stderr line', () => {
    const r = slow(['--protocol', 'gomocup'], 'START 15\nINFO timeout_turn 99999999999999\nINFO timeout_match 3000\nBEGIN\nEND\n');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^OK\nMESSAGE INFO timeout_turn of 99999999999999 ms is over the maximum of 600000 ms \(10 min\); read as 600000\n\d+,\d+\n$/);
    expect(r.stderr).toBe('gomoku: error: INFO timeout_turn of 99999999999999 ms is over the maximum of 600000 ms (10 min); read as 600000\n');
  });

  it('CodeCup matches whole commands: Query does not quit, Stop is not Start', () => {
    for (const word of ['Query', 'Stop']) {
      const r = cli(['--protocol', 'codecup'], `${word}\n`);
      expect({ word, status: r.status, stdout: r.stdout }).toEqual({ word, status: 1, stdout: '' });
      expect(r.stderr).toBe(`gomoku: codecup: unknown command '${word}' (expected Start, Quit, Zz or a move like Hj)\n`);
    }
  });

  it('ALPHANO: a second READY mid-game is one clear error, the board is not cleared', () => {
    const r = cli(['--protocol', 'alphano'], 'READY FIRST\nTURN 1000 1000\nREADY SECOND\nTURN 1000 1000\nFINISH\n');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^OK\nMOVE \d+ \d+\n$/);
    expect(r.stderr).toBe('gomoku: alphano: READY in the middle of a game (1 stone on the board); the game is not restarted\n');
  });

  it('--time over the sane maximum is refused for every protocol, one line, exit 2', () => {
    for (const protocol of ['koth', 'codecup', 'alphano', 'wpi', 'gomocup']) {
      const r = cli(['--protocol', protocol, '--time', '99999999999']);
      expect({ protocol, status: r.status, stdout: r.stdout }).toEqual({ protocol, status: 2, stdout: '' });
      expect(r.stderr).toMatch(new RegExp(`^gomoku: --time 99999999999 is over the maximum of \\d+ ms for ${protocol} \\(.*\\)\\n$`));
    }
  });

  it('Gomocup INFO max_memory too small for the bot: MESSAGE and one stderr line', () => {
    const r = cli(['--protocol', 'gomocup', '--time', '300'], 'START 15\nINFO max_memory 50000000\nBEGIN\nEND\n');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^OK\nMESSAGE INFO max_memory 50000000 is less than the bot needs \(about \d+ MB\); using the smallest tables\n\d+,\d+\n$/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

// Short per-move times (the real engine uses what it is given; the referees keep their real limits).
describe('gomoku play: games through the local referees', () => {
  const clean = (r: GameReport) => {
    if (r.fault === 'bot') throw new Error(`${r.protocol}: ${r.reason}: ${r.detail}\n${r.botStderr}\n${r.transcript.slice(-6).join('\n')}`);
    expect(['five', 'full']).toContain(r.reason);
  };
  it('KoTH: as A and as B', async () => {
    clean(await runKothGame({ bot: bot('koth', ['--time', '100']), seed: 'e1', botIsA: true }));
    clean(await runKothGame({ bot: bot('koth', ['--time', '100']), seed: 'e2', botIsA: false }));
  });
  it('CodeCup: as starter and as second', async () => {
    clean(await runCodecupGame({ bot: bot('codecup', ['--seed', 'e1', '--time', '3000']), seed: 'e1', botStarts: true, swapRate: 1 }));
    clean(await runCodecupGame({ bot: bot('codecup', ['--seed', 'e2', '--time', '3000']), seed: 'e2', botStarts: false }));
  });
  it('ALPHANO: FIRST and SECOND', async () => {
    clean(await runAlphanoGame({ bot: bot('alphano', ['--time', '100']), seed: 'e1', botFirst: true }));
    clean(await runAlphanoGame({ bot: bot('alphano', ['--time', '100']), seed: 'e2', botFirst: false }));
  });
  it('WPI: first and second (the opponent takes the first stone in one game)', async () => {
    const fast = { sleepMs: 20, pollMs: 5, readDelayMs: 5 };
    const a = await runWpiGame({ bot: bot('wpi', ['--poll-ms', '5', '--time', '200']), seed: 'e1', botFirst: true, swapRate: 1, ...fast });
    clean(a);
    expect(a.history[1]!.split(' ').slice(1)).toEqual(a.history[0]!.split(' ').slice(1)); // the swap happened
    clean(await runWpiGame({ bot: bot('wpi', ['--poll-ms', '5', '--time', '200']), seed: 'e2', botFirst: false, ...fast }));
  });
});
