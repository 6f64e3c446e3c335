/**
 * Copilot CLI's hook configuration, found where Copilot CLI 1.0.102 reads it, in the order its
 * hooks run: the user's `~/.copilot/hooks/*.json` (`$COPILOT_HOME` moves `~/.copilot`) and
 * `~/.copilot/settings.json`, then the workspace's `.github/hooks/*.json`, `.claude/settings.json`,
 * `.claude/settings.local.json`, `.github/copilot/settings.json` and
 * `.github/copilot/settings.local.json` (or one `--config FILE` instead of the workspace's). A
 * hooks folder is read in descending order of file name, as Copilot reads it; `~/.claude/settings.json`
 * is not read.
 *
 * A file holds `{"version": 1, "hooks": {<event>: [entry…]}}` (settings files: `hooks` beside
 * their other settings). An entry is Copilot's flat form (`{"type": "command", "bash",
 * "powershell", "command", "cwd", "env", "timeoutSec" | "timeout", "matcher"}`, or `"type":
 * "http"` with `url`) or Claude Code's group (`{"matcher", "hooks": [entry…]}`). Every problem
 * names the file and the JSON path; an entry with an error is left out, the rest still load.
 */
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { parseJson } from '../../config/jsonc.js';
import { FileTooLargeError, readLimitedText, textNestsDeeper, tooDeep } from '../../config/limits.js';
import { jsonPath, type ConfigProblem } from '../../config/problems.js';
import { compileLinear } from '../../config/regex.js';
import { MAX_TIMEOUT_MS, MAX_TIMEOUT_TEXT } from '../../config/timeout.js';
import type { DialectHook } from '../../trust/dialects.js';
import { fingerprintHook, type HookFingerprint } from '../../trust/keys.js';
import {
  COPILOT_EVENTS,
  TOOL_EVENTS,
  UNFIRED_EVENTS,
  closestCopilotEvent,
  copilotEventOf,
  type CopilotEvent,
  type Shape,
} from './events.js';
import { isObject, kind } from '../json.js';

/** Copilot CLI's default hook timeout, in seconds. */
export const DEFAULT_TIMEOUT_SECONDS = 30;

/** `user`: the user's own files; `workspace`: the project's (trusted before they run); `explicit`: `--config`. */
export type CopilotSource = 'user' | 'workspace' | 'explicit';

export interface CopilotHook {
  event: CopilotEvent;
  /** The event's name as written (its casing chooses the payloads and answers). */
  name: string;
  shape: Shape;
  source: CopilotSource;
  file: string;
  /** Where it is in the file, e.g. `hooks.preToolUse[0]`. */
  path: string;
  type: 'command' | 'http';
  /** What runs: the command for bash, or the URL. */
  command: string;
  /** The folder it runs in (absolute): its `cwd` against the project, else the project. */
  cwd?: string;
  /** Its `env` block. */
  env: Record<string, string>;
  timeoutSeconds: number;
  /** The matcher as written (the entry's or its group's). */
  matcher?: string;
  /** Whether it runs for a tool, given Copilot's name and the Claude name of the tool. */
  matches(copilotName: string, claudeName: string): boolean;
  /** `block`: a failure or a timeout denies, as a deny would (Hookline's fail closed; Copilot CLI ignores the field). */
  onFailure?: 'block';
  /** The hooks folder it comes from: its hooks get `COPILOT_HOOK_DIR`. */
  hookDir?: string;
  /** The entry as written (with its group's matcher): every field of it is in the fingerprint. */
  handler: Record<string, unknown>;
}

export interface CopilotFile {
  source: CopilotSource;
  file: string;
  exists: boolean;
  /** Its `disableAllHooks: true`: none of this file's hooks run. */
  disabled: boolean;
}

export interface CopilotConfig {
  files: CopilotFile[];
  /** Every runnable hook, in the order Copilot runs them. */
  hooks: CopilotHook[];
  problems: ConfigProblem[];
}

