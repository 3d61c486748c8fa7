/**
 * The WPI file referee's player side (protocols.md section 4.3): wait for `<name>.go`
 * (polling with sleeps, no busy CPU), stop if a fresh `end_game` exists, else read
 * `move_file`, write our move atomically (temp file + rename, so the referee never reads a
 * half-written line), then wait for our `.go` to disappear (or to be replaced by a new
 * one, seen as a new mtime) before looking again, so one turn is never taken twice.
 *
 * An `end_game` left over from an earlier game (the referee does not clean up) is ignored
 * unless it changes: its mtime is recorded at start.
 */
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorText } from './common.js';
import type { Transcript } from './session.js';
import type { WpiPlayer } from './wpi.js';

export interface WpiFilesOptions {
  dir: string;
  player: WpiPlayer;
  transcript: Transcript;
  /** Poll interval (default 50 ms). */
  pollMs?: number;
  /** Give up after waiting this long for our turn (default 15 minutes). */
  idleLimitMs?: number;
}

function mtime(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Play one game in `dir`; resolves to the exit code. */
export async function runWpiFiles(o: WpiFilesOptions): Promise<number> {
  const name = o.player.name;
  const pollMs = o.pollMs ?? 50;
  const idleLimit = o.idleLimitMs ?? 15 * 60_000;
  const goFile = join(o.dir, `${name}.go`);
  const endFile = join(o.dir, 'end_game');
  const moveFile = join(o.dir, 'move_file');
  const tmpFile = join(o.dir, `.${name}.move_file.tmp`);
  const staleEnd = mtime(endFile);
  const tr = o.transcript;
  tr.log([`playing WPI as '${name}' in ${o.dir}`]);
  if (staleEnd !== undefined) tr.log([`ignoring an end_game left from an earlier game (remove it before each game)`]);

  /**
   * Wait until `<name>.go` exists and is not the one we already answered (`answered` is its
   * mtime): a turn is taken once per `.go`, even if the referee deletes and recreates it
   * between two of our polls.
   */
  let answered: number | undefined;
  const waitForTurn = async (): Promise<boolean> => {
    const t0 = Date.now();
    for (;;) {
      const m = mtime(goFile);
      if (m !== undefined && m !== answered) return true;
      if (Date.now() - t0 > idleLimit) return false;
      await sleep(pollMs);
    }
  };

  for (;;) {
    if (!(await waitForTurn())) {
      tr.log([`wpi: no turn within ${idleLimit} ms; giving up`], true);
      return 1;
    }
    answered = mtime(goFile);
    const endM = mtime(endFile);
    if (endM !== undefined && endM !== staleEnd) {
      const r = o.player.onEnd(readText(endFile));
      tr.log(r.log);
      return r.exit ?? 0;
    }
    const text = readText(moveFile);
    tr.input(`move_file: ${text.trim()}`);
    let r;
    try {
      r = o.player.onTurn(text);
    } catch (e) {
      tr.log([`wpi: internal error: ${errorText(e)}`, (e instanceof Error && e.stack) || ''], true);
      return 1;
    }
    if (r.out.length === 0) {
      tr.log(r.log, true);
      return r.exit ?? 1;
    }
    tr.log(r.log);
    try {
      writeFileSync(tmpFile, `${r.out[0]}\n`);
      renameSync(tmpFile, moveFile);
    } catch (e) {
      tr.log([`wpi: cannot write move_file: ${errorText(e)}`], true);
      return 1;
    }
    tr.output(r.out);
  }
}
