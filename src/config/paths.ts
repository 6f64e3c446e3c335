import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type Env = Readonly<Record<string, string | undefined>>;

/** A value worked out once per key (a warm engine asks for the same few before every event); a few hundred are kept. */
function remembered(cache: Map<string, string>, key: string, make: () => string): string {
  let v = cache.get(key);
  if (v === undefined) {
    if (cache.size >= 256) cache.clear();
    cache.set(key, (v = make()));
  }
  return v;
}

const joins = new Map<string, string>();
/** `path.join(dir, name)`, remembered. */
const joined = (dir: string, name: string) => remembered(joins, `${dir}\0${name}`, () => path.join(dir, name));

/** The home that holds `.gemini/`: `$GEMINI_CLI_HOME` when set, as in Gemini CLI. */
export function geminiHome(env: Env = process.env): string {
  return env.GEMINI_CLI_HOME || os.homedir();
}

export function userGeminiDir(env: Env = process.env): string {
  return joined(geminiHome(env), '.gemini');
}

export function userSettingsPath(env: Env = process.env): string {
  return joined(userGeminiDir(env), 'settings.json');
}

export function systemSettingsPath(env: Env = process.env): string {
  return env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || '/etc/gemini-cli/settings.json';
}

export function projectSettingsPath(projectDir: string): string {
  return joined(joined(projectDir, '.gemini'), 'settings.json');
}

export function extensionsDir(env: Env = process.env): string {
  return joined(userGeminiDir(env), 'extensions');
}

export function trustedFoldersPath(env: Env = process.env): string {
  return env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || joined(userGeminiDir(env), 'trustedFolders.json');
}

export function trustedHooksPath(env: Env = process.env): string {
  return joined(userGeminiDir(env), 'trusted_hooks.json');
}

/** True when two paths name the same file or folder (symlinks resolved when they exist). */
export function samePath(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      // No exception for the usual missing file (this runs on every check of a warm engine).
      if (!fs.existsSync(p)) return path.resolve(p);
      return fs.realpathSync.native(p);
    } catch {
      return path.resolve(p);
    }
  };
  return real(a) === real(b);
}

const slugs = new Map<string, string>();

/** Folder name for a project under `~/.gemini/tmp/`, as Gemini CLI derives it from the basename (every hook run names it). */
export function projectSlug(projectDir: string): string {
  return remembered(
    slugs,
    projectDir,
    () =>
      path
        .basename(projectDir)
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '') || 'project',
  );
}

/** Whether `p` is `root` or under it (lexically: resolve links first where they matter). */
export function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + path.sep) && !path.isAbsolute(rel));
}
