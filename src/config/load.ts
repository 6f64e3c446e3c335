import fs from 'node:fs';
import path from 'node:path';
import util from 'node:util';
import { parseJsonc } from './jsonc.js';
import { danglingLink, readLimitedText, textNestsDeeper, tooDeep } from './limits.js';
import { validateLayer, type LayerResult } from './validate.js';
import { enablementFile, extensionEnabled, manifestName, readEnablement } from './extension-enablement.js';
import {
  extensionsDir,
  projectSettingsPath,
  systemSettingsPath,
  trustedFoldersPath,
  trustedHooksPath,
  userGeminiDir,
  userSettingsPath,
  type Env,
} from './paths.js';
import { displayName, type HookEntry, type Source } from './entry.js';
import type { ConfigProblem } from './problems.js';
import { newWatched, record, stampOf, watchedChanged, type Stamp, type Watched } from './watched.js';

export interface SettingsFile {
  source: Source;
  file: string;
  exists: boolean;
  /** Change stamp (mtime and size) used to reload only when a file changes. */
  stamp: string;
  extension?: string;
}

export interface RedactionSettings {
  enabled: boolean;
  allowed: string[];
  blocked: string[];
}

/** What one settings layer says about turning hooks on and off. */
export interface LayerSwitches {
  /** `hooksConfig.enabled`, when the layer sets it. */
  enabled?: boolean;
  /** `hooksConfig.disabled` (and the older `hooks.disabled`). */
  disabled: string[];
  /** `hooksConfig.prewarm`, when the layer sets it. */
  prewarm?: boolean;
}

export interface LoadedConfig {
  projectDir: string;
  files: SettingsFile[];
  /**
   * Every hook from settings, in source priority order, with `enabled` applied (see
   * applyEnablement; as loaded, the workspace's switches are not applied).
   */
  entries: HookEntry[];
  problems: ConfigProblem[];
  /** The names disabled, by the layers that count. */
  disabled: string[];
  /** False when `hooksConfig.enabled: false` turns every settings hook off. */
  hooksEnabled: boolean;
  /** Each layer's switches, as written (extensions count with the user's). */
  switches: { system: LayerSwitches; user: LayerSwitches; project: LayerSwitches };
  folderTrustEnabled: boolean;
  /** The redaction in force (a trusted workspace's `blocked` names added; see applyEnablement). */
  redaction: RedactionSettings;
  /** The redaction of the system and user settings, before any workspace addition. */
  userRedaction: RedactionSettings;
  /** The workspace's `security.environmentVariableRedaction.blocked`, as written. */
  projectRedactionBlocked: string[];
  /** What the settings were read from or looked for: a change to any of it reloads. */
  watched: Watched;
}

/**
 * Where settings are looked for: the project folder, every place the environment decides, and the
 * variables folder trust reads (src/trust/folders.ts), which decide what the workspace may run.
 */
function placesOf(env: Env, projectDir: string): string {
  return `${projectDir}\0${userGeminiDir(env)}\0${systemSettingsPath(env)}\0${trustedFoldersPath(env)}\0${env.GEMINI_CLI_TRUST_WORKSPACE}\0${env.GEMINI_RESTRICTED_MODE}`;
}

export interface LoadOptions {
  /** The project (workspace) folder; `.gemini/settings.json` is read from here. */
  projectDir: string;
  env?: Env;
}

/**
 * Why a settings file a stat did not find is not simply absent, if it is not: a link to nothing,
 * a link loop, a folder that cannot be entered. Its hooks cannot load, and that is said.
 */
function unreachable(file: string): string | undefined {
  try {
    fs.statSync(file);
    return undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') return undefined;
    if (code !== 'ENOENT') return (e as Error).message;
  }
  return danglingLink(file);
}

function readLayer(info: SettingsFile): { layer?: LayerResult; info: SettingsFile; problems: ConfigProblem[] } {
  const { file, source, extension } = info;
  if (!info.exists) {
    const why = unreachable(file);
    return { info, problems: why ? [{ file, path: '', message: `cannot read: ${why}`, severity: 'error' }] : [] };
  }
  let text: string;
  try {
    text = readLimitedText(file);
  } catch (err) {
    return { info, problems: [{ file, path: '', message: `cannot read: ${(err as Error).message}`, severity: 'error' }] };
  }
  if (text.trim() === '') return { info, problems: [] };
  if (textNestsDeeper(text, undefined, true))
    return { info, problems: [{ file, path: '', message: `${tooDeep('its JSON')}; not read`, severity: 'error' }] };
  const parsed = parseJsonc(text);
  if (!parsed.ok) return { info, problems: [{ file, path: '', message: parsed.message, severity: 'error' }] };
  const layer = validateLayer(parsed.value, file, source, extension);
  return { layer, info, problems: layer.problems };
}

