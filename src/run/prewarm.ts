/**
 * Processes started ahead of their event, one use each: by default every one-shot hook of an
 * engine runs in an `sh` started ahead that execs `bash -c` with it (GroupRun `deferred`), so
 * neither the start nor the move into its cgroup (a kernel RCU grace period) is paid at the
 * event; with `"prewarm": true` a `node x.mjs` / `python3 x.py` hook runs in an interpreter
 * started ahead of time. A waiting interpreter is started exactly as the cold run
 * would start it — the same `bash -c` (so PATH lookup, `PWD`, `SHLVL` and `_` come out the same),
 * the same environment (its run id included), working folder, process group and cgroup, with
 * pipes for stdin, stdout and stderr — but in place of the script it runs a small loader that
 * waits on fd 3 (src/run/prewarm-boot.ts). A job hands it the script and arguments; the loader
 * runs the script as the main entry and the process exits with the script. From then on the run
 * is watched like a cold one (src/run/command.ts `superviseRun`): timeout kill of the group,
 * output caps, cancel, leftovers reaped.
 *
 * Pools are keyed by everything a cold start depends on: the interpreter word, the working
 * folder and the whole environment (the run id aside). A job that matches no warm interpreter
 * runs cold, and its pool starts filling for the next one.
 */
import fs from 'node:fs';
import type { Duplex } from 'node:stream';
import { DEFERRED_VARS, deferredCommand, GroupRun, onDrain, type SpawnOptions } from './process.js';
import { runCommand, startCommand, superviseRun, type CommandRun } from './command.js';
import { withSlot } from './slots.js';
import type { ProcessResult } from './result.js';
import { jobMessage, loaderArgs } from './prewarm-boot.js';
import { envProblem, scriptProblem, warmCommand, type InterpreterKind, type WarmCommand } from './prewarm-command.js';
import { RUN_ID_VAR } from './reap.js';
import { onReport } from './prewarm-report.js';
import { shellQuote } from './expand.js';

/** Waiting processes per pool at first; a pool found empty grows, up to its kind's cap. */
export const POOL_SIZE = 2;
/**
 * Interpreters cost tens of MB each while they wait; a waiting `sh` about one (most of it shared).
 * Shells go to 16: two events of 8 hooks back to back (a BeforeTool and an AfterTool around a
 * fast tool), with no time between them to start more, still find one each.
 */
const POOL_CAP: Record<WarmKind, number> = { node: 4, python: 4, shell: 16 };
/** Pools kept at once (by interpreter, folder and environment); the least recently used goes. */
const MAX_POOLS = 8;
/** How long a pool waits after its last use before it refills. */
const FILL_DELAY_MS = 50;
/** How long a fill waits at most for the events in flight to end (a long hook, a busy server). */
const FILL_HOLD_MS = 1000;
/** A pool whose interpreters die this many times in a row before they are up stops refilling. */
const MAX_FAILURES = 3;

/** One interpreter started ahead of its job. */
class Warm {
  readonly group: GroupRun;
  readonly early = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
  ready = false;
  dead = false;
  readonly whenSettled: Promise<void>;
  private settle!: () => void;
  private readonly control: Duplex;

