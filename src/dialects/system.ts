/**
 * A hook system as the commands and the agent reach it: fire one event in its own names and
 * wire format, validate its configuration, find its workspace hooks (for trust and listing),
 * and make its adapter for an agent session. The CLI and the server go through the registry
 * (registry.ts) and never branch on a system's name.
 */
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { sessionIdProblem } from '../events/session-id.js';
import { eventStarted, refillAfterEvent } from '../run/prewarm.js';
import { formatProblem, type ConfigProblem } from '../config/problems.js';
import type { HookEngine } from '../engine/index.js';
import type { FolderTrust } from '../trust/folders.js';
import type { DialectHook } from '../trust/dialects.js';
import type { Adapter, AdapterContext } from './adapter.js';
import type { ListedHook } from './list.js';

export interface SystemFireOptions {
  /** The session folder (resolved). */
  cwd: string;
  /** `--cwd` as the user wrote it (mm names its configuration as written). */
  cwdFlag?: string;
  sessionId?: string;
  transcriptPath?: string;
  /** The system's configuration file, instead of its usual places. */
  config?: string;
  /** `--plugin-dir`: Claude Code plugin folders loaded for this run. */
  pluginDirs?: string[];
  /** A model for prompt hooks, made on demand. */
  model?: () => Promise<LanguageModelV3 | undefined>;
  /** True when a model was given. */
  hasModel: boolean;
  /**
   * The event's environment. With `warm`, an object is known again by its identity: one given
   * is not changed afterwards (a new object for new values; a live process.env is compared each time).
   */
  env: NodeJS.ProcessEnv;
  /** Cancels the hooks still running (a server's client went away). */
  signal?: AbortSignal;
  /** State kept between fires by a long-running caller (`hookline serve`); without it each fire starts cold. */
  warm?: WarmStore;
  /** Configuration files left out of this fire: another agent runs them itself (Copilot CLI, the project's Claude Code settings). */
  leave?: ReadonlySet<string>;
}

/** What a long-running caller keeps for the systems: e.g. one engine per folder and environment, with its persistent hooks. */
export interface WarmStore {
  /**
   * The value kept under `key`, made by `make` on first use, held by one event until `release`:
   * `close` is called when the store drops it and no event holds it.
   */
  hold<T>(key: string, make: () => T, close: (value: T) => void): { value: T; release: () => void };
}

/** Processes a caller keeps for a system's hooks between events (the shells started ahead of them). */
export type KeptProcesses = Map<string, { close(): void }>;

/**
 * Runs one event of a system with the shells a long-running caller keeps for the folder, so its
 * command hooks run in shells started ahead, as the Gemini engine's do: `fire` gets them, and
 * the pools refill once the event is done, not between its hooks. A one-shot fire gets none
 * (its hooks run cold).
 */
export async function withKeptProcesses<T>(
  warm: WarmStore | undefined,
  system: string,
  cwd: string,
  fire: (processes: KeptProcesses | undefined) => Promise<T>,
): Promise<T> {
  if (!warm) return fire(undefined);
  const kept = warm.hold(`${system}\0processes\0${cwd}`, (): KeptProcesses => new Map(), closeKept);
  eventStarted();
  try {
    return await fire(kept.value);
  } finally {
    refillAfterEvent();
    kept.release();
  }
}

function closeKept(kept: KeptProcesses): void {
  for (const p of kept.values()) p.close();
  kept.clear();
}

/** A workspace hook that did not run because it is not trusted (yet). */
export interface HeldBack {
  name: string;
  event: string;
  source: string;
  /** The configuration file it is in. */
  file: string;
  /** `untrusted-folder`: the folder is not trusted; `untrusted-hook`: new or changed since `hookline trust`. */
  reason: 'untrusted-folder' | 'untrusted-hook';
}

/** The held-back hooks among `hooks`, given the held fingerprints and the folder's trust. */
export function heldBackOf(hooks: readonly DialectHook[], held: ReadonlySet<string>, trust: FolderTrust): HeldBack[] {
  return hooks
    .filter((h) => held.has(h.id))
    .map((h) => ({
      name: h.name,
      event: h.event,
      source: h.source,
      file: h.file,
      reason: trust === 'untrusted' ? 'untrusted-folder' : 'untrusted-hook',
    }));
}

export interface SystemFire {
  /** What the hooks decided together, in the system's own shape (null when nothing). */
  output: unknown;
  runs: unknown[];
  /** Hooks of this event that did not run because they are not trusted: "no hooks" and "hooks waiting for trust" differ. */
  heldBack: HeldBack[];
  /** Lines for stderr: configuration problems, held-back hooks, hook errors. */
  warnings: string[];
  /** The configuration errors among them (a file that does not parse, a hook that is not valid): what was meant may not have run. */
  configErrors?: string[];
  /** Lines for stderr printed as they are (no prefix), e.g. mm's `[config error: …]`. */
  raw?: string[];
  /** Exit status when not 0 (mm refuses to fire with a configuration error). */
  exitCode?: number;
  /** Claude Code SessionStart: the variables its hooks exported through `$CLAUDE_ENV_FILE`. */
  env?: Record<string, string>;
}

/** What `hookline fire` prints and `hookline serve` returns: the result without its stderr-only parts. */
export function fireReport(r: SystemFire): Record<string, unknown> {
  const { warnings: _w, raw: _r, exitCode: _e, ...report } = r;
  return report;
}

export interface SystemValidation {
  /** Human lines for stdout. */
  lines: string[];
  json: unknown;
  errors: number;
}

