/**
 * Claude Code plugins, found where Claude Code records them: `installed_plugins.json` in its
 * plugins folder (`~/.claude/plugins`, or `$CLAUDE_CODE_PLUGIN_CACHE_DIR`) lists each plugin id
 * (`name@marketplace`) with its installations (`scope` user|project|local|managed,
 * `installPath` in the plugin cache, `projectPath` for a project's own); `enabledPlugins` in the
 * settings files turns them on (local over project over user, managed over all); `--plugin-dir`
 * adds a plugin folder for one session. A plugin's hooks are in `hooks/hooks.json` and in the
 * `hooks` field of `.claude-plugin/plugin.json` (a path, a list of paths, or the hooks inline).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseJson } from '../../config/jsonc.js';
import { readLimitedText, textNestsDeeper, tooDeep } from '../../config/limits.js';
import { jsonPath, type ConfigProblem } from '../../config/problems.js';
import { isObject } from '../json.js';

/** Which settings level turned a plugin on. */
export type PluginLevel = 'managed' | 'user' | 'project' | 'local' | 'explicit' | 'plugin-dir';

export interface ClaudePlugin {
  /** `name@marketplace`, or `name@inline` for a `--plugin-dir` folder. */
  id: string;
  /** `${CLAUDE_PLUGIN_ROOT}`: the installed folder. */
  root: string;
  /** `${CLAUDE_PLUGIN_DATA}`: its persistent data folder (made when a hook runs). */
  data: string;
  /** The level whose `enabledPlugins` decided (or `plugin-dir`). */
  level: PluginLevel;
  /** Enabled by the project's own settings only: workspace configuration, trusted like its hooks. */
  workspace: boolean;
}

/** One settings file's `enabledPlugins`, as read. */
export interface EnabledPlugins {
  level: Exclude<PluginLevel, 'plugin-dir'>;
  file: string;
  enabled: Record<string, boolean>;
}

/** Claude Code's folder (`$CLAUDE_CONFIG_DIR` or `~/.claude`). */
export function claudeHome(home: string, env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CONFIG_DIR ? path.resolve(env.CLAUDE_CONFIG_DIR) : path.join(home, '.claude');
}

/** Where installed plugins are recorded. */
export function pluginsFolder(home: string, env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CODE_PLUGIN_CACHE_DIR ? path.resolve(env.CLAUDE_CODE_PLUGIN_CACHE_DIR) : path.join(claudeHome(home, env), 'plugins');
}

/** `${CLAUDE_PLUGIN_DATA}`: `<plugins>/data/<id>`, with characters other than letters, digits, `_` and `-` as `-`. */
export function pluginDataFolder(plugins: string, id: string): string {
  return path.join(plugins, 'data', id.replace(/[^A-Za-z0-9_-]/g, '-'));
}

/** Reads `enabledPlugins` from a settings object; problems for values that are not true/false. */
export function readEnabledPlugins(
  root: Record<string, unknown>,
  problem: (at: Array<string | number>, message: string) => void,
): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  const v = root.enabledPlugins;
  if (v === undefined) return out;
  if (!isObject(v)) {
    problem(['enabledPlugins'], '"enabledPlugins" must be an object of "name@marketplace": true|false');
    return out;
  }
  for (const [id, on] of Object.entries(v)) {
    if (typeof on === 'boolean') out[id] = on;
    // Claude Code also accepts a list of versions here: it means enabled.
    else if (Array.isArray(on)) out[id] = true;
    else problem(['enabledPlugins', id], `must be true or false, got ${JSON.stringify(on)}`);
  }
  return out;
}

interface Installation {
  scope?: string;
  installPath?: string;
  projectPath?: string;
}

type Problem = (file: string, at: Array<string | number>, message: string, severity?: ConfigProblem['severity']) => void;

