/**
 * Codex's hook configuration, found and trusted as Codex 0.169 finds and trusts it.
 *
 * Layers, lowest precedence first (every hook of every layer runs; the order is the order hooks
 * are listed and numbered in): the managed hooks of `requirements.toml` (`[hooks]`), the system
 * layer (`/etc/codex/config.toml` and `hooks.json` beside it), the user's (`$CODEX_HOME`, default
 * `~/.codex`), then each `.codex/` folder from the project's root (its `.git`) down to the working
 * folder, loaded only when the user's config.toml trusts the project (`[projects."<dir>"]
 * trust_level = "trusted"`), then the enabled plugins' hooks, by plugin id (plugins.ts). In each
 * layer, `hooks.json` (`{"hooks": {Event: [groups]}}`) and the `[hooks]` tables of its
 * `config.toml` both load, with a warning. Within a file Codex takes the hooks event by event in
 * its own order (CODEX_LOAD_ORDER), which numbers them. A file Codex cannot parse loads no hook
 * (the whole file, as in Codex); each problem names the file and where in it.
 *
 * Trust: a managed or system hook always runs. Any other hook runs only when the user's config.toml
 * holds `[hooks.state."<file>:<event>:<group>:<handler>"] trusted_hash = "sha256:…"` equal to the
 * hash of its normalised definition (see {@link codexHookHash}); `enabled = false` turns it off.
 * A plugin's hook is keyed by the plugin (`<id>:<file in the plugin>:…`), and a
 * `trusted_content_hash` in its record must also match the plugin's contents as they are now.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { parseJson } from '../../config/jsonc.js';
import { FileTooLargeError, readLimitedText, valueNestsDeeper, tooDeep } from '../../config/limits.js';
import { jsonPath, type ConfigProblem } from '../../config/problems.js';
import { canonicalJson } from '../../trust/keys.js';
import type { ClaudeConfig, ClaudeHook, ClaudeSource } from '../claude/config.js';
import {
  CODEX_CATALOG,
  CODEX_EVENTS,
  CODEX_LOAD_ORDER,
  closestCodexEvent,
  codexEventLabel,
  isCodexEvent,
  type CodexEvent,
} from './events.js';
import { compileCodexMatcher } from './matcher.js';
import {
  codexPluginFingerprint,
  codexPluginHookSources,
  codexPluginVariables,
  enabledCodexPlugins,
  expandCodexCommand,
  PluginFingerprintError,
  type CodexPlugin,
  type PluginTable,
} from './plugins.js';
import { isObject, kind } from '../json.js';

/** Where a hook comes from: `managed` is requirements.toml's `[hooks]`, `explicit` a file named with `--config`. */
export type CodexLayer = 'managed' | 'system' | 'user' | 'project' | 'explicit' | 'plugin';

/** Whether a hook may run by Codex's own trust records (`named`: a file the user named with `--config`, the user's own). */
export type CodexTrust = 'managed' | 'named' | 'trusted' | 'modified' | 'untrusted';

export interface CodexHookFacts {
  event: CodexEvent;
  layer: CodexLayer;
  /** The trust key: `<file>:<event_snake>:<group>:<handler>`. */
  key: string;
  /** `sha256:…` of the normalised definition, as Codex computes it. */
  hash: string;
  /** A plugin's hook: `sha256:…` of the plugin's contents, recorded as `trusted_content_hash`. */
  contentHash?: string;
  /** The plugin it comes from. */
  plugin?: CodexPlugin;
  trust: CodexTrust;
  /** False when the user's config.toml says `enabled = false` for it. */
  enabled: boolean;
  /** Codex's running number over every command hook found, in order (it names a Stop hook's feedback); -1 for an event Codex does not know. */
  order: number;
  /** False for a project's hook when the user's config.toml does not trust the project: Codex does not load it. */
  loaded: boolean;
}

export interface CodexHook extends ClaudeHook {
  codex: CodexHookFacts;
}

export interface CodexFile {
  layer: CodexLayer;
  file: string;
  exists: boolean;
}

