import fs from 'node:fs';
import path from 'node:path';
import { parseJsonc, setJsoncValue } from './jsonc.js';
import { projectSettingsPath, samePath, userSettingsPath, type Env } from './paths.js';

export type Scope = 'workspace' | 'user';

export interface ScopeFile {
  scope: Scope;
  file: string;
}

function readObject(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  if (!text.trim()) return {};
  const parsed = parseJsonc(text);
  if (!parsed.ok) throw new Error(`${file}: ${parsed.message}; fix it before changing hooks`);
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) throw new Error(`${file}: settings must be a JSON object`);
  return parsed.value as Record<string, unknown>;
}

export function readDisabled(file: string): string[] {
  const hc = readObject(file).hooksConfig as { disabled?: unknown } | undefined;
  return Array.isArray(hc?.disabled) ? hc.disabled.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * Writes `hooksConfig.disabled`, keeping every other setting and the file's comments and layout.
 * Written atomically (a temporary file, then a rename).
 */
export function writeDisabled(file: string, disabled: string[]): void {
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    // A missing file is created.
  }
  let out: string;
  if (!text.trim()) out = JSON.stringify({ hooksConfig: { disabled } }, null, 2) + '\n';
  else {
    try {
      out = setJsoncValue(text, ['hooksConfig', 'disabled'], disabled);
    } catch (err) {
      throw new Error(`${file}: ${(err as Error).message}; fix it before changing hooks`);
    }
  }
  writeFileAtomic(file, out);
}

/** Writes a whole file so that a reader never sees it half written (temporary file, then rename). */
export function writeFileAtomic(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

/** The settings files `/hooks enable|disable` write: the workspace's, then the user's. */
export function scopes(projectDir: string, env: Env = process.env): ScopeFile[] {
  const user = userSettingsPath(env);
  const workspace = projectSettingsPath(projectDir);
  // A project opened in the home folder has one settings file, the user's (as loading reads it).
  return samePath(user, workspace) ? [{ scope: 'user', file: user }] : [{ scope: 'workspace', file: workspace }, { scope: 'user', file: user }];
}

const label = (s: ScopeFile) => `${s.scope} (${s.file})`;

/** Disables a hook by name in the workspace settings, as Gemini CLI's `/hooks disable`. */
export function disableHook(name: string, projectDir: string, env: Env = process.env): string {
  const [target, ...others] = scopes(projectDir, env);
  const current = readDisabled(target.file);
  if (current.includes(name)) return `Hook "${name}" is already disabled.`;
  writeDisabled(target.file, [...current, name]);
  const alsoElsewhere = others.filter((s) => readDisabled(s.file).includes(name));
  if (alsoElsewhere.length) return `Hook "${name}" is now disabled in both ${label(target)} and ${alsoElsewhere.map(label).join(' and ')} settings.`;
  return `Hook "${name}" disabled by adding it to the disabled list in ${label(target)} settings.`;
}

/** Enables a hook by removing its name from every scope's disabled list. */
export function enableHook(name: string, projectDir: string, env: Env = process.env): string {
  const all = scopes(projectDir, env);
  const changed = all.filter((s) => readDisabled(s.file).includes(name));
  if (!changed.length) return `Hook "${name}" is already enabled.`;
  for (const s of changed) writeDisabled(s.file, readDisabled(s.file).filter((n) => n !== name));
  return `Hook "${name}" enabled by removing it from the disabled list in ${all.map(label).join(' and ')} settings.`;
}

export function enableAll(projectDir: string, names: string[], env: Env = process.env): string {
  if (!names.length) return 'No hooks configured.';
  const all = scopes(projectDir, env);
  const disabled = new Set(all.flatMap((s) => readDisabled(s.file)));
  const count = names.filter((n) => disabled.has(n)).length;
  if (!count) return 'All hooks are already enabled.';
  // As Gemini CLI: an empty list in both the workspace and the user settings.
  for (const s of all) writeDisabled(s.file, []);
  return `Enabled ${count} hook(s) successfully.`;
}

export function disableAll(projectDir: string, names: string[], env: Env = process.env): string {
  if (!names.length) return 'No hooks configured.';
  const [target] = scopes(projectDir, env);
  const unique = [...new Set(names)];
  const current = new Set(scopes(projectDir, env).flatMap((s) => readDisabled(s.file)));
  const count = unique.filter((n) => !current.has(n)).length;
  if (!count) return 'All hooks are already disabled.';
  writeDisabled(target.file, unique);
  return `Disabled ${count} hook(s) successfully.`;
}
