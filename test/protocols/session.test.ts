import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { GomocupProtocol } from '../../src/protocols/gomocup.js';
import { KothProtocol } from '../../src/protocols/koth.js';
import { runLineSession } from '../../src/protocols/session.js';
import type { LineProtocol } from '../../src/protocols/common.js';

async function session(proto: LineProtocol, input: string, logFile?: string) {
  const inp = new PassThrough();
  const out = new PassThrough();
  const errs = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (d) => (stdout += d));
  errs.on('data', (d) => (stderr += d));
  const io: Parameters<typeof runLineSession>[1] = { input: inp, output: out, errors: errs };
  if (logFile) io.logFile = logFile;
  const done = runLineSession(proto, io);
  inp.end(input);
  const code = await done;
  return { code, stdout, stderr };
}

describe('line session', () => {
  it('runs a Gomocup dialogue with CRLF input and stops at END', async () => {
    const r = await session(new GomocupProtocol({ seed: 's' }), 'START 15\r\nINFO timeout_turn 500\r\nBEGIN\r\nTURN 0,0\r\nEND\r\nTURN 1,1\r\n');
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('OK');
    expect(lines[1]).toMatch(/^\d+,\d+$/);
    expect(lines[2]).toMatch(/^\d+,\d+$/);
    expect(lines).toHaveLength(4); // nothing after END
    expect(r.code).toBe(0);
  });

  it('tells the adapter once when a line came after the session had waited for input (start-up no longer on the clock)', async () => {
    const seen: string[] = [];
    const proto: LineProtocol = {
      name: 'probe',
      handle: (line) => {
        seen.push(line);
        return { out: [], log: [] };
      },
      eof: () => ({ out: [], log: [] }),
      inputWaited: () => seen.push('(waited)'),
    };
    const inp = new PassThrough();
    const done = runLineSession(proto, { input: inp, output: new PassThrough() });
    inp.write('START 15\nINFO timeout_turn 1000\n'); // queued together: no wait between them
    await new Promise((r) => setTimeout(r, 50));
    inp.write('BEGIN\n');
    await new Promise((r) => setTimeout(r, 50));
    inp.end('TURN 1,1\n');
    await done;
    expect(seen.slice(1)).toEqual(['INFO timeout_turn 1000', '(waited)', 'BEGIN', 'TURN 1,1']);
  });

  it('a Gomocup move queued behind START (the manager did not wait for OK) keeps the start-up overhead; one sent after OK does not', async () => {
    const queued = new GomocupProtocol({ seed: 's' });
    queued.handle('START 15');
    expect(queued.limits().overheadMs).toBeGreaterThan(0);
    const after = new GomocupProtocol({ seed: 's' });
    after.handle('START 15');
    after.inputWaited();
    expect(after.limits().overheadMs).toBeUndefined();
  });

  it('EOF mid-game ends cleanly', async () => {
    const r = await session(new GomocupProtocol({ seed: 's' }), 'START 15\nBOARD\n7,7,1\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('OK\n');
    expect(r.stderr).toBe(''); // an end of input is a normal end: transcript only
  });

  it('a protocol error goes to stderr, never to stdout, and exits 1', async () => {
    const r = await session(new KothProtocol({ seed: 's' }), 'garbage here\nA []\n');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^gomoku: koth: unknown command/);
  });

  it('an exception inside the adapter is contained: Gomocup answers ERROR, one stderr line, exit 70 (a bug), the stack in the transcript', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sess-')), 'log.txt');
    const p = new GomocupProtocol({ seed: 's' });
    p.handle = () => {
      throw new Error('boom');
    };
    const r = await session(p, 'START 15\n', file);
    expect(r.code).toBe(70);
    expect(r.stdout).toBe('ERROR internal error\n');
    expect(r.stderr).toBe("gomoku: internal error on 'START 15': boom\n");
    expect(readFileSync(file, 'utf8')).toMatch(/# Error: boom\n +at /);
  });

  it('the transcript keeps at most 4096 characters of a line', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sess-')), 'log.txt');
    await session(new GomocupProtocol({ seed: 's' }), `START 15\n${'Y'.repeat(50_000)}\nEND\n`, file);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.every((l) => l.length < 4200)).toBe(true);
    expect(lines.some((l) => l.endsWith('… (50000 characters)'))).toBe(true);
  });

  it('appends a transcript to --log', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sess-')), 'log.txt');
    await session(new GomocupProtocol({ seed: 's' }), 'START 15\nEND\n', file);
    await session(new GomocupProtocol({ seed: 's' }), 'ABOUT\n', file);
    const log = readFileSync(file, 'utf8');
    expect(log).toMatch(/< START 15\n> OK\n/);
    expect(log).toMatch(/< ABOUT\n> name=/);
    expect(log.match(/session start/g)).toHaveLength(2);
  });
});