export interface CodexConfig {
  /** `$CODEX_HOME` (default `~/.codex`). */
  home: string;
  /** The user's config.toml, where trust records live. */
  userConfig: string;
  files: CodexFile[];
  /** Every command hook found, runnable or not, in Codex's order. */
  hooks: CodexHook[];
  /** The enabled plugins found (with or without hooks). */
  plugins: CodexPlugin[];
  /** The project's `.codex/` folders Codex would read, and whether the user's config.toml trusts the project. */
  project: { dirs: string[]; trusted: boolean; root: string };
  /** requirements.toml's `allow_managed_hooks_only`. */
  managedOnly: boolean;
  problems: ConfigProblem[];
}

export class CodexConfigReadError extends Error {}

/** `$CODEX_HOME`, else `~/.codex`. */
export function codexHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CODEX_HOME) return path.resolve(env.CODEX_HOME);
  return path.join(env.HOME || os.homedir(), '.codex');
}

/** The system layer's folder (`/etc/codex`; `HOOKLINE_CODEX_SYSTEM_DIR` names another). */
export function codexSystemDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.HOOKLINE_CODEX_SYSTEM_DIR ? path.resolve(env.HOOKLINE_CODEX_SYSTEM_DIR) : '/etc/codex';
}

/**
 * The hash Codex keeps in `trusted_hash`: SHA-256 of the compact JSON, keys sorted, of the event's
 * snake-case label, the matcher where the event uses one, and the one handler with Codex's
 * defaults filled in (timeout 600, async false; statusMessage and additionalContextLimit only when set).
 */
export function codexHookHash(event: CodexEvent, matcher: string | undefined, handler: CodexHandler): string {
  const identity = {
    event_name: codexEventLabel(event),
    ...(matcher !== undefined ? { matcher } : {}),
    hooks: [
      {
        type: 'command',
        command: handler.command,
        timeout: handler.timeout,
        async: handler.async,
        ...(handler.statusMessage !== undefined ? { statusMessage: handler.statusMessage } : {}),
        ...(handler.additionalContextLimit !== undefined ? { additionalContextLimit: handler.additionalContextLimit } : {}),
      },
    ],
  };
  return `sha256:${crypto.createHash('sha256').update(canonicalJson(identity)).digest('hex')}`;
}

/** One handler as Codex reads it. */
export interface CodexHandler {
  command: string;
  timeout: number;
  async: boolean;
  statusMessage?: string;
  additionalContextLimit?: number;
}

/** What a hooks file or `[hooks]` table holds, before trust. */
interface ParsedHandler {
  event: CodexEvent;
  group: number;
  handler: number;
  matcher?: string;
  /** Where in the file, e.g. `hooks.PreToolUse[0].hooks[1]`. */
  path: string;
  def: CodexHandler;
  /** Hookline's `"onFailure": "block"` (Codex ignores the field): a failure blocks as exit 2 would. */
  onFailure?: 'block';
}

const HANDLER_KEYS = new Set([
  'type',
  'command',
  'commandWindows',
  'command_windows',
  'timeout',
  'timeoutSec',
  'async',
  'statusMessage',
  'additionalContextLimit',
  'onFailure',
]);

/**
 * Reads the events object of one file (`hooks` of hooks.json, `[hooks]` of a config.toml): every
 * command handler, or the problem that makes Codex refuse the whole file. Prompt, agent and
 * mcp_tool handlers are skipped with a warning, as Codex skips them (the handlers after them keep
 * their places in the trust key).
 */