/**
 * `validate`'s lines for one hook system: each problem, any notes, then the count line
 * (`2 settings file(s), 3 hook(s), 1 error(s), 0 warning(s)`); and how many are errors.
 */
export function validationLines(
  problems: readonly ConfigProblem[],
  count: { files: number; kind: string; hooks: number },
  notes: readonly string[] = [],
): Pick<SystemValidation, 'lines' | 'errors'> {
  const errors = problems.filter((p) => p.severity === 'error').length;
  return {
    lines: [
      ...problems.map(formatProblem),
      ...notes,
      `${count.files} ${count.kind}(s), ${count.hooks} hook(s), ${errors} error(s), ${problems.length - errors} warning(s)`,
    ],
    errors,
  };
}

export interface AgentSetup {
  cwd: string;
  /** The session's engine for Gemini settings hooks (its context gives trust and redaction). */
  engine: HookEngine;
  trust: FolderTrust;
  /** The environment dialect hooks start from (sanitised). */
  hookEnv: NodeJS.ProcessEnv;
  model: LanguageModelV3;
  ctx: AdapterContext;
  displayHooks: boolean;
  /** A configuration named by the user (`--mm-config`). */
  mmConfig?: string;
  /** `--plugin-dir`: Claude Code plugin folders loaded for this session. */
  pluginDirs?: string[];
  /** Set for a called agent: its configuration file and how deep it is. */
  handOff?: { file: string; depth: number };
  /** `--ask`: mm lists no hook run for it. */
  ask: boolean;
  /**
   * Configuration files this system leaves to another in this session: a file two systems read
   * (Claude Code's `.claude/settings.json`, which Copilot CLI reads too) is run by one of them,
   * so a hook never runs twice for one event.
   */
  leave?: ReadonlySet<string>;
  system: string;
  warn(line: string): void;
}

export interface HookSystem {
  name: string;
  /** The system's usual configuration file names, for help texts. */
  describeConfig: string;
  /** Events this system fires, with their own names. */
  events: readonly string[];
  fire(event: string, fields: Record<string, unknown>, opts: SystemFireOptions): Promise<SystemFire>;
  validate(opts: { cwd: string; cwdFlag?: string; config?: string; pluginDirs?: string[]; env: NodeJS.ProcessEnv }): SystemValidation;
  /** True when a configuration of this system is found for the folder (`validate` with no `--dialect` checks these). */
  configured(opts: { cwd: string; env: NodeJS.ProcessEnv }): boolean;
  /** The workspace hooks found in a project folder at their usual places (for trust and list). */
  workspaceHooks(dir: string, env: NodeJS.ProcessEnv): DialectHook[];
  /** Its hooks that are not workspace configuration (the user's, policy's, plugins'), for `hookline list`. */
  listHooks?(dir: string, env: NodeJS.ProcessEnv): ListedHook[];
  /** The adapter for an agent session, or undefined when the system has no hooks here. */
  adapter(setup: AgentSetup): Adapter | undefined;
  /**
   * A system that keeps trust records of its own (Codex's `hooks.state`): the hooks of the folder
   * its records hold back (`pending`), and `trust`, which records them as reviewed (what
   * `hookline trust` does beside Hookline's own records). Both return the hooks as lines.
   */
  ownTrust?: {
    pending(dir: string, env: NodeJS.ProcessEnv): string[];
    /** With `project`, the folder itself is trusted in the system's own records too (a `hookline test` sandbox). */
    trust(dir: string, env: NodeJS.ProcessEnv, opts?: { project?: boolean }): string[];
  };

  /**
   * Files of another system that this one reads too (its name and the files): in an agent
   * session the owner runs them, unless the user prefers this system (`--prefer-dialect`).
   */
  borrows?(dir: string, env: NodeJS.ProcessEnv): { from: string; files: string[] };
}

/**
 * What each system leaves to another in one agent session: a borrowed file is run by its owner,
 * or by the borrower when the user prefers it (`prefer`, a system's name).
 */
export function leftFiles(systems: readonly HookSystem[], dir: string, env: NodeJS.ProcessEnv, prefer?: string): Map<string, Set<string>> {
  const left = new Map<string, Set<string>>(systems.map((s) => [s.name, new Set<string>()]));
  for (const s of systems) {
    const b = s.borrows?.(dir, env);
    if (!b) continue;
    const leaver = prefer === s.name ? b.from : s.name;
    for (const f of b.files) left.get(leaver)?.add(f);
  }
  return left;
}

/** Session ids from a flag or an event's `session_id` must be of the safe alphabet: the problem, if any. */
export function sessionIdsProblem(flag: string | undefined, fields: Record<string, unknown>): string | undefined {
  if (flag !== undefined) {
    const bad = sessionIdProblem(flag, '--session-id');
    if (bad) return bad;
  }
  return typeof fields.session_id === 'string' ? sessionIdProblem(fields.session_id, 'input session_id') : undefined;
}

/**
 * What `use` makes of a configuration, or nothing when the configuration cannot be read (an error
 * of class `unreadable`; `validate` reports it): an unreadable file runs no hook, so there is
 * nothing to trust or list. Any other error is thrown.
 */
export function unlessUnreadable<C, T>(load: () => C, unreadable: abstract new (...args: never[]) => Error, use: (config: C) => T[]): T[] {
  let config: C;
  try {
    config = load();
  } catch (e) {
    if (e instanceof unreadable) return [];
    throw e;
  }
  return use(config);
}
