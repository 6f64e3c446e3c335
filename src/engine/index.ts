/**
 * The engine as a library object: it holds a loaded context (src/engine/context.ts), the planner
 * built from it, in-process hooks and persistent hook processes, and fires events with
 * `firePlan`. Everything it decides is in the plain functions it calls; this object only keeps
 * them together for a session.
 */
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import type { AnyHookInput, EventFields, HookInput } from '../events/input.js';
import { isEventName, type EventName } from '../events/names.js';
import { isStale, type LoadedConfig } from '../config/load.js';
import type { ConfigProblem } from '../config/problems.js';
import { displayName, type FunctionHook, type HookEntry } from '../config/entry.js';
import type { Env } from '../config/paths.js';
import { Planner, type Plan } from '../plan/plan.js';
import { matchValue } from '../plan/matcher.js';
import type { PersistentProcess } from '../run/persistent.js';
import { eventStarted, refillAfterEvent } from '../run/prewarm.js';
import { sanitizeEnv } from '../run/env.js';
import type { FolderTrust } from '../trust/folders.js';
import { geminiReviewed, recordRan } from '../trust/fingerprints.js';
import type { HookEndEvent, HookStartEvent } from '../telemetry.js';
import { keysToRecord, loadContext, type HeldHook, type HookContext } from './context.js';
import { unchanged } from '../trust/scripts.js';
import { firePlan, type FireResult } from './fire.js';
import { plansDir, runHook, type HookRun } from './run-hook.js';
import { digest, recordFire, traceSettings } from './trace.js';
import { geminiTraceFire } from './trace-gemini.js';
import { isoNow } from './clock.js';
import { heldKey, heldWarnings } from './held.js';

export type { HeldHook, HookContext, FireResult, HookRun };
export { loadContext, firePlan };

export interface EngineOptions {
  /** Working folder of the session; hooks run here. Default: process.cwd(). */
  cwd?: string;
  /** Project root whose `.gemini/settings.json` is read. Default: cwd. */
  projectDir?: string;
  sessionId?: string;
  transcriptPath?: string;
  /** Environment used to find settings and to build each hook's environment. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Re-read settings files when they change (checked before each event). Default: true. */
  watchConfig?: boolean;
  /**
   * How often (ms) the settings files are checked for changes: a check stats every file, too
   * costly for every event on a hot path. Default 200; 0 checks before every event. Whatever
   * the interval, the files a workspace hook runs are checked (real path and bytes) before it runs.
   */
  configCheckIntervalMs?: number;
  /** Shadow mode for every hook: decisions are shown and traced, none is enforced. */
  shadow?: boolean;
  /**
   * Start hook processes ahead of events (waiting shells; interpreters for hooks with
   * `"prewarm": true`). Default: true. A caller that fires once and exits sets false.
   */
  startAhead?: boolean;
  /**
   * Where the engine's notices go: which hooks are held back and the command that trusts them
   * (said once per set, at the first fire), and warnings no `warning` listener took. Default: a
   * line on stderr.
   */
  onNotice?: (line: string) => void;
}

export interface RuntimeHookOptions {
  event: EventName;
  name: string;
  action: FunctionHook['action'];
  matcher?: string;
  sequential?: boolean;
  timeout?: number;
  description?: string;
  /** Shadow mode: the hook runs and is traced, its output is not enforced. */
  shadow?: boolean;
}

export interface EngineEvents {
  hookStart: [HookStartEvent];
  hookEnd: [HookEndEvent];
  warning: [string];
}

/**
 * `base` with `fields` copied over it, as `{ ...base, ...fields }` makes it. Copied into the
 * fresh `base`, which V8 does many times faster than a literal with two spreads (several µs, most
 * of a fire that runs nothing); a field named `__proto__`, which assigning would take as the
 * prototype, is left to the spread.
 */
function withFields(base: object, fields: object): object {
  return Object.hasOwn(fields, '__proto__') ? { ...base, ...fields } : Object.assign(base, fields);
}

/** An event's own fields as `fire` takes them: typed for the event, extra fields allowed. */
export type FireFields<E extends EventName> = Partial<EventFields<E>> & Record<string, unknown>;

