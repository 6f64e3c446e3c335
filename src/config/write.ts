import fs from 'node:fs';
import path from 'node:path';
import { parseJsonc } from './jsonc.js';
import { projectSettingsPath, userSettingsPath, type Env } from './paths.js';

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

/** Writes `hooksConfig.disabled`, keeping every other setting. Written atomically. */
export function writeDisabled(file: string, disabled: string[]): void {
  const settings = readObject(file);
  const hc = typeof settings.hooksConfig === 'object' && settings.hooksConfig !== null ? (settings.hooksConfig as Record<string, unknown>) : {};
  settings.hooksConfig = { ...hc, disabled };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(settings, null, 2) + '\n');
  fs.renameSync(tmp, file);
}

/** The settings files `/hooks enable|disable` write: the workspace's, then the user's. */
export function scopes(projectDir: string, env: Env = process.env): ScopeFile[] {
  const user = userSettingsPath(env);
  const workspace = projectSettingsPath(projectDir);
  const same = path.resolve(user) === path.resolve(workspace);
  return same ? [{ scope: 'user', file: user }] : [{ scope: 'workspace', file: workspace }, { scope: 'user', file: user }];
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
  for (const s of all) if (readDisabled(s.file).length) writeDisabled(s.file, []);
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
