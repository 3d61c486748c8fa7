/**
 * scripts/check-deps.mjs, the architecture lint of `npm run lint`: run on small package trees
 * written here, it must report each kind of module state and clock read in core/ and search/
 * (and only there), and pass what the rule allows; on this repository it must pass.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from './run.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Lint a tree of `files` (path under src/ -> text): exit status and the problem lines. */
function lint(files: Record<string, string>): { status: number | null; problems: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'check-deps-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    const file = join(dir, 'src', path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'check-deps.mjs'), dir], { encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, problems: r.stderr.split('\n').filter((l) => /^src\//.test(l)) };
}

describe('check-deps: core and search keep no state and read no clock', () => {
  it('passes what the rule allows', () => {
    const r = lint({
      'core/tables.ts': `
        import { lazyTables } from './lazy.js';
        export const SIZE = 15;
        export const NAMES: readonly string[] = ['a', 'b'];
        // a table filled by top-level code at load, then only read
        export const SQUARES = new Int32Array(16);
        for (let i = 0; i < 16; i++) SQUARES[i] = i * i;
        { SQUARES[0] = 0; }
        export const CUBES = (() => { const t = new Int32Array(8); for (let i = 0; i < 8; i++) t[i] = i * i * i; return t; })();
        const lazy = lazyTables((k: number) => new Uint8Array(k));
        export function table(k: number): Uint8Array { return lazy.get(k); }
        export function square(i: number): number { return SQUARES[i]!; }
        // a local of the same name as a module const is the function's own
        export function fill(n: number): Int32Array { const SQUARES = new Int32Array(n); SQUARES[0] = 1; return SQUARES; }
        // state in an object the caller holds, and a clock the caller gives
        export class Counter { private n = 0; private readonly seen = new Map<number, number>(); tick(now: () => number): number { this.seen.set(this.n, now()); return ++this.n; } }
        export function stamp(d: Date): number { return d.getTime(); }
      `,
    });
    expect(r.problems).toEqual([]);
    expect(r.status).toBe(0);
  });

  it('reports each kind of module state and clock, with its line', () => {
    const r = lint({
      'search/bad.ts': [
        'export let nodes = 0;', // 1
        'var legacy = 1;', // 2
        'class Searcher { run(): void {} }', // 3
        'const shared = new Searcher();', // 4
        'const cache = new Map<string, number>();', // 5
        'const ROWS = new Int16Array(64);', // 6
        'export function remember(k: string): void { cache.set(k, 1); }', // 7
        'export function put(i: number): void { ROWS[i] = 1; }', // 8
        'export function bump(i: number): void { ROWS[i]!++; }', // 9
        'export function viaAlias(): void { const per = ROWS; per[0] = 2; }', // 10
        'export function forget(k: string): void { cache.delete(k); }', // 11
        'export function t0(): number { return Date.now(); }', // 12
        'export function t1(): number { return performance.now(); }', // 13
        'export function t2(): number { return globalThis.performance.now(); }', // 14
        'export function later(f: () => void): void { setTimeout(f, 10); }', // 15
        'export class Holder { static cache = new Map<string, number>(); }', // 16
        'export function use(): void { shared.run(); }', // 17 (the instance itself is line 4)
      ].join('\n'),
    });
    expect(r.status).toBe(1);
    const lines = r.problems.map((p) => Number(/^src\/search\/bad\.ts:(\d+):/.exec(p)?.[1])).sort((a, b) => a - b);
    expect(lines).toEqual([1, 2, 4, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
    const text = r.problems.join('\n');
    expect(text).toContain('a module-level let nodes');
    expect(text).toContain('a module-level var legacy');
    expect(text).toContain('a module-level instance of Searcher');
    expect(text).toContain('writes to the module-level cache (calls set()');
    expect(text).toContain('writes to the module-level ROWS (assigns to it');
    expect(text).toContain('writes to the module-level ROWS (increments it');
    expect(text).toContain('writes to the module-level ROWS through per');
    expect(text).toContain('Date (take a now() function from the caller)');
    expect(text).toContain('globalThis.performance');
    expect(text).toContain('setTimeout');
    expect(text).toContain('a static property cache');
  });

  it('leaves the other layers alone', () => {
    const r = lint({
      'book/queue.ts':
        'export let jobs = 0;\nconst seen = new Map<number, number>();\nexport function add(): number { seen.set(jobs, Date.now()); return ++jobs; }\n',
    });
    expect(r.problems).toEqual([]);
    expect(r.status).toBe(0);
  });

  it('layers: protocols may import bot, bot may import book and search, not protocols', () => {
    const r = lint({
      'book/probe.ts': 'export const probe = 1;\n',
      'bot/game.ts': "import { probe } from '../book/probe.js';\nimport { clip } from '../protocols/common.js';\nexport const game = probe + clip;\n",
      'protocols/common.ts': "import { game } from '../bot/game.js';\nexport const clip = game;\n",
    });
    expect(r.problems).toEqual([expect.stringMatching(/^src\/bot\/game\.ts:2: bot may not import protocols/)]);
    expect(r.status).toBe(1);
  });

  it('passes on this repository', () => {
    const r = spawnSync(process.execPath, [join(root, 'scripts', 'check-deps.mjs')], { encoding: 'utf8', timeout: 30_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/statelessness ok/);
  });
});
