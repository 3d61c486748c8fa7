/**
 * The registry's conventions, for every registered command (end to end, like show.test.ts):
 * `--help` works, and an unknown option gives exactly one `gomoku: ` line and exit 2.
 */
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
