import { existsSync, mkdtempSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Transcript } from '../../src/protocols/session.js';
import { WpiPlayer } from '../../src/protocols/wpi.js';
import { runWpiFiles } from '../../src/protocols/wpi-files.js';

async function until(cond: () => boolean, ms = 3000) {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timeout');
    await sleep(5);
  }
}

describe('WPI file player', () => {
  it('waits for its .go, writes move_file atomically, waits for .go to vanish, stops at end_game', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wpif-'));
    const f = (n: string) => join(dir, n);
    writeFileSync(f('end_game'), 'END: old game\n'); // stale: must be ignored
    writeFileSync(f('move_file'), '');
    const done = runWpiFiles({ dir, player: new WpiPlayer({ seed: '1', name: 'me' }), transcript: new Transcript(), pollMs: 5 });
    await sleep(30);
    expect(readFileSync(f('move_file'), 'utf8')).toBe(''); // nothing written before our turn
    writeFileSync(f('me.go'), ''); // created but not yet written: not a turn yet
    await sleep(30);
    expect(readFileSync(f('move_file'), 'utf8')).toBe('');
    writeFileSync(f('me.go'), 'go!\n');
    await until(() => readFileSync(f('move_file'), 'utf8') !== '');
    const first = readFileSync(f('move_file'), 'utf8');
    expect(first).toMatch(/^me [A-O] \d+\n$/);
    // Still our .go: the player must not move twice, even if the .go's mtime changes
    // while our move has not been taken.
    await sleep(30);
    writeFileSync(f('me.go'), 'go!\n');
    await sleep(30);
    expect(readFileSync(f('move_file'), 'utf8')).toBe(first);
    // Referee: delete move_file and .go, echo in lowercase, then the opponent moves.
    unlinkSync(f('me.go'));
    writeFileSync(f('move_file'), 'opp a 1\n');
    await sleep(20);
    writeFileSync(f('me.go'), 'go!\n');
    await until(() => readFileSync(f('move_file'), 'utf8').startsWith('me '));
    unlinkSync(f('me.go'));
    await sleep(20);
    writeFileSync(f('end_game'), 'END: opp WINS!  me LOSES!  5 in a row!\n');
    writeFileSync(f('me.go'), 'go!\n');
    expect(await done).toBe(0);
    expect(existsSync(join(dir, '.me.move_file.tmp'))).toBe(false);
  });

  it('gives up cleanly when the referee never starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wpif-'));
    const code = await runWpiFiles({ dir, player: new WpiPlayer({ seed: '1', name: 'me' }), transcript: new Transcript(), pollMs: 5, idleLimitMs: 50 });
    expect(code).toBe(1);
  });
});