export function readCodexHooks(
  events: unknown,
  file: string,
  at: ReadonlyArray<string | number> = ['hooks'],
): { handlers: ParsedHandler[]; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const handlers: ParsedHandler[] = [];
  const problem = (where: ReadonlyArray<string | number>, message: string, severity: ConfigProblem['severity'] = 'error') =>
    problems.push({ file, path: jsonPath(where), message, severity });
  // Codex parses the file whole: one wrong type and none of its hooks load.
  const refuse = (where: ReadonlyArray<string | number>, message: string) => {
    problem(where, `${message} (Codex loads no hook from this file)`);
    return { handlers: [], problems };
  };
  if (events === undefined) return { handlers, problems };
  if (!isObject(events)) return refuse(at, `"hooks" must be an object of events, got ${kind(events)}`);
  for (const [name, groups] of Object.entries(events)) {
    // The user's trust records live beside the events in config.toml.
    if (name === 'state') continue;
    if (!isCodexEvent(name)) {
      const hint = closestCodexEvent(name);
      problem(
        [...at, name],
        `unknown Codex event "${name}"${hint ? ` (did you mean "${hint}"?)` : ''}; ignored — events: ${CODEX_EVENTS.join(', ')}`,
        'warning',
      );
      continue;
    }
    if (!Array.isArray(groups)) return refuse([...at, name], `"${name}" must be an array of matcher groups, got ${kind(groups)}`);
    for (const [g, group] of groups.entries()) {
      const gat = [...at, name, g];
      if (!isObject(group)) return refuse(gat, `a matcher group must be an object with a "hooks" array, got ${kind(group)}`);
      if (group.matcher !== undefined && group.matcher !== null && typeof group.matcher !== 'string')
        return refuse([...gat, 'matcher'], `"matcher" must be a string, got ${kind(group.matcher)}`);
      if (group.hooks !== undefined && !Array.isArray(group.hooks))
        return refuse([...gat, 'hooks'], `"hooks" must be an array, got ${kind(group.hooks)}`);
      const written = typeof group.matcher === 'string' ? group.matcher : undefined;
      const matcher = CODEX_CATALOG[name].matcher ? written : undefined;
      if (written !== undefined && matcher === undefined && written !== '' && written !== '*')
        problem([...gat, 'matcher'], `${name} ignores matchers: these hooks run for every ${name}`, 'warning');
      const compiled = matcher === undefined ? undefined : compileCodexMatcher(matcher);
      for (const [h, raw] of ((group.hooks as unknown[] | undefined) ?? []).entries()) {
        const hat = [...gat, 'hooks', h];
        if (!isObject(raw)) return refuse(hat, `a hook must be an object with "type" and "command", got ${kind(raw)}`);
        if (raw.type === 'prompt' || raw.type === 'agent' || raw.type === 'mcp_tool') {
          problem(hat, `${raw.type} hooks are not supported by Codex: skipped`, 'warning');
          continue;
        }
        if (raw.type !== 'command')
          return refuse(
            [...hat, 'type'],
            `"type" must be "command" (or "prompt", "agent", "mcp_tool", which Codex skips), got ${JSON.stringify(raw.type) ?? kind(raw.type)}`,
          );
        if (typeof raw.command !== 'string') return refuse([...hat, 'command'], `"command" must be a string, got ${kind(raw.command)}`);
        const timeout = raw.timeout ?? raw.timeoutSec;
        if (timeout !== undefined && !(typeof timeout === 'number' && Number.isInteger(timeout) && timeout >= 0))
          return refuse(
            [...hat, 'timeout'],
            `"timeout" must be a whole number of seconds, got ${JSON.stringify(timeout) ?? kind(timeout)}`,
          );
        if (raw.async !== undefined && typeof raw.async !== 'boolean')
          return refuse([...hat, 'async'], `"async" must be true or false, got ${kind(raw.async)}`);
        const limit = raw.additionalContextLimit;
        if (limit !== undefined && !(typeof limit === 'number' && Number.isInteger(limit) && limit >= 0))
          return refuse(
            [...hat, 'additionalContextLimit'],
            `"additionalContextLimit" must be a whole number, got ${JSON.stringify(limit) ?? kind(limit)}`,
          );
        if (raw.statusMessage !== undefined && typeof raw.statusMessage !== 'string')
          return refuse([...hat, 'statusMessage'], `"statusMessage" must be a string, got ${kind(raw.statusMessage)}`);
        // Hookline's fail-closed switch, as for Claude Code hooks; a value it cannot read fails closed too.
        const blocks = raw.onFailure !== undefined && raw.onFailure !== 'continue' && raw.onFailure !== 'ignore';
        if (blocks && raw.onFailure !== 'block')
          problem(
            [...hat, 'onFailure'],
            `"onFailure" must be "block" (fail closed) or left out, got ${JSON.stringify(raw.onFailure) ?? kind(raw.onFailure)}; this hook fails closed`,
          );
        if (blocks && raw.async === true)
          problem([...hat, 'onFailure'], 'a background (async) hook cannot block: "onFailure": "block" has no effect here', 'warning');
        for (const k of Object.keys(raw)) if (!HANDLER_KEYS.has(k)) problem([...hat, k], `unknown field "${k}" (ignored)`, 'warning');
        if (!raw.command.trim()) {
          problem([...hat, 'command'], 'empty command: skipped, as Codex skips it', 'warning');
          continue;
        }
        if (compiled && !compiled.ok) {
          problem(
            [...gat, 'matcher'],
            `invalid matcher ${JSON.stringify(matcher)}: ${compiled.error}; this group is skipped, as Codex skips it`,
          );
          break;
        }
        handlers.push({
          event: name,
          group: g,
          handler: h,
          ...(matcher !== undefined ? { matcher } : {}),
          path: jsonPath(hat),
          def: {
            command: raw.command,
            timeout: Math.max(1, typeof timeout === 'number' ? timeout : 600),
            async: raw.async === true,
            ...(typeof raw.statusMessage === 'string' ? { statusMessage: raw.statusMessage } : {}),
            ...(typeof limit === 'number' ? { additionalContextLimit: limit } : {}),
          },
          ...(blocks ? { onFailure: 'block' as const } : {}),
        });
      }
    }
  }
  // Codex takes a file's hooks event by event, in its own order (a stable sort keeps each event's as written).
  handlers.sort((a, b) => CODEX_LOAD_ORDER.indexOf(a.event) - CODEX_LOAD_ORDER.indexOf(b.event));
  return { handlers, problems };
}

