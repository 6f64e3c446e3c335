import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Containment by a cgroup v2 per run (Linux). A process cannot leave its cgroup without write
 * access to another one, so a hook that clears its run id and `setsid`s away is still found and
 * killed with the rest of its run (`cgroup.kill`). Where no cgroup can be made (not Linux, no
 * cgroup2 mount, no write access, no `cgroup.kill`), `containment()` says why.
 */
export interface Containment {
  available: boolean;
  /** Why runs are not contained here (when `available` is false). */
  reason?: string;
}

let probed: (Containment & { base?: string }) | undefined;

/** Run cgroups are named `hookline-<pid namespace>-<pid>-<run id>`: a pid means something only in its namespace. */
let namePrefix: string | undefined;
function prefix(): string {
  if (namePrefix) return namePrefix;
  let ns = '0';
  try {
    ns = /\[(\d+)\]/.exec(fs.readlinkSync('/proc/self/ns/pid'))?.[1] ?? '0';
  } catch {
    // no namespaces
  }
  return (namePrefix = `hookline-${ns}-`);
}

/** The cgroup2 mount point, from /proc/self/mounts. */
function cgroup2Mount(): string | undefined {
  const mounts = fs.readFileSync('/proc/self/mounts', 'utf8');
  for (const line of mounts.split('\n')) {
    const [, dir, type] = line.split(' ');
    if (type === 'cgroup2') return dir.replace(/\\040/g, ' ');
  }
  return undefined;
}

/** This process's own cgroup v2 folder. */
function ownCgroup(mount: string): string | undefined {
  const line = fs
    .readFileSync('/proc/self/cgroup', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('0::'));
  if (line === undefined) return undefined;
  const dir = path.join(mount, line.slice(3));
  // A cgroup folder outside the mount (namespaced views) cannot be written.
  return dir === mount || dir.startsWith(mount + path.sep) ? dir : undefined;
}

type Probed = Containment & { base?: string };

/** Where run cgroups are made (this process's own cgroup), found without moving anything; or why none. */
function locate(): Probed {
  if (process.env.HOOKLINE_NO_CGROUP === '1') return { available: false, reason: 'disabled by HOOKLINE_NO_CGROUP=1' };
  if (process.platform !== 'linux') return { available: false, reason: `no cgroups on ${process.platform}` };
  let base: string | undefined;
  try {
    const mount = cgroup2Mount();
    if (!mount) return { available: false, reason: 'no cgroup v2 mount' };
    base = ownCgroup(mount);
  } catch (e) {
    return { available: false, reason: `cannot read cgroups (${(e as Error).message})` };
  }
  if (!base) return { available: false, reason: 'own cgroup not found under the cgroup v2 mount' };
  sweepOrphans(base);
  return { available: true, base };
}

let located: Probed | undefined;

