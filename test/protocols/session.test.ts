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
    // a session before it, so this one's first line is not slowed by the code's first run (a
    // loaded machine took more than the 5 ms that mean "waited" there)
    const warm = new PassThrough();
    const first = runLineSession(
      { name: 'warm', handle: () => ({ out: [], log: [] }), eof: () => ({ out: [], log: [] }) },
      { input: warm, output: new PassThrough() },
    );
    warm.end('x\n');
    await first;
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

  describe('warm-up', () => {
    /** A warm-up of at most `max` steps of about 5 ms that records when it ran, between the lines handled. */
    function probe(max: number) {
      const seen: string[] = [];
      let steps = 0;
      let stopped = false;
      const warmUp = {
        step: () => {
          const t = performance.now();
          while (performance.now() - t < 5);
          steps++;
          if (steps === 1) seen.push('(warm-up)');
          return steps < max;
        },
        stop: () => {
          stopped = true;
          seen.push(`(stopped after ${steps})`);
        },
        get moves() {
          return steps;
        },
      };
      return { seen, warmUp, steps: () => steps, stopped: () => stopped };
    }

    it('Gomocup: START and INFO wait for it (OK comes after); a move command stops it at once; every line is then handled in order', async () => {
      const w = probe(1000);
      const proto = new GomocupProtocol({ seed: 's' });
      const handle = proto.handle.bind(proto);
      proto.handle = (line) => {
        w.seen.push(line);
        return handle(line);
      };
      const inp = new PassThrough();
      const out = new PassThrough();
      let stdout = '';
      out.on('data', (d) => (stdout += d));
      const done = runLineSession(proto, { input: inp, output: out, warmUp: w.warmUp });
      inp.write('START 15\nINFO timeout_turn 300\n');
      await new Promise((r) => setTimeout(r, 100));
      expect(stdout).toBe(''); // no OK while warming up
      expect(w.steps()).toBeGreaterThan(3);
      inp.write('BEGIN\n');
      await new Promise((r) => setTimeout(r, 60));
      const atBegin = w.steps();
      inp.end('END\n');
      expect(await done).toBe(0);
      expect(w.steps()).toBe(atBegin);
      expect(w.stopped()).toBe(true);
      expect(w.seen[0]).toBe('(warm-up)');
      expect(w.seen.slice(2)).toEqual(['START 15', 'INFO timeout_turn 300', 'BEGIN', 'END']);
      expect(stdout.split('\n')[0]).toBe('OK');
      expect(stdout.split('\n')[1]).toMatch(/^\d+,\d+$/);
    });

    it('a warm-up that throws is logged and the game goes on without it', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'warm-'));
      const log = join(dir, 't.log');
      const inp = new PassThrough();
      const out = new PassThrough();
      let stdout = '';
      out.on('data', (d) => (stdout += d));
      const warmUp = {
        step: () => {
          throw new Error('boom');
        },
        stop: () => {},
        moves: 0,
      };
      const done = runLineSession(new GomocupProtocol({ seed: 's' }), { input: inp, output: out, warmUp, logFile: log });
      inp.end('START 15\nBEGIN\nEND\n');
      expect(await done).toBe(0);
      expect(stdout.split('\n').slice(0, 2)).toEqual(['OK', expect.stringMatching(/^\d+,\d+$/)]);
      expect(readFileSync(log, 'utf8')).toContain('# warm-up failed after 0 moves: boom');
    });

    it('ends at its own end (then START is answered); a protocol without urgent() stops it at its first line', async () => {
      const short = probe(3);
      const inp = new PassThrough();
      const out = new PassThrough();
      let stdout = '';
      out.on('data', (d) => (stdout += d));
      const done = runLineSession(new GomocupProtocol({ seed: 's' }), { input: inp, output: out, warmUp: short.warmUp });
      inp.write('START 15\n');
      await new Promise((r) => setTimeout(r, 80));
      expect(short.steps()).toBe(3);
      expect(stdout).toBe('OK\n');
      inp.end('END\n');
      await done;
      const koth = probe(1000);
      const inp2 = new PassThrough();
      inp2.write('anything\n');
      const done2 = runLineSession(new KothProtocol({ seed: 's' }, 'x'), { input: inp2, output: new PassThrough(), warmUp: koth.warmUp });
      await new Promise((r) => setTimeout(r, 30));
      inp2.end();
      await done2;
      expect(koth.steps()).toBeLessThanOrEqual(1);
      expect(koth.stopped()).toBe(true);
    });
  });
});
