/**
 * Hookline's entries in other agents, answered over loopback on a port fixed at install time:
 * Claude Code's `http` entries POST the event and read Claude Code's hook JSON back; the shell
 * client of the command entries (relay.sh) POSTs it too and reads the exit status, the lines for
 * stderr and the answer. There is no token to keep in the agents' files: on each connection the
 * kernel's table says which user holds the other end, and only this server's user is served.
 * Where that cannot be told (not Linux) every connection is refused, and `install` writes Node
 * command entries instead. The port is listened on when a relay asks for it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { HOST_NAMES, type RelayAnswer } from '../relay/answers.js';
import { type LoopbackPeer, loopbackPeer, peerProcess } from './peer.js';
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

/** The bodies a web page may post without the browser asking the server first (a CORS "simple" request). */
const SIMPLE_TYPES = new Set(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']);

/** Environments of the sessions whose command entries came through, kept for their http events. */
const SESSIONS_KEPT = 64;

export class RelayWeb {
  private readonly ports = new Map<number, Promise<string | undefined>>();
  private readonly servers = new Set<{ front: net.Server; web: http.Server }>();
  private readonly envs = new Map<string, NodeJS.ProcessEnv>();
  private readonly peers = new WeakMap<net.Socket, LoopbackPeer>();
  /** Connections handed to a web server (which does not listen itself, so does not track them). */
  private readonly open = new Set<net.Socket>();
  private closed = false;

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
    this.closed = true;
    for (const { front } of this.servers) front.close();
    for (const sock of this.open) sock.destroy();
    this.open.clear();
  }

  private listen(port: number): Promise<string | undefined> {
    const web = http.createServer((req, res) => this.serve(req, res, port));
    // Only this user's processes are answered; the kernel says whose the other end is. A
    // connection is read (by the web server it is then handed to) only once it is known to be one.
    const front = net.createServer({ pauseOnConnect: true }, (sock) => {
      const { remoteAddress, remotePort, localAddress, localPort } = sock;
      sock.on('error', () => {});
      void loopbackPeer({ remoteAddress, remotePort, localAddress, localPort }).then((peer) => {
        if (!peer || (this.uid !== undefined && peer.uid !== this.uid) || sock.destroyed || this.closed) return void sock.destroy();
        this.peers.set(sock, peer);
        this.open.add(sock);
        sock.once('close', () => this.open.delete(sock));
        web.emit('connection', sock);
        sock.resume();
      });
    });
    // A request that cannot be parsed ends its connection; it never reaches serve().
    web.on('clientError', (_e, sock: net.Socket) => sock.destroy());
    web.keepAliveTimeout = 60_000;
    // A connection idle past the longest answer (55 s) is ended: the server never listens itself,
    // so its own request timers are not running.
    web.timeout = 65_000;
    return new Promise((resolve) => {
      front.once('error', (e: NodeJS.ErrnoException) =>
        resolve(
          e.code === 'EADDRINUSE'
            ? `127.0.0.1:${port}, where Hookline's http entries post, is taken by another program`
            : `cannot listen on 127.0.0.1:${port} (${e.code ?? e.message})`,
        ),
      );
      front.listen(port, '127.0.0.1', () => {
        this.servers.add({ front, web });
        front.unref();
        resolve(undefined);
      });
    });
  }

  private serve(req: http.IncomingMessage, res: http.ServerResponse, port: number): void {
    const peer = this.peers.get(req.socket);
    try {
      if (!peer) throw new Error('a connection not looked at');
      this.answer(req, res, peer, port);
    } catch {
      // Nothing a client sends takes the server down: that connection ends, the others go on.
      res.destroy();
    }
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse, peer: LoopbackPeer, port: number): void {
    const reply = (status: number, body: string, headers: Record<string, string> = {}) => {
      if (res.headersSent || res.destroyed) return;
      // A length, not chunks: the shell client reads the answer as it comes.
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers });
      res.end(body);
    };
    // A web page is the user's too: a browser's request (it names its origin, or how it was
    // fetched), one for another host name (DNS rebinding), or a body a page can send without
    // asking first, is refused before anything is read.
    const type = String(req.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    if (
      req.headers.origin !== undefined ||
      Object.keys(req.headers).some((h) => h.startsWith('sec-fetch-')) ||
      req.headers.host !== `127.0.0.1:${port}` ||
      SIMPLE_TYPES.has(type)
    ) {
      req.resume();
      return reply(403, JSON.stringify({ error: 'only the agents on this machine post here' }));
    }
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
      own = peerProcess(String(req.headers['x-hookline-pid'] ?? ''), peer.inode, this.uid);
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

/**
 * A loopback port no one listens on now, below the range the kernel hands out as the local ports
 * of connections (`ip_local_port_range`): while the server is down no client connection takes
 * it. The kernel's own pick where that range leaves no room.
 */
export async function freePort(seed?: string): Promise<number> {
  const low = ephemeralLow();
  // With a seed, the same candidates in the same order every time: a dry run shows the port the
  // install then writes (unless it was taken in between).
  const span = low - PORT_FLOOR;
  const start = seed === undefined ? undefined : createHash('sha256').update(seed).digest().readUInt32BE(0);
  for (let i = 0; span > 1000 && i < 40; i++) {
    const port = PORT_FLOOR + (start === undefined ? Math.floor(Math.random() * span) : (start + i * 7919) % span);
    if ((await listenable(port)) !== undefined) return port;
  }
  const port = await listenable(0);
  if (port === undefined) throw new Error('no loopback port can be listened on');
  return port;
}

const PORT_FLOOR = 20000;

function ephemeralLow(): number {
  try {
    const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) ? low : 32768;
  } catch {
    return 32768;
  }
}

/** The port, once listened on and let go (0: the kernel's pick), or undefined when it is taken. */
function listenable(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const s = http.createServer();
    s.once('error', () => resolve(undefined));
    s.listen(port, '127.0.0.1', () => {
      const got = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(got));
    });
  });
}
