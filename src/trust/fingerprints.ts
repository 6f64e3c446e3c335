import fs from 'node:fs';
import { trustedHooksPath, type Env } from '../config/paths.js';
import { readTrustFile } from './store.js';
import { lockedUpdate, writeFileAtomic } from '../config/write.js';
import { hookKey, type HookEntry } from '../config/entry.js';
import { rememberReviewed, type ReviewedHook } from './reviewed.js';
import { fingerprintHook, isTrusted, trustedByLegacy, type HookFingerprint } from './keys.js';
import type { Probe } from './scripts.js';
import { reviewOf, type HookReview } from './review.js';

type TrustedHooks = Record<string, string[]>;

/** `~/.gemini/trusted_hooks.json`: `{ "<projectRoot>": ["v2:gemini:…", "name:command", ...] }`. */
function read(env: Env, strict: boolean): TrustedHooks {
  const out: TrustedHooks = {};
  for (const [k, v] of Object.entries(readTrustFile(trustedHooksPath(env), strict)))
    if (Array.isArray(v)) out[k] = v.filter((x): x is string => typeof x === 'string');
  return out;
}

export function readTrustedHooks(env: Env = process.env): TrustedHooks {
  return read(env, false);
}

/** The same folder may be recorded under another spelling of its path (a symlink): both count. */
function rootsOf(projectRoot: string): string[] {
  try {
    const real = fs.realpathSync(projectRoot);
    return real === projectRoot ? [projectRoot] : [projectRoot, real];
  } catch {
    return [projectRoot];
  }
}

/** The fingerprints already trusted for a project. */
export function trustedKeys(projectRoot: string, env: Env = process.env): Set<string> {
  const all = readTrustedHooks(env);
  return new Set(rootsOf(projectRoot).flatMap((r) => all[r] ?? []));
}

/** Project hooks that run something the user must review: commands and http endpoints. */
const isProjectCommand = (e: HookEntry) => e.source === 'project' && (e.hook.type === 'command' || e.hook.type === 'http');

/**
 * A Gemini project hook's fingerprint: event, matcher, `sequential` and every field of the hook
 * but its description (so a new field counts too), with the project files its command runs.
 * `$GEMINI_PROJECT_DIR`, `$CLAUDE_PROJECT_DIR` and the hook's own `env` are known in advance.
 */
export function geminiFingerprint(entry: HookEntry, projectDir: string): HookFingerprint {
  if (entry.hook.type === 'http') {
    // What is sent where: the URL, the headers as written and the variables they may read.
    const { description: _description, ...hook } = entry.hook;
    const fields = { event: entry.event, matcher: entry.matcher ?? null, sequential: entry.sequential === true, hook };
    return fingerprintHook('gemini', fields, null, { projectDir, vars: {} });
  }
  if (entry.hook.type !== 'command') return { files: [], problem: 'not a command hook' };
  const { description: _description, ...hook } = entry.hook;
  const fields = { event: entry.event, matcher: entry.matcher ?? null, sequential: entry.sequential === true, hook };
  const vars = { ...hook.env, GEMINI_PROJECT_DIR: projectDir, CLAUDE_PROJECT_DIR: projectDir };
  return fingerprintHook('gemini', fields, hook.command, { projectDir, vars }, hookKey(entry.hook));
}

/** What a person reviews of a Gemini hook of any layer besides its command: its other fields, its extension. */
export function geminiReview(entry: HookEntry): HookReview {
  if (entry.hook.type === 'runtime') return { details: [], reads: [] };
  const { description: _description, ...hook } = entry.hook as HookEntry['hook'] & { description?: string };
  return reviewOf({ sequential: entry.sequential === true, hook, ...(entry.extension ? { extension: entry.extension } : {}) });
}

/** A Gemini project hook as the reviewed-hooks record sees it (its id is the one `hookline list` shows). */
export function geminiReviewed(entry: HookEntry, projectDir: string): ReviewedHook {
  return {
    id: `${entry.file ?? ''}#${entry.path ?? ''}`,
    event: entry.event,
    ...(entry.matcher ? { matcher: entry.matcher } : {}),
    command: entry.hook.type === 'command' ? entry.hook.command : entry.hook.type === 'http' ? `POST ${entry.hook.url}` : null,
    files: geminiFingerprint(entry, projectDir).files,
  };
}

