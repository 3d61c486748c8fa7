/**
 * Helpers for the `gomoku serve` tests: start the real CLI (`node dist/cli/main.js serve
 * --port 0`) as a child process, read its address from the first line it prints, talk to it
 * over real HTTP and WebSocket, and stop it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import WebSocket from 'ws';
import { entry } from '../cli/run.js';

export interface Served {
  url: string;
  proc: ChildProcess;
  /** ms from spawning the process to its address line. */
  startMs: number;
  stderr: () => string;
  stop: () => Promise<number | null>;
}

export function serve(...args: string[]): Promise<Served> {
  const t0 = performance.now();
  const proc = spawn(process.execPath, [entry, 'serve', '--port', '0', ...args], {
    env: { ...process.env, GOMOKU_DEBUG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gomoku serve printed no address in 20 s; stderr: ${err}`)), 20_000);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /gomoku serve: (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1]!,
          proc,
          startMs: performance.now() - t0,
          stderr: () => err,
          stop: async () => {
            if (proc.exitCode === null) proc.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`gomoku serve exited with ${code}: ${err}`));
    });
  });
}

export async function postJson(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
}

export type Msg = Record<string, unknown> & { type: string; id?: number };

/** A WebSocket client that keeps every message and waits for the one a predicate picks. */
export class Client {
  readonly messages: Msg[] = [];
  private waiters: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as Msg;
      (m as { at?: number }).at = performance.now();
      this.messages.push(m);
      this.waiters = this.waiters.filter((w) => {
        if (!w.pred(m)) return true;
        w.resolve(m);
        return false;
      });
    });
  }

  static open(httpUrl: string, headers: Record<string, string> = {}): Promise<Client> {
    const ws = new WebSocket(httpUrl.replace(/^http/, 'ws') + 'api/ws', { headers });
    const c = new Client(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(c));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
    });
  }

  send(m: Record<string, unknown>): void {
    this.ws.send(JSON.stringify(m));
  }

  /** The first message (already received or still to come) that `pred` picks. */
  next(pred: (m: Msg) => boolean, timeoutMs = 30_000): Promise<Msg> {
    const had = this.messages.find(pred);
    if (had) return Promise.resolve(had);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no such message in ${timeoutMs} ms; got ${JSON.stringify(this.messages.slice(-5))}`)), timeoutMs);
      this.waiters.push({
        pred,
        resolve: (m) => {
          clearTimeout(t);
          resolve(m);
        },
      });
    });
  }

  /** The answer (result, error or cancelled) to request `id`. */
  answer(id: number, timeoutMs = 30_000): Promise<Msg> {
    return this.next((m) => m.id === id && (m.type === 'result' || m.type === 'error' || m.type === 'cancelled'), timeoutMs);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.ws.readyState === WebSocket.CLOSED) return resolve();
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}
