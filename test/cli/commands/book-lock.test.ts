/**
 * One builder per book, end to end: two real `gomoku book build` processes on one file. The
 * second is refused at once with one line naming the first (pid and host) and exit 75; after
 * the first is killed with SIGKILL, the next build takes its stale lock over and resumes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, expect, test } from 'vitest';
import { BookStore } from '../../../src/book/store.js';
import { ensureBuilt, entry, gomokuAsync } from '../run.js';

beforeAll(() => ensureBuilt(), 300_000);

/** Wait (polling the book read-only, as `book stats` would) until a builder holds the lock. */
async function lockedBy(file: string, deadlineMs: number): Promise<number | undefined> {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    const s = BookStore.open(file, { readonly: true });
    if (s.ok) {
      const pid = s.value.writerLock()?.pid;
      s.value.close();
      if (pid !== undefined) return pid;
    }
    await sleep(100);
  }
  return undefined;
}

test('a second book build is refused naming the first; a builder killed with -9 leaves a lock the next one takes over', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'gomoku-lock-')), 'b.db');
  const args = ['book', 'build', '--book', file, '--region', '3', '--workers', '1', '--solve-nodes', '2000', '--score-nodes', '2000'];
  const first = spawn(process.execPath, [entry, ...args, '--budget', '10m'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((r) => first.once('exit', () => r()));
  try {
    const pid = await lockedBy(file, 60_000);
    expect(pid).toBe(first.pid);
    const t0 = Date.now();
    const second = await gomokuAsync(...args, '--budget', '5');
    // refused at once: no build, no waiting for the first (a loose bound: the machine is shared)
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(second.code).toBe(75);
    expect(second.stdout).toBe('');
    const lines = second.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^gomoku: book '.*b\\.db' is being built by pid ${first.pid} on host ${hostname()} since .*; one builder at a time$`));
    // readers are not refused
    const stats = await gomokuAsync('book', 'stats', '--book', file);
    expect(stats.code).toBe(0);
    expect(stats.stdout).toMatch(new RegExp(`^builder   pid ${first.pid} on host `, 'm'));
  } finally {
    first.kill('SIGKILL');
    await exited;
  }
  const third = await gomokuAsync(...args, '--budget', '3');
  expect(third.code).toBe(0);
  expect(third.stderr).toMatch(new RegExp(`^gomoku: took over the book's writer lock from pid ${first.pid} on host .* \\(it is no longer running\\)$`, 'm'));
  expect(third.stdout).toMatch(/^budget spent: 3 jobs/);
  // released at the end
  const s = BookStore.open(file, { readonly: true });
  expect(s.ok && s.value.writerLock()).toBe(undefined);
  if (s.ok) s.value.close();
}, 180_000);
