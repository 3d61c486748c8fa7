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
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorText } from './common.js';
import { EXIT_INTERNAL, type Transcript } from './session.js';
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

function stat(path: string): { mtimeMs: number; size: number } | undefined {
  try {
    const s = statSync(path);
    return { mtimeMs: s.mtimeMs, size: s.size };
  } catch {
    return undefined;
  }
}

const mtime = (path: string): number | undefined => stat(path)?.mtimeMs;

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
   * Wait until `<name>.go` exists, has its content (the referee creates it, then writes
   * `go!`: two mtimes; an empty file is not a turn yet) and is not the one we already
   * answered (`answered` is its mtime). So a turn is taken once per `.go`, even if the
   * referee deletes and recreates it between two of our polls.
   */
  let answered: number | undefined;
  let lastWritten: string | undefined;
  const waitForTurn = async (): Promise<number | undefined> => {
    const t0 = Date.now();
    for (;;) {
      const st = stat(goFile);
      if (st && st.size > 0 && st.mtimeMs !== answered) return st.mtimeMs;
      if (Date.now() - t0 > idleLimit) return undefined;
      await sleep(pollMs);
    }
  };

  for (;;) {
    const turn = await waitForTurn();
    if (turn === undefined) {
      tr.log([`wpi: no turn within ${idleLimit} ms; giving up`], true);
      return 1;
    }
    answered = turn;
    const endM = mtime(endFile);
    if (endM !== undefined && endM !== staleEnd) {
      const r = o.player.onEnd(readText(endFile));
      tr.log(r.log);
      return r.exit ?? 0;
    }
    const text = readText(moveFile);
    if (lastWritten !== undefined && text === lastWritten) {
      // Our own move is still there: the referee has not taken it yet, so this is not a new turn.
      tr.log(['move_file still holds our move; waiting']);
      await sleep(pollMs);
      continue;
    }
    tr.input(`move_file: ${text.trim()}`);
    let r;
    try {
      r = o.player.onTurn(text);
    } catch (e) {
      tr.log([`wpi: internal error: ${errorText(e)}`], true);
      tr.detail([(e instanceof Error && e.stack) || '']);
      return EXIT_INTERNAL;
    }
    if (r.out.length === 0) {
      tr.log(r.log, true);
      return r.exit ?? 1;
    }
    tr.log(r.log);
    try {
      lastWritten = `${r.out[0]}\n`;
      writeFileSync(tmpFile, lastWritten);
      renameSync(tmpFile, moveFile);
    } catch (e) {
      tr.log([`wpi: cannot write move_file: ${errorText(e)}`], true);
      return 1;
    }
    tr.output(r.out);
  }
}
