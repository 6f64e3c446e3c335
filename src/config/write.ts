import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { parseJsonc, setJsoncValue } from './jsonc.js';
import { readLimitedText, textNestsDeeper, tooDeep } from './limits.js';
import { withFileLock } from './lock.js';
import { projectSettingsPath, samePath, userSettingsPath, type Env } from './paths.js';

export type Scope = 'workspace' | 'user';

export interface ScopeFile {
  scope: Scope;
  file: string;
}

/** A settings file's text: '' when it does not exist; larger than the limit or unreadable, an error naming it. */
function readText(file: string): string {
  try {
    return readLimitedText(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
}

function parseObject(file: string, text: string): Record<string, unknown> {
  if (!text.trim()) return {};
  if (textNestsDeeper(text, undefined, true)) throw new Error(`${file}: ${tooDeep('its JSON')}; fix it before changing hooks`);
  const parsed = parseJsonc(text);
  if (!parsed.ok) throw new Error(`${file}: ${parsed.message}; fix it before changing hooks`);
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value))
    throw new Error(`${file}: settings must be a JSON object`);
  return parsed.value as Record<string, unknown>;
}

function disabledIn(file: string, text: string): string[] {
  const hc = parseObject(file, text).hooksConfig as { disabled?: unknown } | undefined;
  return Array.isArray(hc?.disabled) ? hc.disabled.filter((x): x is string => typeof x === 'string') : [];
}

export function readDisabled(file: string): string[] {
  return disabledIn(file, readText(file));
}

/** The names a scope disables, or none when its file cannot be read: another scope's broken file stops nothing here. */
export function disabledOrNone(file: string): string[] {
  try {
    return readDisabled(file);
  } catch {
    return [];
  }
}

