import fs from 'node:fs';
import { trustedHooksPath, type Env } from '../config/paths.js';
import { readTrustFile } from './store.js';
import { lockedUpdate, writeFileAtomic } from '../config/write.js';
import { hookKey, type HookEntry } from '../config/schema.js';

type TrustedHooks = Record<string, string[]>;

/** `~/.gemini/trusted_hooks.json`: `{ "<projectRoot>": ["name:command", ...] }`. */
function read(env: Env, strict: boolean): TrustedHooks {
  const out: TrustedHooks = {};
  for (const [k, v] of Object.entries(readTrustFile(trustedHooksPath(env), strict))) if (Array.isArray(v)) out[k] = v.filter((x): x is string => typeof x === 'string');
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

/** Workspace hooks whose `name:command` is not trusted yet (new, or changed since trusted). */
export function untrustedHooks(projectRoot: string, entries: readonly HookEntry[], env: Env = process.env): HookEntry[] {
  const keys = trustedKeys(projectRoot, env);
  return entries.filter((e) => e.source === 'project' && e.hook.type === 'command' && !keys.has(hookKey(e.hook)));
}

/** Records the workspace hooks of a project as trusted; returns the keys added. */
export function trustHooks(projectRoot: string, entries: readonly HookEntry[], env: Env = process.env): string[] {
  return trustKeys(
    projectRoot,
    entries.filter((e) => e.source === 'project' && e.hook.type === 'command').map((e) => hookKey(e.hook)),
    env,
  );
}

/**
 * Records fingerprints for a project (Gemini's `name:command`, or a dialect's prefixed keys);
 * returns the keys added. Throws rather than overwrite a trusted_hooks.json it cannot read (it
 * holds every other project's fingerprints).
 */
export function trustKeys(projectRoot: string, newKeys: readonly string[], env: Env = process.env): string[] {
  // Read and written under the file's lock: concurrent `hookline trust` runs all keep their keys.
  return lockedUpdate(trustedHooksPath(env), () => {
    const all = read(env, true);
    const known = new Set(rootsOf(projectRoot).flatMap((r) => all[r] ?? []));
    const keys = new Set(all[projectRoot] ?? []);
    const added: string[] = [];
    for (const k of newKeys) {
      if (!known.has(k)) added.push(k);
      keys.add(k);
    }
    if (!added.length && all[projectRoot]) return added;
    all[projectRoot] = [...keys];
    writeFileAtomic(trustedHooksPath(env), JSON.stringify(all, null, 2) + '\n');
    return added;
  });
}