type Problem = (at: ReadonlyArray<string | number>, message: string, severity?: ConfigProblem['severity']) => void;

const ENTRY_KEYS = new Set(['type', 'bash', 'powershell', 'command', 'cwd', 'env', 'timeoutSec', 'timeout', 'matcher', 'url', 'onFailure']);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether a URL is on this machine (http hooks there need `COPILOT_HOOK_ALLOW_LOCALHOST=1`). */
export function isLoopbackUrl(u: URL): boolean {
  const h = u.hostname.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\./.test(h);
}

/**
 * The matcher test for an entry: Copilot's own entries match a regular expression against the
 * whole tool name (`bash`, not `Bash`; `*` and `""` match nothing); Claude-format entries (a
 * PascalCase event) match all tools without a matcher or with `*`, else the regular expression
 * against the whole Claude name or the whole Copilot name (`Bash` and `bash` both match).
 * Patterns run on RE2 (linear time); one RE2 cannot run matches nothing.
 */
export function compileMatcher(
  matcher: string | undefined,
  shape: Shape,
): { test: (copilot: string, claude: string) => boolean; error?: string } {
  if (matcher === undefined || (shape === 'claude' && matcher === '*')) return { test: () => true };
  const c = compileLinear(`^(?:${matcher})$`);
  if (!c.ok) return { test: () => false, error: c.message };
  return { test: (copilot, claude) => c.regex.test(copilot) || (shape === 'claude' && c.regex.test(claude)) };
}

interface EntryContext {
  file: string;
  source: CopilotSource;
  projectDir: string;
  hookDir?: string;
  env: NodeJS.ProcessEnv;
}

