/**
 * The registry's conventions, for every registered command (end to end, like show.test.ts):
 * `--help` works, and an unknown option gives exactly one `gomoku: ` line and exit 2; and
 * what the README promises of every command (positions as several words, bad numbers named
 * as typed, `--size` a number in every help).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt, gomokuAsync } from './run.js';

let commands: string[] = [];

beforeAll(async () => {
  ensureBuilt();
  const help = await gomokuAsync('--help');
  commands = [...help.stdout.matchAll(/^ {2}gomoku ([a-z][\w-]*)/gm)].map((m) => m[1]!);
});

describe('every registered command', () => {
  test('the registry lists the commands (at least show)', () => {
    expect(commands).toContain('show');
    expect(new Set(commands).size).toBe(commands.length);
  });

  test('--help: exit 0, usage on stdout, nothing on stderr', async () => {
    const runs = await Promise.all(commands.map((c) => gomokuAsync(c, '--help')));
    runs.forEach((r, i) => {
      expect({ command: commands[i], code: r.code, stderr: r.stderr }).toEqual({ command: commands[i], code: 0, stderr: '' });
      expect(r.stdout).toMatch(new RegExp(`^gomoku ${commands[i]}\\b`));
    });
  });

  test('an unknown option: exactly one line, exit 2, no stack', async () => {
    const runs = await Promise.all(commands.map((c) => gomokuAsync(c, 'h8', '--no-such-option', '1')));
    runs.forEach((r, i) => {
      const lines = r.stderr.trimEnd().split('\n');
      expect({ command: commands[i], code: r.code, lines: lines.length }).toEqual({ command: commands[i], code: 2, lines: 1 });
      expect(lines[0]).toMatch(/^gomoku: /);
      expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
    });
  });
});

test('--version and the unknown-argument message name the token once', async () => {
  const [v, u] = await Promise.all([gomokuAsync('--version'), gomokuAsync('show', '--bogus-opt')]);
  expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  expect(u).toEqual({ code: 2, stdout: '', stderr: 'gomoku: Unknown argument: bogus-opt\n' });
});

describe('README promises that hold for every command', () => {
  test('every command that takes a position takes it as several words too, with the same answer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gomoku-words-'));
    // the shipped book holds a VCF win for black here (book proof needs a decided position)
    const moves = ['h8', 'h9', 'g9', 'g8', 'e11', 'c13'];
    const cases: [string[], string[]][] = [
      [['show'], []],
      [['move'], ['--nodes', '3000', '--seed', '1', '--json', '--book', 'none']],
      [['analyze'], ['--depth', '3', '--nodes', '3000', '--seed', '1', '--json', '--book', 'none']],
      [['solve'], ['--json']],
      [['book', 'query'], ['--json']],
      [
        ['book', 'proof'],
        ['--out', '-OUT-'],
      ],
    ];
    const runs = await Promise.all(
      cases.flatMap(([cmd, opts]) => [
        gomokuAsync(...cmd, moves.join(' '), ...opts.map((o) => o.replace('-OUT-', join(dir, `${cmd.join('-')}-one`)))),
        gomokuAsync(...cmd, ...moves, ...opts.map((o) => o.replace('-OUT-', join(dir, `${cmd.join('-')}-many`)))),
      ]),
    );
    const same = (s: string) =>
      s
        .replace(/"ms":\d+/g, '')
        .replace(/"nps":\d+/g, '')
        .replace(/-(one|many)\b/g, '');
    cases.forEach(([cmd], i) => {
      const [one, many] = [runs[2 * i]!, runs[2 * i + 1]!];
      expect({ cmd, code: many.code, stderr: many.stderr }).toEqual({ cmd, code: 0, stderr: '' });
      expect(same(many.stdout)).toBe(same(one.stdout));
    });
    expect(readFileSync(join(dir, 'book-proof-many'), 'utf8')).toBe(readFileSync(join(dir, 'book-proof-one'), 'utf8'));
  });

  test('a bad number names the token as typed (--time abc, --time -5), one line, exit 2', async () => {
    const cert = join(mkdtempSync(join(tmpdir(), 'gomoku-time-')), 'c.jsonl');
    writeFileSync(cert, '');
    const commands: string[][] = [
      ['solve', 'h8'],
      ['move', 'h8'],
      ['analyze', 'h8'],
      ['verify', cert],
      ['book', 'verify'],
      ['play', '--protocol', 'koth'],
    ];
    const runs = await Promise.all(commands.flatMap((c) => ['abc', '-5'].map((t) => gomokuAsync(...c, '--time', t))));
    runs.forEach((r, i) => {
      const token = i % 2 === 0 ? 'abc' : '-5';
      const cmd = commands[Math.floor(i / 2)]!.join(' ');
      expect({ cmd, code: r.code, stdout: r.stdout }).toEqual({ cmd, code: 2, stdout: '' });
      expect(r.stderr).toMatch(new RegExp(`^gomoku: --time must be [^\\n]*, got '${token}'\\n$`));
    });
    const size = await Promise.all(
      [['show', 'h8'], ['solve', 'h8'], ['book', 'build', '--book', join(tmpdir(), 'never.db')], ['match']].map((c) => gomokuAsync(...c, '--size', 'abc')),
    );
    for (const r of size) expect(r).toMatchObject({ code: 2, stderr: "gomoku: bad --size 'abc' (expected 5..22)\n" });
  });

  test('--size is a number in every --help that has it', async () => {
    const all = [...commands.filter((c) => c !== 'book').map((c) => [c]), ...['query', 'stats', 'export', 'build', 'proof', 'verify'].map((c) => ['book', c])];
    const helps = await Promise.all(all.map((c) => gomokuAsync(...c, '--help')));
    const withSize = helps
      .map((h, i) => ({ cmd: all[i]!.join(' '), line: h.stdout.split('\n').find((l) => /^\s+--size\b/.test(l)) }))
      .filter((h) => h.line !== undefined);
    expect(withSize.map((h) => h.cmd)).toEqual(expect.arrayContaining(['show', 'move', 'analyze', 'solve', 'match', 'book query', 'book build', 'book proof']));
    for (const h of withSize) expect({ cmd: h.cmd, number: /\[number\]/.test(h.line!) }).toEqual({ cmd: h.cmd, number: true });
  });
});
