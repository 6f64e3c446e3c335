/** One request to a running `hookline serve` over its Unix socket (for `hookline fire` with HOOKLINE_SOCKET). */
import net from 'node:net';
import type { RpcErrorBody } from './protocol.js';

/** The server could not be reached at all (nothing was sent): the caller may run the event itself. */
export class Unreachable extends Error {}

export type Answer = { result: unknown } | { error: RpcErrorBody };

export function call(socket: string, method: string, params: Record<string, unknown>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const conn = net.connect(socket);
    let connected = false;
    let buffer = '';
    conn.setEncoding('utf8');
    conn.once('connect', () => {
      connected = true;
      conn.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })}\n`);
    });
    conn.on('data', (d: string) => {
      buffer += d;
      const nl = buffer.indexOf('\n');
      if (nl === -1) return;
      conn.end();
      try {
        const msg = JSON.parse(buffer.slice(0, nl)) as Answer;
        resolve('error' in msg && msg.error ? { error: msg.error } : { result: (msg as { result: unknown }).result });
      } catch {
        reject(new Error(`hookline serve at ${socket} sent an answer that is not JSON`));
      }
    });
    conn.on('error', (err: NodeJS.ErrnoException) => {
      reject(connected ? new Error(`hookline serve at ${socket}: ${err.code ?? err.message}`) : new Unreachable(err.code ?? err.message));
    });
    conn.on('close', () => {
      if (connected) reject(new Error(`hookline serve at ${socket} closed the connection before answering`));
    });
  });
}
