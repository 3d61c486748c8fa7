/**
 * The page's side of the server's API: JSON over HTTP for the quick questions, one WebSocket
 * for the searches (reconnected when it drops). Every rule question goes to the server.
 */

export type ColorName = 'black' | 'white';
export type Verdict = 'win' | 'loss' | 'draw' | 'unknown';

/** The position fields of every request (the CLI's POSITION, --size, --rule, --to-move, plus `then`). */
export interface PositionFields {
  position: string;
  then: string;
  size: number;
  rule: string;
  toMove?: ColorName;
}

export interface BookView {
  found: boolean;
  verdict?: Verdict;
  score?: number;
  depth?: number;
  bestMove?: string;
  children?: { point: string; verdict: Verdict; score: number }[];
}

/** POST /api/position: `gomoku show --json` and what the page draws. */
export interface PositionView {
  size: number;
  rule: string;
  toMove: ColorName;
  stones: { black: string[]; white: string[] };
  lastMove: string | null;
  setup: string;
  moves: string[];
  text: string;
  marks: { point: string; text: string; tone: 'mine' | 'theirs' }[];
  five: string[];
  winner: ColorName | null;
  full: boolean;
  book: BookView | null;
}

export class ApiError extends Error {}

async function post<T>(path: string, body: unknown): Promise<T> {
  const r = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const j = (await r.json()) as T & { error?: string };
  if (!r.ok) throw new ApiError(j.error ?? `${r.status} ${r.statusText}`);
  return j;
}

export const api = {
  position: (p: PositionFields) => post<PositionView>('/api/position', p),
  sgfExport: (p: PositionFields) => post<{ sgf: string }>('/api/sgf/export', p),
  sgfImport: (sgf: string) => post<{ request: PositionFields; view: PositionView }>('/api/sgf/import', { sgf }),
};

export interface Info {
  type: 'info';
  id: number;
  depth: number;
  score: number;
  scoreText: string;
  nodes: number;
  nps: number;
  ms: number;
  pv: string[];
  stage: string;
  iteration: boolean;
}

export type ServerMessage =
  | { type: 'hello'; version: string; maxTimeMs: number; maxSearches: number; book: boolean }
  | Info
  | ({ type: 'result'; id: number; kind: string } & Record<string, unknown>)
  | { type: 'error'; id: number | null; error: string }
  | { type: 'cancelled'; id: number };

/** The searches' socket: send() returns the request id; every answer goes to onMessage. */
export class SearchSocket {
  private ws: WebSocket | undefined;
  private nextId = 1;
  private retryMs = 250;
  onMessage: (m: ServerMessage) => void = () => {};
  onState: (open: boolean) => void = () => {};

  constructor(private readonly url: string) {
    this.connect();
  }

  private connect(): void {
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.retryMs = 250;
      this.onState(true);
    };
    ws.onmessage = (e) => this.onMessage(JSON.parse(String(e.data)) as ServerMessage);
    ws.onclose = () => {
      this.onState(false);
      setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(5000, this.retryMs * 2);
    };
  }

  get open(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  send(msg: Record<string, unknown>): number {
    const id = this.nextId++;
    if (this.open) this.ws!.send(JSON.stringify({ ...msg, id }));
    else setTimeout(() => this.onMessage({ type: 'error', id, error: 'not connected to the server' }), 0);
    return id;
  }

  stop(): void {
    if (this.open) this.ws!.send(JSON.stringify({ type: 'stop' }));
  }
}