  constructor(spawn: SpawnOptions, onReady: () => void, onDead: (w: Warm) => void) {
    this.whenSettled = new Promise((resolve) => (this.settle = resolve));
    this.group = new GroupRun({ ...spawn, stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
    const child = this.group.child;
    this.control = child.stdio[3] as Duplex;
    child.stdout!.on('data', this.onOut);
    child.stderr!.on('data', this.onErr);
    this.onControl = (b: Buffer) => {
      if (this.ready || !b.includes(0x72)) return;
      this.ready = true;
      this.settle();
      onReady();
    };
    this.control.on('data', this.onControl);
    this.control.on('error', () => {});
    const dead = () => {
      if (this.dead) return;
      this.dead = true;
      this.group.end();
      this.settle();
      onDead(this);
    };
    this.onDeath = dead;
    child.on('exit', dead);
    child.on('error', dead);
    // Waiting keeps no one alive: a script that fired and is done exits (and takes these along).
    this.hold(false);
  }

  /** Whether the waiting process and its pipes keep Hookline's event loop alive. */
  private hold(on: boolean): void {
    const child = this.group.child;
    if (on) child.ref();
    else child.unref();
    for (const s of [child.stdin, child.stdout, child.stderr, this.control] as Array<{ ref?: () => void; unref?: () => void } | null>)
      on ? s?.ref?.() : s?.unref?.();
  }

  private readonly onDeath: () => void;
  private readonly onOut = (b: Buffer) => this.early.stdout.push(b);
  private readonly onErr = (b: Buffer) => this.early.stderr.push(b);
  private readonly onControl: (b: Buffer) => void;

  get pid(): number | undefined {
    return this.group.pid;
  }

  /** Hands the process over to its job: the pool stops watching it. */
  claim(): { group: GroupRun; early: Warm['early']; control: Duplex } {
    const child = this.group.child;
    child.stdout!.off('data', this.onOut);
    child.stderr!.off('data', this.onErr);
    this.control.off('data', this.onControl);
    child.off('exit', this.onDeath);
    child.off('error', this.onDeath);
    this.settle();
    // From here it is a hook's run, which keeps Hookline alive as a cold one does.
    this.hold(true);
    return { group: this.group, early: this.early, control: this.control };
  }

  close(): void {
    this.dead = true;
    this.group.end();
    this.control.destroy();
    this.group.child.stdout?.destroy();
    this.group.child.stderr?.destroy();
    this.group.child.stdin?.destroy();
    this.settle();
  }
}

/** Node and Python interpreters waiting for a script, or an `sh` waiting for a bash command. */
export type WarmKind = InterpreterKind | 'shell';

class Pool {
  readonly procs: Warm[] = [];
  failures = 0;
  /** Jobs that came for this pool: a pool of waiting shells fills from its key's second job. */
  jobs = 0;
  /** The working folder as it was when the pool was made: one removed or replaced since is not the run's. */
  private readonly folder: string | undefined;
  private want = POOL_SIZE;
  private timer?: NodeJS.Timeout;
  /** The next start of a fill under way. */
  private filling?: NodeJS.Immediate;
  private dueSince = 0;
  private started = false;
  private closed = false;

  constructor(
    /** Whether an event of the engine is running hooks now. */
    private readonly busy: () => boolean,
    readonly kind: WarmKind,
    /** The interpreter word and its options as a shell command prefix, or the shell. */
    readonly interpreter: string,
    readonly cwd: string,
    private readonly env: Record<string, string>,
    /** Words the loader takes after its own path: Node's preloads, loaded at the event. */
    private readonly deferred: readonly string[] = [],
  ) {
    this.folder = folderId(cwd);
  }

  /** Whether the working folder is still the one the waiting processes started in. */
  sameFolder(): boolean {
    return this.folder !== undefined && folderId(this.cwd) === this.folder;
  }

  get broken(): boolean {
    return this.failures >= MAX_FAILURES;
  }

  private spawnOptions(): SpawnOptions {
    const base = { cwd: this.cwd, env: this.env, stdio: [] };
    if (this.kind === 'shell') return { ...base, command: '', shell: this.interpreter, deferred: true };
    return { ...base, command: [this.interpreter, ...[...loaderArgs(this.kind), ...this.deferred].map(shellQuote)].join(' ') };
  }

  /**
   * Fills the pool a moment after a process was taken: starting one costs Hookline a fork, which
   * should not land between the hooks of an event (the engine fills at once when its event is
   * done: `refill`). A fill already due is not put off by later uses, so events that come closer
   * together than the delay still find processes waiting. The timer does not keep Hookline
   * alive: a one-shot `hookline fire` exits without starting any.
   */
  fillSoon(): void {
    if (this.closed || this.broken || this.timer || this.filling) return;
    this.dueSince = Date.now();
    this.arm();
  }

  /** While an event runs its hooks (the next one of a sequential chain may be starting) the fill waits for its end, a while at most. */
  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.busy() && Date.now() - this.dueSince < FILL_HOLD_MS) this.arm();
      else this.fill();
    }, FILL_DELAY_MS);
    this.timer.unref();
  }

  /** Whether a fill is due. */
  get due(): boolean {
    return this.timer !== undefined;
  }

  /**
   * Starts the missing processes one per turn of the event loop: each start blocks Hookline for a
   * fork, so an event that comes meanwhile (or a host's other work) waits for one at most, and
   * the rest wait for that event's end (a while at most, as a fill that is due does).
   */
  fill(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closed || this.broken) return;
    this.started = true;
    this.step();
  }

  /** Starts every missing process now (for a caller that waits for them: `PrewarmPools#ready`). */
  fillNow(): void {
    this.halt();
    this.started = true;
    while (this.procs.length < this.want && this.startOne(true));
  }

  /** Stops a fill under way or due (`drain()`: the host is done); the next use starts one again. */
  halt(): void {
    clearTimeout(this.timer);
    clearImmediate(this.filling);
    this.timer = this.filling = undefined;
  }

  /** One start of a fill, and the next at the next turn of the event loop. */
  private readonly step = (): void => {
    this.filling = undefined;
    if (this.startOne() && this.procs.length < this.want) (this.filling = setImmediate(this.step)).unref();
  };

  /** Starts one process; false when none is to be started (full, closed, broken, or waiting for an event's end). */
  private startOne(now = false): boolean {
    if (this.closed || this.broken || this.procs.length >= this.want) return false;
    // An event runs: the rest waits for its end, counted from when the fill came due.
    if (!now && this.busy() && Date.now() - this.dueSince < FILL_HOLD_MS) {
      this.arm();
      return false;
    }
    try {
      this.procs.push(
        new Warm(
          this.spawnOptions(),
          () => (this.failures = 0),
          (dead) => this.onDead(dead),
        ),
      );
    } catch {
      this.failures = MAX_FAILURES;
      return false;
    }
    return true;
  }

  private onDead(w: Warm): void {
    const i = this.procs.indexOf(w);
    if (i >= 0) this.procs.splice(i, 1);
    // Dead before it was up: the interpreter cannot start here (refilled on the next job, a few times).
    if (!w.ready) this.failures++;
  }

  /** A live process, a ready one first (one still starting is ahead of a cold start). */
  take(): Warm | undefined {
    const i = this.procs.findIndex((w) => w.ready && !w.dead);
    // None up once started: more runs at once (or in a row) than waiting processes.
    if (i < 0 && this.started) this.want = Math.min(POOL_CAP[this.kind], this.want + 1);
    const j = i >= 0 ? i : this.procs.findIndex((w) => !w.dead);
    return j >= 0 ? this.procs.splice(j, 1)[0] : undefined;
  }

  close(): void {
    this.closed = true;
    this.halt();
    for (const w of this.procs.splice(0)) w.close();
  }
}