function readJsonFile(file: string, problem: Problem): unknown {
  let text: string;
  try {
    text = readLimitedText(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    problem(file, [], `not read: ${(e as Error).message}`);
    return undefined;
  }
  if (textNestsDeeper(text)) {
    problem(file, [], tooDeep('its JSON'));
    return undefined;
  }
  const parsed = parseJson(text);
  if (!parsed.ok) {
    problem(file, [], parsed.message);
    return undefined;
  }
  return parsed.value;
}

/** `installed_plugins.json`: version 2 (`plugins.<id>` = list of installations) or version 1 (one installation). */
export function readInstalledPlugins(file: string, problem: Problem): Record<string, Installation[]> {
  const root = readJsonFile(file, problem);
  const out: Record<string, Installation[]> = {};
  if (root === undefined) return out;
  if (!isObject(root) || !isObject(root.plugins)) {
    problem(file, ['plugins'], 'expected {"version": 2, "plugins": {"name@marketplace": [...]}}');
    return out;
  }
  for (const [id, v] of Object.entries(root.plugins)) {
    const list = Array.isArray(v) ? v : [v];
    out[id] = list.filter(isObject).map((e) => ({
      scope: typeof e.scope === 'string' ? e.scope : undefined,
      installPath: typeof e.installPath === 'string' ? e.installPath : undefined,
      projectPath: typeof e.projectPath === 'string' ? e.projectPath : undefined,
    }));
  }
  return out;
}

/** The installation that serves this project: the project's own first, then a user-wide one. */
function installationFor(list: Installation[], projectDir: string): Installation | undefined {
  const own = list.find(
    (e) => (e.scope === 'project' || e.scope === 'local') && e.projectPath && path.resolve(e.projectPath) === projectDir && e.installPath,
  );
  return own ?? list.find((e) => (e.scope === undefined || e.scope === 'user' || e.scope === 'managed') && e.installPath);
}

export interface PluginLookup {
  projectDir: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** Every settings file's `enabledPlugins`, lowest level first; managed decides over all. */
  levels: EnabledPlugins[];
  /** `--plugin-dir` folders. */
  pluginDirs?: string[];
}

/** The enabled plugins, with problems for those that are enabled but cannot be found. */
export function enabledClaudePlugins(opts: PluginLookup): { plugins: ClaudePlugin[]; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const problem: Problem = (file, at, message, severity = 'error') => problems.push({ file, path: jsonPath(at), message, severity });
  const plugins: ClaudePlugin[] = [];
  const folder = pluginsFolder(opts.home, opts.env);
  const decided = new Map<string, EnabledPlugins>();
  const managed = opts.levels.filter((l) => l.level === 'managed');
  const mine = (l: EnabledPlugins) => l.level === 'user' || l.level === 'managed' || l.level === 'explicit';
  for (const l of [...opts.levels.filter((x) => x.level !== 'managed'), ...managed])
    for (const id of Object.keys(l.enabled)) {
      // A repository's settings cannot turn off a plugin the user (or policy) turned on, as
      // `disableAllHooks` there cannot turn off the user's hooks.
      if (!mine(l) && !l.enabled[id] && opts.levels.some((x) => mine(x) && x.enabled[id] === true)) continue;
      decided.set(id, l);
    }
  const wanted = [...decided].filter(([id, l]) => l.enabled[id]);
  if (wanted.length) {
    const installedFile = path.join(folder, 'installed_plugins.json');
    const installed = readInstalledPlugins(installedFile, problem);
    for (const [id, l] of wanted) {
      const inst = installationFor(installed[id] ?? [], opts.projectDir);
      if (!inst?.installPath) {
        problem(
          l.file,
          ['enabledPlugins', id],
          `plugin ${id} is enabled but not installed for this project (not in ${installedFile}): its hooks do not run`,
          'warning',
        );
        continue;
      }
      // Enabled by the project's files and not by the user or policy: the repository turned it on.
      const byUser = opts.levels.some((x) => mine(x) && x.enabled[id] === true);
      const workspace = (l.level === 'project' || l.level === 'local') && !byUser;
      plugins.push({ id, root: path.resolve(inst.installPath), data: pluginDataFolder(folder, id), level: l.level, workspace });
    }
  }
  for (const dir of opts.pluginDirs ?? []) {
    // Named on the command line: relative to where the command was typed.
    const root = path.resolve(dir);
    if (!fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
      problem(root, [], `--plugin-dir ${dir}: no such folder (no plugin loaded from it)`);
      continue;
    }
    const manifest = readJsonFile(path.join(root, '.claude-plugin', 'plugin.json'), problem);
    const name = isObject(manifest) && typeof manifest.name === 'string' && manifest.name ? manifest.name : path.basename(root);
    const id = `${name}@inline`;
    plugins.push({ id, root, data: pluginDataFolder(folder, id), level: 'plugin-dir', workspace: false });
  }
  return { plugins, problems };
}

/** A plugin's hook files: `hooks/hooks.json` and what `.claude-plugin/plugin.json` names, or its inline hooks. */
export function pluginHookSources(plugin: ClaudePlugin, problems: ConfigProblem[]): Array<{ file: string; text?: string }> {
  const problem: Problem = (file, at, message, severity = 'error') => problems.push({ file, path: jsonPath(at), message, severity });
  const out: Array<{ file: string; text?: string }> = [];
  const seen = new Set<string>();
  const add = (file: string, text?: string) => {
    if (text === undefined && seen.has(file)) return;
    seen.add(file);
    out.push(text === undefined ? { file } : { file, text });
  };
  const standard = path.join(plugin.root, 'hooks', 'hooks.json');
  add(standard);
  const manifestFile = path.join(plugin.root, '.claude-plugin', 'plugin.json');
  const manifest = readJsonFile(manifestFile, problem);
  if (!isObject(manifest) || manifest.hooks === undefined) return out;
  const h = manifest.hooks;
  const paths = typeof h === 'string' ? [h] : Array.isArray(h) ? h : undefined;
  if (paths) {
    paths.forEach((p, i) => {
      if (typeof p !== 'string') return problem(manifestFile, ['hooks', i], 'a hooks path must be a string');
      const file = path.resolve(plugin.root, p);
      if (path.relative(plugin.root, file).startsWith('..'))
        return problem(manifestFile, ['hooks', i], `hooks path ${p} is outside the plugin folder (not loaded)`);
      add(file);
    });
  } else if (isObject(h)) add(manifestFile, JSON.stringify({ hooks: h }));
  else problem(manifestFile, ['hooks'], '"hooks" must be a path, a list of paths or an object');
  return out;
}
