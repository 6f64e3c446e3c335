/**
 * Claude Code's hook configuration: `hooks.<Event>[] = {matcher?, hooks: [handler…]}` in the
 * managed policy file, `~/.claude/settings.json` (user), `<project>/.claude/settings.json`
 * (project), `<project>/.claude/settings.local.json` (local) and the enabled plugins'
 * `hooks/hooks.json` (plugins.ts). Entries from every file add up; identical
 * hooks run once (see run.ts). Every handler type is read (handler-config.ts): `command`, `http`,
 * `prompt` and `agent` (judged by the agent's model), and `mcp_tool` (read, reported: Hookline has
 * no MCP client). Every problem carries the file, the JSON path and a message; a handler with an
 * error is dropped, the rest still load.
 */
import os from 'node:os';
import path from 'node:path';
import { parseJson } from '../../config/jsonc.js';
import { danglingLink, FileTooLargeError, readLimitedText, textNestsDeeper, tooDeep } from '../../config/limits.js';
import { jsonPath, type ConfigProblem } from '../../config/problems.js';
import { CLAUDE_CATALOG, CLAUDE_EVENTS, UNSUPPORTED_CLAUDE_EVENTS, closestClaudeEvent, isClaudeEvent, type ClaudeEvent } from './events.js';
import { compileClaudeMatcher, type ClaudeMatcher } from './matcher.js';
import {
  claudeHome,
  enabledClaudePlugins,
  pluginHookSources,
  readEnabledPlugins,
  type ClaudePlugin,
  type EnabledPlugins,
} from './plugins.js';
import type { DialectHook } from '../../trust/dialects.js';
import { fingerprintHook, type HookFingerprint } from '../../trust/keys.js';
import { DEFAULT_TIMEOUTS, readClaudeHandler, type ClaudeHandler } from './handler-config.js';
import { isObject, kind } from '../json.js';

/** Claude Code's default command timeout, in seconds. */
export const DEFAULT_TIMEOUT_SECONDS = DEFAULT_TIMEOUTS.command;

/** Where a hook comes from: `explicit` is a file named with `--config`; `managed` the policy file. */
export type ClaudeSource = 'managed' | 'user' | 'project' | 'local' | 'explicit' | 'plugin';

export interface ClaudeHook extends ClaudeHandler {
  event: ClaudeEvent;
  source: ClaudeSource;
  file: string;
  /** Where it is in the file, e.g. `hooks.PreToolUse[0].hooks[1]`. */
  path: string;
  /** The matcher as written. */
  matcher?: string;
  match: ClaudeMatcher;
  /** The plugin it comes from (source `plugin`). */
  plugin?: ClaudePlugin;
}

export interface ClaudeSettingsFile {
  source: ClaudeSource;
  file: string;
  exists: boolean;
  /** `disableAllHooks: true` in this file. */
  disableAllHooks: boolean;
  /** Its `env` block: variables for the session, its hooks and its shell commands. */
  env: Record<string, string>;
}

/** What the managed policy file says about hooks. */
export interface ClaudePolicy {
  file: string;
  disableAllHooks: boolean;
  allowManagedHooksOnly: boolean;
}

export interface ClaudeConfig {
  files: ClaudeSettingsFile[];
  /** Every runnable hook, in file order (managed, user, project, local, explicit, plugins), then as written. */
  hooks: ClaudeHook[];
  /** The enabled plugins found (with or without hooks). */
  plugins: ClaudePlugin[];
  policy?: ClaudePolicy;
  problems: ConfigProblem[];
}

export interface ParsedClaudeSettings {
  hooks: ClaudeHook[];
  problems: ConfigProblem[];
  disableAllHooks: boolean;
  allowManagedHooksOnly: boolean;
  enabledPlugins: Record<string, boolean>;
  env: Record<string, string>;
}

/** `${CLAUDE_PLUGIN_ROOT}` / `$CLAUDE_PLUGIN_DATA`: set for plugin hooks only. */
const PLUGIN_VARIABLE = /\$\{?CLAUDE_PLUGIN_(ROOT|DATA)(?![A-Za-z0-9_])/;
/** A plugin's user options, which Hookline does not read. */
const USER_CONFIG_VARIABLE = /\$\{user_config\.[^}]*\}/;