/** A file's text, undefined when missing; too large or unreadable is a problem, a folder an error. */
function readText(file: string, problems: ConfigProblem[]): string | undefined {
  try {
    return readLimitedText(file);
  } catch (e) {
    const x = e as NodeJS.ErrnoException;
    if (x.code === 'ENOENT' || x.code === 'ENOTDIR') return undefined;
    if (e instanceof FileTooLargeError) {
      problems.push({ file, path: '', message: `not read: ${x.message} (no hook from this file is loaded)`, severity: 'error' });
      return undefined;
    }
    if (x.code === 'EISDIR') throw new CodexConfigReadError(`Codex configuration ${file} is a folder`);
    throw new CodexConfigReadError(`cannot read Codex configuration ${file}: ${x.message}`);
  }
}

/** A config.toml's contents (undefined when missing or not TOML: the problem says so). */
function readTomlFile(file: string, problems: ConfigProblem[]): { exists: boolean; value?: Record<string, unknown> } {
  const text = readText(file, problems);
  if (text === undefined) return { exists: fs.existsSync(file) };
  try {
    const value = parseToml(text) as Record<string, unknown>;
    if (valueNestsDeeper(value)) {
      problems.push({ file, path: '', message: `${tooDeep('TOML')}; not read`, severity: 'error' });
      return { exists: true };
    }
    return { exists: true, value };
  } catch (e) {
    const first = (e as Error).message.split('\n')[0];
    problems.push({ file, path: '', message: `not valid TOML: ${first} (nothing in this file is read)`, severity: 'error' });
    return { exists: true };
  }
}

function readHooksJson(file: string, problems: ConfigProblem[]): { exists: boolean; events?: unknown } {
  const text = readText(file, problems);
  if (text === undefined) return { exists: fs.existsSync(file) };
  const parsed = parseJson(text);
  if (!parsed.ok) {
    problems.push({ file, path: '', message: `${parsed.message} (Codex loads no hook from this file)`, severity: 'error' });
    return { exists: true };
  }
  if (!isObject(parsed.value)) {
    problems.push({ file, path: '', message: `must be an object with "hooks", got ${kind(parsed.value)}`, severity: 'error' });
    return { exists: true };
  }
  return { exists: true, events: parsed.value.hooks };
}

/** The project's root: the closest folder up from `cwd` holding `.git`, else `cwd`. */
export function codexProjectRoot(cwd: string): string {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(cwd);
  }
}

