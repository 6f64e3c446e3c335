/**
 * A client trusts no socket it did not start: before `hookline fire` sends an event to
 * HOOKLINE_SOCKET it applies the server's own rules (a socket owned by this user, owner-only, in a
 * folder only this user can enter) and, on Linux, finds the process listening there among this
 * user's processes (`/proc/net/unix` and `/proc/<pid>/fd`; Node has no SO_PEERCRED). Elsewhere
 * the file checks stand alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Why the socket must not be used, or undefined when it passes the server's rules. */
export function socketProblem(socket: string): string | undefined {
  const uid = process.geteuid?.();
  const dir = path.dirname(path.resolve(socket));
  let d: fs.Stats;
  let s: fs.Stats;
  try {
    d = fs.statSync(dir);
    s = fs.lstatSync(socket);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // Nothing there: not reachable, which the connection says itself.
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    return `cannot look at it (${code ?? (e as Error).message})`;
  }
  if (!s.isSocket()) return 'it is not a socket';
  if (uid !== undefined && s.uid !== uid) return 'the socket belongs to another user';
  if (uid !== undefined && d.uid !== uid) return `its folder ${dir} belongs to another user`;
  if (d.mode & 0o077) return `its folder ${dir} can be entered by other users (mode ${(d.mode & 0o777).toString(8)})`;
  if (s.mode & 0o077) return `the socket can be used by other users (mode ${(s.mode & 0o777).toString(8)})`;
  return undefined;
}

const LISTENING = 0x10000;

/** The socket inodes listening at `socket`, from the kernel's table; undefined where there is none (not Linux). */
function listeningInodes(socket: string): Set<string> | undefined {
  let table: string;
  try {
    table = fs.readFileSync('/proc/net/unix', 'utf8');
  } catch {
    return undefined;
  }
  const real = (p: string) => {
    try {
      return path.join(fs.realpathSync(path.dirname(p)), path.basename(p));
    } catch {
      return p;
    }
  };
  const want = real(path.resolve(socket));
  const out = new Set<string>();
  for (const line of table.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 8 || !cols[7].startsWith('/')) continue;
    if (!(Number.parseInt(cols[3], 16) & LISTENING)) continue;
    const at = cols.slice(7).join(' ');
    if (path.basename(at) === path.basename(want) && real(at) === want) out.add(cols[6]);
  }
  return out;
}

/** Why the process listening at `socket` is not to be trusted (not this user's), or undefined. */
export function peerProblem(socket: string): string | undefined {
  const inodes = listeningInodes(socket);
  if (inodes === undefined) return undefined;
  if (!inodes.size) return 'no process is listening there';
  const uid = process.geteuid?.();
  const links = new Set([...inodes].map((i) => `socket:[${i}]`));
  const holds = (pid: string): boolean => {
    try {
      if (uid !== undefined && fs.statSync(`/proc/${pid}`).uid !== uid) return false;
      const fds = `/proc/${pid}/fd`;
      for (const fd of fs.readdirSync(fds)) if (links.has(fs.readlinkSync(`${fds}/${fd}`))) return true;
    } catch {
      // Gone, or not ours to read.
    }
    return false;
  };
  // The server names itself beside its socket (in the same private folder): one process to look
  // at instead of every process of the user, which is what a relay entry pays on each event.
  const named = pidFileOf(socket);
  if (named && holds(named)) return undefined;
  for (const pid of fs.readdirSync('/proc')) if (/^\d+$/.test(pid) && pid !== named && holds(pid)) return undefined;
  return 'the process listening there is not one of yours';
}

/** Where a server writes its pid: beside its socket. */
export function pidFilePath(socket: string): string {
  return `${path.resolve(socket)}.pid`;
}

