import { afterEach, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BookStore } from '../../src/book/store.js';
import { tempDir } from './helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
let tmp = tempDir();
afterEach(() => {
  tmp.cleanup();
  tmp = tempDir();
});

test('SIGKILL in the middle of a write transaction: integrity_check passes, committed batches survive, the open one is gone', async () => {
  const file = tmp.file('crash.db');
  const child = spawn(process.execPath, [path.join(root, 'node_modules', 'vite-node', 'vite-node.mjs'), path.join(here, 'crash-writer.ts'), file, '5'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let errText = '';
  child.stderr.on('data', (d) => (errText += String(d)));
  const committed = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += String(d);
      const m = /IN-TRANSACTION (\d+)/.exec(out);
      if (m) {
        // let it write some more inside the open transaction, then kill it hard
        setTimeout(() => {
          child.kill('SIGKILL');
          resolve(Number(m[1]));
        }, 150);
      }
    });
    child.on('exit', (code, sig) => {
      if (sig !== 'SIGKILL') reject(new Error(`writer exited early (${code}): ${errText}`));
    });
  });
  await new Promise((r) => child.once('exit', r));
  const opened = BookStore.open(file);
  expect(opened.ok).toBe(true);
  if (!opened.ok) return;
  const s = opened.value;
  expect(s.integrityCheck()).toBe('ok');
  const st = s.stats();
  expect(st.positions).toBe(committed);
  expect(st.proofEntries).toBe(committed);
  s.close();
}, 20_000);
