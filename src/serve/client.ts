/** One request to a running `hookline serve` over its Unix socket (for `hookline fire` with HOOKLINE_SOCKET). */
import net from 'node:net';
import type { RpcErrorBody } from './protocol.js';
import { peerProblem, socketProblem } from './peer.js';

/** The server could not be reached at all (nothing was sent): the caller may run the event itself. */
export class Unreachable extends Error {}

/** The socket is not one this user's server made (checked before anything is sent): the caller runs the event itself. */
export class Refused extends Unreachable {}

export type Answer = { result: unknown } | { error: RpcErrorBody };

/** An answer longer than this is not read: a fire's report holds at most a few MiB of hook output. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export interface CallOptions {
  /** How long the answer may take once sent. */
  deadlineMs: number;
  maxBytes?: number;
}

export function call(socket: string, method: string, params: Record<string, unknown>, opts: CallOptions): Promise<Answer> {
  const unsafe = socketProblem(socket);
  if (unsafe) return Promise.reject(new Refused(unsafe));
  const max = opts.maxBytes ?? MAX_ANSWER_BYTES;
  return new Promise((resolve, reject) => {
    const conn = net.connect(socket);
    let connected = false;
    let settled = false;
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn.destroy();
      fn();
    };
    conn.once('connect', () => {
      connected = true;
      const peer = peerProblem(socket);
      if (peer) return done(() => reject(new Refused(peer)));
      conn.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })}\n`);
      timer = setTimeout(() => done(() => reject(new Error(`no answer within ${Math.round(opts.deadlineMs / 1000)} s`))), opts.deadlineMs);
    });
    conn.on('data', (d: Buffer) => {
      const nl = d.indexOf(0x0a);
      const part = nl === -1 ? d : d.subarray(0, nl);
      size += part.length;
      if (size > max) return done(() => reject(new Error(`its answer is longer than ${max} bytes`)));
      chunks.push(part);
      if (nl === -1) return;
      done(() => {
        try {
          const msg = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Answer;
          resolve('error' in msg && msg.error ? { error: msg.error } : { result: (msg as { result: unknown }).result });
        } catch {
          reject(new Error('its answer is not JSON'));
        }
      });
    });
    conn.on('error', (err: NodeJS.ErrnoException) =>
      done(() => reject(connected ? new Error(err.code ?? err.message) : new Unreachable(err.code ?? err.message))),
    );
    conn.on('close', () =>
      done(() => reject(connected ? new Error('it closed the connection before answering') : new Unreachable('closed'))),
    );
  });
}