/** `text` with `hooksConfig.disabled` set, every other setting, comment and layout kept. */
function withDisabled(file: string, text: string, disabled: string[]): string {
  parseObject(file, text);
  if (!text.trim()) return JSON.stringify({ hooksConfig: { disabled } }, null, 2) + '\n';
  try {
    return setJsoncValue(text, ['hooksConfig', 'disabled'], disabled);
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}; fix it before changing hooks`);
  }
}

/** Writes `hooksConfig.disabled` (see {@link updateFile}). */
export function writeDisabled(file: string, disabled: string[]): void {
  updateFile(file, (text) => withDisabled(file, text, disabled));
}

/** The file a path names, symbolic links followed (to a target that may not exist yet). */
export function resolveTarget(file: string): string {
  let p = path.resolve(file);
  for (let i = 0; i < 40; i++) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(p);
    } catch {
      return p;
    }
    if (!st.isSymbolicLink()) return p;
    p = path.resolve(path.dirname(p), fs.readlinkSync(p));
  }
  throw new Error(`${file}: too many levels of symbolic links`);
}

/**
 * Runs `fn` (which reads the file, then writes it with {@link writeFileAtomic}) holding the
 * file's lock, so that concurrent processes change it one after another and no change is lost.
 */
export function lockedUpdate<T>(file: string, fn: () => T): T {
  const target = resolveTarget(file);
  try {
    fs.mkdirSync(path.dirname(target), { recursive: true });
  } catch (err) {
    throw new Error(`cannot create the folder of ${file}: ${(err as Error).message}`);
  }
  return withFileLock(target, fn);
}

/**
 * Read-modify-write of a settings or trust file under its lock: `change` gets the current text
 * ('' for a missing file) and returns the new one, or undefined to leave the file as it is.
 */
export function updateFile(file: string, change: (text: string) => string | undefined): void {
  lockedUpdate(file, () => {
    const text = readText(file);
    const out = change(text);
    if (out !== undefined && out !== text) writeFileAtomic(file, out);
  });
}

/**
 * Writes a whole file so that a reader never sees it half written and a crash loses nothing: a
 * temporary file in the same folder, flushed to disk, renamed over the target, then the folder
 * flushed. A symbolic link is followed (its target is written, the link stays); the file keeps
 * its mode (and owner, when run as root); a read-only file is refused.
 */
export function writeFileAtomic(file: string, text: string): void {
  const target = resolveTarget(file);
  const shown = target === path.resolve(file) ? file : `${file} (a link to ${target})`;
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(target);
  } catch {
    // A new file.
  }
  if (st && !st.isFile()) throw new Error(`${shown} is not a regular file; not changed`);
  if (st && ((st.mode & 0o222) === 0 || !writable(target)))
    throw new Error(`${shown} is read-only; not changed (make it writable to let hookline change it)`);
  const dir = path.dirname(target);
  const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    const fd = fs.openSync(tmp, 'wx', st ? st.mode & 0o7777 : 0o666);
    try {
      fs.writeSync(fd, text);
      if (st) {
        // The creation mode went through the umask; the file keeps exactly the mode it had.
        fs.fchmodSync(fd, st.mode & 0o7777);
        if (process.getuid?.() === 0 && (st.uid !== 0 || st.gid !== 0)) fs.fchownSync(fd, st.uid, st.gid);
      }
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, target);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw new Error(`cannot write ${shown}: ${(err as Error).message}`);
  }
  syncDir(dir);
}

function writable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Flushes a folder's entries (the rename) to disk; some file systems cannot, which is no error. */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // EISDIR/EINVAL/EPERM on file systems without directory fsync.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The settings files `/hooks enable|disable` write: the workspace's, then the user's. */
export function scopes(projectDir: string, env: Env = process.env): ScopeFile[] {
  const user = userSettingsPath(env);
  const workspace = projectSettingsPath(projectDir);
  // A project opened in the home folder has one settings file, the user's (as loading reads it).
  return samePath(user, workspace)
    ? [{ scope: 'user', file: user }]
    : [
        { scope: 'workspace', file: workspace },
        { scope: 'user', file: user },
      ];
}

const label = (s: ScopeFile) => `${s.scope} (${s.file})`;

/** Disables a hook by name in the workspace settings, as Gemini CLI's `/hooks disable`. */
export function disableHook(name: string, projectDir: string, env: Env = process.env): string {
  const [target, ...others] = scopes(projectDir, env);
  let already = false;
  // Read and written under the file's lock: concurrent disables of other hooks are all kept.
  updateFile(target.file, (text) => {
    const current = disabledIn(target.file, text);
    already = current.includes(name);
    return already ? undefined : withDisabled(target.file, text, [...current, name]);
  });
  if (already) return `Hook "${name}" is already disabled.`;
  const alsoElsewhere = others.filter((s) => disabledOrNone(s.file).includes(name));
  if (alsoElsewhere.length)
    return `Hook "${name}" is now disabled in both ${label(target)} and ${alsoElsewhere.map(label).join(' and ')} settings.`;
  return `Hook "${name}" disabled by adding it to the disabled list in ${label(target)} settings.`;
}

/** Enables a hook by removing its name from every scope's disabled list. */
export function enableHook(name: string, projectDir: string, env: Env = process.env): string {
  const all = scopes(projectDir, env);
  const changed = all.filter((s) => disabledOrNone(s.file).includes(name));
  if (!changed.length) return `Hook "${name}" is already enabled.`;
  for (const s of changed)
    updateFile(s.file, (text) =>
      withDisabled(
        s.file,
        text,
        disabledIn(s.file, text).filter((n) => n !== name),
      ),
    );
  // Only the files it was taken out of: a scope whose file never listed it (or does not exist) was not touched.
  return `Hook "${name}" enabled by removing it from the disabled list in ${changed.map(label).join(' and ')} settings.`;
}

export function enableAll(projectDir: string, names: string[], env: Env = process.env): string {
  if (!names.length) return 'No hooks configured.';
  const all = scopes(projectDir, env);
  const lists = all.map((s) => ({ s, names: disabledOrNone(s.file) }));
  const disabled = new Set(lists.flatMap((l) => l.names));
  const count = names.filter((n) => disabled.has(n)).length;
  if (!count) return 'All hooks are already enabled.';
  // As Gemini CLI: an empty list in both the workspace and the user settings; a file that cannot
  // be read is left as it is, and said.
  const broken: string[] = [];
  for (const l of lists) {
    try {
      readDisabled(l.s.file);
    } catch (err) {
      broken.push((err as Error).message);
      continue;
    }
    writeDisabled(l.s.file, []);
  }
  if (broken.length) return `Enabled ${count} hook(s); not changed, fix it first: ${broken.join('; ')}`;
  return `Enabled ${count} hook(s) successfully.`;
}

export function disableAll(projectDir: string, names: string[], env: Env = process.env): string {
  if (!names.length) return 'No hooks configured.';
  const [target] = scopes(projectDir, env);
  const unique = [...new Set(names)];
  const current = new Set(scopes(projectDir, env).flatMap((s) => disabledOrNone(s.file)));
  const count = unique.filter((n) => !current.has(n)).length;
  if (!count) return 'All hooks are already disabled.';
  writeDisabled(target.file, unique);
  return `Disabled ${count} hook(s) successfully.`;
}
