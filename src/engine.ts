import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { CATALOG } from './events/catalog.js';
import { isEventName, type EventName } from './events/names.js';
import type { AnyHookInput } from './events/input.js';
import type { HookOutput } from './events/output.js';
import { isStale, loadConfig, type LoadedConfig } from './config/load.js';
import { displayName, type FunctionHook, type HookEntry, type Source } from './config/schema.js';
import type { ConfigProblem } from './config/problems.js';
import { projectSlug, userGeminiDir } from './config/paths.js';
import { Planner, type Plan } from './plan/plan.js';
import { matchValue } from './plan/matcher.js';
import { runCommand, LARGE_INPUT } from './run/command.js';
import { approxJsonSize } from './run/serialize.js';
import { PersistentProcess } from './run/persistent.js';
import { runFunction } from './run/function.js';
import { sanitizeEnv } from './run/env.js';
import { expandCommand, tryExpand } from './run/expand.js';
import type { RunResult } from './run/result.js';
import { aggregate } from './decide/aggregate.js';
import { folderTrust, type FolderTrust } from './trust/folders.js';
import { trustHooks, untrustedHooks } from './trust/fingerprints.js';
import { recordHookCall, type HookEndEvent, type HookStartEvent } from './telemetry.js';

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
   * costly for every event on a hot path. Default 200; 0 checks before every event.
   */
  configCheckIntervalMs?: number;
}

/** One hook's run, as reported by `fire`. */
export interface HookRun {
  name: string;
  command?: string;
  source: Source;
  file?: string;
  exitCode: number | null;
  success: boolean;
  durationMs: number;
  output?: HookOutput;
  stdout: string;
  stderr: string;
  error?: string;
  warning?: string;
  timedOut?: boolean;
}

export interface FireResult {
  event: EventName;
  /** The input the first hook received. */
  input: AnyHookInput;
  /** The aggregated output, as Gemini CLI merges it; undefined when no hook gave one. */
  output?: HookOutput;
  runs: HookRun[];
  /** True when no hook had an error (timeout, crash, cancel); a non-zero exit is not an error. */
  success: boolean;
  sequential: boolean;
}

export interface RuntimeHookOptions {
  event: EventName;
  name: string;
  action: FunctionHook['action'];
  matcher?: string;
  sequential?: boolean;
  timeout?: number;
  description?: string;
}

/** A hook that is configured but will not run here, and why. */
export interface HeldHook {
  entry: HookEntry;
  reason: 'untrusted-folder' | 'untrusted-hook';
}

export interface EngineEvents {
  hookStart: [HookStartEvent];
  hookEnd: [HookEndEvent];
  warning: [string];
}

// Parallel hooks share one input object: serialise it once, not once per hook. A large input is
// streamed to each hook instead, so no full JSON copy of it is ever held.
const serialised = new WeakMap<object, string | { json: unknown }>();
function stdinFor(input: AnyHookInput): string | { json: unknown } {
  let s = serialised.get(input);
  if (s === undefined) serialised.set(input, (s = approxJsonSize(input, LARGE_INPUT) > LARGE_INPUT ? { json: input } : JSON.stringify(input)));
  return s;
}

const BLOCKED_UNTRUSTED = 'Security: Blocked execution of project hook in untrusted folder';

/**
 * The hooks engine: loads configuration, plans, runs and aggregates. It speaks the internal
 * (Gemini CLI) event model; dialects translate at the edges.
 */
export class HookEngine extends EventEmitter<EngineEvents> {
  readonly cwd: string;
  readonly projectDir: string;
  sessionId: string;
  transcriptPath: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly watch: boolean;
  private readonly checkEvery: number;
  private lastCheck = 0;
  private config!: LoadedConfig;
  private baseEnv!: Record<string, string>;
  private planner!: Planner;
  private held: HeldHook[] = [];
  private trust: FolderTrust = 'untrusted';
  private runtime: HookEntry[] = [];
  private runtimeDisabled = new Set<string>();
  private persistent = new Map<string, PersistentProcess>();

  constructor(opts: EngineOptions = {}) {
    super();
    this.cwd = path.resolve(opts.cwd ?? process.cwd());
    this.projectDir = path.resolve(opts.projectDir ?? this.cwd);
    this.sessionId = opts.sessionId ?? randomUUID();
    this.transcriptPath = opts.transcriptPath ?? '';
    this.env = opts.env ?? process.env;
    this.watch = opts.watchConfig ?? true;
    this.checkEvery = opts.configCheckIntervalMs ?? 200;
    this.reload();
  }

