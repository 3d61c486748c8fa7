/**
 * scripts/postmortem.mjs on a hand-made match record: White ("ours") ignores Black's open
 * three (a blunder: Black then wins by a VCF), and later ignores its own five-in-one.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, root } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'postmortem-'));
const game = (n: number, opening: string[], moves: string[], result: string, black: string, white: string) => ({
  game: n,
  openingId: `t${n}`,
  opening,
  black,
  white,
  size: 15,
  rule: 'freestyle',
  tc: { turnMs: 100, matchMs: 0 },
  moves: moves.map((move) => ({ move, ms: 10 })),
  result,
  reason: 'five',
  detail: '',
  timeMs: { black: 0, white: 0 },
  startedAt: '2026-01-01T00:00:00.000Z',
});

describe('scripts/postmortem.mjs', () => {
  beforeAll(() => {
    ensureBuilt();
    const games = [
      // ply 6: white's a3 leaves black's open three h8-h10 alone; black wins by h11 and h12
      game(1, [], ['h8', 'a1', 'h9', 'a2', 'h10', 'a3', 'h11', 'a4', 'h12'], '1-0', 'other', 'ours'),
      // ply 8: white (ours) has a four a1-a4 and plays elsewhere instead of a5
      game(2, [], ['h8', 'a1', 'o15', 'a2', 'o14', 'a3', 'o13', 'a4', 'n15', 'c9', 'm15', 'a5'], '0-1', 'other', 'ours'),
    ];
    writeFileSync(join(dir, 'games.jsonl'), games.map((g) => JSON.stringify(g)).join('\n') + '\n');
    // the match transcript of game 1 with our bot's DEBUG lines: two searched moves, a forced one, a VCF
    const debug = [
      'depth 8 score 10 nodes 9000 source alphabeta ms 10 search-from 2 stop mate',
      'depth 9 score -40 nodes 9000 source defence',
      'depth 3 score 0 nodes 20 source alphabeta',
      'depth 3 score 29990 nodes 5 source vcf',
    ];
    writeFileSync(join(dir, 'match.log'), debug.map((d, i) => `${i * 10}\t1\tours\t<\tDEBUG ${d}\n${i * 10 + 1}\t1\tother\t<\tDEBUG ${d}`).join('\n') + '\n');
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the blunder and the missed win, and counts them per game', () => {
    const r = spawnSync(process.execPath, [join(root, 'scripts', 'postmortem.mjs'), dir, '--engine', 'ours', '--workers', '1', '--json'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.summary).toMatchObject({ engine: 'ours', games: 2, losses: 1, lostAfterBlunder: 1 });
    const blunder = out.findings.find((f: { kind: string; game: number }) => f.kind === 'blunder' && f.game === 1);
    expect(blunder).toMatchObject({ ply: 6, move: 'a3' });
    expect(['h11', 'h7']).toContain(blunder.opponentWins);
    const missed = out.findings.find((f: { kind: string }) => f.kind === 'missed-win');
    expect(missed).toMatchObject({ game: 2, ply: 10, move: 'c9', winningMove: 'a5' });
  });

  it('with --log, the share of the turn used by moves the engine thought about', () => {
    const r = spawnSync(
      process.execPath,
      [join(root, 'scripts', 'postmortem.mjs'), dir, '--engine', 'ours', '--games', '1', '--log', join(dir, 'match.log'), '--json'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(r.status).toBe(0);
    // 4 moves of ours in game 1, each 10 ms of a 100-ms turn; 2 of them searched (depth > 3)
    // why they ended early: the newer DEBUG line says how alpha-beta stopped, the older does not
    expect(JSON.parse(r.stdout).summary.timeUse).toEqual({
      moves: 4,
      thought: 2,
      medianPercent: 10,
      p10Percent: 10,
      atLeast85Percent: 0,
      over100Percent: 0,
      under85ByStop: { mate: 1, unknown: 1 },
    });
  });

  it('a missing directory is one line and exit 2', () => {
    const r = spawnSync(process.execPath, [join(root, 'scripts', 'postmortem.mjs'), join(dir, 'nope')], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
