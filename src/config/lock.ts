import fs from 'node:fs';
import os from 'node:os';
import { randomUUID } from 'node:crypto';

/**
 * A lock file next to a file Hookline rewrites (`settings.json.lock`), so that read-modify-write
 * cycles of several processes (ten `hookline disable` at once) run one after another and none is
 * lost. The lock is created with O_EXCL and holds the owner's pid, host and a nonce.
 *
 * A lock is stale, and taken over, when its owner is a process of this host that no longer
 * exists, or when it is older than {@link STALE_MS} (a hold lasts milliseconds; an owner that is
 * stopped or on another host gets that long). A lock not obtained within {@link WAIT_MS} is an
 * error naming the lock file.
 */
export const STALE_MS = 30_000;
export const WAIT_MS = 15_000;
const BREAK_STALE_MS = 3_000;

interface Owner {
  pid: number;
  host: string;
  nonce: string;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number) => Atomics.wait(sleeper, 0, 0, ms);

/** Whether a process with this id exists (someone else's counts). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, it is someone else's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(lock: string): { owner?: Owner; ageMs: number } | undefined {
  try {
    const st = fs.statSync(lock);
    const ageMs = Date.now() - st.mtimeMs;
    try {
      const o = JSON.parse(fs.readFileSync(lock, 'utf8')) as Owner;
      return { owner: typeof o?.pid === 'number' && typeof o.nonce === 'string' ? o : undefined, ageMs };
    } catch {
      // Being written right now, or garbage: only its age can tell.
      return { ageMs };
    }
  } catch {
    return undefined;
  }
}

/** Nonces of the locks this process holds now. */
const held = new Set<string>();

function isStale(seen: { owner?: Owner; ageMs: number }): boolean {
  if (seen.ageMs > STALE_MS) return true;
  const o = seen.owner;
  if (!o || o.host !== os.hostname()) return false;
  // Our own pid without our nonce: left by an earlier process that had the same pid.
  return o.pid === process.pid ? !held.has(o.nonce) : !pidAlive(o.pid);
}

/**
 * Removes a stale lock, unless it was replaced meanwhile. Breakers take turns through a second
 * lock (`….lock.break`, O_EXCL), and the one whose turn it is removes the lock only if it is still
 * the one found stale: the lock's name is never free while a live holder needs it (moving a
 * lock aside and back left that moment, and two processes could each think they held it).
 */
function breakLock(lock: string, seen: { owner?: Owner; ageMs: number }): boolean {
  const breaking = `${lock}.break`;
  let fd: number;
  try {
    fd = fs.openSync(breaking, 'wx', 0o600);
  } catch {
    // Another process is breaking it; a breaker that died mid-way is old news after STALE_MS.
    const st = fs.statSync(breaking, { throwIfNoEntry: false });
    // A break takes milliseconds: one older than a few seconds was left by a process that died.
    if (st && Date.now() - st.mtimeMs > BREAK_STALE_MS) fs.rmSync(breaking, { force: true });
    return false;
  }
  fs.closeSync(fd);
  try {
    const now = readOwner(lock);
    const same = now && (seen.owner ? now.owner?.nonce === seen.owner.nonce : !now.owner && now.ageMs >= seen.ageMs);
    if (same) fs.rmSync(lock, { force: true });
    return Boolean(same) || !now;
  } finally {
    fs.rmSync(breaking, { force: true });
  }
}

/** Runs `fn` holding the lock of `target` (the file `${target}.lock`). Synchronous. */
export function withFileLock<T>(target: string, fn: () => T): T {
  const lock = `${target}.lock`;
  const me: Owner = { pid: process.pid, host: os.hostname(), nonce: randomUUID() };
  const deadline = Date.now() + WAIT_MS;
  let delay = 2;
  for (;;) {
    let fd: number | undefined;
    try {
      fd = fs.openSync(lock, 'wx', 0o600);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new Error(`cannot create the lock file ${lock}: ${(err as Error).message}`);
    }
    if (fd !== undefined) {
      try {
        fs.writeSync(fd, JSON.stringify(me));
      } finally {
        fs.closeSync(fd);
      }
      held.add(me.nonce);
      break;
    }
    const seen = readOwner(lock);
    // Broken (or gone): try again at once; else wait as for any held lock.
    if (seen && isStale(seen) && breakLock(lock, seen)) continue;
    if (Date.now() > deadline) {
      const by = seen?.owner ? ` by process ${seen.owner.pid}${seen.owner.host !== os.hostname() ? ` on ${seen.owner.host}` : ''}` : '';
      throw new Error(`${target} is locked${by} (lock file ${lock}); try again, or remove the lock file if no hookline is running`);
    }
    sleep(delay);
    delay = Math.min(delay * 2, 50);
  }
  try {
    return fn();
  } finally {
    held.delete(me.nonce);
    // Only our own lock is removed (a takeover after a long stall must not lose the new owner's).
    const now = readOwner(lock);
    if (now?.owner?.nonce === me.nonce) fs.rmSync(lock, { force: true });
  }
}
