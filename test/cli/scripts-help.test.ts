/**
 * Every script a user runs (each scripts/*.mjs with a shebang line) answers --help with its usage and exit 0, without running anything; a bad option of
 * bench:solver is one line and exit 2, not a stack trace.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, beforeAll } from 'vitest';
import { ensureBuilt, root } from './run.js';

/** Modules the scripts import, and the build's own step: not run by users. */
const NOT_SCRIPTS = new Set(['usage', 'stats', 'postbuild']);
const scripts = readdirSync(join(root, 'scripts'))
  .filter((f) => f.endsWith('.mjs'))
  .map((f) => f.slice(0, -4))
  .filter((f) => !NOT_SCRIPTS.has(f))
  .sort();

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

  // --help runs nothing, so a module a script takes from dist/ is only found missing when a
  // user runs it (datagen once imported a module that a refactor had renamed)
  it('every dist module a script destructures exists and exports those names', async () => {
    let checked = 0;
    for (const name of scripts) {
      const text = readFileSync(join(root, 'scripts', `${name}.mjs`), 'utf8');
      for (const m of text.matchAll(/const \{([^}]*)\} = await ([^;]*);/g)) {
        const literals = [...m[2]!.matchAll(/'([^']*)'/g)].map((x) => x[1]!);
        if (!literals.some((l) => l.endsWith('.js'))) continue; // a package
        const rel = literals.join('/').replace(/^(\.\.\/)?dist\//, '');
        const file = join(root, 'dist', rel);
        expect(existsSync(file), `${name}.mjs imports ${rel}`).toBe(true);
        const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
        for (const part of m[1]!.split(',')) {
          const exported = part.split(':')[0]!.trim();
          if (exported) expect(mod[exported], `${name}.mjs takes ${exported} from ${rel}`).toBeDefined();
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
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
