/**
 * scripts/blunder-suite.mjs on a hand-made match record and post-mortem: White ("ours")
 * ignored Black's open three at ply 6; today's engine blocks it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, root } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'blunder-suite-'));
const script = join(root, 'scripts', 'blunder-suite.mjs');

describe('scripts/blunder-suite.mjs', () => {
  beforeAll(() => {
    ensureBuilt();
    const moves = ['h8', 'a1', 'h9', 'a2', 'h10', 'a3', 'h11', 'a4', 'h12'];
    const game = {
      game: 1,
      openingId: 't1',
      opening: [],
      black: 'other',
      white: 'ours',
      size: 15,
      rule: 'freestyle',
      moves: moves.map((move) => ({ move, ms: 10 })),
    };
    writeFileSync(join(dir, 'games.jsonl'), JSON.stringify(game) + '\n');
    const pm = { summary: {}, findings: [{ kind: 'blunder', game: 1, ply: 6, move: 'a3', opponentWins: 'h11', method: 'vcf', ms: 3 }] };
    writeFileSync(join(dir, 'pm.json'), JSON.stringify(pm));
    writeFileSync(join(dir, 'bad.json'), '{"no findings"');
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('replays the blunder: the engine now blocks, and the blocks are the moves that hold', () => {
    const r = spawnSync(
      process.execPath,
      [script, '--postmortem', join(dir, 'pm.json'), '--match', dir, '--nodes', '20000', '--check-nodes', '50000', '--alternatives', '--json'],
      {
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ positions: 1, refuted: 0, lostAnyway: 0 });
    expect(out.rows[0]).toMatchObject({ game: 1, ply: 6, played: 'a3', refuted: false });
    expect(out.rows[0].held).toEqual(expect.arrayContaining(['h7', 'h11']));
    expect(out.rows[0].held).toContain(out.rows[0].now);
  });

  it('a file that is not a post-mortem is one line and exit 2', () => {
    const r = spawnSync(process.execPath, [script, '--postmortem', join(dir, 'bad.json'), '--match', dir], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