export class HookEngine extends EventEmitter<EngineEvents> {
  readonly cwd: string;
  readonly projectDir: string;
  sessionId: string;
  transcriptPath: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly watch: boolean;
  private readonly checkEvery: number;
  private lastCheck = 0;
  /** A workspace hook's files changed during a fire: read everything again before the next plan. */
  private changed = false;
  private ctx!: HookContext;
  private planner!: Planner;
  private runtime: HookEntry[] = [];
  private runtimeDisabled = new Set<string>();
  private persistent = new Map<string, PersistentProcess>();
  private recorded = false;
  private readonly shadow: boolean;
  private readonly startAhead: boolean;
  private readonly onNotice?: (line: string) => void;
  /** The held set last said (heldKey), so each is said once; and the list it was read from, so an unchanged list is not read again. */
  private heldSaid = '';
  private heldSeen?: readonly HeldHook[];
  /** Warnings raised while loading or recording, kept for callers that subscribe late. */
  readonly pendingWarnings: string[] = [];

  constructor(opts: EngineOptions = {}) {
    super();
    this.env = opts.env ?? process.env;
    this.sessionId = opts.sessionId ?? randomUUID();
    this.transcriptPath = opts.transcriptPath ?? '';
    this.watch = opts.watchConfig ?? true;
    this.checkEvery = opts.configCheckIntervalMs ?? 200;
    this.shadow = opts.shadow ?? false;
    this.startAhead = opts.startAhead ?? true;
    this.onNotice = opts.onNotice;
    this.ctx = loadContext({ cwd: opts.cwd, projectDir: opts.projectDir, env: this.env });
    this.cwd = this.ctx.cwd;
    this.projectDir = this.ctx.projectDir;
    this.rebuild();
  }

  /** Reads the settings files again and rebuilds the plan index. Runtime hooks are kept. */
  reload(): void {
    // Persistent hook processes belong to the configuration they were started from.
    this.close();
    this.ctx = loadContext({ cwd: this.cwd, projectDir: this.projectDir, env: this.env });
    this.recorded = false;
    this.changed = false;
    this.rebuild();
  }

  private rebuild(): void {
    for (const e of this.runtime) e.enabled = !this.runtimeDisabled.has(e.hook.name ?? '');
    this.planner = new Planner([...this.runtime, ...this.ctx.runnable]);
  }

  /** The loaded context: configuration, trust, held-back hooks, base environment. */
  get context(): Readonly<HookContext> {
    return this.ctx;
  }

  /** Problems found in the configuration files (the valid hooks still load). */
  get problems(): readonly ConfigProblem[] {
    return this.ctx.config.problems;
  }

  get loaded(): Readonly<LoadedConfig> {
    return this.ctx.config;
  }

  get trustedFolder(): boolean {
    return this.ctx.trust !== 'untrusted';
  }

  /** `trusted` by the user's trustedFolders.json, `assumed` by environment or folder trust off. */
  get folderTrust(): FolderTrust {
    return this.ctx.trust;
  }

  /** Configured hooks that will not run: in an untrusted folder, or new/changed and not yet trusted. */
  get heldBack(): readonly HeldHook[] {
    return this.ctx.held;
  }

  /** Every hook: runtime first, then settings hooks in source priority order. */
  hooks(): HookEntry[] {
    return [...this.runtime, ...this.ctx.config.entries];
  }

  /** Registers an in-process hook. It survives reloads and is never fingerprinted. */
  register(opts: RuntimeHookOptions): () => void {
    if (!isEventName(opts.event)) throw new Error(`unknown event "${opts.event}"`);
    const entry: HookEntry = {
      event: opts.event,
      source: 'runtime',
      matcher: opts.matcher,
      sequential: opts.sequential,
      enabled: !this.runtimeDisabled.has(opts.name),
      hook: {
        type: 'runtime',
        name: opts.name,
        action: opts.action,
        timeout: opts.timeout,
        description: opts.description,
        ...(opts.shadow ? { shadow: true } : {}),
      },
    };
    this.runtime.push(entry);
    this.rebuild();
    return () => {
      this.runtime = this.runtime.filter((e) => e !== entry);
      this.rebuild();
    };
  }

