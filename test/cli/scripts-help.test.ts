/**
 * Every script a user runs (npm run bench, bench:solver, bench:verify, bench:book, bench:first-answer and the ones the README
 * names) answers --help with its usage and exit 0, without running anything; a bad option of
 * bench:solver is one line and exit 2, not a stack trace.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it, beforeAll } from 'vitest';
import { ensureBuilt, root } from './run.js';

const scripts = ['bench', 'bench-board', 'bench-book', 'bench-first-answer', 'bench-serve', 'bench-solver', 'bench-verify', 'book-yxdb-sample', 'chain-certificate', 'check-deps', 'postmortem', 'protocol-games', 'selfplay', 'solver-signature', 'solver-stages'];

const run = (name: string, ...args: string[]) =>
  spawnSync(process.execPath, [join(root, 'scripts', `${name}.mjs`), ...args], { encoding: 'utf8', timeout: 20_000 });

describe('scripts --help', () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it.each(scripts)('%s --help prints its usage and exits 0', (name) => {
    const r = run(name, '--help');
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.length).toBeGreaterThan(40);
    expect(r.stdout).not.toMatch(/^\s*(\/\/|\*|#!)/m);
  });

  it('bench-solver rejects an unknown option in one line with exit 2', () => {
    const r = run('bench-solver', '--bogus');
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual(["bench-solver: Unknown option '--bogus' (see --help)"]);
    expect(r.stdout).toBe('');
  });

  it('chain-certificate rejects a bad size in one line with exit 2', () => {
    const r = run('chain-certificate', '12');
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
