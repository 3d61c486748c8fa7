/**
 * The manager side of the Gomocup "pbrain" protocol (shared/docs/protocols.md section 5):
 * drives one external engine, any command line, as a child process.
 *
 * What it sends: `START <size>` (and waits for `OK`), `INFO timeout_turn|timeout_match|
 * max_memory|game_type|rule`, then for each move `INFO time_left <ms>` followed by `BEGIN`,
 * `TURN x,y` or `BOARD` .. `DONE` (or `SWAP2BOARD` .. `DONE` in the Swap2 opening);
 * `ABOUT`; `END`. Lines end in CR LF, as Piskvork and
 * GomocupJudge send them.
 *
 * What it reads: lines ending in LF, CR LF or CR. `MESSAGE …` / `DEBUG …` lines (any case)
 * are collected and skipped, as is a stray `OK` and a late `ABOUT` answer (`name="…"`).
 * Anything else that is not `x,y` is garbage.
 *
 * Time: think time is measured from writing the command to reading the reply. A move is a
 * time-out when it takes longer than `min(turn limit, time left in the game) + hang
 * tolerance` (GomocupJudge's rule, with its 1000 ms tolerance as the usual value).
 *
 * Pacing: no command goes to an engine sooner than `replyGapMs` after the last line it
 * printed (some engines, Rapfi among them, drop a command that arrives within a few ms of
 * their own answer). Lines sent inside the gap wait in order; a move's think time starts
 * when its command is actually written. Time spent suspended does not count toward the gap.
 *
 * Processes: the engine is started in its own process group (`detached`), so that
 * `kill()` ends the whole tree (an engine's helper processes too) with one signal. Every
 * client is registered until its process has exited, and a `process.on('exit')` hook
 * kills whatever is still alive, so no path (a thrown test, Ctrl-C in the CLI) leaks an
 * engine. While the other side thinks, an engine can be suspended (SIGSTOP to its group,
 * as GomocupJudge does), so it cannot ponder on a shared machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export interface EngineCommand {
  /** The name used in results (from NAME=CMD). */
  name: string;
  /** Program and arguments, already split (see command-line.ts). */
  argv: string[];
  cwd?: string;
}

export type MoveReply =
  | { kind: 'move'; x: number; y: number; ms: number }
  | { kind: 'timeout'; ms: number; limitMs: number }
  | { kind: 'crash'; ms: number; exitCode: number | null; signal: string | null; error?: string }
  | { kind: 'garbage'; ms: number; line: string }
  | { kind: 'illegal'; ms: number; line: string; x: number; y: number; reason: string };

/** The replies that mean the engine failed, whatever was asked. */
export type Failure = Extract<MoveReply, { kind: 'timeout' | 'crash' | 'garbage' | 'illegal' }>;

export type Swap2Reply = { kind: 'swap'; ms: number } | { kind: 'stones'; points: { x: number; y: number }[]; ms: number } | Failure;

export type StartReply = { kind: 'ok'; ms: number } | Exclude<MoveReply, { kind: 'move' } | { kind: 'illegal' }>;

export interface ClientOptions {
  /** Extra time before a reply counts as a time-out (ms). */
  hangToleranceMs: number;
  /** How long `START` may take to answer `OK` (ms). */
  startTimeoutMs: number;
  /** SIGSTOP the engine while it is not its turn. */
  suspendWhenIdle: boolean;
  /** Minimum ms between a line from the engine and the next command to it. */
  replyGapMs: number;
  /** Called with every line sent ('>') and received ('<'), for transcripts. */
  onLine?: (dir: '>' | '<', line: string) => void;
}

export const DEFAULT_CLIENT_OPTIONS: ClientOptions = {
  hangToleranceMs: 1000,
  startTimeoutMs: 10_000,
  suspendWhenIdle: true,
  replyGapMs: 50,
};

/** The value of `INFO time_left` / `timeout_match` that means "unlimited". */
export const UNLIMITED_MS = 2147483647;

type Event = { type: 'line'; line: string } | { type: 'exit' } | { type: 'timeout' };