export interface PoolInfo {
  kind: WarmKind;
  interpreter: string;
  cwd: string;
  pids: number[];
  ready: number;
  broken: boolean;
}

/** Where a hook's run goes: a pre-started process's result (and why not an interpreter, if so), or why it runs cold. */
export type WarmAttempt = { result: Promise<ProcessResult>; shell?: string } | { cold: string };

/**
 * Events running hooks now, in every engine of this process, and the pools of every engine.
 * Starting a waiting process forks this process and moves the process into a cgroup, which stalls
 * forks machine-wide while the kernel waits: no pool starts one while any engine's event runs
 * (another engine's event would pay for it), and every pool due to start one does once none runs.
 */
let running = 0;
const live = new Set<PrewarmPools>();
const busy = () => running > 0;
onDrain(() => {
  for (const pools of live) pools.halt();
});

/** The pools of one engine. `close()` kills every waiting process; the pools refill on the next job. */
export class PrewarmPools {
  private pools = new Map<string, Pool>();
  /** Runs in a waiting interpreter, in a waiting shell, and runs that went cold though pre-warming was asked for. */
  readonly counts = { warm: 0, shell: 0, cold: 0, reported: 0 };

  /**
   * Starts the run in a waiting interpreter; else (a command an interpreter cannot run as
   * cold would) in a waiting shell, with the reason; else says why it must run cold.
   */
  run(run: CommandRun, interpreters = true): WarmAttempt {
    const why = this.placement(run, interpreters);
    if (typeof why === 'string') {
      this.counts.cold++;
      return { cold: why };
    }
    const { pool, job, shell } = why;
    pool.jobs++;
    if (!pool.sameFolder()) {
      // Its folder was removed or replaced: a cold run finds the new one (or says it is missing).
      this.drop(pool);
      this.counts.cold++;
      return { cold: `the folder ${run.cwd} changed since its processes started` };
    }
    const w = pool.take();
    if (!w) {
      // Waiting shells only for a key seen twice: an event whose environment is its own (a made-up
      // session id) would leave them unused. Interpreters were asked for: they start at once.
      if (interpreters || pool.jobs > 1) pool.fillSoon();
      this.counts.cold++;
      return { cold: pool.broken ? `${pool.interpreter} does not start as a waiting process here` : 'no waiting process yet' };
    }
    this.counts[pool.kind === 'shell' ? 'shell' : 'warm']++;
    const result = runWarm(w, job, run, pool.kind === 'node' ? () => this.counts.reported++ : undefined);
    void result.finally(() => pool.fillSoon());
    return { result, ...(shell ? { shell } : {}) };
  }