const GROUP_KEYS = new Set(['matcher', 'hooks']);

/** Reads one settings file's text. Never throws. */
export function parseClaudeSettings(text: string, file: string, source: ClaudeSource): ParsedClaudeSettings {
  const problems: ConfigProblem[] = [];
  const hooks: ClaudeHook[] = [];
  const out: ParsedClaudeSettings = { hooks, problems, disableAllHooks: false, allowManagedHooksOnly: false, enabledPlugins: {}, env: {} };
  const problem = (at: ReadonlyArray<string | number>, message: string, severity: ConfigProblem['severity'] = 'error') => {
    const where = jsonPath(at);
    if (!problems.some((p) => p.path === where && p.message === message)) problems.push({ file, path: where, message, severity });
  };
  if (textNestsDeeper(text)) {
    problem([], `${tooDeep('its JSON')} (no hook from this file is loaded)`);
    return out;
  }
  const parsed = parseJson(text);
  if (!parsed.ok) {
    problem([], `${parsed.message} (no hook from this file is loaded)`);
    return out;
  }
  const root = parsed.value;
  if (!isObject(root)) {
    problem([], `settings must be a JSON object, got ${kind(root)}`);
    return out;
  }
  if (root.disableAllHooks !== undefined) {
    if (typeof root.disableAllHooks !== 'boolean') problem(['disableAllHooks'], `must be true or false, got ${kind(root.disableAllHooks)}`);
    else out.disableAllHooks = root.disableAllHooks;
  }
  if (root.allowManagedHooksOnly !== undefined) {
    if (typeof root.allowManagedHooksOnly !== 'boolean')
      problem(['allowManagedHooksOnly'], `must be true or false, got ${kind(root.allowManagedHooksOnly)}`);
    else if (source !== 'managed')
      problem(['allowManagedHooksOnly'], 'allowManagedHooksOnly counts only in managed settings (ignored here)', 'warning');
    else out.allowManagedHooksOnly = root.allowManagedHooksOnly;
  }
  if (source !== 'plugin') out.enabledPlugins = readEnabledPlugins(root, (at, message) => problem(at, message));
  if (root.env !== undefined && source !== 'plugin') {
    if (!isObject(root.env)) problem(['env'], `"env" must be an object of variable names and string values, got ${kind(root.env)}`);
    else {
      for (const [name, value] of Object.entries(root.env)) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) problem(['env', name], `"${name}" is not a valid environment variable name (ignored)`);
        else if (typeof value === 'string') out.env[name] = value;
        // Claude Code's schema says strings; numbers and booleans are written as they print.
        else if (typeof value === 'number' || typeof value === 'boolean') out.env[name] = String(value);
        else problem(['env', name], `must be a string, got ${kind(value)} (ignored)`);
      }
    }
  }
  if (root.hooks === undefined) return out;
  if (!isObject(root.hooks)) {
    problem(['hooks'], `"hooks" must be an object keyed by event name, got ${kind(root.hooks)}`);
    return out;
  }
  for (const [event, groups] of Object.entries(root.hooks)) {
    if (!isClaudeEvent(event)) {
      if (UNSUPPORTED_CLAUDE_EVENTS.includes(event))
        problem(
          ['hooks', event],
          `Claude Code's ${event} event is never fired by Hookline's agent (it has no such moment): its hooks never run`,
          'warning',
        );
      else {
        const hint = closestClaudeEvent(event);
        problem(
          ['hooks', event],
          `unknown event "${event}"${hint ? ` (did you mean "${hint}"?)` : ''}; expected one of ${CLAUDE_EVENTS.join(', ')}`,
        );
      }
      continue;
    }
    if (!Array.isArray(groups)) {
      problem(['hooks', event], `"${event}" must be an array of matcher groups ({"matcher", "hooks"}), got ${kind(groups)}`);
      continue;
    }
    groups.forEach((group, i) => {
      const at: Array<string | number> = ['hooks', event, i];
      if (!isObject(group)) return problem(at, `a matcher group must be an object with a "hooks" array, got ${kind(group)}`);
      for (const k of Object.keys(group)) if (!GROUP_KEYS.has(k)) problem([...at, k], `unknown field "${k}" (ignored)`, 'warning');
      if (group.hooks === undefined) return problem([...at, 'hooks'], 'missing "hooks" array');
      if (!Array.isArray(group.hooks)) return problem([...at, 'hooks'], `"hooks" must be an array, got ${kind(group.hooks)}`);
      let matcher: string | undefined;
      if (group.matcher !== undefined && group.matcher !== null) {
        if (typeof group.matcher !== 'string') return problem([...at, 'matcher'], `"matcher" must be a string, got ${kind(group.matcher)}`);
        matcher = group.matcher;
      }
      const match = compileClaudeMatcher(matcher);
      if (match.kind !== 'all' && !CLAUDE_CATALOG[event].matchField) {
        problem([...at, 'matcher'], `${event} ignores matchers: these hooks run for every ${event}`, 'warning');
      } else if (match.kind === 'exact') {
        const what =
          match.reason === 'unsupported'
            ? 'regular expression not supported by the linear-time engine (RE2: no backreferences or lookaround)'
            : 'invalid regular expression';
        problem([...at, 'matcher'], `${what} (${match.error}); it is compared as an exact name instead`);
      }
      const effective = CLAUDE_CATALOG[event].matchField ? match : compileClaudeMatcher(undefined);
      group.hooks.forEach((raw, j) => {
        const hook = readClaudeHandler(raw, [...at, 'hooks', j], problem, { event });
        if (hook?.type === 'command' && unexpandable(hook.command, source))
          return problem(
            [...at, 'hooks', j, 'command'],
            `${unexpandable(hook.command, source)}: this hook cannot run as written (not loaded)`,
          );
        if (hook)
          hooks.push({
            event,
            source,
            file,
            path: jsonPath([...at, 'hooks', j]),
            ...(matcher !== undefined ? { matcher } : {}),
            match: effective,
            ...hook,
          });
      });
    });
  }
  return out;
}