/** Reads one flat entry; undefined when it cannot run (the problems say why). */
function readEntry(
  raw: Record<string, unknown>,
  at: Array<string | number>,
  problem: Problem,
  ev: { event: CopilotEvent; name: string; shape: Shape },
  group: { matcher?: string } | undefined,
  ctx: EntryContext,
): CopilotHook | undefined {
  const type = raw.type ?? 'command';
  if (type === 'prompt') {
    problem([...at, 'type'], 'a "prompt" hook submits a prompt when an interactive session starts: Hookline does not run it', 'warning');
    return undefined;
  }
  for (const k of Object.keys(raw)) if (!ENTRY_KEYS.has(k)) problem([...at, k], `unknown field "${k}" (ignored)`, 'warning');
  if (type !== 'command' && type !== 'http') {
    problem([...at, 'type'], `unknown hook type ${JSON.stringify(type)}; expected "command" or "http"`);
    return undefined;
  }
  let ok = true;
  const fail = (key: string, message: string) => {
    ok = false;
    problem([...at, key], message);
  };
  let command: string | undefined;
  if (type === 'command') {
    for (const key of ['bash', 'command', 'powershell'])
      if (raw[key] !== undefined && (typeof raw[key] !== 'string' || !(raw[key] as string).trim()))
        fail(key, `"${key}" must be a non-empty string, got ${typeof raw[key] === 'string' ? 'an empty string' : kind(raw[key])}`);
    // Copilot runs `bash` on Linux and macOS, `command` where neither shell field is given.
    command =
      (typeof raw.bash === 'string' && raw.bash.trim() ? raw.bash : undefined) ??
      (typeof raw.command === 'string' && raw.command.trim() ? raw.command : undefined);
    if (command === undefined && ok) {
      if (raw.powershell !== undefined)
        problem(at, 'only a "powershell" command: on this system hooks run with bash, so it never runs (add "bash")', 'warning');
      else problem(at, 'missing "bash" (or "command"): the command to run');
      return undefined;
    }
  } else {
    if (typeof raw.url !== 'string' || !raw.url.trim()) fail('url', `missing "url" for an http hook`);
    else {
      let u: URL | undefined;
      try {
        u = new URL(raw.url);
      } catch {
        fail('url', `"${raw.url}" is not a valid URL`);
      }
      if (u && u.protocol !== 'https:' && !(u.protocol === 'http:' && isLoopbackUrl(u)))
        fail('url', `"${raw.url}" must be an https:// URL (Copilot CLI posts to http:// only on this machine)`);
      else if (u && (u.username || u.password)) fail('url', 'the URL must not carry credentials');
      else if (u && isLoopbackUrl(u) && ctx.env.COPILOT_HOOK_ALLOW_LOCALHOST !== '1') {
        problem(
          [...at, 'url'],
          `"${raw.url}" is on this machine: Copilot CLI skips it unless COPILOT_HOOK_ALLOW_LOCALHOST=1, and so does Hookline`,
          'warning',
        );
        return undefined;
      } else if (u) command = raw.url;
    }
  }
  let cwd: string | undefined;
  if (raw.cwd !== undefined) {
    if (typeof raw.cwd !== 'string' || !raw.cwd.trim())
      fail('cwd', `"cwd" must be a folder's path, got ${typeof raw.cwd === 'string' ? 'an empty string' : kind(raw.cwd)}`);
    else cwd = path.resolve(ctx.projectDir, raw.cwd);
  }
  const env: Record<string, string> = {};
  if (raw.env !== undefined) {
    if (!isObject(raw.env)) fail('env', `"env" must be an object of variable names and string values, got ${kind(raw.env)}`);
    else
      for (const [name, value] of Object.entries(raw.env)) {
        if (!ENV_NAME.test(name)) fail('env', `"${name}" is not a variable name`);
        else if (typeof value !== 'string' || value.includes('\0')) {
          ok = false;
          problem(
            [...at, 'env', name],
            typeof value !== 'string' ? `must be a string, got ${kind(value)}` : 'must not contain a NUL character',
          );
        } else env[name] = value;
      }
  }
  let timeoutSeconds = DEFAULT_TIMEOUT_SECONDS;
  const tkey = raw.timeoutSec !== undefined ? 'timeoutSec' : raw.timeout !== undefined ? 'timeout' : undefined;
  if (tkey) {
    const t = raw[tkey];
    if (typeof t !== 'number' || !Number.isFinite(t) || t <= 0)
      fail(tkey, `"${tkey}" must be a positive number of seconds, got ${JSON.stringify(t) ?? kind(t)}`);
    else if (t * 1000 > MAX_TIMEOUT_MS) {
      timeoutSeconds = MAX_TIMEOUT_MS / 1000;
      problem([...at, tkey], `${t} seconds is above the limit of ${MAX_TIMEOUT_TEXT}; ${timeoutSeconds} seconds is used`, 'warning');
    } else {
      timeoutSeconds = t;
      if (t >= 1000)
        problem(
          [...at, tkey],
          `${t} is in seconds (Copilot CLI's unit); for ${t} ms write ${Math.max(1, Math.round(t / 1000))}`,
          'warning',
        );
    }
  }
  let onFailure: 'block' | undefined;
  if (raw.onFailure !== undefined) {
    if (raw.onFailure === 'block') onFailure = 'block';
    else if (raw.onFailure !== 'continue')
      fail('onFailure', `"onFailure" must be "block" (fail closed) or left out, got ${JSON.stringify(raw.onFailure)}`);
  }
  let matcher = group?.matcher;
  if (raw.matcher !== undefined) {
    if (typeof raw.matcher !== 'string') fail('matcher', `"matcher" must be a string, got ${kind(raw.matcher)}`);
    else matcher = raw.matcher;
  }
  if (!ok || command === undefined) return undefined;
  const m = compileMatcher(matcher, ev.shape);
  if (matcher !== undefined && TOOL_EVENTS.has(ev.event)) {
    if (m.error)
      problem(
        [...at, 'matcher'],
        `${JSON.stringify(matcher)} is not a regular expression Copilot CLI can use (${m.error}): this hook never runs`,
        'warning',
      );
    else if (ev.shape === 'copilot' && matcher === '')
      problem(
        [...at, 'matcher'],
        'an empty matcher matches no tool in Copilot CLI: this hook never runs (leave "matcher" out to match every tool)',
        'warning',
      );
  } else if (matcher !== undefined && raw.matcher !== undefined)
    problem([...at, 'matcher'], `${ev.name} is not matched on a tool: the matcher is ignored`, 'warning');
  const tool = TOOL_EVENTS.has(ev.event);
  return {
    event: ev.event,
    name: ev.name,
    shape: ev.shape,
    source: ctx.source,
    file: ctx.file,
    path: jsonPath(at),
    type,
    command,
    ...(cwd ? { cwd } : {}),
    env,
    timeoutSeconds,
    ...(matcher !== undefined ? { matcher } : {}),
    matches: tool ? m.test : () => true,
    ...(onFailure ? { onFailure } : {}),
    ...(ctx.hookDir ? { hookDir: ctx.hookDir } : {}),
    handler: { ...raw, ...(group?.matcher !== undefined && raw.matcher === undefined ? { matcher: group.matcher } : {}) },
  };
}

