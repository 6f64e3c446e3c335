/**
 * `hookline serve`: warm engines behind a Unix socket (newline-delimited JSON-RPC 2.0) and,
 * optionally, loopback HTTP (one JSON-RPC message per POST, bearer token). Every request runs on
 * its own; a client that goes away cancels its hooks.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { handle } from './dispatch.js';
import type { MethodContext } from './methods.js';
import { authorized, clearStaleSocket, defaultSocketPath, loopback, readToken, socketFolder } from './places.js';
import { errorResponse, INVALID_REQUEST, MAX_REQUEST_BYTES } from './protocol.js';
import { pidFilePath } from './peer.js';
import { UsageError } from '../config/problems.js';
import { Warm } from './warm.js';
import { relayWebEvent } from './methods.js';
import type { RelayAnswer } from '../relay/answers.js';
import { RelayWeb } from './relay-http.js';

export interface ServeOptions {
  socket?: string;
  http?: string;
  tokenFile?: string;
  /** Stop after this many seconds with no request (a server the relay started for itself). */
  idleExit?: string | number;
  /** Serve Claude Code's http entries on 127.0.0.1:PORT (relay-http.ts). */
  relayPort?: string | number;
}

const TOO_LONG = JSON.stringify(errorResponse(null, INVALID_REQUEST, `invalid request: longer than ${MAX_REQUEST_BYTES} bytes`));

export async function serve(opts: ServeOptions): Promise<void> {
  if (opts.http !== undefined && opts.tokenFile === undefined)
    throw new UsageError('--http needs a bearer token — add --token-file FILE (a file only you can read)');
  if (opts.tokenFile !== undefined && opts.http === undefined)
    throw new UsageError('--token-file is only used with --http — add --http 127.0.0.1:PORT, or drop it');
  const address = opts.http === undefined ? undefined : loopback(opts.http);
  const token = opts.tokenFile === undefined ? undefined : readToken(opts.tokenFile);
  const socket = path.resolve(opts.socket ?? defaultSocketPath());
  socketFolder(socket);
  await clearStaleSocket(socket);

  const warm = new Warm();
  // A copy: the server's environment does not change, and each event reads it many times (paths,
  // trust files), which process.env answers far more slowly than a plain object.
  const env: NodeJS.ProcessEnv = { ...process.env };
  const cancels = new Set<AbortController>();
  const inflight = new Set<Promise<unknown>>();
  const sockets = new Set<net.Socket>();
  let stopping = false;
  let stopped!: () => void;
  const done = new Promise<void>((r) => (stopped = r));

  const idleMs = idleExitMs(opts.idleExit);
  let idle: NodeJS.Timeout | undefined;
  /** With --idle-exit, the server stops once no request came for that long (none running). */
  const touch = () => {
    if (idleMs === undefined) return;
    clearTimeout(idle);
    idle = setTimeout(() => (inflight.size ? touch() : void stop()), idleMs);
    idle.unref();
  };

  const counted = <T>(p: Promise<T>): Promise<T> => {
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
    return p;
  };
  const relayWeb: RelayWeb = new RelayWeb((r): Promise<RelayAnswer> => {
    touch();
    return counted(relayWebEvent(r, { warm, env, signal: r.signal, shutdown: () => setImmediate(stop), relayWeb }));
  });
  /** Runs one message for a client (`signal` is the client's) and hands its answer to `deliver`. */
  const run = (text: string, signal: AbortSignal, deliver: (answer: string | undefined) => void): void => {
    touch();
    const ctx: MethodContext = { warm, env, signal, shutdown: () => setImmediate(stop), relayWeb };
    counted(handle(text, ctx).then(deliver));
  };

  const unix = net.createServer((sock) => {
    const ac = new AbortController();
    cancels.add(ac);
    sockets.add(sock);
    sock.on('close', () => {
      ac.abort();
      cancels.delete(ac);
      sockets.delete(sock);
    });
    sock.on('error', () => {});
    const answer = (text: string | undefined) => {
      if (text !== undefined && !sock.destroyed && sock.writable) sock.write(`${text}\n`);
    };
    const line = (buf: Buffer) => {
      const text = buf.toString('utf8').trim();
      if (text) run(text, ac.signal, answer);
    };
    let chunks: Buffer[] = [];
    let size = 0;
    // After an over-long line, the rest of it is dropped up to its newline; the next line is served.
    let skipping = false;
    sock.on('data', (data: Buffer) => {
      let start = 0;
      for (let nl = data.indexOf(0x0a); nl !== -1; nl = data.indexOf(0x0a, start)) {
        if (skipping) skipping = false;
        else if (size + nl - start > MAX_REQUEST_BYTES) answer(TOO_LONG);
        else line(chunks.length ? Buffer.concat([...chunks, data.subarray(start, nl)]) : data.subarray(start, nl));
        chunks = [];
        size = 0;
        start = nl + 1;
      }
      if (skipping || start === data.length) return;
      size += data.length - start;
      if (size > MAX_REQUEST_BYTES) {
        answer(TOO_LONG);
        skipping = true;
        chunks = [];
        size = 0;
      } else chunks.push(data.subarray(start));
    });
  });

  const web = address && token !== undefined ? http.createServer((req, res) => serveHttp(req, res, token, run, cancels)) : undefined;

  const stop = async () => {
    if (stopping) return;
    stopping = true;
    clearTimeout(idle);
    unix.close();
    web?.close();
    relayWeb.close();
    // Requests still running are cancelled: their hooks are killed and reaped, their answers sent.
    for (const ac of cancels) ac.abort();
    await Promise.allSettled([...inflight]);
    warm.clear();
    for (const s of sockets) s.end(() => s.destroy());
    web?.closeAllConnections();
    for (const f of [socket, pidFilePath(socket)])
      try {
        fs.unlinkSync(f);
      } catch {
        // already gone
      }
    stopped();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // A closed terminal: the server stops as it would on SIGTERM, its hooks with it.
  process.once('SIGHUP', stop);

  // Owner-only from the start: the umask covers the moment between bind and chmod.
  const mask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      unix.once('error', reject);
      unix.listen(socket, () => resolve());
    });
  } finally {
    process.umask(mask);
  }
  fs.chmodSync(socket, 0o600);
  try {
    fs.writeFileSync(pidFilePath(socket), `${process.pid}\n`, { mode: 0o600 });
  } catch {
    // Clients then look for the listener among all of the user's processes.
  }
  let url: string | undefined;
  if (web && address) {
    await new Promise<void>((resolve, reject) => {
      web.once('error', (err: NodeJS.ErrnoException) => reject(new UsageError(`--http ${opts.http}: ${err.code ?? err.message}`)));
      web.listen(address.port, address.host, () => resolve());
    });
    const a = web.address() as net.AddressInfo;
    url = `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
  }
  if (opts.relayPort !== undefined) {
    const problem = await relayWeb.ensure(portNumber(opts.relayPort));
    if (problem) process.stderr.write(`hookline serve: ${problem}\n`);
  }
  // The ready line: clients may connect once it is printed.
  process.stdout.write(`${JSON.stringify({ socket, ...(url ? { http: url } : {}) })}\n`);
  touch();
  await done;
}

function portNumber(v: string | number): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new UsageError(`--relay-port ${v}: not a port number (1 to 65535)`);
  return n;
}

function idleExitMs(v: string | number | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--idle-exit ${v}: not a number of seconds above 0 — e.g. --idle-exit 600`);
  return n * 1000;
}

