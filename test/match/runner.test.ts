import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { command, runMatchCommand, type MatchArgs } from '../../src/cli/commands/match.js';
import type { GameRecord } from '../../src/match/game.js';
import { liveClientCount } from '../../src/match/pbrain-client.js';
import { checkRecords, runMatch, schedule } from '../../src/match/runner.js';
import { computeStats } from '../../src/match/stats.js';
import { ENGINES, FAST, childPids, fixture } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'match-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  expect(liveClientCount()).toBe(0);
  expect(childPids()).toEqual([]);
});

/** Run `gomoku match …` through yargs with the real command definition. */
async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  let code = -1;
  await yargs(args)
    .command({
      ...command,
      handler: async (argv) => {
        code = await runMatchCommand(argv as unknown as MatchArgs, { out: (s) => (out += s), err: (s) => (err += s), tty: false });
      },
    })
    .strict()
    .fail((msg, e) => {
      throw e ?? new Error(msg);
    })
    .parseAsync();
  return { code, out, err };
}

const node = process.execPath;
const eng = (name: string, file: string, ...args: string[]) => `${name}=${node} ${ENGINES}${file}.mjs ${args.join(' ')}`;

describe('schedule', () => {
  it('plays each opening twice with colours swapped', () => {
    const a = fixture('random', 'A');
    const b = fixture('random', 'B');
    const ops = [
      { id: 'o1', moves: [] },
      { id: 'o2', moves: [112] },
    ];
    const s = [1, 2, 3, 4, 5].map((g) => schedule(g, ops, [a, b]));
    expect(s.map((x) => `${x.opening.id}:${x.black.name}-${x.white.name}`)).toEqual(['o1:A-B', 'o1:B-A', 'o2:A-B', 'o2:B-A', 'o1:A-B']);
  });
});

