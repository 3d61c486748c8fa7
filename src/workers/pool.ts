/**
 * The one piscina wrapper: holds the pool defaults and resolves worker files to the compiled
 * dist/ copy, so a pool also works when the caller runs from TypeScript sources (vitest).
 * Workers are single exported functions taking and returning plain data.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';

/** The compiled JS file for a worker module given relative to src/ (e.g. 'workers/solve-worker'). */
export function workerFile(rel: string): string {
  const here = fileURLToPath(import.meta.url); // .../dist/workers/pool.js or .../src/workers/pool.ts
  const root = path.resolve(path.dirname(here), '..', '..');
  const js = path.join(root, 'dist', `${rel}.js`);
  if (!existsSync(js)) throw new Error(`worker ${js} is missing: run 'npm run build' first`);
  return pathToFileURL(js).href;
}

export interface PoolOptions {
  workers?: number;
}

export function defaultWorkers(): number {
  return Math.max(1, availableParallelism());
}

export function createPool(rel: string, opts: PoolOptions = {}): Piscina {
  const n = Math.max(1, opts.workers ?? defaultWorkers());
  return new Piscina({ filename: workerFile(rel), minThreads: n, maxThreads: n, idleTimeout: 1000 });
}