  private placement(run: CommandRun, interpreters: boolean): string | { pool: Pool; job: Buffer; shell?: string } {
    const shell = run.shell ?? 'bash';
    if (!/(^|\/)bash$/.test(shell)) return `shell ${shell}`;
    if (run.command.includes('\0')) return 'a NUL byte in the command';
    let problem: string | undefined;
    if (interpreters) {
      const c = warmable(run.command, run.cwd, run.env);
      if (typeof c !== 'string')
        return {
          pool: this.pool(c.kind, [c.interpreter, ...c.options].map(shellQuote).join(' '), run, c.preloads),
          job: jobMessage(c.argv),
        };
      problem = c;
    }
    const clash = DEFERRED_VARS.find((k) => k in run.env);
    if (clash) return `${problem ? `${problem}; and ` : ''}the environment sets ${clash}`;
    return { pool: this.pool('shell', shell, run), job: Buffer.from(deferredCommand(run.command)), shell: problem };
  }

  private drop(pool: Pool): void {
    pool.close();
    for (const [k, p] of this.pools) if (p === pool) this.pools.delete(k);
  }

  private pool(kind: WarmKind, interpreter: string, run: CommandRun, deferred: readonly string[] = []): Pool {
    const env = Object.entries(run.env)
      .filter(([k]) => k !== RUN_ID_VAR)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const key = JSON.stringify([kind, interpreter, deferred, run.cwd, env]);
    let pool = this.pools.get(key);
    if (pool) this.pools.delete(key);
    else pool = new Pool(busy, kind, interpreter, run.cwd, Object.fromEntries(env), deferred);
    this.pools.set(key, pool); // most recently used last
    live.add(this);
    for (const [k, p] of this.pools) {
      if (this.pools.size <= MAX_POOLS) break;
      p.close();
      this.pools.delete(k);
    }
    return pool;
  }

  /** Starts now what the pools are due to start (the engine calls it once its event is done). */
  refill(): void {
    for (const p of this.pools.values()) if (p.due) p.fill();
  }

  /** Resolves once every pool's interpreters are up (or gone). */
  async ready(): Promise<void> {
    for (const p of this.pools.values()) p.fillNow();
    // Waiting processes hold no one alive: the caller waiting here does.
    const hold = setInterval(() => {}, 1000);
    try {
      await Promise.all([...this.pools.values()].flatMap((p) => p.procs.map((w) => w.whenSettled)));
    } finally {
      clearInterval(hold);
    }
  }

  info(): PoolInfo[] {
    return [...this.pools.values()].map((p) => ({
      kind: p.kind,
      interpreter: p.interpreter,
      cwd: p.cwd,
      pids: p.procs.map((w) => w.pid).filter((pid): pid is number => pid !== undefined),
      ready: p.procs.filter((w) => w.ready).length,
      broken: p.broken,
    }));
  }

  /** Resident memory of the waiting interpreters, in KiB (Linux; 0 elsewhere). */
  rssKiB(): number {
    let total = 0;
    for (const p of this.info())
      for (const pid of p.pids) {
        try {
          total += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
        } catch {
          // gone
        }
      }
    return total;
  }

  close(): void {
    for (const p of this.pools.values()) p.close();
    this.pools.clear();
    live.delete(this);
  }

  /** Stops the fills under way or due; the pools start filling again on their next use. */
  halt(): void {
    for (const p of this.pools.values()) p.halt();
  }
}

const ACK = 0x67; // 'g': the loader took the job

