/** Where the server listens, and what it refuses: a socket others could reach, a non-loopback address, a token others can read. */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createHash, timingSafeEqual } from 'node:crypto';
import { userGeminiDir, type Env } from '../config/paths.js';
import { UsageError } from '../config/problems.js';
import { openRegularFile } from '../config/limits.js';

/** `$XDG_RUNTIME_DIR/hookline/hookline.sock`, else `~/.gemini/hookline/hookline.sock`. */
export function defaultSocketPath(env: NodeJS.ProcessEnv = process.env): string {
  const runtime = env.XDG_RUNTIME_DIR;
  const base = runtime && path.isAbsolute(runtime) ? runtime : userGeminiDir(env as Env);
  return path.join(base, 'hookline', 'hookline.sock');
}

/** Unix socket paths longer than this do not fit in `sun_path` on Linux. */
const MAX_SOCKET_PATH = 107;

/** Makes the socket's folder (0700) and checks only this user can enter it; fails closed. */
export function socketFolder(socket: string): void {
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH)
    throw new UsageError(`socket path ${socket} is longer than ${MAX_SOCKET_PATH} bytes — pick a shorter --socket`);
  const dir = path.dirname(socket);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new UsageError(`cannot create the socket's folder ${dir}: ${(err as Error).message}`);
  }
  const st = fs.statSync(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory()) throw new UsageError(`the socket's folder ${dir} is not a folder — pick another --socket`);
  if (uid !== undefined && st.uid !== uid)
    throw new UsageError(`the socket's folder ${dir} belongs to another user — pick a folder of your own with --socket`);
  if (st.mode & 0o077) {
    const mode = (st.mode & 0o777).toString(8);
    throw new UsageError(
      `the socket's folder ${dir} can be entered by other users (mode ${mode}) — run chmod 700 on it, or pick another --socket`,
    );
  }
}

/** A socket file left by a server that is gone is removed; a live server or any other file is refused. */
export async function clearStaleSocket(socket: string): Promise<void> {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(socket);
  } catch {
    return;
  }
  if (!st.isSocket()) throw new UsageError(`${socket} exists and is not a socket — remove it, or pick another --socket`);
  const live = await new Promise<boolean>((resolve) => {
    const c = net.connect(socket);
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
  if (live)
    throw new UsageError(
      `a server is already listening on ${socket} — use it (HOOKLINE_SOCKET), stop it (shutdown), or pick another --socket`,
    );
  fs.unlinkSync(socket);
}

/** `--http HOST:PORT` with a loopback HOST (127.0.0.0/8, ::1 or localhost); anything else is refused. */
export function loopback(spec: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(spec);
  if (!m) throw new UsageError(`--http ${spec}: not HOST:PORT — e.g. --http 127.0.0.1:7337`);
  const host = m[1] ?? m[2];
  const port = Number(m[3]);
  if (port > 65535) throw new UsageError(`--http ${spec}: port ${port} is out of range — use a port from 1 to 65535`);
  if (host === 'localhost') return { host: '127.0.0.1', port };
  const v = net.isIP(host);
  const isLoopback = (v === 4 && host.startsWith('127.')) || (v === 6 && /^(0*:){2,7}0*1$|^::1$/.test(host));
  if (!isLoopback)
    throw new UsageError(
      `--http ${spec}: only a loopback address is allowed, as the server runs hooks for whoever reaches it — use 127.0.0.1 or ::1`,
    );
  return { host, port };
}

/** The bearer token, from a file only this user can read. */
export function readToken(file: string): string {
  let text: string;
  let mode: number;
  try {
    const fd = openRegularFile(file);
    try {
      mode = fs.fstatSync(fd).mode;
      text = fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    throw new UsageError(`cannot read the token file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (mode & 0o077)
    throw new UsageError(`the token file ${file} can be read by other users (mode ${(mode & 0o777).toString(8)}) — run chmod 600 on it`);
  const token = text.trim();
  if (!token) throw new UsageError(`the token file ${file} is empty — write the bearer token clients will send into it`);
  if (/\s/.test(token))
    throw new UsageError(
      `the token file ${file} holds white space inside the token — a bearer token is one word (e.g. openssl rand -hex 32)`,
    );
  return token;
}

/** Compares a request's `Authorization` header with the token in constant time (digests of equal length). */
export function authorized(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const digest = (s: string) => createHash('sha256').update(s).digest();
  const ok = timingSafeEqual(digest(m?.[1] ?? ''), digest(token));
  return ok && m !== null;
}
