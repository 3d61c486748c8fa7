/**
 * Helpers for end-to-end CLI tests: build dist/ (and the web page, dist/web) when it is missing or older than its sources (once,
 * even when several test files ask at the same time), and run `node dist/cli/main.js`.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const entry = join(root, 'dist', 'cli', 'main.js');

function newestSource(dir: string): number {
  let t = 0;
  for (const f of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, f.name);
    t = Math.max(t, f.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return t;
}

const stale = () => !existsSync(entry) || statSync(entry).mtimeMs < newestSource(join(root, 'src'));
/** The page of `gomoku serve` (dist/web), built by vite from web/ and the shared src/render and src/core. */
const webEntry = join(root, 'dist', 'web', 'index.html');
const webStale = () =>
  !existsSync(webEntry) ||
  statSync(webEntry).mtimeMs < Math.max(newestSource(join(root, 'web')), newestSource(join(root, 'src', 'view')), newestSource(join(root, 'src', 'core')));

/** Build dist/ if it is stale; a lock directory keeps parallel test files from building twice. */
export function ensureBuilt(): void {
  if (!stale() && !webStale()) return;
  const lock = join(root, 'dist.build-lock');
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${lock} held for 2 minutes; remove it if no build is running`);
      execFileSync(process.execPath, ['-e', 'setTimeout(() => {}, 200)']);
    }
  }
  try {
    if (stale()) {
      execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', root], { stdio: 'inherit' });
      execFileSync(process.execPath, [join(root, 'scripts', 'postbuild.mjs')]);
    }
    if (webStale())
      execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(root, 'web', 'vite.config.mjs')], {
        stdio: 'inherit',
      });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const env = { ...process.env, GOMOKU_DEBUG: '' };

export function gomoku(...args: string[]): Run {
  const r = spawnSync(process.execPath, [entry, ...args], { encoding: 'utf8', env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The same, asynchronously, so that independent runs overlap. */
export function gomokuAsync(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [entry, ...args], { encoding: 'utf8', env }, (e, stdout, stderr) => {
      resolve({ code: e ? ((e as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}
