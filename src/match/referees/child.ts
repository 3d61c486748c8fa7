/**
 * A bot running as a real child process, spoken to in lines. Used by the local referees:
 * `send` writes one line, `read(ms)` waits for the next line with a deadline, `close`
 * gives the bot a grace period to exit and then kills it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface BotCommand {
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export type ReadResult = { kind: 'line'; line: string; ms: number } | { kind: 'timeout'; ms: number } | { kind: 'eof'; ms: number };

export class LineChild {
  readonly proc: ChildProcessWithoutNullStreams;
  private lines: string[] = [];
  private waiter: (() => void) | undefined;
  private ended = false;
  stderr = '';
  exitCode: number | null = null;
  exitSignal: NodeJS.Signals | null = null;
  private exited: Promise<void>;
  /** Every line both ways: `> ` to the bot, `< ` from it. */
  readonly transcript: string[] = [];

  constructor(cmd: BotCommand) {
    this.proc = spawn(cmd.command, cmd.args, { cwd: cmd.cwd, env: cmd.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const rl = createInterface({ input: this.proc.stdout, crlfDelay: Infinity });
    rl.on('line', (l) => {
      this.lines.push(l.replace(/\r$/, ''));
      this.wake();
    });
    rl.on('close', () => {
      this.ended = true;
      this.wake();
    });
    this.proc.stderr.on('data', (d: Buffer) => {
      if (this.stderr.length < 100_000) this.stderr += d.toString();
    });
    this.proc.stdin.on('error', () => {
      /* the bot closed its stdin (it exited); reported through eof */
    });
    this.exited = new Promise((resolve) => {
      this.proc.on('exit', (code, signal) => {
        this.exitCode = code;
        this.exitSignal = signal;
        resolve();
      });
      this.proc.on('error', (e) => {
        this.stderr += `spawn error: ${e.message}\n`;
        this.ended = true;
        this.exitCode = -1;
        this.wake();
        resolve();
      });
    });
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }

  send(line: string): void {
    this.transcript.push(`> ${line}`);
    if (!this.proc.stdin.destroyed && this.proc.stdin.writable) this.proc.stdin.write(`${line}\n`);
  }

  /** The next line, waiting at most `ms`. */
  async read(ms: number): Promise<ReadResult> {
    const t0 = performance.now();
    for (;;) {
      const l = this.lines.shift();
      if (l !== undefined) {
        this.transcript.push(`< ${l}`);
        return { kind: 'line', line: l, ms: performance.now() - t0 };
      }
      if (this.ended) return { kind: 'eof', ms: performance.now() - t0 };
      const left = ms - (performance.now() - t0);
      if (left <= 0) return { kind: 'timeout', ms: performance.now() - t0 };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.waiter = undefined;
          resolve();
        }, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** Lines the bot wrote that nobody has read. */
  unread(): string[] {
    return [...this.lines];
  }

  /** Wait up to `graceMs` for the bot to exit by itself, then kill it. True if it exited by itself. */
  async close(graceMs = 500): Promise<boolean> {
    if (this.exitCode === null && this.exitSignal === null) {
      // End of input is the last thing the bot hears; well-behaved bots exit on it.
      this.endInput();
      const t = new Promise<boolean>((r) => setTimeout(() => r(false), graceMs));
      const self = await Promise.race([this.exited.then(() => true), t]);
      if (!self) {
        this.proc.kill('SIGKILL');
        await this.exited;
        return false;
      }
    }
    return true;
  }

  endInput(): void {
    if (!this.proc.stdin.destroyed) this.proc.stdin.end();
  }
}
