import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EngineCommand } from '../../src/match/pbrain-client.js';
import type { GameOptions } from '../../src/match/game.js';

export const ENGINES = fileURLToPath(new URL('../fixtures/engines/', import.meta.url));

/** A fixture engine as an EngineCommand: `fixture('random', 'rnd', '--seed', '3')`. */
export function fixture(file: string, name = file, ...args: string[]): EngineCommand {
  return { name, argv: [process.execPath, `${ENGINES}${file}.mjs`, ...args] };
}

export const FAST: GameOptions = {
  size: 15,
  rule: 'freestyle',
  tc: { turnMs: 1000, matchMs: 20000 },
  hangToleranceMs: 300,
  startTimeoutMs: 5000,
  maxMemory: 0,
  suspendWhenIdle: true,
  endGraceMs: 300,
};

/** Is a process still running (a zombie counts as gone)? */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = `/proc/${pid}/stat`;
  if (existsSync(stat)) {
    const state = readFileSync(stat, 'utf8').split(') ')[1]?.[0];
    if (state === 'Z') return false;
  }
  return true;
}

/** Pids of this process's children (from /proc), to check that nothing leaked. */
export function childPids(): number[] {
  const out: number[] = [];
  const dir = '/proc';
  for (const name of readdirSync(dir)) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`${dir}/${name}/stat`, 'utf8');
      const fields = stat.split(') ')[1]!.split(' ');
      if (Number(fields[1]) === process.pid && fields[0] !== 'Z') out.push(Number(name));
    } catch {
      /* gone */
    }
  }
  return out;
}