  /** Enables or disables hooks by name (or command) for this engine only; see config/write for settings. */
  setEnabled(name: string, enabled: boolean): number {
    let n = 0;
    for (const e of this.hooks()) {
      if (displayName(e.hook) !== name) continue;
      e.enabled = enabled;
      n++;
    }
    if (enabled) this.runtimeDisabled.delete(name);
    else this.runtimeDisabled.add(name);
    this.rebuild();
    return n;
  }

  /** The base fields every input carries. */
  baseInput(event: EventName, cwd = this.cwd, now = Date.now()): AnyHookInput {
    return {
      session_id: this.sessionId,
      transcript_path: this.transcriptPath,
      cwd,
      hook_event_name: event,
      timestamp: isoNow(now),
    };
  }

  /** The plan an event would run, without running it. */
  plan(event: EventName, fields: Record<string, unknown> = {}): Plan | undefined {
    return this.planAt(event, fields, Date.now());
  }

  /** `plan` at a time already read (`fire` reads the clock once, for this check and the timestamp). */
  private planAt(event: EventName, fields: Record<string, unknown>, now: number): Plan | undefined {
    if (this.watch) {
      if (!this.checkEvery || now - this.lastCheck >= this.checkEvery) {
        this.lastCheck = now;
        if (isStale(this.ctx.config, { projectDir: this.projectDir, env: this.env }) || !this.verified()) this.changed = true;
      }
    }
    if (this.changed) this.reload();
    // An event nobody hooks needs no matched value.
    if (!this.planner.has(event)) return undefined;
    const match = matchValue(event, fields);
    const plan = this.planner.plan(event, match);
    // What runs is what was verified: the workspace hooks about to run are checked again now,
    // whatever the interval (a tool may have just rewritten one), and held back if changed.
    if (!plan || this.verified(plan.entries)) return plan;
    this.reload();
    return this.planner.plan(event, match);
  }

  /** True when every workspace hook among `entries` (default: all) still finds the files it was fingerprinted with. */
  private verified(entries: Iterable<HookEntry> = this.ctx.pins.keys()): boolean {
    for (const e of entries) {
      const probes = e.source === 'project' ? this.ctx.pins.get(e) : undefined;
      if (probes && !unchanged(probes)) return false;
    }
    return true;
  }

