/**
 * Redis connections for the book build's job queue: the options every connection shares,
 * and the first contact, which must fail fast with one line (the long-lived connections
 * instead wait and reconnect for ever, through a Redis restart).
 */
import { isIP } from 'node:net';
import { Redis, type RedisOptions } from 'ioredis';
import type { QueueUrl } from './queue.js';

/** Options of a long-lived connection: retries for ever (BullMQ requires maxRetriesPerRequest null). */
export function redisOptions(u: QueueUrl): RedisOptions {
  const o: RedisOptions = {
    host: u.host,
    port: u.port,
    db: u.db,
    maxRetriesPerRequest: null,
    // back off to at most 2 s between attempts while Redis is away
    retryStrategy: (times) => Math.min(100 * times, 2000),
  };
  if (u.username !== undefined) o.username = u.username;
  if (u.password !== undefined) o.password = u.password;
  // SNI takes a host name, never an address (Node warns)
  if (u.tls) o.tls = isIP(u.host) ? {} : { servername: u.host };
  return o;
}

export type ProbeFailure = { kind: 'unreachable' | 'auth'; message: string };

/**
 * Connect once, PING, and say why not: 'auth' for a refused password or user (fix the URL),
 * 'unreachable' for everything else (refused, timed out, TLS failure: try again later).
 */
export async function probeRedis(u: QueueUrl, timeoutMs = 5000): Promise<ProbeFailure | undefined> {
  const r = new Redis({ ...redisOptions(u), lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: timeoutMs, enableOfflineQueue: false });
  let lastError: Error | undefined;
  r.on('error', (e: Error) => (lastError = e));
  try {
    await Promise.race([
      (async () => {
        await r.connect();
        await r.ping();
      })(),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs).unref()),
    ]);
    return undefined;
  } catch (e) {
    // ioredis' own "Connection is closed." hides the socket's error (ECONNREFUSED, ENOTFOUND, ...)
    let msg = (e instanceof Error ? e.message : String(e)) || 'connection failed';
    if (lastError && /Connection is closed/i.test(msg)) msg = lastError.message;
    const auth = /NOAUTH|WRONGPASS|invalid password|invalid username|AUTH/i.test(msg);
    const code = (e as NodeJS.ErrnoException).code ?? (lastError as NodeJS.ErrnoException | undefined)?.code;
    return { kind: auth ? 'auth' : 'unreachable', message: code && !msg.includes(code) ? `${msg} (${code})` : msg };
  } finally {
    r.disconnect();
  }
}