/** Why a command names a variable Hookline cannot give it a value for, or undefined. */
function unexpandable(command: string, source: ClaudeSource): string | undefined {
  const plugin = PLUGIN_VARIABLE.exec(command);
  if (plugin && source !== 'plugin') return `$CLAUDE_PLUGIN_${plugin[1]} is set only for a plugin's hooks, not in a settings file`;
  const option = USER_CONFIG_VARIABLE.exec(command);
  if (option) return `${option[0]} (a plugin's user option) is not supported by Hookline`;
  return undefined;
}

export class ClaudeConfigReadError extends Error {}

const EMPTY = { hooks: [], problems: [], disableAllHooks: false, allowManagedHooksOnly: false, enabledPlugins: {}, env: {} };

/** Reads one settings file; a missing file has no hooks, an unreadable one throws ClaudeConfigReadError. */
export function loadClaudeSettingsFile(file: string, source: ClaudeSource): ParsedClaudeSettings & { exists: boolean } {
  let text: string;
  try {
    text = readLimitedText(file);
  } catch (e) {
    const x = e as NodeJS.ErrnoException;
    if (x.code === 'ENOENT') {
      const link = danglingLink(file);
      return link
        ? {
            exists: false,
            ...EMPTY,
            problems: [{ file, path: '', message: `cannot read: ${link} (no hook from this file is loaded)`, severity: 'error' }],
          }
        : { exists: false, ...EMPTY };
    }
    // Like invalid JSON: this file's hooks are left out, the other files' still run.
    if (e instanceof FileTooLargeError)
      return {
        exists: true,
        ...EMPTY,
        problems: [{ file, path: '', message: `not read: ${x.message} (no hook from this file is loaded)`, severity: 'error' }],
      };
    if (x.code === 'EISDIR') throw new ClaudeConfigReadError(`Claude Code settings ${file} is a folder`);
    // A link loop, no permission…: this file's hooks are left out and said; the other files' still run.
    if (x.code === 'ELOOP' || x.code === 'EACCES' || x.code === 'EPERM' || x.code === 'ENOTDIR')
      return {
        exists: false,
        ...EMPTY,
        problems: [{ file, path: '', message: `cannot read: ${x.message} (no hook from this file is loaded)`, severity: 'error' }],
      };
    throw new ClaudeConfigReadError(`cannot read Claude Code settings ${file}: ${x.message}`);
  }
  return { exists: true, ...parseClaudeSettings(text, file, source) };
}

