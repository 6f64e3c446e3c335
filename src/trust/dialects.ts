/**
 * Trust for the workspace hooks of the other dialects (a project's agent.yaml,
 * .spatialagent/settings.json, .claude/settings*.json). They are fingerprinted like Gemini
 * project hooks (keys.ts), in the same trusted_hooks.json list, under `v2:<dialect>:…` keys
 * that Gemini CLI, which looks up only its own `name:command` keys, never matches.
 */
import path from 'node:path';
import type { Env } from '../config/paths.js';
import type { FolderTrust } from './folders.js';
import { trustedKeys, trustKeys } from './fingerprints.js';
import { isTrusted, trustedByLegacy } from './keys.js';

export type DialectSource = 'mm' | 'spatialagent' | 'claude';

/** One workspace hook of a dialect configuration, as trust and `hookline list` see it. */
export interface DialectHook {
  source: DialectSource;
  event: string;
  matcher?: string;
  /** What runs: the command, or a SpatialAgent prompt hook's prompt. */
  name: string;
  /** null for a prompt hook. */
  command: string | null;
  /** Absolute path of the configuration file. */
  file: string;
  /** Where it is in the file, e.g. `hooks.preToolCall[0]`. */
  path: string;
  /** Which hook it is in its configuration (`<file>#<path>`): what `held` holds. */
  id: string;
  /** Its fingerprint in trusted_hooks.json; absent when it cannot be computed (held back, see `problem`). */
  key?: string;
  /** Why it has no fingerprint: a file its command runs is missing or unreadable. */
  problem?: string;
  /** The key older versions wrote (`mm:<event>:<command>`…), still read until the project has new keys. */
  legacy?: string;
  /** Real paths of the project files its command runs, whose content the key covers. */
  files: string[];
}

/** `.claude/settings.json (PreToolUse Bash): ./guard.sh`, the file standing for a name. */
export function describeDialectHook(h: DialectHook, projectDir: string): string {
  return `${path.relative(projectDir, h.file) || h.file} (${h.event}${h.matcher ? ` ${h.matcher}` : ''}): ${h.name}${h.problem ? ` [cannot be trusted: ${h.problem}]` : ''}`;
}

/** Whether a dialect hook's fingerprint is in `known` (or an old key that still counts). */
export function isDialectHookTrusted(h: DialectHook, known: ReadonlySet<string>): boolean {
  return isTrusted(h.source, h, known);
}

/**
 * The ids of the workspace hooks that must not run. In a folder the user trusted
 * (trustedFolders.json) a new or changed hook is held back until `hookline trust`; when trust
 * is assumed (GEMINI_CLI_TRUST_WORKSPACE=true, folder trust off) it runs, reported and
 * recorded, as the engine does for Gemini hooks. In an untrusted folder none may run.
 */
export function heldDialectHooks(projectDir: string, hooks: readonly DialectHook[], trust: FolderTrust, env: Env = process.env): { held: Set<string>; warning?: string } {
  if (trust === 'untrusted') return { held: new Set(hooks.map((h) => h.id)) };
  const known = trustedKeys(projectDir, env);
  const unknown = hooks.filter((h) => !isDialectHookTrusted(h, known));
  const migrate = hooks.filter((h) => trustedByLegacy(h.source, h, known));
  if (trust === 'trusted' && migrate.length) {
    try {
      // Pinned in the new form from now on: a later change to what they run holds them back.
      trustKeys(projectDir, migrate.map((h) => h.key!), env, new Set(migrate.map((h) => h.legacy!)));
    } catch {
      // Best effort: a read-only home keeps the old keys, which still count.
    }
  }
  if (!unknown.length) return { held: new Set() };
  const lines = unknown.map((h) => `  - ${describeDialectHook(h, projectDir)}`).join('\n');
  const unkeyed = unknown.filter((h) => !h.key);
  if (trust === 'trusted' || unkeyed.length === unknown.length) {
    return { held: new Set(unknown.map((h) => h.id)), warning: `new or changed dialect workspace hook(s) held back until trusted (run: hookline trust):\n${lines}` };
  }
  try {
    trustKeys(projectDir, unknown.flatMap((h) => (h.key ? [h.key] : [])), env);
  } catch {
    // Recording is best effort, as in the engine: a read-only home must not stop the hooks.
  }
  const held = new Set(unkeyed.map((h) => h.id));
  return { held, warning: `new or changed dialect workspace hooks in ${projectDir} (they will run${held.size ? ', except those that cannot be fingerprinted' : ''}):\n${lines}` };
}