  /** Reads the settings files again and rebuilds the plan index. Runtime hooks are kept. */
  reload(): void {
    // Persistent hook processes belong to the configuration they were started from.
    this.close();
    this.config = loadConfig({ projectDir: this.projectDir, env: this.env });
    this.baseEnv = sanitizeEnv(this.env, this.config.redaction);
    this.trust = folderTrust(this.projectDir, this.config.folderTrustEnabled, this.env);
    const trust = this.trust;
    this.held = [];
    const runnable: HookEntry[] = [];
    const unknown = this.trustedFolder ? untrustedHooks(this.projectDir, this.config.entries, this.env) : [];
    // Only a folder the user trusted by hand holds new hooks back; when trust comes from the
    // environment or folder trust is off, new hooks are reported and recorded, as the reference does.
    const gate = trust === 'trusted' ? new Set(unknown) : new Set<HookEntry>();
    if (unknown.length && trust !== 'trusted') {
      this.emitWarning(`new or changed workspace hooks in ${this.projectDir} (they will run):\n${unknown.map((e) => `  - ${displayName(e.hook)}`).join('\n')}`);
      try {
        trustHooks(this.projectDir, this.config.entries, this.env);
      } catch {
        // Recording is best effort: a read-only home must not stop the hooks.
      }
    }
    for (const entry of this.config.entries) {
      if (entry.source === 'project' && !this.trustedFolder) this.held.push({ entry, reason: 'untrusted-folder' });
      else if (gate.has(entry)) this.held.push({ entry, reason: 'untrusted-hook' });
      else runnable.push(entry);
    }
    for (const e of this.runtime) e.enabled = !this.runtimeDisabled.has(e.hook.name ?? '');
    this.planner = new Planner([...this.runtime, ...runnable]);
  }

  private emitWarning(message: string): void {
    this.pendingWarnings.push(message);
    if (this.listenerCount('warning')) this.emit('warning', message);
  }

  /** Warnings raised while loading, kept for callers that subscribe after construction. */
  readonly pendingWarnings: string[] = [];

  /** Problems found in the configuration files (the valid hooks still load). */
  get problems(): readonly ConfigProblem[] {
    return this.config.problems;
  }

  get loaded(): Readonly<LoadedConfig> {
    return this.config;
  }

  get trustedFolder(): boolean {
    return this.trust !== 'untrusted';
  }

  /** `trusted` by the user's trustedFolders.json, `assumed` by environment or folder trust off. */
  get folderTrust(): FolderTrust {
    return this.trust;
  }

  /** Configured hooks that will not run: in an untrusted folder, or new/changed and not yet trusted. */
  get heldBack(): readonly HeldHook[] {
    return this.held;
  }

  /** Every hook: runtime first, then settings hooks in source priority order. */
  hooks(): HookEntry[] {
    return [...this.runtime, ...this.config.entries];
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
      hook: { type: 'runtime', name: opts.name, action: opts.action, timeout: opts.timeout, description: opts.description },
    };
    this.runtime.push(entry);
    this.planner = new Planner([...this.runtime, ...this.runnableSettings()]);
    return () => {
      this.runtime = this.runtime.filter((e) => e !== entry);
      this.planner = new Planner([...this.runtime, ...this.runnableSettings()]);
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
    this.planner = new Planner([...this.runtime, ...this.runnableSettings()]);
    return n;
  }

  private runnableSettings(): HookEntry[] {
    const held = new Set(this.held.map((h) => h.entry));
    return this.config.entries.filter((e) => !held.has(e));
  }

  /** The base fields every input carries. */
  baseInput(event: EventName, cwd = this.cwd): AnyHookInput {
    return {
      session_id: this.sessionId,
      transcript_path: this.transcriptPath,
      cwd,
      hook_event_name: event,
      timestamp: new Date().toISOString(),
    };
  }

  /** The plan an event would run, without running it. */
  plan(event: EventName, fields: Record<string, unknown> = {}): Plan | undefined {
    if (this.watch) {
      const now = this.checkEvery ? Date.now() : 0;
      if (!this.checkEvery || now - this.lastCheck >= this.checkEvery) {
        this.lastCheck = now;
        if (isStale(this.config, { projectDir: this.projectDir, env: this.env })) this.reload();
      }
    }
    return this.planner.plan(event, matchValue(event, fields));
  }

