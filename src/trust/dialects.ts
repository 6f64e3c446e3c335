/**
 * Trust for the workspace hooks of the other dialects (a project's agent.yaml,
 * .spatialagent/settings.json, .claude/settings*.json). They are fingerprinted like Gemini
 * project hooks (keys.ts), in the same trusted_hooks.json list, under `v2:<dialect>:…` keys
 * that Gemini CLI, which looks up only its own `name:command` keys, never matches.
 */
import path from 'node:path';
import type { Env } from '../config/paths.js';
import type { FolderTrust } from './folders.js';
import { recordRan, trustedKeys, trustKeys } from './fingerprints.js';
import { gate } from './gate.js';
import { isTrusted, trustedByLegacy } from './keys.js';
import { visible } from '../config/display.js';
import { changeDescriber, rememberReviewed } from './reviewed.js';
import { unchanged, type Probe } from './scripts.js';
import { reviewLines, type HookReview } from './review.js';

export type DialectSource = 'gemini' | 'mm' | 'spatialagent' | 'claude' | 'agy' | 'codex' | 'copilot';

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
  /** What its key followed, as it was: checked again before the next event of a session. */
  probes?: readonly Probe[];
  /** Its other fingerprinted fields and the user's variables it reads, as every review surface shows them. */
  review?: HookReview;
  /** Keys written beside `key` for another agent that reads the same file (Gemini CLI's `name:command`). */
  alsoWrite?: string[];
  /** The plugin it comes from (a Claude Code plugin the project enables: `name@marketplace`). */
  plugin?: string;
  /** How the hook is named in lists when not by its file (Gemini hooks: `name (event matcher): command`). */
  label?: string;
  /** Not a hook but a setting trusted as one (a Claude Code project's `env` block): it never fires. */
  setting?: boolean;
  /** Keys of hooks whose fingerprints covered this setting as it is now: one of them trusted vouches for it. */
  coveredBy?: readonly string[];
  /** A hook of a file another dialect lists too (Claude Code's settings, which Copilot CLI reads): trusted under both keys, listed once. */
  shared?: boolean;
}

/** `.claude/settings.json (PreToolUse Bash): ./guard.sh`, the file standing for a name. */
export function describeDialectHook(h: DialectHook, projectDir: string, change?: string): string {
  const label = h.label ?? `${path.relative(projectDir, h.file) || h.file} (${h.event}${h.matcher ? ` ${h.matcher}` : ''}): ${h.name}`;
  // What changed on its line; its other fields on the lines below, indented under the list item.
  const first = `${label}${h.problem ? ` [cannot be trusted: ${h.problem}]` : ''}${change ? `: ${change}` : ''}`;
  return [first, ...reviewLines(h.review).map((l) => `      ${l}`)].map(visible).join('\n');
}

/** Whether a dialect hook's fingerprint is in `known` (or an old key that still counts). */
export function isDialectHookTrusted(h: DialectHook, known: ReadonlySet<string>): boolean {
  return isTrusted(h.source, h, known) || Boolean(h.key && h.coveredBy?.some((k) => known.has(k)));
}

/** The keys `hookline trust` writes for a hook, and the old key it replaces (when only Hookline reads it). */
export function keysToWrite(h: DialectHook): { write: string[]; drop: string[] } {
  if (!h.key) return { write: [], drop: [] };
  return { write: [h.key, ...(h.alsoWrite ?? [])], drop: h.legacy && !h.alsoWrite?.includes(h.legacy) ? [h.legacy] : [] };
}

/**
 * Trusts workspace hooks as `hookline trust` does: their keys recorded (old keys rewritten in the
 * new form, Gemini CLI's own kept) and what the user reviewed remembered, so a later change can
 * be shown. Throws when trusted_hooks.json cannot be read or written.
 */
export function trustWorkspaceHooks(projectDir: string, hooks: readonly DialectHook[], env: Env = process.env): void {
  const keys = hooks.map(keysToWrite);
  trustKeys(
    projectDir,
    keys.flatMap((k) => k.write),
    env,
    new Set(keys.flatMap((k) => k.drop)),
  );
  rememberReviewed(
    projectDir,
    hooks.filter((h) => h.key),
    env,
  );
}