  /**
   * Fires one event: builds the input (base fields, then the event's own fields), runs the
   * matching hooks and aggregates their outputs. Never throws for hook failures. `env`: this
   * event's environment, when it is not the engine's (a server's client), for the hooks to start
   * from (secrets removed as from the engine's); settings and trust are still found from the engine's.
   */
  fire<E extends EventName>(
    event: E,
    fields: FireFields<E> = {} as FireFields<E>,
    opts?: { signal?: AbortSignal; cwd?: string; env?: NodeJS.ProcessEnv },
  ): Promise<FireResult & { input: HookInput<E> }> {
    // Not an async function: an event nobody hooks (most events of most sessions) costs one
    // resolved promise and none of an async function's machinery; it still never throws here.
    try {
      const now = Date.now();
      const plan = this.planAt(event, fields, now);
      this.noticeHeld();
      // The base fields, then the event's own (which may override them), then the event's name.
      const input = withFields(this.baseInput(event, opts?.cwd ?? this.cwd, now), fields) as AnyHookInput;
      input.hook_event_name = event;
      // Nothing to run: the result at once, with no runner or dependencies built for it.
      if (!plan) return Promise.resolve({ event, input: input as HookInput<E>, runs: [], success: true, sequential: false });
      const env = opts?.env === this.env ? undefined : opts?.env;
      return this.run(event, plan, input, opts?.signal, env) as Promise<FireResult & { input: HookInput<E> }>;
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** Runs an event's plan on its input: the part of `fire` for an event some hook matched. */
  private async run(
    event: EventName,
    plan: Plan,
    input: AnyHookInput,
    signal: AbortSignal | undefined,
    env: NodeJS.ProcessEnv | undefined,
  ): Promise<FireResult> {
    this.recordNewHooks();
    const deps = {
      cwd: this.cwd,
      projectDir: this.projectDir,
      env: (env ?? this.env) as Env,
      baseEnv: env ? sanitizeEnv(env, this.ctx.config.redaction) : this.ctx.baseEnv,
      sessionId: this.sessionId,
      persistent: this.persistent,
      startAhead: this.startAhead,
      signal,
    };
    const trusted = this.trustedFolder;
    // A hook that read a rewritten input is traced with that input's digest (asked only then).
    let tracing: boolean | undefined;
    const starts: number[] = [];
    const inputs: Array<string | undefined> = [];
    // Waiting processes the event uses are started again once it is done, not between its hooks.
    eventStarted();
    const result = await firePlan(event, plan, input, async (entry, hookInput, index, total) => {
      const start: HookStartEvent = { event, name: displayName(entry.hook), source: entry.source, index: index + 1, total };
      this.emit('hookStart', start);
      starts[index] = Date.now();
      if (hookInput !== input && (tracing ??= traceSettings(this.env as Env).enabled)) inputs[index] = digest(hookInput);
      // A later hook of a sequential chain is checked again when its turn comes.
      const run =
        plan.sequential && index > 0 && !this.verified([entry])
          ? this.heldRun(entry, event)
          : await runHook(entry, event, hookInput, deps, trusted);
      if (this.shadow) run.shadow = true;
      const end: HookEndEvent = {
        ...start,
        durationMs: run.durationMs,
        exitCode: run.exitCode,
        success: run.success,
        decision: typeof run.output?.decision === 'string' ? run.output.decision : undefined,
        error: run.error,
      };
      this.emit('hookEnd', end);
      return run;
    }).finally(refillAfterEvent);
    if (result.runs.length) recordFire(geminiTraceFire(result, starts, inputs), this.env as Env);
    return result;
  }

  /** A workspace hook whose files changed while its event ran: not run, and held back from the next event on. */
  private heldRun(entry: HookEntry, event: EventName): HookRun {
    this.changed = true;
    const name = displayName(entry.hook);
    return {
      name,
      ...(entry.hook.type === 'command' ? { command: entry.hook.command } : {}),
      source: entry.source,
      ...(entry.file ? { file: entry.file } : {}),
      exitCode: null,
      success: false,
      durationMs: 0,
      stdout: '',
      stderr: '',
      error: `${event} hook "${name}"${entry.file ? ` (${entry.file})` : ''}: a file it runs changed since it was trusted; not run, and held back until: hookline trust ${JSON.stringify(this.projectDir)}`,
    };
  }

  /**
   * Under assumed trust, new or changed workspace hooks run with a warning and are recorded, as
   * Gemini CLI does; hooks trusted by an old key are recorded in the new form. Done once per
   * load, when hooks are about to run (never by loading or listing).
   */
  private recordNewHooks(): void {
    if (this.recorded) return;
    this.recorded = true;
    if (this.ctx.unrecorded.length) {
      const names = this.ctx.unrecorded.map((e) => `  - ${displayName(e.hook)}`).join('\n');
      this.warn(`new or changed workspace hooks in ${this.projectDir} (they will run):\n${names}`);
    }
    recordRan(
      this.projectDir,
      keysToRecord(this.ctx),
      this.ctx.unrecorded.map((e) => geminiReviewed(e, this.projectDir)),
      this.env as Env,
    );
  }

  /**
   * Says which workspace hooks are held back and the command that trusts them, once for each set
   * (again after a reload holds back others). `fire` calls it; a host may call it earlier.
   */
  noticeHeld(): void {
    if (this.ctx.held === this.heldSeen) return;
    this.heldSeen = this.ctx.held;
    const key = heldKey(this.ctx.held);
    if (key === this.heldSaid) return;
    this.heldSaid = key;
    for (const line of heldWarnings({ ...this.ctx, env: this.env })) this.notice(line);
  }

  private notice(line: string): void {
    if (this.onNotice) this.onNotice(line);
    else process.stderr.write(`hookline: ${line}\n`);
  }

  private warn(message: string): void {
    this.pendingWarnings.push(message);
    if (this.listenerCount('warning')) this.emit('warning', message);
    else this.notice(message);
  }

  /** Stops persistent hook processes. The engine can still fire; they start again on demand. */
  close(): void {
    for (const p of this.persistent.values()) p.close();
    this.persistent.clear();
  }

  plansDir(): string {
    return plansDir(this.env as Env, this.projectDir, this.sessionId);
  }
}