  /**
   * Fires one event: builds the input (base fields, then the event's own fields), runs the
   * matching hooks and aggregates their outputs. Never throws for hook failures.
   */
  async fire(event: EventName, fields: Record<string, unknown> = {}, opts: { signal?: AbortSignal; cwd?: string } = {}): Promise<FireResult> {
    const input: AnyHookInput = { ...this.baseInput(event, opts.cwd), ...fields, hook_event_name: event };
    const plan = this.plan(event, fields);
    if (!plan) return { event, input, runs: [], success: true, sequential: false };
    const runs: HookRun[] = [];
    const outputs: HookOutput[] = [];
    if (plan.sequential) {
      let current = input;
      let toolInput: Record<string, unknown> | undefined;
      for (let i = 0; i < plan.entries.length; i++) {
        const run = await this.execute(plan.entries[i], event, current, i, plan.entries.length, opts.signal);
        runs.push(run);
        if (run.output) outputs.push(run.output);
        if (run.success && run.output) {
          current = CATALOG[event].chain?.(current, run.output) ?? current;
          const ti = run.output.hookSpecificOutput?.tool_input;
          if (event === 'BeforeTool' && ti && typeof ti === 'object' && !Array.isArray(ti)) toolInput = { ...toolInput, ...(ti as Record<string, unknown>) };
        }
      }
      const output = aggregate(event, outputs);
      // Deliberate fix: a chain's rewrites accumulate instead of the last hook's object winning.
      if (output && toolInput) output.hookSpecificOutput = { ...output.hookSpecificOutput, tool_input: toolInput };
      return { event, input, output, runs, success: runs.every((r) => !r.error), sequential: true };
    }
    const results = await Promise.all(plan.entries.map((e, i) => this.execute(e, event, input, i, plan.entries.length, opts.signal)));
    for (const r of results) {
      runs.push(r);
      if (r.output) outputs.push(r.output);
    }
    return { event, input, output: aggregate(event, outputs), runs, success: runs.every((r) => !r.error), sequential: false };
  }

  /** Stops persistent hook processes. The engine can still fire; they start again on demand. */
  close(): void {
    for (const p of this.persistent.values()) p.close();
    this.persistent.clear();
  }

  plansDir(): string {
    return path.join(userGeminiDir(this.env), 'tmp', projectSlug(this.projectDir), this.sessionId, 'plans');
  }

  private async execute(entry: HookEntry, event: EventName, input: AnyHookInput, index: number, total: number, signal?: AbortSignal): Promise<HookRun> {
    const name = displayName(entry.hook);
    const start: HookStartEvent = { event, name, source: entry.source, index: index + 1, total };
    this.emit('hookStart', start);
    let result: RunResult;
    if (entry.source === 'project' && !this.trustedFolder) {
      result = { success: false, exitCode: null, stdout: '', stderr: '', durationMs: 0, error: BLOCKED_UNTRUSTED };
    } else if (entry.hook.type === 'runtime') {
      result = await runFunction(entry.hook, input, signal);
    } else {
      const cwd = typeof input.cwd === 'string' && input.cwd ? input.cwd : this.cwd;
      const plansDir = this.plansDir();
      const env = {
        ...this.baseEnv,
        GEMINI_PROJECT_DIR: this.projectDir,
        GEMINI_PLANS_DIR: plansDir,
        GEMINI_CWD: cwd,
        GEMINI_SESSION_ID: input.session_id,
        CLAUDE_PROJECT_DIR: this.projectDir,
        ...entry.hook.env,
      };
      const command = tryExpand(expandCommand, entry.hook.command, { projectDir: this.projectDir, cwd, plansDir, sessionId: input.session_id });
      if (typeof command !== 'string') result = command;
      else if (entry.hook.persistent) {
        const key = `${entry.source}\0${entry.file ?? ''}\0${command}`;
        let proc = this.persistent.get(key);
        if (!proc) this.persistent.set(key, (proc = new PersistentProcess({ command, cwd: this.projectDir, env })));
        result = await proc.request(input, entry.hook.timeout, signal);
      } else {
        result = await runCommand({ command, cwd, env, stdin: stdinFor(input), timeoutMs: entry.hook.timeout, signal });
      }
    }
    // Errors name the event, the hook and its file, so a user can find what failed.
    const where = `${event} hook "${name}"${entry.file ? ` (${entry.file})` : ''}`;
    const run: HookRun = {
      name,
      ...(entry.hook.type === 'command' ? { command: entry.hook.command } : {}),
      source: entry.source,
      ...(entry.file ? { file: entry.file } : {}),
      exitCode: result.exitCode,
      success: result.success,
      durationMs: Math.round(result.durationMs * 1000) / 1000,
      ...(result.output ? { output: result.output } : {}),
      stdout: result.stdout,
      stderr: result.stderr,
      ...(result.error ? { error: `${where}: ${result.error}` } : {}),
      ...(result.warning ? { warning: `${where}: ${result.warning}` } : {}),
      ...(result.timedOut ? { timedOut: true } : {}),
    };
    const end: HookEndEvent = {
      ...start,
      durationMs: run.durationMs,
      exitCode: run.exitCode,
      success: run.success,
      decision: typeof result.output?.decision === 'string' ? result.output.decision : undefined,
      error: run.error,
    };
    recordHookCall(end);
    this.emit('hookEnd', end);
    return run;
  }
}