/**
 * The ids of the workspace hooks that must not run, through the one trust gate (gate.ts): in an
 * untrusted folder none runs; in a folder the user trusted a new or changed hook is held back
 * until `hookline trust`; when trust is assumed it runs, reported and recorded. A hook that
 * cannot be fingerprinted is held back whatever the trust. With `record: false` (listing),
 * nothing is written.
 */
export function heldDialectHooks(
  projectDir: string,
  hooks: readonly DialectHook[],
  trust: FolderTrust,
  env: Env = process.env,
  opts: { record?: boolean } = {},
): { held: Set<string>; warning?: string } {
  if (!hooks.length) return { held: new Set() };
  const known = trust === 'untrusted' ? new Set<string>() : trustedKeys(projectDir, env);
  const g = gate(hooks, {
    trust,
    isWorkspace: () => true,
    isTrusted: (h) => isDialectHookTrusted(h, known),
    canRecord: (h) => Boolean(h.key),
  });
  const held = new Set(g.held.map((h) => h.item.id));
  const record = opts.record !== false;
  const list = (hs: readonly DialectHook[], changes = false) => {
    // Read only when held-back hooks are listed (not on every fire).
    const describeChange = changes ? changeDescriber(projectDir, env) : () => undefined;
    return hs
      .map((h) => {
        const change = h.key ? describeChange(h) : undefined;
        return `  - ${describeDialectHook(h, projectDir, change)}`;
      })
      .join('\n');
  };
  if (trust === 'untrusted') {
    const files = [...new Set(hooks.map((h) => (h.plugin ? `plugin ${h.plugin}` : path.relative(projectDir, h.file) || h.file)))].join(
      ', ',
    );
    return {
      held,
      warning: `${projectDir} is not a trusted folder: the hooks in ${files} do not run. Review them, then run: hookline trust ${JSON.stringify(projectDir)}`,
    };
  }
  // Hooks trusted by an old key are pinned in the new form: a later change to what they run holds them back.
  const migrate = hooks.filter((h) => trustedByLegacy(h.source, h, known));
  if (record && trust === 'trusted')
    recordRan(
      projectDir,
      migrate.map((h) => h.key!),
      migrate,
      env,
      new Set(migrate.map((h) => h.legacy!)),
    );
  const warnings: string[] = [];
  if (g.held.length)
    warnings.push(
      `new or changed dialect workspace hook(s) held back until trusted (run: hookline trust ${JSON.stringify(projectDir)}):\n${list(
        g.held.map((h) => h.item),
        true,
      )}`,
    );
  if (g.unrecorded.length) {
    if (record)
      recordRan(
        projectDir,
        g.unrecorded.map((h) => h.key!),
        g.unrecorded,
        env,
      );
    warnings.push(`new or changed dialect workspace hooks in ${projectDir} (they will run):\n${list(g.unrecorded)}`);
  }
  return warnings.length ? { held, warning: warnings.join('\n') } : { held };
}

/**
 * A dialect configuration gated for a whole session: `current()` is what may run now. When a
 * project file a workspace hook runs changes during the session (the agent's own tools may write
 * it; a link pointed elsewhere; the same size and times put back), the hooks are fingerprinted
 * and gated again before the next event, so a changed hook is held back from then on.
 */
export function sessionGate<L, C>(
  at: { cwd: string; trust: FolderTrust; warn: (warning: string) => void },
  loaded: L,
  workspaceHooks: (loaded: L, projectDir: string) => readonly DialectHook[],
  without: (loaded: L, held: ReadonlySet<string>) => C,
): { config: C; current: () => C } {
  let probes: Probe[] = [];
  let config!: C;
  const gate = () => {
    const hooks = workspaceHooks(loaded, at.cwd);
    probes = hooks.flatMap((h) => h.probes ?? []);
    const { held, warning } = heldDialectHooks(at.cwd, hooks, at.trust);
    if (warning) at.warn(warning);
    config = without(loaded, held);
  };
  gate();
  return {
    config,
    current: () => {
      if (!unchanged(probes)) gate();
      return config;
    },
  };
}
