/**
 * scripts/tune-order.mjs on games whose teacher follows a rule the features can express: it
 * always answers next to the opponent's last stone, in the first such quiet cell. The fitted
 * order must put that cell first far more often than today's order does, and the weights it
 * writes must say why (the nearest distance bin to his last move weighs most).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { Board } from '../../src/core/board.js';
import { makePoint } from '../../src/core/notation.js';
import { Geometry } from '../../src/search/eval.js';
import { GEN_QUIET, MoveGen, TACTICAL_SCORE } from '../../src/search/movegen.js';
import { ensureBuilt, root } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'tune-order-'));
const run = (...args: string[]) => spawnSync(process.execPath, [join(root, 'scripts', 'tune-order.mjs'), ...args], { encoding: 'utf8', timeout: 120_000 });

/** Random games; each quiet position's teacherMove is its first quiet candidate next to the last stone. */
function games(n: number): string {
  const rnd = seedrandom('tune-order');
  const lines: string[] = [];
  for (let g = 0; g < n; g++) {
    const b = new Board(15, 'freestyle');
    const gen = new MoveGen(b, new Geometry(15));
    const buf = new Int16Array(b.area);
    const sc = new Int32Array(b.area);
    const opening = [112, 112 + 16, 112 - 14];
    for (const q of opening) {
      b.play(q);
      gen.onPlay(q);
    }
    const moves: { move: string; teacherMove?: string }[] = [];
    for (let i = 0; i < 24 && !b.lastMoveWon(); i++) {
      const n = gen.generate(buf, sc, 0);
      if (n <= 0) break;
      const last = b.history[b.ply - 1]!;
      const near = (q: number) => Math.max(Math.abs((q % 15) - (last % 15)), Math.abs(Math.floor(q / 15) - Math.floor(last / 15))) === 1;
      let teacher = -1;
      for (let k = 0; k < n && teacher < 0 && gen.kind === GEN_QUIET; k++) if (sc[k]! < TACTICAL_SCORE && near(buf[k]!)) teacher = buf[k]!;
      // the game itself goes on at random among the candidates
      const q = buf[Math.floor(rnd() * n)]!;
      moves.push({ move: makePoint(q, 15), ...(teacher >= 0 ? { teacherMove: makePoint(teacher, 15) } : {}) });
      b.play(q);
      gen.onPlay(q);
    }
    lines.push(JSON.stringify({ game: g + 1, size: 15, rule: 'freestyle', opening: opening.map((q) => makePoint(q, 15)), moves, result: '*' }));
  }
  return lines.join('\n') + '\n';
}

describe('tune-order', () => {
  beforeAll(() => ensureBuilt(), 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("learns a teacher who always answers next to the opponent's last stone", () => {
    const input = join(dir, 'labelled.jsonl');
    writeFileSync(input, games(60));
    const out = join(dir, 'order-weights.ts');
    const r = run(input, '--out', out, '--iterations', '150', '--rate', '0.1', '--json');
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.train).toBeGreaterThan(300);
    expect(report.held).toBeGreaterThan(20);
    // (the first of the near cells in scan order: the features see only that it is near)
    expect(report.fitted.held.top1).toBeGreaterThan(report.today.held.top1 + 0.1);
    expect(report.heldLogLoss).toBeLessThan(report.uniformLogLoss);
    const text = readFileSync(out, 'utf8');
    const near = JSON.parse(/nearLast: (\[[^\]]*\])/.exec(text)![1]!) as number[];
    expect(near).toHaveLength(4);
    expect(near[0]).toBe(Math.max(...near));
    expect(near[0]! - near[3]!).toBeGreaterThan(100);
  });

  it('a file without teacher moves is one line and exit 2', () => {
    const input = join(dir, 'bare.jsonl');
    writeFileSync(input, JSON.stringify({ game: 1, size: 15, opening: ['h8'], moves: [{ move: 'i9' }], result: '*' }) + '\n');
    const r = run(input, '--dry-run');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^tune-order: no usable positions \(0 labelled/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