const live = new Set<PbrainClient>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const c of live) c.killNow();
  });
}

/** Engines whose processes have not been seen to exit yet (tests assert this reaches 0). */
export function liveClientCount(): number {
  return live.size;
}

/** Kill every engine still running (for SIGINT/SIGTERM handlers). */
export function killAllClients(): void {
  for (const c of live) c.killNow();
}

const MOVE_RE = /^\s*(-?\d+)\s*,\s*(-?\d+)\s*$/;
const CHATTER_RE = /^\s*(message|debug)\b/i;

export class PbrainClient {
  readonly name: string;
  readonly pid: number | undefined;
  /** MESSAGE / DEBUG lines received so far (without the keyword), newest last, capped. */
  readonly messages: string[] = [];
  /** Total think time used in this game (ms). */
  usedMs = 0;
  private readonly child: ChildProcess;
  private readonly opts: ClientOptions;
  private readonly queue: string[] = [];
  private waiter: ((ev: Event) => void) | null = null;
  private partial = '';
  private lastWasCR = false;
  private exitInfo: { code: number | null; signal: string | null; error?: string } | null = null;
  private readonly exitPromise: Promise<void>;
  private stderrTail = '';
  private suspended = false;
  private suspendedAt = 0;
  private size = 0;
  /** performance.now() of the last line read from the engine. */
  private lastHeardAt = -Infinity;
  /** Lines waiting for the reply gap to pass, in order. */
  private readonly outbox: string[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | null = null;

  private constructor(cmd: EngineCommand, opts: ClientOptions) {
    this.name = cmd.name;
    this.opts = opts;
    installExitHook();
    const [file, ...args] = cmd.argv;
    this.child = spawn(file ?? '', args, {
      cwd: cmd.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    this.pid = this.child.pid;
    live.add(this);
    let resolveExit!: () => void;
    this.exitPromise = new Promise<void>((r) => (resolveExit = r));
    let stdoutEnded = false;
    let pendingExit: { code: number | null; signal: string | null; error?: string } | null = null;
    const finish = (info: { code: number | null; signal: string | null; error?: string }) => {
      if (this.exitInfo) return;
      this.flushPartial();
      this.exitInfo = info;
      // The group may still hold helpers; the leader is gone, so kill by group id.
      this.signalGroup('SIGKILL');
      live.delete(this);
      resolveExit();
      this.wake({ type: 'exit' });
    };
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (chunk: string) => this.onData(chunk));
    this.child.stdout!.on('end', () => {
      stdoutEnded = true;
      if (pendingExit) finish(pendingExit);
    });
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-2000);
    });
    this.child.stdin!.on('error', () => {
      /* EPIPE after the engine died: the exit event reports it */
    });
    this.child.on('error', (e: NodeJS.ErrnoException) => {
      // spawn failure (ENOENT, EACCES): no process ever ran
      finish({ code: null, signal: null, error: e.code ?? e.message });
    });
    this.child.on('exit', (code, signal) => {
      // Lines written just before exiting may still be in the pipe: wait for the end of
      // stdout, but not for long (a helper process may hold the pipe open).
      pendingExit = { code, signal };
      if (stdoutEnded) finish(pendingExit);
      else setTimeout(() => finish(pendingExit!), 50).unref();
    });
  }

  /** Start an engine. Never throws; a program that cannot start shows up as a crash. */
  static spawn(cmd: EngineCommand, opts: Partial<ClientOptions> = {}): PbrainClient {
    return new PbrainClient(cmd, { ...DEFAULT_CLIENT_OPTIONS, ...opts });
  }

  get exited(): boolean {
    return this.exitInfo !== null;
  }

  /** The last ~2000 characters the engine wrote on stderr (for crash reports). */
  get stderr(): string {
    return this.stderrTail;
  }

  private onData(chunk: string): void {
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i]!;
      if (ch === '\n' && this.lastWasCR) {
        this.lastWasCR = false;
        continue;
      }
      this.lastWasCR = ch === '\r';
      if (ch === '\r' || ch === '\n') {
        this.pushLine(this.partial);
        this.partial = '';
      } else this.partial += ch;
    }
  }

  private flushPartial(): void {
    if (this.partial !== '') {
      this.pushLine(this.partial);
      this.partial = '';
    }
  }

  private pushLine(line: string): void {
    this.lastHeardAt = performance.now();
    this.opts.onLine?.('<', line);
    if (this.waiter) this.wake({ type: 'line', line });
    else this.queue.push(line);
  }

  private wake(ev: Event): void {
    const w = this.waiter;
    if (w) {
      this.waiter = null;
      w(ev);
    }
  }

  private nextEvent(timeoutMs: number): Promise<Event> {
    if (this.queue.length > 0) return Promise.resolve({ type: 'line', line: this.queue.shift()! });
    if (this.exitInfo) return Promise.resolve({ type: 'exit' });
    return new Promise<Event>((resolve) => {
      const timer = setTimeout(
        () => {
          this.waiter = null;
          resolve({ type: 'timeout' });
        },
        Math.max(0, timeoutMs),
      );
      this.waiter = (ev) => {
        clearTimeout(timer);
        resolve(ev);
      };
    });
  }

  private gapLeft(): number {
    return this.lastHeardAt + this.opts.replyGapMs - performance.now();
  }

  private send(line: string): void {
    if (this.exitInfo) return;
    if (this.outbox.length > 0 || this.gapLeft() > 0) {
      this.outbox.push(line);
      this.scheduleFlush();
      return;
    }
    this.write(line);
  }

  private write(line: string): void {
    this.opts.onLine?.('>', line);
    this.child.stdin!.write(line + '\r\n');
  }

  private scheduleFlush(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(
      () => {
        this.flushTimer = null;
        if (this.gapLeft() > 0) this.scheduleFlush();
        else this.flushOutbox();
      },
      Math.max(0, this.gapLeft()),
    );
  }

  private flushOutbox(): void {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    while (this.outbox.length > 0 && !this.exitInfo) this.write(this.outbox.shift()!);
    this.outbox.length = 0;
  }

  /** Resume the engine, wait until its reply gap has passed and write every queued line. */
  private async settle(): Promise<void> {
    this.resume(); // first: the gap is counted in the engine's running time
    for (let wait = this.gapLeft(); wait > 0; wait = this.gapLeft()) await new Promise((r) => setTimeout(r, wait));
    this.flushOutbox();
  }

  private crash(ms: number): Extract<MoveReply, { kind: 'crash' }> {
    const e = this.exitInfo!;
    const r: Extract<MoveReply, { kind: 'crash' }> = { kind: 'crash', ms, exitCode: e.code, signal: e.signal };
    if (e.error !== undefined) r.error = e.error;
    return r;
  }

  private note(line: string): void {
    this.messages.push(line.replace(CHATTER_RE, '').trim());
    if (this.messages.length > 200) this.messages.shift();
  }

  private signalGroup(sig: NodeJS.Signals): void {
    if (this.pid === undefined) return;
    try {
      process.kill(-this.pid, sig);
    } catch {
      /* ESRCH: the group is gone */
    }
  }

  /** `START size`, then wait for `OK`. */
  async start(size: number): Promise<StartReply> {
    this.size = size;
    await this.settle();
    const t0 = performance.now();
    this.send(`START ${size}`);
    const deadline = t0 + this.opts.startTimeoutMs;
    for (;;) {
      const ev = await this.nextEvent(deadline - performance.now());
      const ms = performance.now() - t0;
      if (ev.type === 'timeout') return { kind: 'timeout', ms, limitMs: this.opts.startTimeoutMs };
      if (ev.type === 'exit') return this.crash(ms);
      const line = ev.line.trim();
      if (line === '') continue;
      if (CHATTER_RE.test(line)) {
        this.note(line);
        continue;
      }
      if (/^ok$/i.test(line)) return { kind: 'ok', ms };
      if (/^name\s*=/i.test(line)) continue; // a late ABOUT answer
      return { kind: 'garbage', ms, line };
    }
  }

  /** `INFO key value` (no reply). */
  info(key: string, value: string | number): void {
    this.send(`INFO ${key} ${value}`);
  }

  /**
   * `ABOUT`; the engine's `name="…"` if it answers within `timeoutMs`. A late answer is
   * skipped by the move reader, so a slow ABOUT never turns into garbage.
   */
  async about(timeoutMs = 2000): Promise<{ name?: string; version?: string; raw?: string }> {
    await this.settle();
    const t0 = performance.now();
    this.send('ABOUT');
    for (;;) {
      const ev = await this.nextEvent(t0 + timeoutMs - performance.now());
      if (ev.type !== 'line') return {};
      const line = ev.line.trim();
      if (line === '' || /^ok$/i.test(line)) continue;
      if (CHATTER_RE.test(line)) {
        this.note(line);
        continue;
      }
      const out: { name?: string; version?: string; raw?: string } = { raw: line };
      const name = /\bname\s*=\s*"([^"]*)"/i.exec(line);
      const version = /\bversion\s*=\s*"([^"]*)"/i.exec(line);
      if (name) out.name = name[1]!;
      if (version) out.version = version[1]!;
      return out;
    }
  }

  /** `BEGIN`: move first on an empty board. */
  begin(limitMs: number, timeLeftMs: number): Promise<MoveReply> {
    return this.askMove(['BEGIN'], limitMs, timeLeftMs);
  }

  /** `TURN x,y`: the opponent played x,y. */
  turn(x: number, y: number, limitMs: number, timeLeftMs: number): Promise<MoveReply> {
    return this.askMove([`TURN ${x},${y}`], limitMs, timeLeftMs);
  }

  /** `BOARD`, one `x,y,f` per stone in move order (f 1 = own, 2 = opponent), `DONE`. */
  board(stones: { x: number; y: number; own: boolean }[], limitMs: number, timeLeftMs: number): Promise<MoveReply> {
    const lines = ['BOARD', ...stones.map((s) => `${s.x},${s.y},${s.own ? 1 : 2}`), 'DONE'];
    return this.askMove(lines, limitMs, timeLeftMs);
  }

  /**
   * Send `INFO time_left`, then the command lines, and read the reply. `limitMs` is the
   * time this move may take before the hang tolerance (min of the turn limit and the time
   * left in the game); the measured think time is added to `usedMs` whatever happens.
   */
  async askMove(lines: string[], limitMs: number, timeLeftMs: number): Promise<MoveReply> {
    return this.ask(lines, limitMs, timeLeftMs, (line, ms) => {
      const m = MOVE_RE.exec(line);
      if (!m) return { kind: 'garbage', ms, line };
      return this.onBoard(Number(m[1]), Number(m[2]), ms, line) ?? { kind: 'move', x: Number(m[1]), y: Number(m[2]), ms };
    });
  }

  /**
   * `SWAP2BOARD`, the stones so far (`x,y` in move order), `DONE`. The reply is `SWAP`
   * (any case) or whitespace-separated `x,y` points on one line; the caller checks how many
   * points the stage allows.
   */
  swap2board(stones: { x: number; y: number }[], limitMs: number, timeLeftMs: number): Promise<Swap2Reply> {
    const lines = ['SWAP2BOARD', ...stones.map((s) => `${s.x},${s.y}`), 'DONE'];
    return this.ask(lines, limitMs, timeLeftMs, (line, ms): Swap2Reply => {
      if (/^swap\b/i.test(line)) return { kind: 'swap', ms };
      const points: { x: number; y: number }[] = [];
      for (const tok of line.split(/\s+/)) {
        const m = MOVE_RE.exec(tok);
        if (!m) return { kind: 'garbage', ms, line };
        const bad = this.onBoard(Number(m[1]), Number(m[2]), ms, line);
        if (bad) return bad;
        points.push({ x: Number(m[1]), y: Number(m[2]) });
      }
      return { kind: 'stones', points, ms };
    });
  }

  private onBoard(x: number, y: number, ms: number, line: string): Extract<MoveReply, { kind: 'illegal' }> | undefined {
    if (x >= 0 && y >= 0 && x < this.size && y < this.size) return undefined;
    return { kind: 'illegal', ms, line, x, y, reason: `off the ${this.size}x${this.size} board` };
  }

  private async ask<R extends { ms: number }>(
    lines: string[],
    limitMs: number,
    timeLeftMs: number,
    parse: (line: string, ms: number) => R,
  ): Promise<R | Failure> {
    await this.settle();
    this.send(`INFO time_left ${Math.round(timeLeftMs)}`);
    const t0 = performance.now();
    for (const l of lines) this.send(l);
    const hardLimit = Math.max(0, limitMs) + this.opts.hangToleranceMs;
    const reply = await this.readReply(t0, t0 + hardLimit, hardLimit, parse);
    this.usedMs += reply.ms;
    this.suspend();
    return reply;
  }

  private async readReply<R>(t0: number, deadline: number, hardLimit: number, parse: (line: string, ms: number) => R): Promise<R | Failure> {
    for (;;) {
      const ev = await this.nextEvent(deadline - performance.now());
      const ms = performance.now() - t0;
      if (ev.type === 'timeout') return { kind: 'timeout', ms, limitMs: hardLimit };
      if (ev.type === 'exit') return this.crash(ms);
      const line = ev.line.trim();
      if (line === '' || /^ok$/i.test(line) || /^name\s*=/i.test(line)) continue;
      if (CHATTER_RE.test(line)) {
        this.note(line);
        continue;
      }
      if (ms > hardLimit) return { kind: 'timeout', ms, limitMs: hardLimit };
      return parse(line, ms);
    }
  }

  /** Stop the engine's process group while it waits (no-op unless suspendWhenIdle). */
  suspend(): void {
    if (!this.opts.suspendWhenIdle || this.suspended || this.exitInfo) return;
    this.suspended = true;
    this.suspendedAt = performance.now();
    this.signalGroup('SIGSTOP');
  }

  resume(): void {
    if (!this.suspended) return;
    this.suspended = false;
    // The reply gap is the engine's own running time: stopped at once after its answer, it
    // still has the end of that answer to finish (Rapfi clears its busy flag after printing).
    this.lastHeardAt += performance.now() - this.suspendedAt;
    this.signalGroup('SIGCONT');
  }

  /**
   * `END`, then wait up to `graceMs` for the engine to exit, then kill its process group.
   * Resolves once the process is gone.
   */
  async end(graceMs = 500): Promise<void> {
    if (this.exitInfo) return;
    await this.settle();
    this.send('END');
    this.child.stdin!.end();
    const timer = setTimeout(() => this.killNow(), graceMs);
    await this.exitPromise;
    clearTimeout(timer);
  }

  /** Kill the engine's whole process group now and wait until it has exited. */
  async kill(): Promise<void> {
    this.killNow();
    await this.exitPromise;
  }

  /** Synchronous kill (used by the exit hook). */
  killNow(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.outbox.length = 0;
    if (this.pid === undefined) return;
    this.signalGroup('SIGCONT');
    this.signalGroup('SIGKILL');
    try {
      this.child.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

/** One line that says what went wrong with a reply, for game records. */
export function describeReply(r: MoveReply | StartReply | Swap2Reply): string {
  switch (r.kind) {
    case 'swap':
      return 'SWAP';
    case 'stones':
      return r.points.map((p) => `${p.x},${p.y}`).join(' ');
    case 'ok':
      return 'ok';
    case 'move':
      return `${r.x},${r.y}`;
    case 'timeout':
      return `no reply within ${Math.round(r.limitMs)} ms`;
    case 'crash':
      if (r.error) return `could not start (${r.error})`;
      return r.signal ? `exited on signal ${r.signal}` : `exited with code ${r.exitCode}`;
    case 'garbage':
      return `unexpected reply '${r.line.slice(0, 80)}'`;
    case 'illegal':
      return `move ${r.x},${r.y} is ${r.reason}`;
  }
}
