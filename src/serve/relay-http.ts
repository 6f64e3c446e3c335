/**
 * Hookline's entries in other agents, answered over loopback on a port fixed at install time:
 * Claude Code's `http` entries POST the event and read Claude Code's hook JSON back; the shell
 * client of the command entries (relay.sh) POSTs it too and reads the exit status, the lines for
 * stderr and the answer. There is no token to keep in the agents' files: on each connection the
 * kernel's table says which user holds the other end, and only this server's user is served.
 * Where that cannot be told (not Linux) every connection is refused, and `install` writes Node
 * command entries instead. The port is listened on when a relay asks for it.
 */
import http from 'node:http';
import type net from 'node:net';
import { HOST_NAMES, type RelayAnswer } from '../relay/answers.js';
import { loopbackPeer, peerProcess } from './peer.js';
import { MAX_REQUEST_BYTES } from './protocol.js';

/** Where Claude Code's http entries post: `http://127.0.0.1:PORT/hookline/relay/claude[?from=a,b]`. */
export const RELAY_PATH = '/hookline/relay/';
/** Where the shell client posts: `/hookline/command/<agent>?from=…&event=…`. */
export const COMMAND_PATH = '/hookline/command/';

export interface RelayHttpRequest {
  host: string;
  from?: string;
  event?: string;
  text: string;
  signal: AbortSignal;
  /** The shell client's own environment and folder, read from its process. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export type RelayHttpRun = (r: RelayHttpRequest) => Promise<RelayAnswer>;

/** Environments of the sessions whose command entries came through, kept for their http events. */
const SESSIONS_KEPT = 64;

export class RelayWeb {
  private readonly ports = new Map<number, Promise<string | undefined>>();
  private readonly servers = new Set<http.Server>();
  private readonly envs = new Map<string, NodeJS.ProcessEnv>();
  private readonly peers = new WeakMap<net.Socket, string>();

  constructor(
    private readonly run: RelayHttpRun,
    private readonly uid = process.geteuid?.(),
  ) {}

  /** Listens on 127.0.0.1:`port` (once); a one-line problem when it cannot. */
  ensure(port: number): Promise<string | undefined> {
    let p = this.ports.get(port);
    if (!p) {
      p = this.listen(port);
      this.ports.set(port, p);
      // A port that could not be had is tried again on the next ask (the other program may have gone).
      void p.then((problem) => problem && this.ports.delete(port));
    }
    return p;
  }

  /** The environment a session's command entry came with: its http events' hooks get it too. */
  remember(sessionId: string, env: NodeJS.ProcessEnv): void {
    this.envs.delete(sessionId);
    this.envs.set(sessionId, env);
    if (this.envs.size > SESSIONS_KEPT) this.envs.delete(this.envs.keys().next().value as string);
  }

  envOf(sessionId: string | undefined): NodeJS.ProcessEnv | undefined {
    return sessionId === undefined ? undefined : this.envs.get(sessionId);
  }

  close(): void {
    for (const s of this.servers) {
      s.close();
      s.closeAllConnections();
    }
  }

  private listen(port: number): Promise<string | undefined> {
    const server = http.createServer((req, res) => this.serve(req, res));
    // Only this user's processes are answered; the kernel says whose the other end is.
    server.on('connection', (sock: net.Socket) => {
      const peer = loopbackPeer(sock);
      if (!peer || (this.uid !== undefined && peer.uid !== this.uid)) sock.destroy();
      else this.peers.set(sock, peer.inode);
    });
    // A request that cannot be parsed ends its connection; it never reaches serve().
    server.on('clientError', (_e, sock: net.Socket) => sock.destroy());
    server.keepAliveTimeout = 60_000;
    return new Promise((resolve) => {
      server.once('error', (e: NodeJS.ErrnoException) =>
        resolve(
          e.code === 'EADDRINUSE'
            ? `127.0.0.1:${port}, where Hookline's http entries post, is taken by another program`
            : `cannot listen on 127.0.0.1:${port} (${e.code ?? e.message})`,
        ),
      );
      server.listen(port, '127.0.0.1', () => {
        this.servers.add(server);
        server.unref();
        resolve(undefined);
      });
    });
  }

  private serve(req: http.IncomingMessage, res: http.ServerResponse): void {
    try {
      this.answer(req, res);
    } catch {
      // Nothing a client sends takes the server down: that connection ends, the others go on.
      res.destroy();
    }
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse): void {
    const reply = (status: number, body: string, headers: Record<string, string> = {}) => {
      if (res.headersSent || res.destroyed) return;
      // A length, not chunks: the shell client reads the answer as it comes.
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers });
      res.end(body);
    };
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const claude = url.pathname === `${RELAY_PATH}claude`;
    const host = url.pathname.startsWith(COMMAND_PATH) ? url.pathname.slice(COMMAND_PATH.length) : claude ? 'claude' : '';
    if (req.method !== 'POST' || !(HOST_NAMES as readonly string[]).includes(host)) {
      req.resume();
      return reply(404, JSON.stringify({ error: `POST ${RELAY_PATH}claude or ${COMMAND_PATH}<agent>: nothing else is here` }));
    }
    // The shell client's event runs with its own environment and in its folder, read from its process.
    let own: { env: NodeJS.ProcessEnv; cwd: string } | undefined;
    if (!claude) {
      const inode = this.peers.get(req.socket);
      own = inode === undefined ? undefined : peerProcess(String(req.headers['x-hookline-pid'] ?? ''), inode, this.uid);
      if (!own) {
        req.resume();
        return reply(403, JSON.stringify({ error: 'the process that asked cannot be seen to hold this connection' }));
      }
    }
    const ac = new AbortController();
    res.on('close', () => !res.writableEnded && ac.abort());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (d: Buffer) => {
      size += d.length;
      if (size > MAX_REQUEST_BYTES) {
        reply(413, JSON.stringify({ error: `longer than ${MAX_REQUEST_BYTES} bytes` }));
        req.destroy();
      } else chunks.push(d);
    });
    req.on('end', () => {
      if (size > MAX_REQUEST_BYTES) return;
      const text = Buffer.concat(chunks).toString('utf8');
      const event = url.searchParams.get('event') || undefined;
      const from = url.searchParams.get('from') || undefined;
      void this.run({ host, from, event, text, signal: ac.signal, ...own }).then(
        (a) => {
          // Claude Code reads its hook JSON; the shell client the status, the lines for stderr up to a NUL, then the answer.
          if (claude) return reply(200, a.stdout.trim() || '{}');
          // The NUL ends the stderr part: none may stand in either part (JSON escapes its own).
          const say = a.stderr.map((l) => `hookline: ${l.replaceAll('\0', '\\0')}\n`).join('');
          reply(200, `${say}\0${a.stdout.replaceAll('\0', '')}`, {
            'content-type': 'text/plain; charset=utf-8',
            'x-hookline-exit': String(a.exitCode),
          });
        },
        () => res.destroy(),
      );
    });
  }
}

/** A loopback port no one listens on now (the kernel's pick). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = http.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
