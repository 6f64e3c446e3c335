/**
 * A client trusts no socket it did not start: before `hookline fire` sends an event to
 * HOOKLINE_SOCKET it applies the server's own rules (a socket owned by this user, owner-only, in a
 * folder only this user can enter) and, on Linux, finds the process listening there among this
 * user's processes (`/proc/net/unix` and `/proc/<pid>/fd`; Node has no SO_PEERCRED). Elsewhere
 * the file checks stand alone.
 */
import fs from 'node:fs';
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
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (uid !== undefined && fs.statSync(`/proc/${pid}`).uid !== uid) continue;
      const fds = `/proc/${pid}/fd`;
      for (const fd of fs.readdirSync(fds)) if (links.has(fs.readlinkSync(`${fds}/${fd}`))) return undefined;
    } catch {
      // Gone, or not ours to read.
    }
  }
  return 'the process listening there is not one of yours';
}