/** The `.codex` folders Codex reads for a working folder: from the project's root down to it (the home's own excluded). */
export function codexProjectDirs(cwd: string, home: string): { root: string; dirs: string[] } {
  const root = codexProjectRoot(cwd);
  const dirs: string[] = [];
  const rel = path.relative(root, path.resolve(cwd));
  const steps = rel ? rel.split(path.sep) : [];
  for (let i = 0; i <= steps.length; i++) {
    const dir = path.join(root, ...steps.slice(0, i), '.codex');
    if (dir !== home) dirs.push(dir);
  }
  return { root, dirs };
}

/** Whether the user's config.toml trusts the project (its root, or the working folder). */
function projectTrusted(user: Record<string, unknown> | undefined, root: string, cwd: string): boolean {
  const projects = user?.projects;
  if (!isObject(projects)) return false;
  return [root, path.resolve(cwd)].some((p) => isObject(projects[p]) && (projects[p] as Record<string, unknown>).trust_level === 'trusted');
}

/** The user's `[hooks.state]` records by key. */
interface HookState {
  enabled?: boolean;
  trusted_hash?: string;
  trusted_content_hash?: string;
}

function hookStates(user: Record<string, unknown> | undefined): Map<string, HookState> {
  const out = new Map<string, HookState>();
  const state = isObject(user?.hooks) ? (user.hooks as Record<string, unknown>).state : undefined;
  if (!isObject(state)) return out;
  for (const [key, v] of Object.entries(state)) {
    if (!isObject(v) || !key.trim()) continue;
    out.set(key.trim(), {
      ...(typeof v.enabled === 'boolean' ? { enabled: v.enabled } : {}),
      ...(typeof v.trusted_hash === 'string' ? { trusted_hash: v.trusted_hash } : {}),
      ...(typeof v.trusted_content_hash === 'string' ? { trusted_content_hash: v.trusted_content_hash } : {}),
    });
  }
  return out;
}

const CLAUDE_SOURCE: Record<CodexLayer, ClaudeSource> = {
  managed: 'managed',
  system: 'managed',
  user: 'user',
  project: 'project',
  explicit: 'explicit',
  plugin: 'plugin',
};

export interface LoadCodexOptions {
  projectDir: string;
  env?: NodeJS.ProcessEnv;
  /** A hooks file (hooks.json or config.toml) read in place of the project's layers (`--config`). */
  file?: string;
}

