/**
 * The evaluation's data pipeline end to end: scripts/datagen.mjs plays a few seeded self-play
 * games into a games file (with the search's score of every move), and scripts/tune-eval.mjs
 * reads them, mixes those scores into its labels and reports a fit (dry run).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, root } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'datagen-'));
const run = (script: string, ...args: string[]) =>
  spawnSync(process.execPath, [join(root, 'scripts', script), ...args], { encoding: 'utf8', timeout: 120_000 });

describe('datagen and tune-eval', () => {
  beforeAll(() => ensureBuilt(), 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('plays seeded games the tuner reads', () => {
    const out = join(dir, 'games.jsonl');
    const g = run('datagen.mjs', '--out', out, '--games', '3', '--nodes', '300', '--threads', '2', '--seed', 't');
    expect(g.status, g.stderr).toBe(0);
    const games = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // in game order, whichever thread finished first
    expect(games.map((rec) => rec.game)).toEqual([1, 2, 3]);
    for (const rec of games) {
      expect(rec.opening).toHaveLength(3);
      expect(['1-0', '0-1', '1/2-1/2']).toContain(rec.result);
      expect(rec.moves.length).toBeGreaterThan(4);
    }
    for (const rec of games) for (const m of rec.moves) expect(typeof m.score).toBe('number');
    // the same seed and node limit, the same games
    const again = join(dir, 'again.jsonl');
    expect(run('datagen.mjs', '--out', again, '--games', '3', '--nodes', '300', '--threads', '1', '--seed', 't').status).toBe(0);
    expect(readFileSync(again, 'utf8')).toBe(readFileSync(out, 'utf8'));
    const t = run('tune-eval.mjs', out, '--dry-run', '--json', '--iterations', '3', '--validation', '3', '--search-weight', '0.5');
    expect(t.status, t.stderr).toBe(0);
    const report = JSON.parse(t.stdout);
    expect(report.games).toBe(3);
    expect(report.positions).toBeGreaterThan(10);
    // every position's label is mixed with the score datagen recorded for it
    expect(report.searchLabels).toBe(report.positions);
    expect(report.after.train).toBeGreaterThan(0);
  }, 120_000);
});
