import { describe, expect, it } from 'vitest';
import { parseEngineSpec, splitCommandLine } from '../../src/match/command-line.js';

describe('splitCommandLine', () => {
  it('splits like a shell', () => {
    expect(splitCommandLine('node dist/cli/main.js play --protocol gomocup')).toEqual({
      ok: true,
      value: ['node', 'dist/cli/main.js', 'play', '--protocol', 'gomocup'],
    });
    expect(splitCommandLine(`a 'b c' "d \\"e\\" f" g\\ h ''`)).toEqual({ ok: true, value: ['a', 'b c', 'd "e" f', 'g h', ''] });
    expect(splitCommandLine(`x"y z"w`)).toEqual({ ok: true, value: ['xy zw'] });
    expect(splitCommandLine(`"a\\nb"`)).toEqual({ ok: true, value: ['a\\nb'] });
  });
  it('rejects unterminated quotes and empty commands', () => {
    expect(splitCommandLine(`a 'b`).ok).toBe(false);
    expect(splitCommandLine(`a "b`).ok).toBe(false);
    expect(splitCommandLine('   ').ok).toBe(false);
  });
  it('parses NAME=CMD', () => {
    expect(parseEngineSpec('new=node main.js --x=1')).toEqual({ ok: true, value: { name: 'new', argv: ['node', 'main.js', '--x=1'] } });
    expect(parseEngineSpec('=node').ok).toBe(false);
    expect(parseEngineSpec('node main.js').ok).toBe(false);
    expect(parseEngineSpec(`x='' a`)).toEqual({ ok: false, error: '--engine x: the program name is empty' });
  });
});