export interface ParsedCopilotFile {
  hooks: CopilotHook[];
  problems: ConfigProblem[];
  disabled: boolean;
}

/** Reads one file's text: a hooks file (`{"version", "hooks"}`) or settings with `hooks`. Never throws. */
export function parseCopilotFile(text: string, ctx: EntryContext): ParsedCopilotFile {
  const { file } = ctx;
  const problems: ConfigProblem[] = [];
  const hooks: CopilotHook[] = [];
  const out: ParsedCopilotFile = { hooks, problems, disabled: false };
  const problem: Problem = (at, message, severity = 'error') => {
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
    problem([], `must be a JSON object with "hooks", got ${kind(root)}`);
    return out;
  }
  if (root.disableAllHooks === true) {
    out.disabled = true;
    return out;
  }
  if (root.version !== undefined && root.version !== 1)
    problem(['version'], `version ${JSON.stringify(root.version)}: Copilot CLI reads version 1`, 'warning');
  if (root.hooks === undefined) return out;
  if (!isObject(root.hooks)) {
    problem(['hooks'], `"hooks" must be an object of event names, got ${kind(root.hooks)}`);
    return out;
  }
  const found: CopilotHook[] = [];
  for (const [name, entries] of Object.entries(root.hooks)) {
    const ev = copilotEventOf(name);
    if (!ev) {
      const hint = closestCopilotEvent(name);
      problem(['hooks', name], `unknown event "${name}"${hint ? ` (did you mean "${hint}"?)` : ''}: its hooks never run`, 'warning');
      continue;
    }
    if (UNFIRED_EVENTS.has(ev.event))
      problem(
        ['hooks', name],
        `${name}: Hookline's agent has no moment for it (${ev.event === 'preMcpToolCall' ? 'no MCP client' : "its hand-offs are not Copilot's task subagents"}): its hooks never run`,
        'warning',
      );
    const list = isObject(entries) ? [entries] : entries;
    if (!Array.isArray(list)) {
      problem(['hooks', name], `"${name}" must be an array of hooks, got ${kind(entries)}`);
      continue;
    }
    for (const [i, e] of list.entries()) {
      const at: Array<string | number> = ['hooks', name, i];
      if (!isObject(e)) {
        problem(at, `a hook must be an object, got ${kind(e)}`);
        continue;
      }
      if (e.hooks !== undefined) {
        // Claude Code's group: {matcher, hooks: [entry…]}.
        if (!Array.isArray(e.hooks)) {
          problem([...at, 'hooks'], `"hooks" must be an array, got ${kind(e.hooks)}`);
          continue;
        }
        if (e.matcher !== undefined && typeof e.matcher !== 'string') {
          problem([...at, 'matcher'], `"matcher" must be a string, got ${kind(e.matcher)}`);
          continue;
        }
        if (e.matcher === '') {
          // Copilot CLI 1.0.102 then loads no hook from the whole file.
          problem(
            [...at, 'matcher'],
            'an empty matcher in a matcher group: Copilot CLI loads no hook from this file, and neither does Hookline (leave "matcher" out to match every tool)',
          );
          return { hooks: [], problems, disabled: false };
        }
        for (const k of Object.keys(e))
          if (k !== 'matcher' && k !== 'hooks') problem([...at, k], `unknown field "${k}" (ignored)`, 'warning');
        for (const [j, h] of e.hooks.entries()) {
          if (!isObject(h)) {
            problem([...at, 'hooks', j], `a hook must be an object, got ${kind(h)}`);
            continue;
          }
          const hook = readEntry(
            h,
            [...at, 'hooks', j],
            problem,
            { ...ev, name },
            { ...(typeof e.matcher === 'string' ? { matcher: e.matcher } : {}) },
            ctx,
          );
          if (hook) found.push(hook);
        }
        continue;
      }
      const hook = readEntry(e, at, problem, { ...ev, name }, undefined, ctx);
      if (hook) found.push(hook);
    }
  }
  hooks.push(...found);
  return out;
}

