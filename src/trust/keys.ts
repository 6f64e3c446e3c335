/**
 * Hook fingerprints, the keys of trusted_hooks.json: `v2:<dialect>:<sha256>` over a canonical
 * JSON (sorted keys) of every field that decides what runs, with the content of the project
 * files the command runs (scripts.ts). Older files hold `name:command` (Gemini) and
 * `mm:<event>:<command>`, `claude:<event>:<command>`, `spatialagent:<event>:<type>:<text>` keys:
 * they still count until the project has keys of the new form for that dialect, and a Gemini one
 * only when it has a single `:` (otherwise `{name:"a", command:"b:c"}` and `{name:"a:b",
 * command:"c"}` could not be told apart).
 */
import crypto from 'node:crypto';
import { scriptDigest, type Probe, type ScriptContext } from './scripts.js';
import { reviewOf, type HookReview } from './review.js';

export type KeyDialect = 'gemini' | 'mm' | 'claude' | 'spatialagent' | 'agy' | 'codex' | 'copilot';

/** A hook's trust identity. */
export interface HookFingerprint {
  /** `v2:<dialect>:<hex>`; absent when it cannot be computed (a referenced file is missing): held back. */
  key?: string;
  /** Why there is no key. */
  problem?: string;
  /** The key older versions wrote for the hook. */
  legacy?: string;
  /** Real paths of the files whose content the key covers. */
  files: string[];
  /** The paths the key followed as they were (scripts.ts `unchanged` checks them again before a run). */
  probes?: readonly Probe[];
  /** What a person reviews of it besides its command (review.ts). */
  review?: HookReview;
}

/** JSON with object keys sorted and undefined members left out: equal values give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

/** The fingerprint of a hook from its deciding fields and, for a command, the project files it runs. */
export function fingerprintHook(
  dialect: KeyDialect,
  fields: Record<string, unknown>,
  command: string | null,
  ctx: ScriptContext,
  legacy?: string,
): HookFingerprint {
  const scripts = command === null ? { ok: true as const, files: {}, links: {}, paths: [], probes: [] } : scriptDigest(command, ctx);
  const review = reviewOf(fields);
  if (!scripts.ok) return { problem: scripts.problem, ...(legacy !== undefined ? { legacy } : {}), files: [], review };
  const hex = crypto
    .createHash('sha256')
    // Where links lead counts only when some do: the keys of hooks that reach no file through a link stay as they were.
    .update(canonicalJson({ fields, scripts: scripts.files, ...(Object.keys(scripts.links).length ? { links: scripts.links } : {}) }))
    .digest('hex');
  return { key: `v2:${dialect}:${hex}`, ...(legacy !== undefined ? { legacy } : {}), files: scripts.paths, probes: scripts.probes, review };
}

export function isCurrentKey(key: string): boolean {
  return key.startsWith('v2:');
}

/** An old key that a hook's old key matches stands for it only when no other hook could have written it. */
export function legacyUnambiguous(dialect: KeyDialect, legacy: string): boolean {
  // Dialect keys are a fixed prefix and an event name (no `:`) before the command.
  return dialect !== 'gemini' || legacy.indexOf(':') === legacy.lastIndexOf(':');
}

/** True when a hook may run: its key is trusted, or an unambiguous old key from before the project used new keys. */
export function isTrusted(dialect: KeyDialect, fp: HookFingerprint, known: ReadonlySet<string>): boolean {
  if (!fp.key) return false;
  if (known.has(fp.key)) return true;
  return trustedByLegacy(dialect, fp, known);
}

/** Trusted only through an old key (to be rewritten in the new form). */
export function trustedByLegacy(dialect: KeyDialect, fp: HookFingerprint, known: ReadonlySet<string>): boolean {
  if (!fp.key || fp.legacy === undefined || !known.has(fp.legacy) || !legacyUnambiguous(dialect, fp.legacy)) return false;
  const prefix = `v2:${dialect}:`;
  for (const k of known) if (k.startsWith(prefix)) return false;
  return true;
}
