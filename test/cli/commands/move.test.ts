import { afterEach, describe, expect, test, vi } from 'vitest';
import yargs from 'yargs';
import { command as move } from '../../../src/cli/commands/move.js';
import { command as analyze } from '../../../src/cli/commands/analyze.js';
import { CliError } from '../../../src/cli/common.js';

/** Runs a command in-process the way main.ts does: a CliError becomes one stderr line and its exit code. */
async function run(args: string[]) {
  let out = '';
  let errOut = '';
  let code = 0;
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((errOut += String(s)), true));
  try {
    await yargs(args)
      .command(move)
      .command(analyze)
      .strict()
      .exitProcess(false)
      .fail((msg, err) => {
        throw err ?? new CliError(msg);
      })
      .parseAsync();
  } catch (err) {
    errOut += `gomoku: ${(err as Error).message}\n`;
    code = err instanceof CliError ? err.exitCode : 70;
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
  return { code, out, errOut };
}

afterEach(() => {
  process.exitCode = undefined;
});

describe('gomoku move', () => {
  test('--json prints the formats.md section 5 object', async () => {
    const r = await run(['move', 'h8 h9 i8 i9 j8 j9', '--json', '--time', '2000']);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out);
    expect(Object.keys(o)).toEqual(['move', 'score', 'depth', 'nodes', 'ms', 'pv', 'source']);
    // black has an open four to make on row 8 (g8 or k8) and a VCF
    expect(['g8', 'k8']).toContain(o.move);
    expect(['vcf', 'five']).toContain(o.source);
    expect(o.score).toBeGreaterThan(29000);
    expect(o.pv[0]).toBe(o.move);
  });

  test('text output, blocks a four, and is reproducible with --nodes and --seed', async () => {
    const r = await run(['move', 'h8 a1 h9 a2 h10 b1 h11', '--time', '3000']);
    expect(r.out).toMatch(/^move h(12|7)\nscore -?\d+, depth \d+, nodes \d+, \d+ ms, source defence\n/);
    const a = await run(['move', 'h8 i9 h9 i8 j7 g10', '--nodes', '20000', '--time', '60000', '--seed', '5', '--json']);
    const b = await run(['move', 'h8 i9 h9 i8 j7 g10', '--nodes', '20000', '--time', '60000', '--seed', '5', '--json']);
    const strip = (s: string) => {
      const o = JSON.parse(s);
      delete o.ms;
      return o;
    };
    expect(strip(a.out)).toEqual(strip(b.out));
  });

  test('the shipped book answers a position it has proven at once, in any orientation; an opening it has only evaluated is searched', async () => {
    // a VCF win for black in the shipped book, and its mirror image (column x -> 14 - x)
    const mirror = (p: string) => String.fromCharCode(97 + 14 - (p.charCodeAt(0) - 97)) + p.slice(1);
    const won = 'h8 h9 g9 g8 e11 c13';
    const a = JSON.parse((await run(['move', won, '--json'])).out);
    const b = JSON.parse((await run(['move', won.split(' ').map(mirror).join(' '), '--json'])).out);
    expect(a).toMatchObject({ source: 'book', nodes: 0, move: 'f10' });
    expect(b).toMatchObject({ source: 'book', move: mirror(a.move), score: a.score });
    // Gomocup 2026 freestyle opening 3: the book holds a score and a move for it, not a proof
    const opening = JSON.parse((await run(['move', 'h8 i9 k6 g9 k9', '--nodes', '20000', '--seed', '1', '--json'])).out);
    expect(opening.source).not.toBe('book');
    expect(opening.nodes).toBeGreaterThan(0);
  });

  test('bad input: one line, exit 2', async () => {
    expect(await run(['move', 'h8 z99'])).toMatchObject({ code: 2, errOut: "gomoku: bad point 'z99'\n" });
    expect((await run(['move', 'h8', '--time', '-5'])).errOut).toBe("gomoku: --time must be a positive number of ms, got '-5'\n");
    expect((await run(['move', 'h8', '--nodes', '1.5'])).errOut).toBe("gomoku: --nodes must be a positive integer, got '1.5'\n");
    const over = await run(['move', 'h8 a1 h9 a2 h10 a3 h11 a4 h12']);
    expect(over.code).toBe(2);
    expect(over.errOut).toMatch(/^gomoku: the game is over/);
  });
});

describe('gomoku analyze', () => {
  test('streams one line per iteration, then the best move', async () => {
    const r = await run(['analyze', 'h8 i9 h9 i8 j7 g10', '--depth', '5', '--time', '20000']);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    const iters = lines.filter((l) => l.startsWith('depth'));
    expect(iters.length).toBeGreaterThanOrEqual(1);
    for (const l of iters) expect(l).toMatch(/^depth \d+ +score -?\d+ +nodes \d+ +nps \d+ +ms \d+ +pv( [a-o]\d+)+$/);
    expect(lines[lines.length - 1]).toMatch(/^bestmove [a-o]\d+ \(source \w+, score -?\d+, depth \d+\)$/);
  });

  test('--json gives JSON lines', async () => {
    const r = await run(['analyze', 'h8 i9', '--depth', '4', '--json']);
    const objs = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(objs.length).toBeGreaterThanOrEqual(2);
    expect(objs[0]).toHaveProperty('nps');
    expect(objs[objs.length - 1]).toHaveProperty('source');
  });
});
