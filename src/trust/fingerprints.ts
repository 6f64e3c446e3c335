import fs from 'node:fs';
import path from 'node:path';
import { trustedHooksPath, type Env } from '../config/paths.js';
import { hookKey, type HookEntry } from '../config/schema.js';

/** `~/.gemini/trusted_hooks.json`: `{ "<projectRoot>": ["name:command", ...] }`. */
export function readTrustedHooks(env: Env = process.env): Record<string, string[]> {
  try {
    const value = JSON.parse(fs.readFileSync(trustedHooksPath(env), 'utf8')) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    const out: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(value)) if (Array.isArray(v)) out[k] = v.filter((x): x is string => typeof x === 'string');
    return out;
  } catch {
    return {};
  }
}

/** The fingerprints already trusted for a project. */
export function trustedKeys(projectRoot: string, env: Env = process.env): Set<string> {
  return new Set(readTrustedHooks(env)[projectRoot] ?? []);
}

/** Workspace hooks whose `name:command` is not trusted yet (new, or changed since trusted). */
export function untrustedHooks(projectRoot: string, entries: readonly HookEntry[], env: Env = process.env): HookEntry[] {
  const keys = trustedKeys(projectRoot, env);
  return entries.filter((e) => e.source === 'project' && e.hook.type === 'command' && !keys.has(hookKey(e.hook)));
}

export function trustHooks(projectRoot: string, entries: readonly HookEntry[], env: Env = process.env): string[] {
  const all = readTrustedHooks(env);
  const keys = new Set(all[projectRoot] ?? []);
  const added: string[] = [];
  for (const e of entries) {
    if (e.source !== 'project' || e.hook.type !== 'command') continue;
    const k = hookKey(e.hook);
    if (!keys.has(k)) {
      keys.add(k);
      added.push(k);
    }
  }
  all[projectRoot] = [...keys];
  const file = trustedHooksPath(env);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(all, null, 2) + '\n');
  return added;
}