/** Loads every layer, in Codex's order, with each hook's trust as Codex decides it. */
export function loadCodexConfig(opts: LoadCodexOptions): CodexConfig {
  const env = opts.env ?? process.env;
  const home = codexHome(env);
  const problems: ConfigProblem[] = [];
  const files: CodexFile[] = [];
  const hooks: CodexHook[] = [];
  const userConfig = path.join(home, 'config.toml');
  const user = readTomlFile(userConfig, problems);
  const states = hookStates(user.value);
  const system = codexSystemDir(env);
  const requirementsFile = path.join(system, 'requirements.toml');
  const requirements = readTomlFile(requirementsFile, problems);
  const managedOnly = requirements.value?.allow_managed_hooks_only === true;
  const { root, dirs } = codexProjectDirs(opts.projectDir, home);
  const trusted = projectTrusted(user.value, root, opts.projectDir);
  let order = 0;
  const add = (
    layer: CodexLayer,
    file: string,
    keySource: string,
    events: unknown,
    at: ReadonlyArray<string | number>,
    plugin?: { plugin: CodexPlugin; contentHash: string },
  ) => {
    const r = readCodexHooks(events, file, at);
    problems.push(...(plugin ? r.problems.map((p) => ({ ...p, message: `plugin ${plugin.plugin.id}: ${p.message}` })) : r.problems));
    const managed = layer === 'managed' || layer === 'system';
    for (const p of r.handlers) {
      const key = `${keySource}:${codexEventLabel(p.event)}:${p.group}:${p.handler}`;
      const hash = codexHookHash(p.event, p.matcher, p.def);
      const state = states.get(key);
      // A record without a content hash vouches for the hook alone, as in Codex.
      const content = plugin && state?.trusted_content_hash !== undefined ? state.trusted_content_hash === plugin.contentHash : true;
      const trust: CodexTrust = managed
        ? 'managed'
        : layer === 'explicit'
          ? 'named'
          : state?.trusted_hash === undefined
            ? 'untrusted'
            : state.trusted_hash === hash && content
              ? 'trusted'
              : 'modified';
      const matcher = compileCodexMatcher(p.matcher);
      hooks.push({
        type: 'command',
        command: p.def.command,
        timeoutSeconds: p.def.timeout,
        ...(p.def.statusMessage !== undefined ? { statusMessage: p.def.statusMessage } : {}),
        ...(p.def.async ? { async: true } : {}),
        ...(p.onFailure ? { onFailure: p.onFailure } : {}),
        handler: { ...p.def, ...(p.onFailure ? { onFailure: p.onFailure } : {}) },
        event: CODEX_CATALOG[p.event].claude,
        source: CLAUDE_SOURCE[layer],
        file,
        path: p.path,
        ...(p.matcher !== undefined ? { matcher: p.matcher } : {}),
        match: { kind: 'regex', test: matcher.ok ? matcher.test : () => false },
        codex: {
          event: p.event,
          layer,
          key,
          hash,
          ...(plugin ? { contentHash: plugin.contentHash, plugin: plugin.plugin } : {}),
          trust,
          enabled: managed || state?.enabled !== false,
          // Codex does not know StopFailure: it takes no number.
          order: p.event === 'StopFailure' ? -1 : order++,
          loaded: layer !== 'project' || trusted,
        },
      });
    }
  };
  const layer = (which: CodexLayer, dir: string, toml: { exists: boolean; value?: Record<string, unknown> }, tomlFile: string) => {
    const json = path.join(dir, 'hooks.json');
    const j = readHooksJson(json, problems);
    files.push({ layer: which, file: json, exists: j.exists }, { layer: which, file: tomlFile, exists: toml.exists });
    const tomlHooks = isObject(toml.value?.hooks) ? toml.value.hooks : undefined;
    const jsonCount = isObject(j.events) ? Object.keys(j.events).length : 0;
    const tomlCount = tomlHooks ? Object.keys(tomlHooks).filter((k) => k !== 'state').length : 0;
    if (jsonCount && tomlCount)
      problems.push({
        file: json,
        path: '',
        message: `hooks are in both ${json} and ${tomlFile}; both load (Codex prefers one of them per folder)`,
        severity: 'warning',
      });
    add(which, json, json, j.events, ['hooks']);
    add(which, tomlFile, tomlFile, tomlHooks, ['hooks']);
  };
  /** A plugin's hooks, keyed by the plugin; none when Codex cannot fingerprint its contents. */
  const pluginLayer = (plugin: CodexPlugin) => {
    const sources = codexPluginHookSources(plugin, problems);
    if (!sources.length) return;
    let contentHash: string;
    try {
      contentHash = codexPluginFingerprint(plugin.root);
    } catch (e) {
      const why = e instanceof PluginFingerprintError ? e.message : `cannot read it: ${(e as Error).message}`;
      problems.push({
        file: plugin.root,
        path: '',
        message: `plugin ${plugin.id}: its hooks do not run, as in Codex, which cannot fingerprint its contents (${why})`,
        severity: 'warning',
      });
      return;
    }
    for (const src of sources) {
      const keySource = `${plugin.id}:${src.keyName}`;
      if (src.inline) {
        add('plugin', src.file, keySource, (src.inline.value as { hooks: unknown }).hooks, src.inline.at, { plugin, contentHash });
        continue;
      }
      const j = readHooksJson(src.file, problems);
      files.push({ layer: 'plugin', file: src.file, exists: j.exists });
      if (!j.exists && src.keyName !== 'hooks/hooks.json')
        problems.push({
          file: src.file,
          path: '',
          message: `plugin ${plugin.id}: its manifest names this hooks file, which does not exist`,
          severity: 'warning',
        });
      add('plugin', src.file, keySource, j.events, ['hooks'], { plugin, contentHash });
    }
  };
  // Managed hooks first: requirements.toml's [hooks], keyed by its managed_dir when absolute.
  if (requirements.value) {
    files.push({ layer: 'managed', file: requirementsFile, exists: true });
    const managed = requirements.value.hooks ?? requirements.value.managed_hooks;
    const dir =
      isObject(managed) && typeof managed.managed_dir === 'string' && path.isAbsolute(managed.managed_dir)
        ? managed.managed_dir
        : undefined;
    const events = isObject(managed)
      ? Object.fromEntries(Object.entries(managed).filter(([k]) => k !== 'managed_dir' && k !== 'windows_managed_dir'))
      : managed;
    add('managed', requirementsFile, dir ?? requirementsFile, events, ['hooks']);
  }
  // The system layer is managed too: allow_managed_hooks_only keeps it.
  const systemToml = path.join(system, 'config.toml');
  const systemConfig = readTomlFile(systemToml, problems);
  layer('system', system, systemConfig, systemToml);
  const plugins: CodexPlugin[] = [];
  // Each [plugins] table, lowest precedence first: the system's, the user's, then the project's folders.
  const tables: PluginTable[] = [
    { file: systemToml, own: true, value: systemConfig.value?.plugins },
    { file: userConfig, own: true, value: user.value?.plugins },
  ];
  if (!managedOnly) {
    layer('user', home, user, userConfig);
    const named = opts.file ? path.resolve(opts.file) : undefined;
    // A named file that is one of Codex's own (the user's hooks.json) is read once, in its layer, with its records.
    if (named) {
      if (!files.some((f) => f.file === named && f.exists)) {
        const file = named;
        if (file.endsWith('.toml')) {
          const t = readTomlFile(file, problems);
          files.push({ layer: 'explicit', file, exists: t.exists });
          add('explicit', file, file, isObject(t.value?.hooks) ? t.value.hooks : undefined, ['hooks']);
        } else {
          const j = readHooksJson(file, problems);
          files.push({ layer: 'explicit', file, exists: j.exists });
          add('explicit', file, file, j.events, ['hooks']);
        }
      }
    } else {
      // Read even when Codex would not load them (an untrusted project), so they can be listed and trusted.
      for (const dir of dirs) {
        const tomlFile = path.join(dir, 'config.toml');
        const toml = readTomlFile(tomlFile, problems);
        layer('project', dir, toml, tomlFile);
        // A project's [plugins] count where Codex reads its config.toml: a trusted project.
        if (trusted) tables.push({ file: tomlFile, own: false, value: toml.value?.plugins });
      }
    }
    const found = enabledCodexPlugins(home, tables);
    problems.push(...found.problems);
    for (const plugin of found.plugins) {
      plugins.push(plugin);
      pluginLayer(plugin);
    }
  }
  return { home, userConfig, files, hooks, plugins, project: { dirs, trusted, root }, managedOnly, problems };
}

