/**
 * End to end: the real `node dist/cli/main.js` as a child process. Builds dist/ first when it
 * is missing or older than the sources.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt, gomoku, gomokuAsync, root } from './run.js';

beforeAll(() => {
  ensureBuilt();
});

const EXPECTED_H8_I9_H9 = `   a b c d e f g h i j k l m n o
15 . . . . . . . . . . . . . . . 15
14 . . . . . . . . . . . . . . . 14
13 . . . . . . . . . . . . . . . 13
12 . . . . . . . . . . . . . . . 12
11 . . . . . . . . . . . . . . . 11
10 . . . . . . . . . . . . . . . 10
 9 . . . . . . .[X]O . . . . . .  9
 8 . . . . . . . X . . . . . . .  8
 7 . . . . . . . . . . . . . . .  7
 6 . . . . . . . . . . . . . . .  6
 5 . . . . . . . . . . . . . . .  5
 4 . . . . . . . . . . . . . . .  4
 3 . . . . . . . . . . . . . . .  3
 2 . . . . . . . . . . . . . . .  2
 1 . . . . . . . . . . . . . . .  1
   a b c d e f g h i j k l m n o

white to move; black 2 stones, white 1 stone; last move h9 (black)
15x15, freestyle
`;

describe('gomoku show', () => {
  test('the diagram of h8 i9 h9', () => {
    const r = gomoku('show', 'h8 i9 h9');
    expect(r).toEqual({ code: 0, stdout: EXPECTED_H8_I9_H9, stderr: '' });
  });

  test('all move-list spellings and unquoted words give the same diagram', async () => {
    const rs = await Promise.all([['h8,i9,h9'], ['h8i9h9'], ['H8 I9 H9'], ['h8', 'i9', 'h9'], [' h8 , i9,h9 ']].map((a) => gomokuAsync('show', ...a)));
    for (const r of rs) expect(r.stdout).toBe(EXPECTED_H8_I9_H9);
  });

  test('the empty board, size 5, last move in the corner columns', async () => {
    const [r, a1, e5] = await Promise.all([
      gomokuAsync('show', '--size', '5'),
      gomokuAsync('show', 'a1', '--size', '5'),
      gomokuAsync('show', 'e5', '--size', '5'),
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').slice(0, 7)).toEqual([
      '  a b c d e',
      '5 . . . . . 5',
      '4 . . . . . 4',
      '3 . . . . . 3',
      '2 . . . . . 2',
      '1 . . . . . 1',
      '  a b c d e',
    ]);
    expect(r.stdout).toContain('black to move; black 0 stones, white 0 stones\n');
    expect(a1.stdout).toContain('\n1[X]. . . . 1\n');
    expect(e5.stdout).toContain('\n5 . . . .[X]5\n');
  });

  test('a stone set has no last move and takes --to-move', () => {
    const r = gomoku('show', 'B:h8,h9;W:', '--to-move', 'white');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('\n 9 . . . . . . . X . . . . . . .  9\n');
    expect(r.stdout).toContain('white to move; black 2 stones, white 0 stones\n');
    expect(r.stdout).not.toContain('[');
  });

  test('a finished game says so', () => {
    const r = gomoku('show', 'h8 a1 h9 a2 h10 a3 h11 a4 h12');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/black has five through h\d+: the game is over/);
  });

  test('--threats marks both sides, distinguishably, with a legend', () => {
    // black h8 h9 h10 (open three, white to move); white i9 i10 i11 i12 (a four: i8 or i13 completes... i13 and i8 both)
    const r = gomoku('show', 'B:h8,h9,h10,a1;W:i9,i10,i11,i12', '--to-move', 'white', '--threats');
    expect(r.code).toBe(0);
    const rows = r.stdout.split('\n');
    const rowOf = (n: number) => rows.find((l) => l.startsWith(String(n).padStart(2) + ' '))!;
    const cell = (pt: string) => {
      const col = pt.charCodeAt(0) - 97;
      return rowOf(Number(pt.slice(1)))[3 + 2 * col];
    };
    expect(cell('i13')).toBe('5'); // white (to move) makes five
    expect(cell('i8')).toBe('5');
    expect(cell('h11')).toBe('#'); // black's open four
    expect(cell('h7')).toBe('#');
    expect(r.stdout).toContain('threats for white (to move): 5 five');
    expect(r.stdout).toContain('threats for black: * five, # open four');
  });

  test('--json', () => {
    const r = gomoku('show', 'h8 i9 h9', '--json', '--threats');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    const o = JSON.parse(r.stdout);
    expect(o).toMatchObject({
      size: 15,
      rule: 'freestyle',
      toMove: 'white',
      stones: { black: ['h8', 'h9'], white: ['i9'] },
      moves: ['h8', 'i9', 'h9'],
      lastMove: 'h9',
    });
    expect(o.threats.black.map((t: { point: string }) => t.point).sort()).toEqual(['h10', 'h11', 'h6', 'h7']);
    expect(o.threats.white).toEqual([]);
  });
});

describe('gomoku show --svg', () => {
  test('writes the board picture the web page draws, with the --threats marks', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gomoku-svg-'));
    const file = join(dir, 'board.svg');
    const r = gomoku('show', 'h8 i9 h9 i10 h10', '--threats', '--numbers', '--svg', file);
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    const svg = readFileSync(file, 'utf8');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 508 508"')).toBe(true);
    expect(svg.trim().endsWith('</svg>')).toBe(true);
    // the same renderer and marks as the page: a stone per move, numbered, the last one red
    const stonesOf = (c: string) => [...svg.matchAll(new RegExp(`class="stone ${c}" data-point="([a-o]\\d+)"`, 'g'))].map((m) => m[1]).sort();
    expect(stonesOf('black')).toEqual(['h10', 'h8', 'h9']);
    expect(stonesOf('white')).toEqual(['i10', 'i9']);
    expect(svg).toContain('class="num last" data-fill="#fff"');
    expect(svg).toContain('<g class="mark mark-theirs" data-point="h11">');
    expect(svg).toContain('<g class="mark mark-mine" data-point="i11">');
    // the picture of a position is the same whatever its spelling, and '-' writes to stdout
    const out = gomoku('show', 'h8,i9,h9,i10,h10', '--threats', '--numbers', '--svg', '-');
    expect(out.stdout).toBe(svg);
  });

  test('bad uses: one line, exit 2', async () => {
    const [both, nowhere] = await Promise.all([
      gomokuAsync('show', 'h8', '--svg', '-', '--json'),
      gomokuAsync('show', 'h8', '--svg', '/nonexistent-dir/b.svg'),
    ]);
    expect(both).toMatchObject({ code: 2, stderr: 'gomoku: Arguments svg and json are mutually exclusive\n' });
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toMatch(/^gomoku: cannot write \/nonexistent-dir\/b\.svg: ENOENT[^\n]*\n$/);
  });
});

describe('help and version', () => {
  test('--help everywhere', async () => {
    const rs = await Promise.all([['--help'], ['show', '--help'], ['verify', '--help'], ['-h']].map((a) => gomokuAsync(...a)));
    for (const r of rs) {
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^gomoku /);
    }
    expect(rs[0]!.stdout).toContain('gomoku show [position..]');
    expect(rs[1]!.stdout).toContain('--threats');
  });
  test('--version', () => {
    const r = gomoku('--version');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('bad input: exactly one line on stderr, exit 2, nothing on stdout', () => {
  const cases: [string[], RegExp][] = [
    [['show', 'h8 i9 z9'], /^gomoku: bad point 'z9'$/],
    [['show', 'h8 i9 p9'], /^gomoku: point 'p9' is off the 15x15 board$/],
    [['show', 'h8 i9 h16'], /^gomoku: point 'h16' is off the 15x15 board$/],
    [['show', 'h8 i9 H8'], /^gomoku: point 'H8' is given twice$/],
    [['show', 'h8 i9 #!'], /^gomoku: bad point '#!'$/],
    [['show', 'h8 i100'], /^gomoku: bad point 'i100'$/],
    [['show', 'B:h8;X:i9'], /'X:i9'/],
    [['show', 'B:h8,h9,h10;W:'], /need an explicit side to move/],
    [['show', 'h8 i9', '--to-move', 'white'], /contradicts the move list/],
    [['show', 'h8', '--size', '4'], /^gomoku: bad --size '4' \(expected 5\.\.22\)$/],
    [['show', 'h8', '--size', '23'], /'23'/],
    [['show', 'h8', '--size', 'big'], /'big'/],
    [['show', 'h8', '--rule', 'renju'], /'renju'/],
    [['show', 'h8', '--to-move', 'red'], /'red'/],
    [['show', '--bogus'], /bogus/],
    [['show', 'h8', '--size'], /^gomoku: Not enough arguments following: size$/],
    [['show', 'h8 a1 h9 a2 h10 a3 h11 a4 h12 a5'], /both sides have five/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [[], /no command/],
  ];
  // start them all at once (each is a short-lived node process); each test awaits its own
  const runs = new Map<string[], ReturnType<typeof gomokuAsync>>();
  beforeAll(() => {
    for (const [args] of cases) runs.set(args, gomokuAsync(...args));
  });
  test.each(cases.map(([args, re]) => [args.map((a) => JSON.stringify(a)).join(' '), args, re] as const))('gomoku %s', async (_name, args, re) => {
    const r = await runs.get(args)!;
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.endsWith('\n')).toBe(true);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^gomoku: /);
    expect(lines[0]).toMatch(re);
    expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/); // no stack frames
  });
});

test('the README shows the real output of gomoku show "h8 i9 h9"', async () => {
  const { readFileSync } = await import('node:fs');
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const block = /\$ npx gomoku show "h8 i9 h9"\n([\s\S]*?)```/.exec(readme);
  expect(block).not.toBeNull();
  expect(block![1]).toBe(EXPECTED_H8_I9_H9);
});