export class CopilotConfigReadError extends Error {}

/** Reads one file; a missing file has no hooks, an unreadable one throws CopilotConfigReadError. */
export function loadCopilotFile(ctx: EntryContext): ParsedCopilotFile & { exists: boolean } {
  let text: string;
  try {
    text = readLimitedText(ctx.file);
  } catch (e) {
    const x = e as NodeJS.ErrnoException;
    if (x.code === 'ENOENT' || x.code === 'ENOTDIR') return { exists: false, hooks: [], problems: [], disabled: false };
    if (e instanceof FileTooLargeError)
      return {
        exists: true,
        hooks: [],
        disabled: false,
        problems: [{ file: ctx.file, path: '', message: `not read: ${x.message} (no hook from this file is loaded)`, severity: 'error' }],
      };
    if (x.code === 'EISDIR') throw new CopilotConfigReadError(`Copilot CLI hooks ${ctx.file} is a folder`);
    throw new CopilotConfigReadError(`cannot read Copilot CLI hooks ${ctx.file}: ${x.message}`);
  }
  return { exists: true, ...parseCopilotFile(text, ctx) };
}

/** The user's Copilot folder: `$COPILOT_HOME`, else `~/.copilot`. */
export function copilotHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.COPILOT_HOME ? path.resolve(env.COPILOT_HOME) : path.join(env.HOME || os.homedir(), '.copilot');
}

/** A hooks folder's `*.json` files, in the order Copilot CLI runs them (descending by name). */
function hooksFolder(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new CopilotConfigReadError(`cannot read Copilot CLI hooks folder ${dir}: ${(e as Error).message}`);
  }
  return names
    .filter((n) => n.endsWith('.json'))
    .sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))
    .map((n) => path.join(dir, n));
}

/** The Claude Code files Copilot CLI also reads: its hooks, in Copilot's reading, run for both agents' users. */
export function claudeFilesCopilotReads(projectDir: string): string[] {
  return [path.join(projectDir, '.claude', 'settings.json'), path.join(projectDir, '.claude', 'settings.local.json')];
}

/** Every place, in order: the user's files, then the workspace's (or `--config` instead). */
export function copilotPlaces(
  projectDir: string,
  env: NodeJS.ProcessEnv = process.env,
  explicit?: string,
): Array<{ source: CopilotSource; file: string; hookDir?: string }> {
  const home = copilotHome(env);
  const userDir = path.join(home, 'hooks');
  const repoDir = path.join(projectDir, '.github', 'hooks');
  const user = [
    ...hooksFolder(userDir).map((file) => ({ source: 'user' as const, file, hookDir: userDir })),
    { source: 'user' as const, file: path.join(home, 'settings.json') },
  ];
  if (explicit) return [...user, { source: 'explicit', file: path.resolve(explicit) }];
  return [
    ...user,
    ...hooksFolder(repoDir).map((file) => ({ source: 'workspace' as const, file, hookDir: repoDir })),
    ...claudeFilesCopilotReads(projectDir).map((file) => ({ source: 'workspace' as const, file })),
    { source: 'workspace', file: path.join(projectDir, '.github', 'copilot', 'settings.json') },
    { source: 'workspace', file: path.join(projectDir, '.github', 'copilot', 'settings.local.json') },
  ];
}