/** The managed policy file on Linux (`HOOKLINE_CLAUDE_MANAGED_SETTINGS` names another). */
export function claudeManagedSettingsPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.HOOKLINE_CLAUDE_MANAGED_SETTINGS
    ? path.resolve(env.HOOKLINE_CLAUDE_MANAGED_SETTINGS)
    : '/etc/claude-code/managed-settings.json';
}

/** `$HOME/.claude/settings.json`, `<project>/.claude/settings.json`, `<project>/.claude/settings.local.json`. */
export function claudeSettingsPaths(
  projectDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Array<{ source: ClaudeSource; file: string }> {
  const home = env.HOME || os.homedir();
  return [
    { source: 'user', file: path.join(claudeHome(home, env), 'settings.json') },
    { source: 'project', file: path.join(projectDir, '.claude', 'settings.json') },
    { source: 'local', file: path.join(projectDir, '.claude', 'settings.local.json') },
  ];
}

export interface LoadClaudeOptions {
  projectDir: string;
  /** Finds the user's home (`HOME`). Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Files to read instead of the project's two (`--config`); the user's file is still read. */
  files?: string[];
  /** `--plugin-dir` folders: plugins loaded for this session. */
  pluginDirs?: string[];
  /** Settings files another dialect runs in this session (`hookline agent --prefer-dialect`): not read here. */
  leave?: ReadonlySet<string>;
}

/**
 * Loads the managed policy file, every settings file and the enabled plugins' hook files.
 * Managed `disableAllHooks` turns every hook off, managed `allowManagedHooksOnly` keeps only the
 * managed hooks and the plugins managed settings enable. `disableAllHooks: true` in the user's
 * file turns every other hook off; in a project file it turns off that project's hooks only (a
 * repository must not be able to turn off the user's own hooks).
 */
export function loadClaudeConfig(opts: LoadClaudeOptions): ClaudeConfig {
  const env = opts.env ?? process.env;
  const settings = claudeSettingsPaths(opts.projectDir, env);
  const places = [
    { source: 'managed' as const, file: claudeManagedSettingsPath(env) },
    ...(opts.files ? [settings[0], ...opts.files.map((file) => ({ source: 'explicit' as const, file: path.resolve(file) }))] : settings),
  ];
  const files: ClaudeSettingsFile[] = [];
  const problems: ConfigProblem[] = [];
  const hooks: ClaudeHook[] = [];
  const levels: EnabledPlugins[] = [];
  let policy: ClaudePolicy | undefined;
  for (const { source, file } of places) {
    if (opts.leave?.has(file)) continue;
    const r = loadClaudeSettingsFile(file, source);
    if (source === 'managed') {
      if (!r.exists) continue;
      policy = { file, disableAllHooks: r.disableAllHooks, allowManagedHooksOnly: r.allowManagedHooksOnly };
    }
    files.push({ source, file, exists: r.exists, disableAllHooks: r.disableAllHooks, env: r.env });
    problems.push(...r.problems);
    hooks.push(...r.hooks);
    if (source !== 'plugin') levels.push({ level: source, file, enabled: r.enabledPlugins });
  }
  const home = env.HOME || os.homedir();
  const found = enabledClaudePlugins({ projectDir: path.resolve(opts.projectDir), home, env, levels, pluginDirs: opts.pluginDirs });
  problems.push(...found.problems);
  for (const plugin of found.plugins) {
    for (const src of pluginHookSources(plugin, problems)) {
      const r =
        src.text !== undefined
          ? { exists: true, ...parseClaudeSettings(src.text, src.file, 'plugin') }
          : loadClaudeSettingsFile(src.file, 'plugin');
      problems.push(...r.problems.map((p) => ({ ...p, message: `plugin ${plugin.id}: ${p.message}` })));
      hooks.push(...r.hooks.map((h) => ({ ...h, plugin })));
    }
  }
  if (policy?.disableAllHooks) return { files, hooks: [], plugins: found.plugins, policy, problems };
  const managedOnly = Boolean(policy?.allowManagedHooksOnly);
  const userOff = files.some((f) => f.source === 'user' && f.disableAllHooks);
  const projectOff = files.some((f) => f.source !== 'user' && f.source !== 'managed' && f.disableAllHooks);
  const kept = hooks.filter((h) => {
    if (h.source === 'managed') return true;
    if (managedOnly) return h.plugin?.level === 'managed';
    if (userOff) return false;
    return !(projectOff && (isWorkspace(h) || h.source === 'explicit'));
  });
  return { files, hooks: kept, plugins: found.plugins, ...(policy ? { policy } : {}), problems };
}

/** The project's own hooks: `.claude/settings.json`, `.claude/settings.local.json`, and plugins only they enable. */
const isWorkspace = (h: ClaudeHook) => h.source === 'project' || h.source === 'local' || Boolean(h.plugin?.workspace);

/** The configuration without the project's hooks (for an untrusted folder). */
export function withoutProjectHooks(config: ClaudeConfig): ClaudeConfig {
  return { ...config, hooks: config.hooks.filter((h) => !isWorkspace(h)) };
}

/**
 * The settings' `env` blocks merged as Claude Code merges them (user, then the project's files,
 * then managed over all). The project's own blocks count only when the folder is not untrusted:
 * an untrusted folder changes nothing.
 */
export function claudeSessionEnv(
  config: Pick<ClaudeConfig, 'files'>,
  trust: 'trusted' | 'assumed' | 'untrusted',
  held: ReadonlySet<string> = new Set(),
): Record<string, string> {
  const order = [...config.files.filter((f) => f.source !== 'managed'), ...config.files.filter((f) => f.source === 'managed')];
  const env: Record<string, string> = {};
  for (const f of order) {
    const project = f.source === 'project' || f.source === 'local';
    // A project's env block reaches every hook (BASH_ENV, PATH, NODE_OPTIONS…): it applies only once reviewed.
    if (project && (trust === 'untrusted' || held.has(envBlockId(f.file)))) continue;
    Object.assign(env, f.env);
  }
  return env;
}

/** The id of a settings file's env block among the project's hooks (see claudeWorkspaceHooks). */
const envBlockId = (file: string) => `${file}#env`;

/** The project's own `env` blocks, which the fingerprints of its hooks cover. */
function workspaceEnv(config: Pick<ClaudeConfig, 'files'>): Record<string, Record<string, string>> | undefined {
  const blocks = config.files.filter((f) => (f.source === 'project' || f.source === 'local') && Object.keys(f.env).length);
  return blocks.length ? Object.fromEntries(blocks.map((f) => [f.source, f.env])) : undefined;
}

/** Hooks per event, for summaries. */
export function claudeHookCounts(config: ClaudeConfig): Partial<Record<ClaudeEvent, number>> {
  const counts: Partial<Record<ClaudeEvent, number>> = {};
  for (const h of config.hooks) counts[h.event] = (counts[h.event] ?? 0) + 1;
  return counts;
}

/** The key older versions wrote for a hook, still read when migrating. */
export function claudeLegacyKey(h: ClaudeHook): string {
  return h.type === 'command' ? `claude:${h.event}:${h.command}` : `claude:${h.event}:${h.type}:${h.command}`;
}

/** A hook's fingerprint in trusted_hooks.json: event, matcher, every field of the handler, and the files the command runs. */
export function claudeHookKey(h: ClaudeHook, projectDir: string, env?: Record<string, Record<string, string>>): HookFingerprint {
  const fields = {
    event: h.event,
    matcher: h.matcher ?? null,
    handler: h.handler,
    ...(h.plugin ? { plugin: h.plugin.id, pluginRoot: h.plugin.root } : {}),
    ...(env ? { env } : {}),
  };
  const vars = {
    // What the project's env blocks set reaches the command: a file they name (BASH_ENV) is followed too.
    ...Object.assign({}, ...Object.values(env ?? {})),
    CLAUDE_PROJECT_DIR: projectDir,
    ...(h.plugin ? { CLAUDE_PLUGIN_ROOT: h.plugin.root, CLAUDE_PLUGIN_DATA: h.plugin.data } : {}),
  };
  // Only a command runs project files; an http hook's URL and headers are in `handler`.
  return fingerprintHook('claude', fields, h.type === 'command' ? h.command : null, { projectDir, vars }, claudeLegacyKey(h));
}

/** How lists name a hook: by its plugin, or by its file. */
export function claudeHookLabel(h: ClaudeHook, projectDir: string): string {
  const where = h.plugin ? `plugin ${h.plugin.id}` : path.relative(projectDir, h.file) || h.file;
  return `${where} (${h.event}${h.matcher ? ` ${h.matcher}` : ''}): ${claudeHookText(h)}`;
}

/** What a hook runs, for lists: the command, or `<type>: <url, prompt or server/tool>`. */
export function claudeHookText(h: Pick<ClaudeHook, 'type' | 'command'>): string {
  return h.type === 'command' ? h.command : `${h.type}: ${h.command}`;
}

/** A hook's identity: its file and where it is in it. */
export const claudeHookId = (h: Pick<ClaudeHook, 'file' | 'path'>) => `${h.file}#${h.path}`;

/** The project's hooks (never the user's, nor a `--config` file's), for trust and `hookline list`. */
export function claudeWorkspaceHooks(config: ClaudeConfig, projectDir: string): DialectHook[] {
  // What the project's env blocks set changes what its hooks do: changing them asks for trust again.
  const env = workspaceEnv(config);
  const hooks = config.hooks.filter(isWorkspace).map((h) => ({
    source: 'claude' as const,
    event: h.event,
    matcher: h.matcher,
    name: claudeHookText(h),
    command: h.type === 'command' ? h.command : null,
    file: h.file,
    path: h.path,
    id: claudeHookId(h),
    ...(h.plugin ? { plugin: h.plugin.id, label: claudeHookLabel(h, projectDir) } : {}),
    ...claudeHookKey(h, projectDir, env),
  }));
  // Each env block is trusted as a hook is: it reaches the user's hooks and the agent's commands
  // too. The files its values name are in its fingerprint. A trusted hook's key covered the blocks
  // as they are now (and those files), so such a key vouches for them too (folders trusted before
  // the blocks had keys of their own).
  const covering = hooks.flatMap((h) => (h.key ? [h.key] : []));
  const blocks = config.files
    .filter((f) => (f.source === 'project' || f.source === 'local') && Object.keys(f.env).length)
    .map((f) => {
      const where = path.relative(projectDir, f.file) || f.file;
      const names = Object.keys(f.env).join(', ');
      return {
        source: 'claude' as const,
        event: 'env',
        name: `env: ${names}`,
        command: null,
        file: f.file,
        path: 'env',
        id: envBlockId(f.file),
        label: `${where} (env): ${names}`,
        setting: true,
        coveredBy: covering,
        ...fingerprintHook('claude', { env: f.env, file: where }, '', { projectDir, vars: f.env }),
      };
    });
  return [...blocks, ...hooks];
}

/** The configuration without the project hooks whose ids are in `held` (the user's keep running). */
export function claudeWithout(config: ClaudeConfig, held: ReadonlySet<string>): ClaudeConfig {
  return { ...config, hooks: config.hooks.filter((h) => !(isWorkspace(h) && held.has(claudeHookId(h)))) };
}
