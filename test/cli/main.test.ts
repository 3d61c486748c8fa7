/**
 * The registry's conventions, for every registered command (end to end, like show.test.ts):
 * `--help` works, and an unknown option gives exactly one `gomoku: ` line and exit 2.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const entry = join(root, 'dist', 'cli', 'main.js');

function newestSource(dir: string): number {
  let t = 0;
  for (const f of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, f.name);
    t = Math.max(t, f.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return t;
}

function gomoku(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [entry, ...args], { encoding: 'utf8', env: { ...process.env, GOMOKU_DEBUG: '' } }, (e, stdout, stderr) => {
      resolve({ code: e ? ((e as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

let commands: string[] = [];

beforeAll(async () => {
  if (!existsSync(entry) || statSync(entry).mtimeMs < newestSource(join(root, 'src'))) {
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', root], { stdio: 'inherit' });
    execFileSync(process.execPath, [join(root, 'scripts', 'postbuild.mjs')]);
  }
  const help = await gomoku('--help');
  commands = [...help.stdout.matchAll(/^ {2}gomoku ([a-z][\w-]*)/gm)].map((m) => m[1]!);
});

describe('every registered command', () => {
  test('the registry lists the commands (at least show)', () => {
    expect(commands).toContain('show');
    expect(new Set(commands).size).toBe(commands.length);
  });

  test('--help: exit 0, usage on stdout, nothing on stderr', async () => {
    const runs = await Promise.all(commands.map((c) => gomoku(c, '--help')));
    runs.forEach((r, i) => {
      expect({ command: commands[i], code: r.code, stderr: r.stderr }).toEqual({ command: commands[i], code: 0, stderr: '' });
      expect(r.stdout).toMatch(new RegExp(`^gomoku ${commands[i]}\\b`));
    });
  });

  test('an unknown option: exactly one line, exit 2, no stack', async () => {
    const runs = await Promise.all(commands.map((c) => gomoku(c, 'h8', '--no-such-option', '1')));
    runs.forEach((r, i) => {
      const lines = r.stderr.trimEnd().split('\n');
      expect({ command: commands[i], code: r.code, lines: lines.length }).toEqual({ command: commands[i], code: 2, lines: 1 });
      expect(lines[0]).toMatch(/^gomoku: /);
      expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
    });
  });
});

test('--version and the unknown-argument message name the token once', async () => {
  const [v, u] = await Promise.all([gomoku('--version'), gomoku('show', '--bogus-opt')]);
  expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  expect(u).toEqual({ code: 2, stdout: '', stderr: 'gomoku: Unknown argument: bogus-opt\n' });
});
