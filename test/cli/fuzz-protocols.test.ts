/**
 * scripts/fuzz-protocols.mjs on a short run: every protocol's sessions run against the built
 * bot and come back clean (its figures for a long run are in docs/benchmarks.md); a replay
 * prints the session's transcript; a bad option is one line and exit 2.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, root } from './run.js';

const fuzz = (...args: string[]) => spawnSync(process.execPath, [join(root, 'scripts', 'fuzz-protocols.mjs'), ...args], { encoding: 'utf8', timeout: 240_000 });

describe('scripts/fuzz-protocols.mjs', () => {
  beforeAll(() => ensureBuilt(), 300_000);

  it('a short run over all five protocols: no crash, no illegal move, no hang, no wrong reaction', () => {
    const r = fuzz('--sessions', '2', '--seed', 'test', '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const o = JSON.parse(r.stdout) as { totals: Record<string, number>; protocols: Record<string, { sessions: number }> };
    expect(Object.keys(o.protocols)).toEqual(['koth', 'codecup', 'alphano', 'wpi', 'gomocup']);
    expect(o.totals).toMatchObject({ sessions: 10, crashes: 0, illegal: 0, hangs: 0, wrong: 0 });
    expect(o.totals.lines).toBeGreaterThan(10);
  }, 240_000);

  it('--replay prints one session whole; a bad option is one line, exit 2', () => {
    const r = fuzz('--seed', 'test', '--replay', 'gomocup:0');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^> START (15|20)\n< OK\n/);
    const bad = fuzz('--replay', 'nope');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe("fuzz-protocols: --replay needs PROTOCOL:INDEX, e.g. gomocup:7, got 'nope' (see --help)\n");
  }, 120_000);
});
