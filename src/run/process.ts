import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropSpare, noteRunEntered, RunCgroup, sweepCgroups } from './cgroup.js';
import { reapLater, reapNow, RUN_ID_VAR } from './reap.js';
import { which } from './which.js';

/**
 * The one process layer: every hook and shell command Hookline starts goes through here. A run is
 * a `bash --norc -c` (or `sh -c`) in its own process group, with a run id in its environment and,
 * where the OS allows, its own cgroup; stopping it is SIGTERM then SIGKILL to the group; ending
 * it kills the group and the cgroup and has the run id's leftovers reaped. Every live run is
 * known, so `drain()` can stop them all before Hookline exits.
 */

/** Between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 400;

/** A plain copy of an environment, without the unset entries. */
export function envFrom(env: NodeJS.ProcessEnv | Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

/**
 * The arguments for `shell -c command`. A bash whose stdin is a socket takes itself for rshd and
 * sources ~/.bashrc when SHLVL is unset: `--norc` keeps the user's rc files out of hooks.
 */
export function shellArgs(shell: string, command: string): string[] {
  return path.basename(shell) === 'bash' ? ['--norc', '-c', command] : ['-c', command];
}

/** Signals a process group; false when it no longer exists. */
export function signalGroup(pgid: number | undefined, sig: NodeJS.Signals | 0): boolean {
  return pgid ? signal(-pgid, sig) : false;
}

/** process.kill, false where it fails (ESRCH: gone); the error it throws then carries no stack, which costs more than the call. */
function signal(pid: number, sig: NodeJS.Signals | 0): boolean {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** True while the process exists and is not a zombie (a zombie is dead, just not yet reaped). */
export function processAlive(pid: number): boolean {
  if (!signal(pid, 0)) return false;
  if (process.platform !== 'linux') return true;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
  } catch {
    return false;
  }
}

/** True while some member of the group is running (zombies do not count, on Linux). */
export function groupAlive(pgid: number | undefined): boolean {
  if (!signalGroup(pgid, 0)) return false;
  if (process.platform !== 'linux') return true;
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return true;
  }
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // rest: state, ppid, pgrp, …
      if (Number(rest[2]) === pgid && rest[0] !== 'Z') return true;
    } catch {
      // exited meanwhile
    }
  }
  return false;
}

export interface SpawnOptions {
  command: string;
  cwd: string;
  env: Record<string, string>;
  /** `bash` (default) or another POSIX shell. */
  shell?: string;
  stdio: StdioOptions;
  /**
   * Start the run now but take the command later, from fd 3 (which `stdio` must make a pipe): a
   * small `sh` waits there, then execs the shell with `-c command` exactly as a cold run would
   * (see src/run/prewarm.ts). `command` is ignored.
   */
  deferred?: boolean;
}

/**
 * What a deferred run's `sh` does before it execs the shell: says it is up (`r` on fd 3), reads
 * the command (a line count, then the lines), says it has it (`g`), closes fd 3. Builtins only,
 * so nothing is forked; end of fd 3 first (Hookline gone) exits 0. Its variables are not exported,
 * and a run whose environment already has one of them is never deferred (DEFERRED_VARS).
 */
const READ_COMMAND = [
  'printf r >&3',
  'IFS= read -r __hookline_n <&3 || exit 0',
  '__hookline_cmd=',
  'while [ "$__hookline_n" -gt 0 ]; do',
  '  IFS= read -r __hookline_l <&3 || exit 0',
  '  __hookline_cmd="$__hookline_cmd$__hookline_l',
  '"',
  '  __hookline_n=$((__hookline_n - 1))',
  'done',
  '__hookline_cmd=${__hookline_cmd%?}',
  'printf g >&3',
  'exec 3>&-',
].join('\n');

/** Names a deferred run's `sh` sets: an environment holding one of them cannot be deferred faithfully. */
export const DEFERRED_VARS = ['__hookline_n', '__hookline_l', '__hookline_cmd', 'IFS'];