/** The project's `.codex` hook files that exist, whether or not Codex loads them (untrusted project). */
export function codexProjectFiles(config: CodexConfig): string[] {
  return config.project.dirs.flatMap((d) => [path.join(d, 'hooks.json'), path.join(d, 'config.toml')]).filter((f) => fs.existsSync(f));
}

/** Whether Codex would run a hook by its own records: enabled, and managed or trusted with its current hash. */
export const codexRuns = (h: CodexHook): boolean =>
  h.codex.loaded && h.codex.enabled && (h.codex.trust === 'managed' || h.codex.trust === 'named' || h.codex.trust === 'trusted');

/** The hooks as the Claude Code runner takes them, without those not to run. */
export function codexRunnable(config: CodexConfig, held: ReadonlySet<string> = new Set()): ClaudeConfig {
  return { files: [], plugins: [], problems: [], hooks: config.hooks.filter((h) => codexRuns(h) && !held.has(codexHookId(h))) };
}

/** The variables a Codex hook's command gets: its plugin's folders, for a plugin's hook (Codex sets `CODEX_HOME` for all). */
export function codexHookVariables(h: ClaudeHook): Record<string, string> {
  const plugin = (h as CodexHook).codex?.plugin;
  return plugin ? codexPluginVariables(plugin) : {};
}

/** How the Claude Code runner runs Codex's hooks: identical ones each (Codex does), a plugin's folders as `${NAME}`. */
export const CODEX_RUNNER = { variables: codexHookVariables, expand: expandCodexCommand, everyHook: true, dialect: 'codex' } as const;

/** A hook's identity: its file and where it is in it. */
export const codexHookId = (h: Pick<CodexHook, 'file' | 'path'>): string => `${h.file}#${h.path}`;