export interface LoadCopilotOptions {
  projectDir: string;
  env?: NodeJS.ProcessEnv;
  /** `--config FILE`: read instead of the workspace's files (the user's are still read). */
  file?: string;
  /** Files another dialect runs in this session (`hookline agent`): left out here. */
  leave?: ReadonlySet<string>;
}

export function loadCopilotConfig(opts: LoadCopilotOptions): CopilotConfig {
  const env = opts.env ?? process.env;
  const projectDir = path.resolve(opts.projectDir);
  const files: CopilotFile[] = [];
  const hooks: CopilotHook[] = [];
  const problems: ConfigProblem[] = [];
  for (const place of copilotPlaces(projectDir, env, opts.file)) {
    if (opts.leave?.has(place.file)) continue;
    const r = loadCopilotFile({ ...place, projectDir, env });
    files.push({ source: place.source, file: place.file, exists: r.exists, disabled: r.disabled });
    hooks.push(...r.hooks);
    problems.push(...r.problems);
  }
  return { files, hooks, problems };
}

export const copilotHookId = (h: Pick<CopilotHook, 'file' | 'path'>) => `${h.file}#${h.path}`;

/** A hook's fingerprint: event as written, every field of the entry, its file's folder, and the files the command runs. */
export function copilotHookKey(h: CopilotHook, projectDir: string): HookFingerprint {
  // The command that runs is fingerprinted (and shown) as the command: its `bash` field is not repeated in the review.
  const { bash, ...rest } = h.handler;
  const handler = h.type === 'command' && bash === h.command ? rest : h.handler;
  const fields = { event: h.name, command: h.command, handler, folder: path.relative(projectDir, path.dirname(h.file)) };
  const vars = {
    COPILOT_PROJECT_DIR: projectDir,
    CLAUDE_PROJECT_DIR: projectDir,
    ...(h.hookDir ? { COPILOT_HOOK_DIR: h.hookDir } : {}),
    ...h.env,
  };
  return fingerprintHook('copilot', fields, h.type === 'command' ? h.command : null, { projectDir: h.cwd ?? projectDir, vars });
}

/** The workspace's hooks (never the user's, nor a `--config` file's), for trust and listing. */
export function copilotWorkspaceHooks(config: CopilotConfig, projectDir: string): DialectHook[] {
  const claude = new Set(claudeFilesCopilotReads(projectDir));
  return config.hooks
    .filter((h) => h.source === 'workspace')
    .map((h) => ({
      source: 'copilot' as const,
      event: h.name,
      matcher: h.matcher,
      name: h.command,
      command: h.type === 'command' ? h.command : null,
      file: h.file,
      path: h.path,
      id: copilotHookId(h),
      // Claude Code's dialect lists the hooks of its own files: trusted here too, listed once.
      ...(claude.has(h.file) ? { shared: true } : {}),
      ...copilotHookKey(h, projectDir),
    }));
}

/** The configuration without the workspace hooks whose ids are in `held` (the user's keep running). */
export function copilotWithout(config: CopilotConfig, held: ReadonlySet<string>): CopilotConfig {
  return { ...config, hooks: config.hooks.filter((h) => !(h.source === 'workspace' && held.has(copilotHookId(h)))) };
}

/** The configuration without any workspace hook (a file that could not be read again). */
export function withoutWorkspace(config: CopilotConfig): CopilotConfig {
  return { ...config, hooks: config.hooks.filter((h) => h.source !== 'workspace') };
}

/** Hooks per event as written, for summaries. */
export function copilotHookCounts(config: CopilotConfig): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const h of config.hooks) counts[h.name] = (counts[h.name] ?? 0) + 1;
  return counts;
}

export { COPILOT_EVENTS };