/** Everything up to the moves: a probe cgroup made under this process's own, or why not. */
function prepare(): Probed | { base: string; dir: string } {
  const l = (located ??= locate());
  if (!l.available || !l.base) return l;
  const base = l.base;
  // Try exactly what a run does: make a child cgroup, move a process in, kill it from there.
  const dir = path.join(base, `${prefix()}${process.pid}-probe-${randomUUID().slice(0, 8)}`);
  try {
    fs.mkdirSync(dir);
  } catch (e) {
    return { available: false, reason: `cannot create a cgroup in ${base} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
  if (!fs.existsSync(path.join(dir, 'cgroup.kill'))) {
    removeDir(dir, 200);
    return { available: false, reason: 'cgroup.kill is missing (Linux before 5.14)' };
  }
  return { base, dir };
}

const moveFailed = (base: string, back: boolean, e: unknown): Probed =>
  back
    ? // Cannot happen where the first move could; if it does, runs must not count on moves.
      { available: false, reason: `cannot move a process back into ${base} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` }
    : { available: false, reason: `cannot move a process into a cgroup under ${base}` };

/**
 * The move a run makes (from this cgroup into a child of it, by a process with these
 * credentials), made by this process itself and undone: no process to start.
 */
function probe(): Probed {
  const p = prepare();
  if (!('dir' in p)) return p;
  const pid = String(process.pid);
  try {
    for (const back of [false, true]) {
      try {
        fs.writeFileSync(path.join(back ? p.base : p.dir, 'cgroup.procs'), pid);
      } catch (e) {
        return moveFailed(p.base, back, e);
      }
    }
    return { available: true, base: p.base };
  } finally {
    removeDir(p.dir, 200);
  }
}

/**
 * A run's shell was found in its cgroup: moves work here, and `containment()` need not move this
 * process to find out. Runs never wait for a probe (each first move waits on the kernel, an RCU
 * grace period): a run's own move is the test, and one that fails leaves it to the run-id reaper.
 */
export function noteRunEntered(): void {
  if (!probed && located?.available) probed = { available: true, base: located.base };
}

/** Kills and removes the run cgroups of Hookline processes that died without cleaning up (SIGKILL). */
function sweepOrphans(base: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(base);
  } catch {
    return;
  }
  const mine = prefix();
  for (const name of names) {
    const m = /^(\d+)-/.exec(name.startsWith(mine) ? name.slice(mine.length) : '');
    if (!m || Number(m[1]) === process.pid) continue;
    try {
      process.kill(Number(m[1]), 0);
      continue; // its owner still runs
    } catch {
      // owner gone
    }
    const dir = path.join(base, name);
    try {
      fs.writeFileSync(path.join(dir, 'cgroup.kill'), '1');
    } catch {
      // not a cgroup we can kill
    }
    removeDir(dir, 0);
  }
}

/** Whether runs get a cgroup here, probed once. */
export function containment(): Containment {
  probed ??= probe();
  return { available: probed.available, ...(probed.reason ? { reason: probed.reason } : {}) };
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** rmdir a cgroup, retrying while its killed processes finish dying. */
function removeDir(dir: string, withinMs: number): boolean {
  const end = Date.now() + withinMs;
  for (;;) {
    try {
      fs.rmdirSync(dir);
      return true;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return true;
      if (code !== 'EBUSY' || Date.now() >= end) return false;
      sleepSync(5);
    }
  }
}

/** Cgroups killed but not yet removed (their processes were still dying). */
const leftover = new Set<string>();

/**
 * An empty cgroup made after a run is over, for the next one: the mkdir is paid between events,
 * not by the run. Removed with the others (`dropSpare()`); a process killed outright leaves it to
 * the next Hookline's sweep, as it would a run's.
 */
let spare: string | undefined;
let spareWanted = false;

function makeSpare(): void {
  spareWanted = false;
  const base = probed?.base;
  if (spare || !base || leftover.size) return;
  const dir = path.join(base, `${prefix()}${process.pid}-${randomUUID()}`);
  try {
    fs.mkdirSync(dir);
    spare = dir;
  } catch {
    // made at the run instead
  }
}

/** Removes the cgroup made ahead, if any. */
export function dropSpare(): void {
  if (spare) removeDir(spare, 0);
  spare = undefined;
}

export class RunCgroup {
  /** Removed: nothing can be in it any more, so a second kill has nothing to do. */
  private removed = false;

  private constructor(readonly dir: string) {}

  /** A fresh cgroup for one run, or undefined where runs cannot be contained. */
  static create(runId: string): RunCgroup | undefined {
    // The probe's moves wait on the kernel (an RCU grace period): a run does not wait for them.
    // Its shell's own move is the test; one that fails leaves the run to the run-id reaper.
    const c = probed ?? (located ??= locate());
    if (!c.available || !c.base) return undefined;
    if (leftover.size) sweepCgroups(0);
    // Only once a run has shown that cgroups work here is one made ahead.
    if (spare && fs.existsSync(spare)) {
      const dir = spare;
      spare = undefined;
      return new RunCgroup(dir);
    }
    spare = undefined;
    const dir = path.join(c.base, `${prefix()}${process.pid}-${runId}`);
    try {
      fs.mkdirSync(dir);
    } catch {
      return undefined;
    }
    if (!probed && !fs.existsSync(path.join(dir, 'cgroup.kill'))) {
      removeDir(dir, 0);
      located = { available: false, reason: 'cgroup.kill is missing (Linux before 5.14)' };
      return undefined;
    }
    return new RunCgroup(dir);
  }

  /** Where a process writes its pid to enter. */
  get procsFile(): string {
    return path.join(this.dir, 'cgroup.procs');
  }

  /** Live pids in the cgroup. */
  pids(): number[] {
    try {
      return fs
        .readFileSync(this.procsFile, 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map(Number);
    } catch {
      return [];
    }
  }

  /** SIGKILLs every process in the cgroup and removes it (later, if they are still dying). */
  kill(): void {
    if (this.removed) return;
    try {
      fs.writeFileSync(path.join(this.dir, 'cgroup.kill'), '1');
    } catch {
      // already removed
    }
    if (removeDir(this.dir, 0)) this.removed = true;
    else leftover.add(this.dir);
    // The next run's, once this one's teardown is done and the host has had its result. Held (not
    // unref'd), so it runs at once, not on the wake-up for the next run's exit, ahead of its pipes' close.
    if (!spareWanted && !spare && probed?.available) {
      spareWanted = true;
      setImmediate(makeSpare);
    }
  }
}

/** Removes killed cgroups whose processes have died since; waits up to `withinMs` for them. */
export function sweepCgroups(withinMs = 0): void {
  for (const dir of leftover) {
    try {
      fs.writeFileSync(path.join(dir, 'cgroup.kill'), '1');
    } catch {
      // gone
    }
    if (removeDir(dir, withinMs)) leftover.delete(dir);
  }
}