/** The job a deferred run reads on fd 3. */
export function deferredCommand(command: string): string {
  const lines = command.split('\n');
  return `${lines.length}\n${lines.join('\n')}\n`;
}

/**
 * A cold bash run enters its cgroup by sourcing this file (BASH_ENV), with no `sh` started and
 * exec'd first. Only where the file is there, its path needs no expansion (bash expands BASH_ENV),
 * and nothing in the environment changes how bash starts or would see the file run (an own
 * BASH_ENV, posix mode, exported options such as xtrace); else the run goes through `sh`.
 */
const ENTER_SCRIPT = fileURLToPath(new URL('./enter-cgroup.bash', import.meta.url));
const CGROUP_PROCS_VAR = '__HOOKLINE_CGROUP_PROCS';
const BASH_START_VARS = ['BASH_ENV', 'POSIXLY_CORRECT', 'SHELLOPTS', 'BASHOPTS', CGROUP_PROCS_VAR];
let enterScript: boolean | undefined;
function entersBySourcing(shell: string, env: Record<string, string>): boolean {
  enterScript ??= /^[\w./+@-]+$/.test(ENTER_SCRIPT) && fs.existsSync(ENTER_SCRIPT);
  return enterScript && path.basename(shell) === 'bash' && !BASH_START_VARS.some((k) => k in env);
}

/** A shell named without a folder, found once per PATH (a spawn by name tries an exec in each folder before it). */
const shellFiles = new Map<string, string>();
function shellFile(shell: string, { PATH: pathVar }: Record<string, string>): string {
  // The run's own PATH, as the spawn would search it; a relative folder there is the child's, so
  // only a PATH of absolute folders is looked up here.
  if (shell.includes('/') || !pathVar || pathVar.split(path.delimiter).some((d) => !path.isAbsolute(d))) return shell;
  const key = `${shell}\0${pathVar}`;
  let file = shellFiles.get(key);
  // A shell found before is checked for still being there; one not found is left to the spawn.
  if (file === undefined || (file !== shell && !fs.existsSync(file))) {
    file = which(shell, pathVar) ?? shell;
    shellFiles.set(key, file);
  }
  return file;
}

/** Runs still live, so none outlives Hookline. */
const live = new Set<GroupRun>();
let exitHook = false;
let started = 0;

/** One shell run in its own process group (and cgroup, where available). */
export class GroupRun {
  readonly child: ChildProcess;
  readonly runId = randomUUID();
  private readonly cgroup?: RunCgroup;
  private escalation?: NodeJS.Timeout;
  private ended = false;
  /** Whether the shell was found in its cgroup when the run was first killed. */
  private entered?: boolean;