/** An installed extension's folder: where `gemini extensions link` pointed it, else its own. */
function extensionRoot(installed: string, watched: Watched): string {
  try {
    const file = path.join(installed, '.gemini-extension-install.json');
    record(watched, file);
    const meta: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    const m = meta as { type?: unknown; source?: unknown };
    if (m.type === 'link' && typeof m.source === 'string' && path.isAbsolute(m.source)) return m.source;
  } catch {
    // No install metadata (or unreadable): the folder itself, as Gemini CLI falls back.
  }
  return installed;
}

/**
 * Extensions live in `~/.gemini/extensions/<name>/` (or, installed with `gemini extensions link`,
 * in the folder its install metadata names), their hooks in `hooks/hooks.json` only, as Gemini CLI
 * reads them (a manifest's own `hooks` is not read); an extension disabled for this folder
 * (`gemini extensions disable`) is left out.
 */
function extensionFiles(env: Env, projectDir: string, watched: Watched): Array<{ file: string; name: string; found: Stamp }> {
  const dir = extensionsDir(env);
  // The folder's own stamp moves when an extension is added, removed or renamed.
  if (!record(watched, dir).exists) return [];
  let names: string[];
  try {
    // Folders (or links to them): the enablement file beside them is no extension.
    names = fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() || d.isSymbolicLink())
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
  // (The enablement file is watched by loadConfig, which reads it first.)
  const enablement = readEnablement(env);
  const out: Array<{ file: string; name: string; found: Stamp }> = [];
  for (const name of names) {
    const root = extensionRoot(path.join(dir, name), watched);
    record(watched, path.join(root, 'gemini-extension.json'));
    if (!extensionEnabled(enablement, manifestName(root) ?? name, projectDir)) continue;
    const file = path.join(root, 'hooks', 'hooks.json');
    // Stamped before it is looked at; a missing one is watched too, so one added later is read.
    const found = stampOf(file);
    if (found.exists) out.push({ file, name, found });
    else record(watched, file, found);
  }
  return out;
}

/**
 * An extension's settings, as Gemini CLI gives them to its hooks: the variables its manifest
 * declares (`settings[].envVar`) with their values from the `.env` in its installed folder. Only
 * declared names: another line of that file is not for the hooks. Values kept in the system
 * keychain (`sensitive` settings) are not read.
 */
function extensionSettings(root: string, installed: string, watched: Watched): Record<string, string> | undefined {
  const parseEnv = (util as { parseEnv?: (text: string) => Record<string, string> }).parseEnv;
  if (!parseEnv) return undefined;
  let declared: string[];
  try {
    const manifest = JSON.parse(readLimitedText(path.join(root, 'gemini-extension.json'))) as { settings?: unknown };
    declared = Array.isArray(manifest.settings)
      ? manifest.settings.flatMap((s: unknown) =>
          s && typeof s === 'object' && typeof (s as { envVar?: unknown }).envVar === 'string' ? [(s as { envVar: string }).envVar] : [],
        )
      : [];
  } catch {
    return undefined;
  }
  if (!declared.length) return undefined;
  let values: Record<string, string>;
  try {
    const file = path.join(installed, '.env');
    record(watched, file);
    values = parseEnv(readLimitedText(file));
  } catch {
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const name of declared) if (typeof values[name] === 'string') out[name] = values[name];
  return Object.keys(out).length ? out : undefined;
}

/**
 * The settings files, in source priority order, each stat'ed once (its stamp is what a warm
 * engine compares before every event). A project opened in the home folder would read the user
 * file twice: the same file (by device and inode) as project and user is the user's.
 */
function settingsFiles(opts: LoadOptions, watched: Watched): SettingsFile[] {
  const env = opts.env ?? process.env;
  const user = userSettingsPath(env);
  const project = projectSettingsPath(opts.projectDir);
  const list: SettingsFile[] = [];
  const own = record(watched, user);
  const workspace = path.resolve(project) === path.resolve(user) ? own : record(watched, project);
  if (workspace !== own && (workspace.id === undefined || workspace.id !== own.id))
    list.push({ source: 'project', file: project, exists: workspace.exists, stamp: workspace.stamp, extension: undefined });
  list.push({ source: 'user', file: user, exists: own.exists, stamp: own.stamp, extension: undefined });
  const add = (file: string, source: Source, extension?: string, found?: Stamp) => {
    const { exists, stamp } = record(watched, file, found);
    list.push({ source, file, exists, stamp, extension });
  };
  add(systemSettingsPath(env), 'system');
  for (const ext of extensionFiles(env, opts.projectDir, watched)) add(ext.file, 'extensions', ext.name, ext.found);
  return list;
}

