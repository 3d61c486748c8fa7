/**
 * scripts/teacher-label.mjs against a pbrain fixture whose evaluation is known (100 x own
 * stones + the opponent's), then scripts/tune-eval.mjs reading the labels it wrote.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, root } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'teacher-'));
const run = (script: string, ...args: string[]) => spawnSync(process.execPath, [join(root, 'scripts', script), ...args], { encoding: 'utf8', timeout: 60_000 });
const teacher = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, 'test', 'fixtures', 'engines', 'teacher.mjs'))}`;

const games = [
  { game: 1, size: 15, rule: 'freestyle', opening: ['h8', 'h9', 'i9'], moves: ['j10', 'g8', 'k11', 'l12', 'j9', 'k9', 'g10'], result: '0-1' },
  { game: 2, size: 15, rule: 'freestyle', opening: ['h8'], moves: ['i9', 'g7', 'j10', 'f6', 'k11', 'e5', 'l12', 'd4'], result: '1-0' },
].map((g) => ({ ...g, moves: g.moves.map((move) => ({ move, ms: 1 })) }));

describe('teacher-label', () => {
  beforeAll(() => ensureBuilt(), 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("labels every position after --skip with the engine's last Eval, the side to move's view", () => {
    const input = join(dir, 'games.jsonl');
    writeFileSync(input, games.map((g) => JSON.stringify(g)).join('\n') + '\n');
    const out = join(dir, 'labelled.jsonl');
    const r = run('teacher-label.mjs', input, '--engine', teacher, '--out', out, '--workers', '2', '--nodes', '500', '--gap', '0');
    expect(r.status, r.stderr).toBe(0);
    const back = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(back.map((g) => g.game)).toEqual([1, 2]);
    for (const g of back) {
      const skip = 2;
      const seq: string[] = [...g.opening, ...g.moves.map((m: { move: string }) => m.move)];
      g.moves.forEach((m: { move: string; teacher?: number; teacherMove?: string }, i: number) => {
        const stones = g.opening.length + i;
        // the teacher's own answer there: a cell that is empty in that position
        if (i >= skip) {
          expect(m.teacherMove).toMatch(/^[a-o]\d+$/);
          expect(seq.slice(0, stones)).not.toContain(m.teacherMove);
        }
        if (i < skip) expect(m.teacher).toBeUndefined();
        else if (stones === 7) expect(m.teacher).toBe(-30000);
        // the side to move has floor(stones / 2) stones
        else expect(m.teacher).toBe(100 * Math.floor(stones / 2) + Math.ceil(stones / 2));
      });
    }
    const t = run('tune-eval.mjs', out, '--dry-run', '--json', '--iterations', '3', '--validation', '0', '--teacher-weight', '0.5');
    expect(t.status, t.stderr).toBe(0);
    const report = JSON.parse(t.stdout);
    expect(report.teacherLabels).toBeGreaterThan(0);
    expect(report.teacherLabels).toBe(report.positions);
  }, 120_000);

  it('fails with one line when the engine errs', () => {
    const input = join(dir, 'one.jsonl');
    writeFileSync(input, JSON.stringify(games[0]) + '\n');
    const bad = `${JSON.stringify(process.execPath)} -e "process.stdin.on('data', () => process.stdout.write('ERROR nope\\\\n'))"`;
    const r = run('teacher-label.mjs', input, '--engine', bad, '--out', join(dir, 'x.jsonl'), '--gap', '0');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/teacher-label: engine \d: ERROR nope/);
  });

  it('fails with one line when the engine dies between positions', () => {
    const input = join(dir, 'one.jsonl');
    writeFileSync(input, JSON.stringify(games[0]) + '\n');
    // answers START and the first position, then exits while the script waits out --gap
    const dies = `${JSON.stringify(process.execPath)} -e "require('readline').createInterface({ input: process.stdin }).on('line', (l) => { if (l.startsWith('START')) console.log('OK'); if (l === 'DONE') { console.log('7,7'); setTimeout(() => process.exit(3), 20); } })"`;
    const r = run('teacher-label.mjs', input, '--engine', dies, '--out', join(dir, 'y.jsonl'), '--workers', '1', '--gap', '300');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/teacher-label: engine 1 exited \(3\)\n$/);
  });
});