function serveHttp(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  token: string,
  run: (text: string, signal: AbortSignal, deliver: (answer: string | undefined) => void) => void,
  cancels: Set<AbortController>,
): void {
  const reply = (status: number, body?: string, headers: Record<string, string> = {}) => {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers });
    res.end(body);
  };
  if (!authorized(req.headers.authorization, token)) {
    req.resume();
    return reply(401, JSON.stringify(errorResponse(null, INVALID_REQUEST, 'unauthorized: send Authorization: Bearer <token>')), {
      'www-authenticate': 'Bearer',
    });
  }
  if (req.method !== 'POST') {
    req.resume();
    return reply(405, JSON.stringify(errorResponse(null, INVALID_REQUEST, 'invalid request: POST one JSON-RPC message')), {
      allow: 'POST',
    });
  }
  const ac = new AbortController();
  cancels.add(ac);
  res.on('close', () => {
    if (!res.writableEnded) ac.abort();
    cancels.delete(ac);
  });
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (d: Buffer) => {
    size += d.length;
    if (size > MAX_REQUEST_BYTES) {
      reply(413, TOO_LONG, { connection: 'close' });
      req.destroy();
    } else chunks.push(d);
  });
  req.on('end', () => {
    if (size > MAX_REQUEST_BYTES) return;
    run(Buffer.concat(chunks).toString('utf8'), ac.signal, (text) => (text === undefined ? reply(204) : reply(200, text)));
  });
}
