import { afterEach, describe, expect, it } from 'vitest';
import { PbrainClient, liveClientCount } from '../../src/match/pbrain-client.js';
import { alive, fixture } from './helpers.js';

const clients: PbrainClient[] = [];
function spawn(...a: Parameters<typeof fixture>) {
  const c = PbrainClient.spawn(fixture(...a), { hangToleranceMs: 200, startTimeoutMs: 3000, suspendWhenIdle: true });
  clients.push(c);
  return c;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.kill()));
  expect(liveClientCount()).toBe(0);
});

describe('PbrainClient', () => {
  it('starts, answers ABOUT, plays BEGIN/TURN/BOARD, skipping MESSAGE/DEBUG lines and a stray OK', async () => {
    const lines: string[] = [];
    const c = PbrainClient.spawn(fixture('random', 'rnd', '--seed', '1', '--chatty'), {
      hangToleranceMs: 200,
      onLine: (d, l) => lines.push(`${d}${l}`),
    });
    clients.push(c);
    expect((await c.start(15)).kind).toBe('ok');
    expect(await c.about()).toMatchObject({ name: 'random', version: '1.0' });
    c.info('timeout_turn', 500);
    const m1 = await c.begin(500, 10000);
    expect(m1.kind).toBe('move');
    const m2 = await c.turn(7, 7, 500, 9000);
    expect(m2.kind).toBe('move');
    const m3 = await c.board(
      [
        { x: 7, y: 7, own: false },
        { x: 8, y: 8, own: true },
      ],
      500,
      8000,
    );
    expect(m3.kind).toBe('move');
    expect(c.messages).toContain('thinking hard');
    expect(c.messages).toContain('depth 1');
    expect(lines).toContain('>INFO time_left 10000');
    expect(lines).toContain('>BOARD');
    expect(lines).toContain('>7,7,2');
    expect(lines).toContain('>8,8,1');
    expect(lines).toContain('>DONE');
    expect(c.usedMs).toBeGreaterThan(0);
    await c.end(500);
    expect(c.exited).toBe(true);
  });

  it('reads LF, CR LF and CR line ends, even with CR and LF in different chunks', async () => {
    const script = `
      process.stdin.once('data', () => {
        process.stdout.write('OK\\r');
        setTimeout(() => process.stdout.write('\\nMESSAGE a\\rDEBUG b\\n'), 30);
        setTimeout(() => process.stdout.write('7,'), 60);
        setTimeout(() => process.stdout.write('8\\r\\n'), 90);
      });
      setInterval(() => {}, 1000);`;
    const c = PbrainClient.spawn({ name: 'split', argv: [process.execPath, '-e', script] }, { hangToleranceMs: 500 });
    clients.push(c);
    expect((await c.start(15)).kind).toBe('ok');
    const r = await c.begin(500, 1000);
    expect(r).toMatchObject({ kind: 'move', x: 7, y: 8 });
    expect(c.messages).toEqual(['a', 'b']);
  });

  it('reports a crash with its exit code', async () => {
    const c = spawn('crash');
    expect((await c.start(15)).kind).toBe('ok');
    const r = await c.begin(500, 1000);
    expect(r).toMatchObject({ kind: 'crash', exitCode: 3 });
    expect(c.stderr).toContain('giving up on purpose');
  });

  it('reports a program that cannot start as a crash, not a throw', async () => {
    const c = PbrainClient.spawn({ name: 'nope', argv: ['/nonexistent/engine-binary'] });
    clients.push(c);
    const r = await c.start(15);
    expect(r).toMatchObject({ kind: 'crash', error: 'ENOENT' });
  });

  it('reports garbage and off-board moves', async () => {
    const g = spawn('garbage');
    await g.start(15);
    expect(await g.begin(500, 1000)).toMatchObject({ kind: 'garbage', line: 'I think I will play somewhere nice' });
    const o = spawn('occupied', 'off', '--offboard');
    await o.start(5);
    const r = await o.board([{ x: 4, y: 4, own: false }], 500, 1000);
    expect(r).toMatchObject({ kind: 'illegal', x: 5, y: 0, reason: 'off the 5x5 board' });
  });

  it('times out a hanging engine after the limit plus the tolerance, and kills its whole process tree', async () => {
    const c = spawn('hang');
    await c.start(15);
    const t0 = Date.now();
    const r = await c.begin(300, 1000);
    const took = Date.now() - t0;
    expect(r.kind).toBe('timeout');
    expect(took).toBeGreaterThanOrEqual(480);
    expect(took).toBeLessThan(2000);
    const helper = Number(/helper (\d+)/.exec(c.messages.join('\n'))?.[1] ?? NaN);
    expect(helper).toBeGreaterThan(0);
    expect(alive(helper)).toBe(true);
    await c.end(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(alive(c.pid!)).toBe(false);
    expect(alive(helper)).toBe(false);
  });

  it('accepts a slow reply inside the tolerance and times out one beyond it', async () => {
    const c = spawn('slow', 'slow', '--delay', '300');
    await c.start(15);
    expect((await c.begin(200, 10000)).kind).toBe('move'); // 300 ms < 200 + 200
    const r = await c.turn(0, 0, 50, 10000); // 300 ms > 50 + 200
    expect(r.kind).toBe('timeout');
  });

  it('waits the reply gap after an engine line before the next command (an engine that misreads hurried commands plays cleanly)', async () => {
    const play = async (replyGapMs: number) => {
      const c = PbrainClient.spawn(fixture('touchy', 'touchy', '--window', '150'), { hangToleranceMs: 500, replyGapMs });
      clients.push(c);
      expect((await c.start(15)).kind).toBe('ok');
      c.info('timeout_turn', 500); // right after OK: inside the engine's window unless the gap holds it back
      const kinds: string[] = [];
      kinds.push((await c.begin(500, 10000)).kind);
      for (let i = 0; i < 3; i++) kinds.push((await c.turn(i, 0, 500, 10000)).kind); // asked at once after each reply
      return kinds;
    };
    expect(await play(200)).toEqual(['move', 'move', 'move', 'move']);
    expect(await play(0)).toContain('garbage');
  });

  it("counts the reply gap in the engine's running time: one stopped right after its answer gets the whole gap after SIGCONT", async () => {
    const c = PbrainClient.spawn(fixture('touchy', 'touchy', '--window', '120', '--own-clock', '1'), {
      hangToleranceMs: 500,
      replyGapMs: 150,
      suspendWhenIdle: true,
    });
    clients.push(c);
    expect((await c.start(15)).kind).toBe('ok');
    await new Promise((r) => setTimeout(r, 200));
    const kinds: string[] = [(await c.begin(500, 10000)).kind]; // suspended as soon as it answers
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 250)); // the opponent thinks; the wall-clock gap passes
      kinds.push((await c.turn(i, 0, 500, 10000)).kind);
    }
    expect(kinds).toEqual(['move', 'move', 'move', 'move']);
  });
});
