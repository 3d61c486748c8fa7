/**
 * The page's side of the server's API: JSON over HTTP for the quick questions, one WebSocket
 * for the searches (reconnected when it drops). Every rule question goes to the server.
 */

import type { FullPositionFields as PositionFields, PositionView, ServerMessage, SgfImport } from '../../src/view/wire.js';

export type {
  ColorName,
  FullPositionFields as PositionFields,
  InfoMessage as Info,
  PositionView,
  ResultMessage,
  ServerMessage,
  SolveResult,
  Swap2Result,
} from '../../src/view/wire.js';

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
  sgfImport: (sgf: string) => post<SgfImport>('/api/sgf/import', { sgf }),
};

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