  constructor(opts: SpawnOptions) {
    if (!exitHook) {
      exitHook = true;
      // Last resort when something calls process.exit: no grace, but nothing is left behind.
      process.on('exit', killAllNow);
    }
    const shell = opts.shell ?? 'bash';
    const args = shellArgs(shell, opts.command);
    this.cgroup = RunCgroup.create(this.runId);
    const sourced = !!this.cgroup && !opts.deferred && entersBySourcing(shell, opts.env);
    const env: Record<string, string> = {
      ...opts.env,
      [RUN_ID_VAR]: this.runId,
      ...(sourced ? { BASH_ENV: ENTER_SCRIPT, [CGROUP_PROCS_VAR]: this.cgroup!.procsFile } : {}),
    };
    // The shell enters its cgroup before it runs anything, so no child can be forked outside it.
    const enter = this.cgroup ? 'echo $$ > "$0" 2>/dev/null; ' : '';
    const [file, argv]: [string, string[]] = opts.deferred
      ? [
          '/bin/sh',
          ['-c', `${enter}${READ_COMMAND}\nexec "$@" "$__hookline_cmd"`, this.cgroup?.procsFile ?? 'sh', shell, ...args.slice(0, -1)],
        ]
      : this.cgroup && !sourced
        ? ['/bin/sh', ['-c', `${enter}exec "$@"`, this.cgroup.procsFile, shell, ...args]]
        : [shellFile(shell, env), args];
    try {
      // argv[0] stays the name the shell was given (`bash`), as a spawn by name has it.
      this.child = spawn(file, argv, { cwd: opts.cwd, env, stdio: opts.stdio, detached: true, argv0: file === shell ? undefined : shell });
    } catch (e) {
      // e.g. a NUL byte in the command or env: nothing was started
      this.cgroup?.kill();
      throw e;
    }
    live.add(this);
    started++;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Stops the run: SIGTERM to the group now, SIGKILL after the grace. */
  stop(graceMs = KILL_GRACE_MS): void {
    if (this.ended) return;
    signalGroup(this.pid, 'SIGTERM');
    this.escalation ??= setTimeout(() => this.kill(), graceMs);
  }

  /** SIGKILLs the group and the cgroup at once. */
  kill(): void {
    signalGroup(this.pid, 'SIGKILL');
    // Read before the first kill, which removes the cgroup once it is empty.
    if (this.cgroup && this.entered === undefined) {
      this.entered = ranInside(this.cgroup.dir);
      if (this.entered) noteRunEntered();
    }
    this.cgroup?.kill();
  }

  /**
   * The shell exited with its pipes still open: what it left in its group is killed now; its
   * cgroup a millisecond later, unless the run is over by then. The pipes' end has usually been
   * read already and is only waiting for the loop to close them, which the cgroup's teardown
   * (several kernel calls) would delay.
   */
  shellExited(): void {
    signalGroup(this.pid, 'SIGKILL');
    clearTimeout(this.escalation);
    this.escalation = setTimeout(() => this.kill(), 1);
  }

  /**
   * The run is over: whatever it left (its group, its cgroup, processes carrying its run id) is
   * killed. Call once the shell has exited or the run is abandoned.
   */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.escalation);
    this.kill();
    // A run that was in its cgroup (entered before it forked) and whose cgroup is gone (emptied
    // and removed) left nothing: every process it started was in there. Else the run id is scanned for.
    if (!this.entered || fs.existsSync(this.cgroup!.dir)) reapLater(this.runId);
    live.delete(this);
  }

  /** True while any process of the run is running. */
  alive(): boolean {
    if (groupAlive(this.pid)) return true;
    return this.cgroup ? this.cgroup.pids().some(processAlive) : false;
  }
}

/**
 * Whether the run's shell entered its cgroup: `echo $$ > cgroup.procs` may fail, and then nothing
 * ever ran in it. cpu.stat is there whether or not the cpu controller is on.
 */
function ranInside(dir: string): boolean {
  try {
    return Number(/^usage_usec (\d+)/m.exec(fs.readFileSync(path.join(dir, 'cpu.stat'), 'utf8'))?.[1] ?? 0) > 0;
  } catch {
    return false;
  }
}

function killAllNow(): void {
  for (const r of [...live]) r.end();
  reapNow();
  sweepCgroups(0);
  dropSpare();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What stops starting processes ahead (the pools' fills), called first when the host drains. */
const whenDrained = new Set<() => void>();
export function onDrain(stop: () => void): void {
  whenDrained.add(stop);
}

/**
 * Stops every live run and waits until each is gone: SIGTERM, up to `graceMs` for them to exit,
 * then SIGKILL; then the run-id reaper's pending scan runs and killed cgroups are removed. Await
 * it before exiting: timers are not run once the process exits.
 */
export async function drain(graceMs = KILL_GRACE_MS): Promise<void> {
  // Nothing is started meanwhile: a fill under way would outlive the drain.
  for (const stop of whenDrained) stop();
  const runs = [...live];
  for (const r of runs) r.stop(graceMs);
  const end = Date.now() + graceMs;
  while (runs.some((r) => r.alive()) && Date.now() < end) await sleep(10);
  for (const r of runs) r.end();
  reapNow();
  sweepCgroups(200);
  dropSpare();
}

/** How many runs are live, and how many were started, by this process. */
export function runCounts(): { live: number; started: number } {
  return { live: live.size, started };
}