/** What trust makes of a project's Gemini hooks. */
export interface HookCheck {
  /** New or changed hooks, and hooks that cannot be fingerprinted. */
  untrusted: HookEntry[];
  /** Why a hook cannot be fingerprinted (a referenced file is missing or unreadable). */
  problems: Map<HookEntry, string>;
  /** Files whose content trusted hooks depend on: a change to one must be checked again. */
  files: string[];
  /** Each fingerprinted hook's probes: what its key followed, to check again before it runs. */
  probes: Map<HookEntry, readonly Probe[]>;
  /** Hooks trusted only by an old `name:command` key (to be recorded in the new form when they run). */
  legacy: HookEntry[];
}

/** Checks a project's hooks against trusted_hooks.json. Reads only. */
export function checkHooks(projectRoot: string, entries: readonly HookEntry[], env: Env = process.env): HookCheck {
  const known = trustedKeys(projectRoot, env);
  const out: HookCheck = { untrusted: [], problems: new Map(), files: [], probes: new Map(), legacy: [] };
  for (const e of entries.filter(isProjectCommand)) {
    const fp = geminiFingerprint(e, projectRoot);
    out.files.push(...fp.files);
    if (fp.probes) out.probes.set(e, fp.probes);
    if (fp.problem) out.problems.set(e, fp.problem);
    if (!isTrusted('gemini', fp, known)) out.untrusted.push(e);
    else if (trustedByLegacy('gemini', fp, known)) out.legacy.push(e);
  }
  return out;
}

/** Workspace hooks not trusted yet (new, changed since trusted, or a referenced file missing). */
export function untrustedHooks(projectRoot: string, entries: readonly HookEntry[], env: Env = process.env): HookEntry[] {
  return checkHooks(projectRoot, entries, env).untrusted;
}

/**
 * Records the workspace hooks of a project as trusted; returns the keys added. Each gets its new
 * key and, beside it, the `name:command` key Gemini CLI looks up (so it does not warn again). A
 * hook that cannot be fingerprinted is not recorded (see checkHooks' problems).
 */
export function trustHooks(projectRoot: string, entries: readonly HookEntry[], env: Env = process.env): string[] {
  const keys = entries.filter(isProjectCommand).flatMap((e) => {
    const fp = geminiFingerprint(e, projectRoot);
    return fp.key ? [fp.key, ...(fp.legacy !== undefined ? [fp.legacy] : [])] : [];
  });
  return trustKeys(projectRoot, keys, env);
}

/**
 * Records fingerprints for a project; returns the keys added. `drop` removes the project's
 * keys it matches first (old keys rewritten in the new form). Throws rather than overwrite a
 * trusted_hooks.json it cannot read (it holds every other project's fingerprints).
 */
export function trustKeys(projectRoot: string, newKeys: readonly string[], env: Env = process.env, drop?: ReadonlySet<string>): string[] {
  // Read and written under the file's lock: concurrent `hookline trust` runs all keep their keys.
  return lockedUpdate(trustedHooksPath(env), () => {
    const all = read(env, true);
    const known = new Set(rootsOf(projectRoot).flatMap((r) => all[r] ?? []));
    const before = all[projectRoot] ?? [];
    const keys = new Set(drop ? before.filter((k) => !drop.has(k)) : before);
    const added: string[] = [];
    for (const k of newKeys) {
      if (!known.has(k)) added.push(k);
      keys.add(k);
    }
    let dropped = false;
    if (drop) {
      for (const r of rootsOf(projectRoot)) {
        if (r === projectRoot || !all[r]?.some((k) => drop.has(k))) continue;
        all[r] = all[r].filter((k) => !drop.has(k));
        dropped = true;
      }
    }
    const next = [...keys];
    if (all[projectRoot] && !dropped && next.length === before.length && next.every((k, i) => k === before[i])) return added;
    all[projectRoot] = next;
    writeFileAtomic(trustedHooksPath(env), JSON.stringify(all, null, 2) + '\n');
    return added;
  });
}

/**
 * Records hooks that ran under assumed trust (or were trusted by an old key, `drop`): their
 * fingerprints, then what they were. Best effort: a read-only home must not stop the hooks.
 */
export function recordRan(
  projectDir: string,
  keys: readonly string[],
  hooks: readonly ReviewedHook[],
  env: Env,
  drop?: ReadonlySet<string>,
): void {
  if (!keys.length) return;
  try {
    trustKeys(projectDir, keys, env, drop);
  } catch {
    return;
  }
  rememberReviewed(projectDir, hooks, env);
}