describe('runMatch', () => {
  it('goes on when one engine misbehaves every game; every loss has a reason; files agree', async () => {
    const out = join(dir, 'crashy');
    const seen: number[] = [];
    const r = await runMatch({
      engines: [fixture('random', 'good', '--seed', '9'), fixture('crash', 'crashy', '--after', '1')],
      openings: [
        { id: 'empty', moves: [] },
        { id: 'h8', moves: [112] },
      ],
      games: 4,
      concurrency: 2,
      game: FAST,
      outDir: out,
      onGame: (_g, s) => seen.push(s.games),
    });
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(r.records.map((g) => g.game)).toEqual([1, 2, 3, 4]);
    expect(r.records.every((g) => g.reason === 'crash' && g.detail.includes('(crashy) exited with code 3'))).toBe(true);
    expect(r.stats.total).toEqual({ wins: 4, draws: 0, losses: 0 });
    expect(r.stats.faults).toEqual({ good: 0, crashy: 4 });
    expect(checkRecords(r.records, r.stats)).toEqual([]);
    const lines = readFileSync(join(out, 'games.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as GameRecord);
    expect(lines.map((g) => g.game).sort()).toEqual([1, 2, 3, 4]);
    expect(readdirSync(join(out, 'sgf')).sort()).toEqual(['game-0001.sgf', 'game-0002.sgf', 'game-0003.sgf', 'game-0004.sgf']);
    const sgf = readFileSync(join(out, 'sgf', 'game-0002.sgf'), 'utf8');
    expect(sgf).toContain('PB[crashy]PW[good]RE[W+F]');
  });
});

describe('runMatch against each misbehaving engine', () => {
  it.each([
    // crash: see the test above; slow: see game.test.ts
    ['hang', [], 'timeout', 'no reply within 400 ms'],
    ['garbage', ['--after', '1'], 'garbage', "unexpected reply 'I think I will play somewhere nice'"],
    ['occupied', [], 'illegal', 'which is occupied'],
  ] as [string, string[], string, string][])('%s: loses both games with a clear reason, the match completes', async (file, args, reason, text) => {
    const r = await runMatch({
      engines: [fixture('random', 'good'), fixture(file, 'bad', ...args)],
      openings: [{ id: 'h8', moves: [112] }],
      games: 2,
      concurrency: 2,
      game: { ...FAST, tc: { turnMs: 300, matchMs: 0 }, hangToleranceMs: 100 },
    });
    expect(r.records).toHaveLength(2);
    for (const g of r.records) {
      expect(g.reason).toBe(reason);
      expect(g.detail).toContain('(bad)');
      expect(g.detail).toContain(text);
    }
    expect(r.stats.total).toEqual({ wins: 2, draws: 0, losses: 0 });
    expect(r.stats.faults.bad).toBe(2);
    expect(checkRecords(r.records, r.stats)).toEqual([]);
    expect(liveClientCount()).toBe(0);
  });
});

describe('gomoku match (command)', () => {
  it('rejects bad usage with one line and exit 2', async () => {
    for (const [args, msg] of [
      [['match', '--engine', eng('a', 'random')], 'need exactly two --engine NAME=COMMAND options, got 1'],
      [['match', '--engine', eng('a', 'random'), '--engine', eng('a', 'random')], "the two engines need different names (both are 'a')"],
      [['match', '--engine', eng('a', 'random'), '--engine', eng('b', 'random'), '--tc', 'fast'], "bad --tc 'fast'"],
      [['match', '--engine', eng('a', 'random'), '--engine', eng('b', 'random'), '--sprt', '10,0,0.05,0.05'], 'elo1 must be greater than elo0'],
      [
        ['match', '--engine', eng('a', 'random'), '--engine', 'b=/nonexistent/pbrain-x'],
        'engine b (/nonexistent/pbrain-x) does not answer START 15 with OK: could not start (ENOENT)',
      ],
      [['match', '--engine', eng('a', 'random'), '--engine', eng('b', 'random'), '--openings', join(dir, 'none.txt')], '(ENOENT)'],
    ] as [string[], string][]) {
      const r = await cli(args);
      expect(r.code).toBe(2);
      expect(r.err).toContain(msg);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err.startsWith('gomoku: ')).toBe(true);
    }
  });

  it('plays a match with openings, writes records, and --check agrees (and catches tampering)', async () => {
    const ops = join(dir, 'ops.txt');
    writeFileSync(ops, '0,0, 1,1, 0,3\nh8 h9\n0,0\n');
    const out = join(dir, 'run');
    const r = await cli([
      'match',
      '--engine',
      eng('alpha', 'random', '--seed', '1'),
      '--engine',
      eng('beta', 'random', '--seed', '2', '--chatty'),
      '--openings',
      ops,
      '--tc',
      '500/20000',
      '--concurrency',
      '2',
      '--out',
      out,
      '--json',
      '--hang-tolerance',
      '300',
      '--log',
      join(dir, 'run.log'),
    ]);
    expect(r.code).toBe(0);
    const log = readFileSync(join(dir, 'run.log'), 'utf8').split('\n');
    expect(log.some((l) => /^\d+\t1\talpha\t>\tSTART 15$/.test(l))).toBe(true);
    expect(log.some((l) => /^\d+\t6\tbeta\t<\tMESSAGE thinking hard$/.test(l))).toBe(true);
    const summary = JSON.parse(r.out);
    expect(summary.stats.games).toBe(6);
    expect(summary.stats.pairs).toBe(3);
    expect(summary.engines[0]).toMatchObject({ name: 'alpha', about: 'random 1.0' });
    expect(summary.config).toMatchObject({ tc: { turnMs: 500, matchMs: 20000 }, openingCount: 3 });
    expect(r.err).toMatch(/games 6\/6 {2}alpha vs beta {2}W-D-L \d+-\d+-\d+/);
    const records = readFileSync(join(out, 'games.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as GameRecord);
    expect(records).toHaveLength(6);
    const recomputed = computeStats(records, 'alpha', 'beta');
    expect(recomputed.total).toEqual(summary.stats.total);
    expect(records.find((g) => g.game === 3)!.opening).toEqual(['h8', 'h9']);
    const ok = await cli(['match', '--check', out]);
    expect(ok).toMatchObject({ code: 0, out: 'consistent: 6 games match the summary\n' });
    // flip one decisive result: the replay and the summary both disagree now
    const g = records.find((x) => x.result === '1-0' || x.result === '0-1') ?? records[0]!;
    g.result = g.result === '1-0' ? '0-1' : '1-0';
    writeFileSync(join(out, 'games.jsonl'), records.map((x) => JSON.stringify(x)).join('\n') + '\n');
    const bad = await cli(['match', '--check', out]);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain(`game ${g.game}: result ${g.result}, but the moves say`);
    expect(bad.out).toContain('summary: totals');
  });

  it('--swap2 lets the engines open, with the opener alternating', async () => {
    const out = join(dir, 'swap2');
    const r = await cli([
      'match',
      '--engine',
      eng('alpha', 'random', '--swap2', 'swap'),
      '--engine',
      eng('beta', 'random', '--swap2', 'play'),
      '--swap2',
      '--games',
      '2',
      '--tc',
      '500/20000',
      '--out',
      out,
      '--json',
    ]);
    expect(r.code).toBe(0);
    const records = readFileSync(join(out, 'games.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as GameRecord)
      .sort((x, y) => x.game - y.game);
    // game 1: alpha opens, beta stays white; game 2: beta opens, alpha swaps to black
    expect(records.map((g) => [g.black, g.white, g.swap2])).toEqual([
      ['alpha', 'beta', ['alpha placed 3 stones', 'beta stayed white and played stone 4']],
      ['alpha', 'beta', ['beta placed 3 stones', 'alpha took black']],
    ]);
    expect(JSON.parse(r.out).stats.asWhite).toEqual({ wins: 0, draws: 0, losses: 0 });
    expect((await cli(['match', '--check', out])).code).toBe(0);
    const bad = await cli(['match', '--engine', eng('a', 'random'), '--engine', eng('b', 'random'), '--swap2', '--random-openings', '3']);
    expect(bad).toMatchObject({ code: 2 });
  });

  it('--balanced plays the random openings a short search scores near equal, and says how many it drew', async () => {
    const out = join(dir, 'balanced');
    const args = ['match', '--engine', eng('a', 'random'), '--engine', eng('b', 'random'), '--random-openings', '2', '--seed', 'b1', '--tc', '500/20000'];
    const r = await cli([...args, '--balanced', '60', '--balance-nodes', '1500', '--size', '11', '--out', out, '--json']);
    expect(r.code).toBe(0);
    const m = /^balanced openings: 2 kept of (\d+) drawn \(\|score\| <= 60 at 1500 nodes\), [\d.]+ s$/.exec(r.err.split('\n')[0]!);
    expect(m).not.toBeNull();
    const { balancedOpenings } = await import('../../src/match/balanced.js');
    const want = balancedOpenings(2, 11, 'freestyle', 'b1', 3, { maxScore: 60, nodes: 1500 });
    if (!want.ok) throw new Error(want.error);
    expect(Number(m![1])).toBe(want.value.drawn);
    const records = readFileSync(join(out, 'games.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as GameRecord);
    expect(new Set(records.map((g) => g.openingId))).toEqual(new Set(want.value.openings.map((o) => o.id)));
    expect(JSON.parse(r.out).config.openings).toBe('random:2:3:b1:balanced:60:1500');
    expect(await cli(['match', '--engine', eng('a', 'random'), '--engine', eng('b', 'random'), '--balanced', '60'])).toMatchObject({
      code: 2,
      err: 'gomoku: --balanced chooses among --random-openings: give that too\n',
    });
  });

  it('stops early when the SPRT decides, and the exit status says so', async () => {
    const r = await cli([
      'match',
      '--engine',
      eng('good', 'random'),
      '--engine',
      eng('bad', 'occupied'),
      '--games',
      '100',
      '--concurrency',
      '2',
      '--tc',
      '500/5000',
      '--sprt',
      '0,150,0.2,0.2',
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('H1 accepted (pass)');
    expect(r.out).toContain('stopped early by the SPRT');
    const played = Number(/good vs bad: (\d+) games/.exec(r.out)![1]);
    expect(played).toBeGreaterThanOrEqual(8); // 4 won pairs decide elo1 = 150 at alpha = beta = 0.2
    expect(played).toBeLessThan(14);
  });

  it('never overwrites the games of an earlier run; --resume goes on with them', async () => {
    const out = join(dir, 'resume');
    const args = (b = 'beta') => [
      'match',
      '--engine',
      eng('alpha', 'random', '--seed', '1'),
      '--engine',
      eng(b, 'random', '--seed', '2'),
      '--random-openings',
      '3',
      '--seed',
      'r1',
      '--games',
      '6',
      '--size',
      '9',
      '--reply-gap',
      '0',
      '--tc',
      '500/20000',
      '--out',
      out,
    ];
    expect((await cli(args())).code).toBe(0);
    const file = join(out, 'games.jsonl');
    const full = readFileSync(file, 'utf8').trim().split('\n');
    expect(full).toHaveLength(6);
    const byGame = (lines: string[]) => new Map(lines.map((l) => [(JSON.parse(l) as GameRecord).game, l]));
    const first = byGame(full);
    // a run killed while it wrote its third game: two whole lines and a cut-off one
    const kept = [first.get(1)!, first.get(2)!];
    const cut = kept.join('\n') + '\n' + first.get(3)!.slice(0, 40);
    writeFileSync(file, cut);

    const refused = await cli(args());
    expect(refused.code).toBe(2);
    expect(refused.err).toBe(
      `gomoku: ${out} already holds 2 game(s) of a match and a cut-off line: --resume to go on with them (the same engines, openings and --seed), or another --out; nothing was changed\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe(cut);

    const other = await cli([...args('gamma'), '--resume']);
    expect(other.code).toBe(2);
    expect(other.err).toContain('--resume: game 1');
    expect(other.err).toContain('give the same --engine names, openings and --seed');
    expect(readFileSync(file, 'utf8')).toBe(cut);

    const r = await cli([...args(), '--resume', '--json']);
    expect(r.code).toBe(0);
    expect(r.err).toContain(`resuming ${out}: 2 finished game(s) kept, a cut-off last line dropped\n`);
    const after = readFileSync(file, 'utf8').trim().split('\n');
    expect(after).toHaveLength(6);
    const again = byGame(after);
    expect([...again.keys()].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    // the kept games are the same records, byte for byte; the rest were played now
    expect(again.get(1)).toBe(first.get(1));
    expect(again.get(2)).toBe(first.get(2));
    expect(JSON.parse(r.out).stats.games).toBe(6);
    expect(await cli(['match', '--check', out])).toMatchObject({ code: 0, out: 'consistent: 6 games match the summary\n' });
  });
});
