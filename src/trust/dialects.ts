/**
 * Trust for the workspace hooks of the other dialects (a project's agent.yaml,
 * .spatialagent/settings.json, .claude/settings*.json). They are fingerprinted like Gemini
 * project hooks, in the same trusted_hooks.json list, under keys with a dialect prefix
 * (`mm:…`, `spatialagent:…`, `claude:…`) that Gemini CLI, which looks up only its own
 * `name:command` keys, never matches.
 */
import path from 'node:path';
import type { Env } from '../config/paths.js';
import type { FolderTrust } from './folders.js';
import { trustedKeys, trustKeys } from './fingerprints.js';
import { visible } from '../config/display.js';

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
  /** Its fingerprint in trusted_hooks.json. */
  key: string;
}

/** `.claude/settings.json (PreToolUse Bash): ./guard.sh`, the file standing for a name. */
export function describeDialectHook(h: DialectHook, projectDir: string): string {
  return visible(`${path.relative(projectDir, h.file) || h.file} (${h.event}${h.matcher ? ` ${h.matcher}` : ''}): ${h.name}`);
}

/**
 * The fingerprints of the workspace hooks that must not run. In a folder the user trusted
 * (trustedFolders.json) a new or changed hook is held back until `hookline trust`; when trust
 * is assumed (GEMINI_CLI_TRUST_WORKSPACE=true, folder trust off) it runs, reported and
 * recorded, as the engine does for Gemini hooks. In an untrusted folder none may run.
 */
export function heldDialectHooks(projectDir: string, hooks: readonly DialectHook[], trust: FolderTrust, env: Env = process.env): { held: Set<string>; warning?: string } {
  if (trust === 'untrusted') return { held: new Set(hooks.map((h) => h.key)) };
  const known = trustedKeys(projectDir, env);
  const unknown = hooks.filter((h) => !known.has(h.key));
  if (!unknown.length) return { held: new Set() };
  const lines = unknown.map((h) => `  - ${describeDialectHook(h, projectDir)}`).join('\n');
  if (trust === 'trusted') return { held: new Set(unknown.map((h) => h.key)), warning: `new or changed dialect workspace hook(s) held back until trusted (run: hookline trust):\n${lines}` };
  try {
    trustKeys(projectDir, unknown.map((h) => h.key), env);
  } catch {
    // Recording is best effort, as in the engine: a read-only home must not stop the hooks.
  }
  return { held: new Set(), warning: `new or changed dialect workspace hooks in ${projectDir} (they will run):\n${lines}` };
}
