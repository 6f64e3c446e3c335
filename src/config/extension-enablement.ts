/**
 * Gemini CLI's extension enablement (`gemini extensions disable|enable [--scope user|workspace]`),
 * read as Gemini CLI reads it: `~/.gemini/extensions/extension-enablement.json` maps an
 * extension's name to `overrides`, path rules such as `!/home/me/*` (disabled under the home
 * folder and below) or `/work/app/` (enabled in that folder only); the last rule that matches
 * the working folder wins, and an extension with no matching rule is enabled. A file that exists
 * but cannot be read or has the wrong shape disables every extension (as in Gemini CLI: a
 * deliberate disable must not silently turn back on).
 */
import fs from 'node:fs';
import path from 'node:path';
import { extensionsDir, type Env } from './paths.js';

export type Enablement = { ok: true; overrides: Record<string, string[]> } | { ok: false; problem: string };

export function enablementFile(env: Env): string {
  return path.join(extensionsDir(env), 'extension-enablement.json');
}

export function readEnablement(env: Env): Enablement {
  const file = enablementFile(env);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, overrides: {} };
    return { ok: false, problem: `cannot read ${file}: ${(e as Error).message}; every extension is treated as disabled` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, problem: `${file}: ${(e as Error).message}; every extension is treated as disabled` };
  }
  const overrides: Record<string, string[]> = {};
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(value))
    return { ok: false, problem: `${file}: must be an object of extension names; every extension is treated as disabled` };
  for (const [name, entry] of Object.entries(value)) {
    const list = isObject(entry) ? entry.overrides : undefined;
    if (!Array.isArray(list) || !list.every((r) => typeof r === 'string')) {
      return { ok: false, problem: `${file}: ${name}.overrides must be an array of strings; every extension is treated as disabled` };
    }
    overrides[name] = list as string[];
  }
  return { ok: true, overrides };
}

const withSlashes = (p: string): string => {
  let out = p.replace(/\\/g, '/');
  if (!out.startsWith('/')) out = `/${out}`;
  return out.endsWith('/') ? out : `${out}/`;
};

/** A rule's path pattern as Gemini CLI matches it: `*` is any text, the rest literal, the whole path. */
function ruleMatches(rule: string, folder: string): boolean {
  const body = rule.startsWith('!') ? rule.slice(1) : rule;
  const pattern = body.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/(\/?)\*/g, '($1.*)?');
  return new RegExp(`^${pattern}$`).test(folder);
}

/** Whether the extension named `name` is enabled in `folder`. */
export function extensionEnabled(enablement: Enablement, name: string, folder: string): boolean {
  if (!enablement.ok) return false;
  const at = withSlashes(folder);
  let enabled = true;
  for (const rule of enablement.overrides[name] ?? []) if (ruleMatches(rule, at)) enabled = !rule.startsWith('!');
  return enabled;
}

/** The `name` in an extension's gemini-extension.json (what enablement is keyed by), if readable. */
export function manifestName(extensionDir: string): string | undefined {
  try {
    const v: unknown = JSON.parse(fs.readFileSync(path.join(extensionDir, 'gemini-extension.json'), 'utf8'));
    const name = typeof v === 'object' && v !== null ? (v as Record<string, unknown>).name : undefined;
    return typeof name === 'string' && name ? name : undefined;
  } catch {
    return undefined;
  }
}
