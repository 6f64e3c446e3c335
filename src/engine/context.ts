/**
 * What the engine knows before it fires anything, as plain data: the configuration layers, the
 * folder's trust, which workspace hooks run and which are held back, and the sanitised base
 * environment. Loading reads files and writes nothing.
 */
import path from 'node:path';
import { loadConfig, type LoadedConfig } from '../config/load.js';
import type { Env } from '../config/paths.js';
import { hookKey, type HookEntry } from '../config/schema.js';
import { sanitizeEnv } from '../run/env.js';
import { folderTrust, type FolderTrust } from '../trust/folders.js';
import { gate, knownKeys, type HoldReason } from '../trust/gate.js';

/** A hook that is configured but will not run here, and why. */
export interface HeldHook {
  entry: HookEntry;
  reason: HoldReason;
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
  config: LoadedConfig;
  trust: FolderTrust;
  /** Settings hooks that may run (user, system, extensions, and trusted workspace hooks). */
  runnable: HookEntry[];
  held: HeldHook[];
  /** New or changed workspace hooks that run because trust is assumed: reported and recorded on first fire. */
  unrecorded: HookEntry[];
  /** The environment every command hook starts from (secrets removed). */
  baseEnv: Record<string, string>;
}

const isWorkspace = (e: HookEntry) => e.source === 'project';

export function loadContext(opts: ContextOptions = {}): HookContext {
  const cwd = path.resolve(opts.cwd ?? process.cwd());
  const projectDir = path.resolve(opts.projectDir ?? cwd);
  const env = opts.env ?? process.env;
  const config = loadConfig({ projectDir, env });
  const trust = folderTrust(projectDir, config.folderTrustEnabled, env as Env);
  const known = trust === 'untrusted' ? new Set<string>() : knownKeys(projectDir, env as Env);
  const g = gate(config.entries, { trust, known, isWorkspace, keyOf: (e) => hookKey(e.hook) });
  return {
    cwd,
    projectDir,
    env,
    config,
    trust,
    runnable: g.run,
    held: g.held.map((h) => ({ entry: h.item, reason: h.reason })),
    unrecorded: g.unrecorded,
    baseEnv: sanitizeEnv(env, config.redaction),
  };
}

/** The keys to record for hooks that ran under assumed trust. */
export function unrecordedKeys(ctx: HookContext): string[] {
  return ctx.unrecorded.filter((e) => e.hook.type === 'command').map((e) => hookKey(e.hook));
}