/** Runs the job in a claimed process; if it ended before taking the job, the hook runs cold. `reported`: counts a status said before the exit (Node). */
async function runWarm(w: Warm, job: Buffer, run: CommandRun, reported?: () => void): Promise<ProcessResult> {
  const started = performance.now();
  const { group, early, control } = w.claim();
  const pid = group.pid;
  let taken = false;
  control.on('data', (b: Buffer) => {
    if (b.includes(ACK)) taken = true;
  });
  control.write(job);
  const report =
    reported && pid !== undefined
      ? (listener: (code: number) => void) =>
          onReport(pid, (code) => {
            reported();
            listener(code);
          })
      : undefined;
  const result = await superviseRun(group, run, { started, early, extra: control, ...(report ? { report } : {}) });
  if (!taken && !result.timedOut && !run.signal?.aborted) return startCommand(run);
  return result;
}

/** A folder's device and inode, or undefined when it is missing. */
function folderId(dir: string): string | undefined {
  try {
    const st = fs.statSync(dir);
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * Why a hook that asks for `"prewarm": true` would not run in a waiting interpreter (it then runs
 * in a waiting shell, or cold), or undefined when it would. `command` is as the hook runs it
 * (variables expanded).
 */
export function prewarmProblem(command: string, cwd: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (command.includes('\0')) return 'a NUL byte in the command';
  const c = warmable(command, cwd, env);
  return typeof c === 'string' ? c : undefined;
}

/** The command as a waiting interpreter runs it, when it can run it as a cold start would; else why not. */
function warmable(
  command: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Extract<WarmCommand, { ok: true }> | string {
  const c = warmCommand(command);
  if (!c.ok) return c.reason;
  return envProblem(c.kind, env) ?? scriptProblem(c.kind, c.argv[0], cwd) ?? c;
}

/** Where an engine keeps its pools: beside its persistent processes, so closing the engine closes them. */
const POOLS_KEY = '\0prewarm';

const noted = new Set<string>();

/**
 * Runs a one-shot hook pre-warmed when it can be, else cold: in a waiting interpreter when
 * `interpreters` (the hook asked for `"prewarm": true`), else in a waiting shell. With
 * HOOKLINE_DEBUG set, why a hook that asked ran cold is said once per hook and reason on stderr.
 */
export async function runPrewarmed(
  holder: Map<string, { close(): void }>,
  run: CommandRun,
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  interpreters = true,
): Promise<ProcessResult> {
  return withSlot(run.signal, () => prewarmedRun(holder, run, env, name, interpreters));
}

/** A command hook in a shell started ahead of its event where the caller keeps them, else cold. */
export function runInShell(
  holder: Map<string, { close(): void }> | undefined,
  run: CommandRun,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ProcessResult> {
  return holder ? runPrewarmed(holder, run, env, run.command, false) : runCommand(run);
}

async function prewarmedRun(
  holder: Map<string, { close(): void }>,
  run: CommandRun,
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  interpreters: boolean,
): Promise<ProcessResult> {
  let pools = holder.get(POOLS_KEY) as PrewarmPools | undefined;
  if (!pools) holder.set(POOLS_KEY, (pools = new PrewarmPools()));
  const attempt = pools.run(run, interpreters);
  const note =
    'result' in attempt
      ? attempt.shell
        ? `${name}: runs in a waiting shell, not a waiting interpreter — ${attempt.shell}`
        : undefined
      : `${name}: runs cold — ${attempt.cold}`;
  if (note && interpreters && env.HOOKLINE_DEBUG && !note.endsWith('no waiting process yet') && !noted.has(note)) {
    noted.add(note);
    process.stderr.write(`hookline: prewarm: ${note}\n`);
  }
  return 'result' in attempt ? attempt.result : startCommand(run);
}

/**
 * Once an event is done, its pools start the processes they are due to start, before the host's
 * next work (a model call, a tool) rather than at the next event. Not when the host has already
 * fired the next one (an AfterTool right after a fast tool): a start costs a fork here and a
 * cgroup move, which stalls every fork on the machine while it waits on the kernel, so it would
 * land on that event's hooks. It finds the pool's second process waiting, and the fill comes
 * when that event is done.
 */
export function refillAfterEvent(): void {
  running = Math.max(0, running - 1);
  if (live.size === 0) return;
  setImmediate(() => {
    if (running === 0) for (const pools of live) pools.refill();
  }).unref();
}

/** An event starts running hooks: fills come due meanwhile, in any engine, wait for its end (`refillAfterEvent`). */
export function eventStarted(): void {
  running++;
}

/** The pools an engine's holder map has, if any (benchmarks and tests read their state). */
export function poolsOf(holder: Map<string, unknown>): PrewarmPools | undefined {
  return holder.get(POOLS_KEY) as PrewarmPools | undefined;
}