function pidFileOf(socket: string): string | undefined {
  try {
    const text = fs.readFileSync(pidFilePath(socket), 'utf8').trim();
    return /^\d+$/.test(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

/** An IPv4 address as the kernel's table prints it: its 32 bits in the machine's own byte order. */
function tableAddress(ip: string | undefined): string | undefined {
  const m = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip ?? '');
  if (!m) return undefined;
  const bytes = m.slice(1).map((b) => Number(b).toString(16).toUpperCase().padStart(2, '0'));
  return (os.endianness() === 'LE' ? bytes.reverse() : bytes).join('');
}

const tablePort = (p: number) => p.toString(16).toUpperCase().padStart(4, '0');

/** The ends of an accepted TCP connection, as the server's socket has them. */
export interface Ends {
  remoteAddress?: string;
  remotePort?: number;
  localAddress?: string;
  localPort?: number;
}

export interface LoopbackPeer {
  uid: number;
  inode: string;
}

/**
 * The client's end of an accepted loopback connection as the kernel's table (`/proc/net/tcp`)
 * has it, found by all four of its addresses and ports: the user holding it and its socket's
 * inode. Undefined where it cannot be told (not Linux, or no such connection): then the
 * connection is not to be served. The table is read off the event loop, once for all the
 * connections accepted before the read began: a flood of connections (whose table may be made
 * huge) costs one read per batch, not one each, and never stalls the server.
 */
export function loopbackPeer(ends: Ends): Promise<LoopbackPeer | undefined> {
  const client = tableAddress(ends.remoteAddress);
  const server = tableAddress(ends.localAddress);
  if (!client || !server || ends.remotePort === undefined || ends.localPort === undefined) return Promise.resolve(undefined);
  const key = `${client}:${tablePort(ends.remotePort)} ${server}:${tablePort(ends.localPort)}`;
  return new Promise((resolve) => {
    queued.push({ key, resolve });
    if (!reading) void readTables();
  });
}

let queued: Array<{ key: string; resolve: (p: LoopbackPeer | undefined) => void }> = [];
let reading = false;

async function readTables(): Promise<void> {
  reading = true;
  while (queued.length) {
    const batch = queued;
    queued = [];
    let table: string | undefined;
    try {
      table = await fs.promises.readFile('/proc/net/tcp', 'latin1');
    } catch {
      table = undefined;
    }
    const found = table === undefined ? new Map<string, LoopbackPeer>() : rowsOf(table, new Set(batch.map((q) => q.key)));
    for (const q of batch) q.resolve(found.get(q.key));
  }
  reading = false;
}

/**
 * The rows of `wanted` client ends (`local rem`, as the table prints them). A client's row is
 * taken in any state (it may have sent all and closed its side already); a row of a socket gone
 * (TIME_WAIT) has no inode, and is not taken.
 */
function rowsOf(table: string, wanted: Set<string>): Map<string, LoopbackPeer> {
  const out = new Map<string, LoopbackPeer>();
  for (let at = table.indexOf('\n') + 1; at > 0 && at < table.length; ) {
    const end = table.indexOf('\n', at);
    const next = end < 0 ? table.length : end;
    // sl: local rem st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode — only a wanted row is cut out and split.
    const colon = table.indexOf(': ', at);
    const key = colon < 0 || colon > next ? '' : table.slice(colon + 2, colon + 29);
    at = end < 0 ? -1 : end + 1;
    if (!wanted.has(key) || out.has(key)) continue;
    const cols = table
      .slice(colon + 2, next)
      .trim()
      .split(/\s+/);
    const uid = Number(cols[6]);
    const inode = cols[8] ?? '';
    if (Number.isInteger(uid) && /^[1-9]\d*$/.test(inode)) out.set(key, { uid, inode });
  }
  return out;
}

/** Whether process `pid`, this user's, holds the socket `inode` (the other end of a connection). */
function holdsSocket(pid: string, inode: string, uid: number | undefined): boolean {
  try {
    if (uid !== undefined && fs.statSync(`/proc/${pid}`).uid !== uid) return false;
    const fds = `/proc/${pid}/fd`;
    const want = `socket:[${inode}]`;
    return fs.readdirSync(fds).some((fd) => {
      try {
        return fs.readlinkSync(`${fds}/${fd}`) === want;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/**
 * The environment and folder of the process at the other end of a connection, read from the
 * process itself (what its agent gave it), once it is seen to hold that connection's socket.
 */
export function peerProcess(pid: string, inode: string, uid = process.geteuid?.()): { env: NodeJS.ProcessEnv; cwd: string } | undefined {
  if (!/^\d{1,10}$/.test(pid) || !holdsSocket(pid, inode, uid)) return undefined;
  let text: string;
  let cwd: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
    cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
  // Still the same process: a pid freed and taken again in between would not hold the socket.
  if (!holdsSocket(pid, inode, uid)) return undefined;
  const env: NodeJS.ProcessEnv = {};
  for (const kv of text.split('\0')) {
    const at = kv.indexOf('=');
    if (at > 0) env[kv.slice(0, at)] = kv.slice(at + 1);
  }
  return { env, cwd };
}

/** Whether the kernel can say who holds the other end of a loopback connection here (Linux). */
export function canTellLoopbackPeers(): boolean {
  try {
    fs.accessSync('/proc/net/tcp', fs.constants.R_OK);
    return true;
  } catch {
    return false;
  }
}
