/**
 * What the engine knows before it fires anything, as plain data: the configuration layers, the
 * folder's trust, which workspace hooks run and which are held back, and the sanitised base
 * environment. Loading reads files and writes nothing.
 */
import path from 'node:path';
import { applyEnablement, loadConfig, type LoadedConfig } from '../config/load.js';
import { trustedFoldersPath, trustedHooksPath, type Env } from '../config/paths.js';
import type { HookEntry } from '../config/schema.js';
import { sanitizeEnv } from '../run/env.js';
import { checkHooks, geminiFingerprint } from '../trust/fingerprints.js';
import { folderTrust, type FolderTrust } from '../trust/folders.js';
import { gate, type HoldReason } from '../trust/gate.js';
import type { Probe } from '../trust/scripts.js';
import { trustFileProblem } from '../trust/store.js';

/** A hook that is configured but will not run here, and why. */
export interface HeldHook {
  entry: HookEntry;
  reason: HoldReason;
  /** Why the hook cannot be trusted as it is (a file its command runs is missing or unreadable). */
  problem?: string;
}

export interface ContextOptions {
  /** Working folder of the session; hooks run here. Default: process.cwd(). */
  cwd?: string;
  /** Project root whose `.gemini/settings.json` is read. Default: cwd. */
  projectDir?: string;
  /** Environment used to find settings and to build each hook's environment. Default: process.env. */
  env?: NodeJS.ProcessEnv;
}

export interface HookContext {
  cwd: string;
  projectDir: string;
  env: NodeJS.ProcessEnv;
  /** The configuration, with what the workspace may change applied only in a trusted folder. */
  config: LoadedConfig;
  trust: FolderTrust;
  /** Settings hooks that may run (user, system, extensions, and trusted workspace hooks). */
  runnable: HookEntry[];
  held: HeldHook[];
  /** New or changed workspace hooks that run because trust is assumed: reported and recorded on first fire. */
  unrecorded: HookEntry[];
  /** Hooks trusted only by an old key: recorded in the new form on first fire in a trusted folder. */
  legacy: HookEntry[];
  /**
   * What each fingerprinted workspace hook was fingerprinted from (its probes): checked again
   * before it runs, so an edit since (a link pointed elsewhere, the same size and times) holds it
   * back; a held-back hook's, so a file put back as trusted is noticed.
   */
  pins: ReadonlyMap<HookEntry, readonly Probe[]>;
  /** The environment every command hook starts from (secrets removed). */
  baseEnv: Record<string, string>;
}

const isWorkspace = (e: HookEntry) => e.source === 'project';

export function loadContext(opts: ContextOptions = {}): HookContext {
  const cwd = path.resolve(opts.cwd ?? process.cwd());
  const projectDir = path.resolve(opts.projectDir ?? cwd);
  const env = opts.env ?? process.env;
  const loaded = loadConfig({ projectDir, env });
  // What the decision rests on is recorded with the settings: a trust rule's link pointed
  // elsewhere, or the folder moved, reloads a warm engine.
  const trust = folderTrust(projectDir, loaded.folderTrustEnabled, env as Env, loaded.watched);
  // An untrusted workspace's settings change nothing: not the user's hooks, not the redaction.
  const config = applyEnablement(loaded, { workspaceTrusted: trust !== 'untrusted' });
  const check = trust === 'untrusted' ? undefined : checkHooks(projectDir, config.entries, env as Env);
  const untrusted = new Set(check?.untrusted ?? []);
  const g = gate(config.entries, { trust, isWorkspace, isTrusted: (e) => !untrusted.has(e), canRecord: (e) => !check?.problems.has(e) });
  // A trust file that could not be read trusts nothing: said with the settings' problems, naming it.
  const trustProblems = [trustedFoldersPath(env as Env), trustedHooksPath(env as Env)].flatMap((file) => {
    const message = trustFileProblem(file);
    return message ? [{ file, path: '', message, severity: 'error' as const }] : [];
  });
  return {
    cwd,
    projectDir,
    env,
    config: trustProblems.length ? { ...config, problems: [...config.problems, ...trustProblems] } : config,
    trust,
    runnable: g.run,
    held: g.held.map((h) => ({
      entry: h.item,
      reason: h.reason,
      ...(check?.problems.has(h.item) ? { problem: check.problems.get(h.item) } : {}),
    })),
    unrecorded: g.unrecorded,
    legacy: check?.legacy ?? [],
    pins: check?.probes ?? new Map(),
    baseEnv: sanitizeEnv(env, config.redaction),
  };
}

/** The keys to record when hooks first run: new hooks under assumed trust, old keys rewritten in a trusted folder. */
export function keysToRecord(ctx: HookContext): string[] {
  const hooks = ctx.trust === 'trusted' ? ctx.legacy : [...ctx.unrecorded, ...ctx.legacy];
  return hooks.flatMap((e) => {
    const fp = geminiFingerprint(e, ctx.projectDir);
    return fp.key ? [fp.key, ...(fp.legacy ? [fp.legacy] : [])] : [];
  });
}
