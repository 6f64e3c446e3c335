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
import { gate, knownKeys, recordKeys } from './gate.js';

export type DialectSource = 'gemini' | 'mm' | 'spatialagent' | 'claude';

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
  return `${path.relative(projectDir, h.file) || h.file} (${h.event}${h.matcher ? ` ${h.matcher}` : ''}): ${h.name}`;
}

/**
 * The fingerprints of the workspace hooks that must not run, through the one trust gate
 * (gate.ts): in an untrusted folder none runs; in a folder the user trusted a new or changed
 * hook is held back until `hookline trust`; when trust is assumed it runs, reported and recorded.
 */
export function heldDialectHooks(
  projectDir: string,
  hooks: readonly DialectHook[],
  trust: FolderTrust,
  env: Env = process.env,
  opts: { record?: boolean } = {},
): { held: Set<string>; warning?: string } {
  if (!hooks.length) return { held: new Set() };
  const known = trust === 'untrusted' ? new Set<string>() : knownKeys(projectDir, env);
  const g = gate(hooks, { trust, known, isWorkspace: () => true, keyOf: (h) => h.key });
  const held = new Set(g.held.map((h) => h.item.key));
  const list = (hs: readonly DialectHook[]) => hs.map((h) => `  - ${describeDialectHook(h, projectDir)}`).join('\n');
  if (trust === 'untrusted') {
    const files = [...new Set(hooks.map((h) => path.relative(projectDir, h.file) || h.file))].join(', ');
    return { held, warning: `${projectDir} is not a trusted folder: the hooks in ${files} do not run. Review them, then run: hookline trust ${JSON.stringify(projectDir)}` };
  }
  if (g.held.length) return { held, warning: `new or changed dialect workspace hook(s) held back until trusted (run: hookline trust ${JSON.stringify(projectDir)}):\n${list(g.held.map((h) => h.item))}` };
  if (!g.unrecorded.length || opts.record === false) return { held };
  recordKeys(projectDir, g.unrecorded.map((h) => h.key), env);
  return { held, warning: `new or changed dialect workspace hooks in ${projectDir} (they will run):\n${list(g.unrecorded)}` };
}