export function loadConfig(opts: LoadOptions): LoadedConfig {
  const env = opts.env ?? process.env;
  const watched = newWatched(placesOf(env, opts.projectDir));
  // The trust files first: trusting elsewhere reloads too, and a change while the rest is read is not missed.
  record(watched, trustedFoldersPath(env));
  record(watched, trustedHooksPath(env));
  record(watched, enablementFile(env));
  const files: SettingsFile[] = [];
  const problems: ConfigProblem[] = [];
  const entries: HookEntry[] = [];
  const layers: Partial<Record<Source, LayerResult>> = {};
  const switches: LoadedConfig['switches'] = { system: { disabled: [] }, user: { disabled: [] }, project: { disabled: [] } };
  const enablement = readEnablement(env);
  if (!enablement.ok) problems.push({ file: enablementFile(env), path: '', message: enablement.problem, severity: 'error' });
  for (const settings of settingsFiles(opts, watched)) {
    const { file, source, extension } = settings;
    const r = readLayer(settings);
    files.push(r.info);
    problems.push(...r.problems);
    if (!r.layer) continue;
    if (source !== 'extensions') layers[source] = r.layer;
    if (source === 'extensions' && extension) {
      const settings = extensionSettings(path.dirname(path.dirname(file)), path.join(extensionsDir(env), extension), watched);
      if (settings) for (const e of r.layer.entries) e.extensionEnv = settings;
    }
    entries.push(...r.layer.entries);
    // An extension is installed by the user: its switches count as the user's.
    const own = switches[source === 'extensions' || source === 'runtime' ? 'user' : source];
    own.disabled.push(...r.layer.disabled.filter((d) => !own.disabled.includes(d)));
  }
  const sys = layers.system?.settings;
  const usr = layers.user?.settings;
  const prj = layers.project?.settings;
  switches.system.enabled = sys?.hooksConfig?.enabled;
  switches.user.enabled = usr?.hooksConfig?.enabled;
  switches.project.enabled = prj?.hooksConfig?.enabled;
  for (const [layer, s] of [
    ['system', sys],
    ['user', usr],
    ['project', prj],
  ] as const)
    if (s?.hooksConfig?.prewarm !== undefined) switches[layer].prewarm = s.hooksConfig.prewarm;
  // Security settings come from the user and system layers only: a project must not be able to
  // turn off the gates that protect the user from that project.
  const folderTrustEnabled = sys?.security?.folderTrust?.enabled ?? usr?.security?.folderTrust?.enabled ?? true;
  const red = [sys, usr].map((s) => s?.security?.environmentVariableRedaction);
  const userRedaction: RedactionSettings = {
    enabled: red[0]?.enabled ?? red[1]?.enabled ?? true,
    allowed: [...new Set([...(red[0]?.allowed ?? []), ...(red[1]?.allowed ?? [])])],
    blocked: [...new Set([...(red[0]?.blocked ?? []), ...(red[1]?.blocked ?? [])])],
  };
  const loaded: LoadedConfig = {
    projectDir: opts.projectDir,
    files,
    entries,
    problems,
    disabled: [],
    hooksEnabled: true,
    switches,
    folderTrustEnabled,
    redaction: userRedaction,
    userRedaction,
    projectRedactionBlocked: [...(prj?.security?.environmentVariableRedaction?.blocked ?? [])],
    watched,
  };
  // Until the caller knows the folder is trusted, the workspace's settings change nothing.
  return applyEnablement(loaded, { workspaceTrusted: false });
}

/**
 * Decides, without reading anything, which hooks are enabled and which redaction is in force.
 * System and user settings decide (`hooksConfig.enabled` of the system layer, else the user's;
 * every name either disables). An untrusted workspace changes nothing at all. A trusted one may
 * only take away: `hooksConfig.enabled: false` and its `disabled` names turn hooks off, its
 * `enabled: true` never turns on what the user or system turned off, and its redaction
 * `blocked` names are added.
 */
export function applyEnablement(config: LoadedConfig, opts: { workspaceTrusted: boolean }): LoadedConfig {
  const { system, user, project } = config.switches;
  const ws = opts.workspaceTrusted;
  const hooksEnabled = (system.enabled ?? user.enabled ?? true) && !(ws && project.enabled === false);
  const disabled = [...new Set([...system.disabled, ...user.disabled, ...(ws ? project.disabled : [])])];
  const off = new Set(disabled);
  // As settings merge: system over a trusted workspace over user.
  const prewarm = system.prewarm ?? (ws ? project.prewarm : undefined) ?? user.prewarm;
  const entries = config.entries.map((e) => ({
    ...e,
    enabled: hooksEnabled && !off.has(displayName(e.hook)),
    ...(prewarm !== undefined ? { prewarm } : {}),
  }));
  const redaction = {
    ...config.userRedaction,
    blocked: [...new Set([...config.userRedaction.blocked, ...(ws ? config.projectRedactionBlocked : [])])],
  };
  return { ...config, entries, disabled, hooksEnabled, redaction };
}

/** True when anything the settings were read from changed since `config` was loaded (or they are looked for elsewhere now). */
export function isStale(config: LoadedConfig, opts: LoadOptions): boolean {
  if (placesOf(opts.env ?? process.env, opts.projectDir) !== config.watched.places) return true;
  return watchedChanged(config.watched);
}
