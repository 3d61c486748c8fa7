/**
 * The source of saved pattern tables for this process or worker thread (see "Saved tables"
 * in src/core/patterns.ts): the files the build wrote next to dist/core/patterns.js. Set
 * GOMOKU_BUILD_TABLES=1 to ignore them and build the tables at start-up. The CLI and every
 * worker module call it once (a worker thread has its own copy of the tables).
 */
import { readFileSync } from 'node:fs';
import { setTableSource, tableFileName } from '../core/patterns.js';

export function useSavedTables(): void {
  if (process.env.GOMOKU_BUILD_TABLES) return;
  setTableSource((rule, kind) => {
    try {
      return readFileSync(new URL(`../core/${tableFileName(rule, kind)}`, import.meta.url));
    } catch {
      return undefined;
    }
  });
}
