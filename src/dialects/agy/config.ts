/**
 * Antigravity CLI's hooks.json. Every file found adds up (agy merges every hooks.json it
 * discovers): the user's `~/.gemini/config/hooks.json` (what agy 1.x reads) and
 * `~/.gemini/antigravity-cli/hooks.json` (the migration guide's place), the workspace's
 * `.agents/hooks.json` and `.antigravitycli/hooks.json`, or one `--config FILE` instead of the
 * workspace's. Two shapes, both read: the guide's named hooks (`{"<name>": {"enabled"?,
 * "<Event>": [...]}}`) and the Claude-style `{"hooks": {"<Event>": [...]}}` (read as a hook
 * named `hooks`); event keys at the top level are read too. An event's entries are matcher
 * groups (`{matcher, hooks: [handler…]}`) or bare handlers (the guide's form for the events
 * without a matcher). Every problem carries the file and the JSON path.
 */
import path from 'node:path';
import { parseJson } from '../../config/jsonc.js';
import { FileTooLargeError, readLimitedText, textNestsDeeper, tooDeep } from '../../config/limits.js';
import { geminiHome } from '../../config/paths.js';
import { jsonPath, type ConfigProblem } from '../../config/problems.js';
import type { DialectHook } from '../../trust/dialects.js';
import { fingerprintHook, type HookFingerprint } from '../../trust/keys.js';
import { compileClaudeMatcher, type ClaudeMatcher } from '../claude/matcher.js';
import { isObject, kind } from '../json.js';

export const AGY_EVENTS = ['PreToolUse', 'PostToolUse', 'PreInvocation', 'PostInvocation', 'Stop', 'SessionStart'] as const;
export type AgyEvent = (typeof AGY_EVENTS)[number];
/** Events whose hooks are chosen by the tool's name. */
export const TOOL_EVENTS: ReadonlySet<string> = new Set(['PreToolUse', 'PostToolUse']);

/** Seconds a hook may run when its `timeout` is absent (the public walkthrough's 60 s). */
export const DEFAULT_TIMEOUT_SECONDS = 60;

export type AgySource = 'user' | 'workspace' | 'explicit';

export interface AgyHook {
  event: AgyEvent;
  source: AgySource;
  file: string;
  /** The named hook it belongs to (`hooks` for the Claude-style file, '' for top-level events). */
  suite: string;
  /** Where it is in the file, e.g. `hooks.PreToolUse[0].hooks[0]`. */
  path: string;
  matcher?: string;
  match: ClaudeMatcher;
  command: string;
  timeoutSeconds: number;
  /** The handler as written: every field of it is in the fingerprint. */
  handler: Record<string, unknown>;
}

export interface AgyFile {
  source: AgySource;
  file: string;
  exists: boolean;
}

export interface AgyConfig {
  files: AgyFile[];
  hooks: AgyHook[];
  problems: ConfigProblem[];
}

/** The event an event key names (agy compares them case-insensitively). */
export function agyEventNamed(name: string): AgyEvent | undefined {
  return AGY_EVENTS.find((e) => e.toLowerCase() === name.toLowerCase());
}

type Problem = (at: ReadonlyArray<string | number>, message: string, severity?: ConfigProblem['severity']) => void;

const GROUP_KEYS = new Set(['matcher', 'hooks']);
const HANDLER_KEYS = new Set(['type', 'command', 'timeout']);

/** Reads one hooks.json text. Never throws. */
export function parseAgyHooks(text: string, file: string, source: AgySource): { hooks: AgyHook[]; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const hooks: AgyHook[] = [];
  const problem: Problem = (at, message, severity = 'error') => {
    const where = jsonPath(at);
    if (!problems.some((p) => p.path === where && p.message === message)) problems.push({ file, path: where, message, severity });
  };
  if (textNestsDeeper(text)) {
    problem([], `${tooDeep('its JSON')} (no hook from this file is loaded)`);
    return { hooks, problems };
  }
  const parsed = parseJson(text);
  if (!parsed.ok) {
    problem([], `${parsed.message} (no hook from this file is loaded)`);
    return { hooks, problems };
  }
  const root = parsed.value;
  if (!isObject(root)) {
    problem([], `hooks.json must be a JSON object of named hooks, got ${kind(root)}`);
    return { hooks, problems };
  }
  const readEvents = (suite: string, events: Record<string, unknown>, at: Array<string | number>) => {
    for (const [key, entries] of Object.entries(events)) {
      if (key === 'enabled' && at.length) continue;
      const event = agyEventNamed(key);
      if (!event) {
        problem([...at, key], `unknown event "${key}" (its hooks never run); expected one of ${AGY_EVENTS.join(', ')}`, 'warning');
        continue;
      }
      if (!Array.isArray(entries)) {
        problem([...at, key], `"${key}" must be an array, got ${kind(entries)}`);
        continue;
      }
      entries.forEach((entry, i) => {
        const here = [...at, key, i];
        if (!isObject(entry)) return problem(here, `an entry must be an object (a matcher group or a hook), got ${kind(entry)}`);
        if (entry.hooks === undefined) {
          // A bare handler: the guide's form for PreInvocation, PostInvocation and Stop.
          const h = readHandler(entry, here, problem);
          if (h) hooks.push({ event, source, file, suite, path: jsonPath(here), match: compileClaudeMatcher(undefined), ...h });
          return;
        }
        for (const k of Object.keys(entry)) if (!GROUP_KEYS.has(k)) problem([...here, k], `unknown field "${k}" (ignored)`, 'warning');
        if (!Array.isArray(entry.hooks)) return problem([...here, 'hooks'], `"hooks" must be an array, got ${kind(entry.hooks)}`);
        let matcher: string | undefined;
        if (entry.matcher !== undefined && entry.matcher !== null) {
          if (typeof entry.matcher !== 'string')
            return problem([...here, 'matcher'], `"matcher" must be a string, got ${kind(entry.matcher)}`);
          matcher = entry.matcher;
        }
        let match = compileClaudeMatcher(matcher);
        if (match.kind !== 'all' && !TOOL_EVENTS.has(event)) {
          problem([...here, 'matcher'], `${event} ignores matchers: these hooks run for every ${event}`, 'warning');
          match = compileClaudeMatcher(undefined);
        } else if (match.kind === 'exact') {
          problem([...here, 'matcher'], `invalid regular expression (${match.error}); it is compared as an exact name instead`);
        }
        entry.hooks.forEach((raw, j) => {
          const h = readHandler(raw, [...here, 'hooks', j], problem);
          if (h)
            hooks.push({
              event,
              source,
              file,
              suite,
              path: jsonPath([...here, 'hooks', j]),
              ...(matcher !== undefined ? { matcher } : {}),
              match,
              ...h,
            });
        });
      });
    }
  };
  for (const [name, value] of Object.entries(root)) {
    if (agyEventNamed(name) && Array.isArray(value)) {
      readEvents('', { [name]: value }, []);
      continue;
    }
    if (name === 'enabled') {
      problem([name], 'every top-level key is a hook name: move "enabled" inside the named hook it switches off');
      continue;
    }
    if (!isObject(value)) {
      problem([name], `named hook "${name}" must be an object of events, got ${kind(value)}`);
      continue;
    }
    if (value.enabled !== undefined && typeof value.enabled !== 'boolean') {
      problem([name, 'enabled'], `"enabled" must be true or false, got ${kind(value.enabled)}`);
      continue;
    }
    if (value.enabled === false) continue;
    readEvents(name, value, [name]);
  }
  return { hooks, problems };
}

function readHandler(
  raw: unknown,
  at: Array<string | number>,
  problem: Problem,
): { command: string; timeoutSeconds: number; handler: Record<string, unknown> } | undefined {
  if (!isObject(raw)) {
    problem(at, `a hook must be an object with a "command", got ${kind(raw)}`);
    return undefined;
  }
  if (raw.type === 'prompt') {
    problem([...at, 'type'], '"prompt" hooks are not supported by Hookline (skipped); only "command" hooks run', 'warning');
    return undefined;
  }
  if (raw.type !== undefined && raw.type !== 'command') {
    problem([...at, 'type'], `unknown hook type ${JSON.stringify(raw.type)}; expected "command" (or "prompt")`);
    return undefined;
  }
  for (const k of Object.keys(raw)) if (!HANDLER_KEYS.has(k)) problem([...at, k], `unknown field "${k}" (ignored)`, 'warning');
  let ok = true;
  if (raw.command === undefined) {
    ok = false;
    problem([...at, 'command'], 'missing "command" for a command hook');
  } else if (typeof raw.command !== 'string' || !raw.command.trim()) {
    ok = false;
    problem(
      [...at, 'command'],
      `"command" must be a non-empty string, got ${typeof raw.command === 'string' ? 'an empty string' : kind(raw.command)}`,
    );
  }
  let timeoutSeconds = DEFAULT_TIMEOUT_SECONDS;
  if (raw.timeout !== undefined) {
    if (typeof raw.timeout !== 'number' || !Number.isInteger(raw.timeout)) {
      ok = false;
      problem([...at, 'timeout'], `timeout must be a whole number of seconds, got ${JSON.stringify(raw.timeout) ?? kind(raw.timeout)}`);
    } else if (raw.timeout <= 0) {
      problem([...at, 'timeout'], `timeout ${raw.timeout} is not positive; the default ${DEFAULT_TIMEOUT_SECONDS} s is used`, 'warning');
    } else {
      timeoutSeconds = raw.timeout;
      if (raw.timeout >= 1000)
        problem([...at, 'timeout'], `timeout ${raw.timeout} is in seconds; agy timeouts are seconds, not milliseconds`, 'warning');
    }
  }
  if (!ok) return undefined;
  return { command: raw.command as string, timeoutSeconds, handler: raw };
}

export class AgyConfigReadError extends Error {}

/** Reads one file; a missing file has no hooks, an unreadable one throws AgyConfigReadError. */
export function loadAgyFile(file: string, source: AgySource): { exists: boolean; hooks: AgyHook[]; problems: ConfigProblem[] } {
  let text: string;
  try {
    text = readLimitedText(file);
  } catch (e) {
    const x = e as NodeJS.ErrnoException;
    if (x.code === 'ENOENT' || x.code === 'ENOTDIR') return { exists: false, hooks: [], problems: [] };
    if (e instanceof FileTooLargeError)
      return {
        exists: true,
        hooks: [],
        problems: [{ file, path: '', message: `not read: ${x.message} (no hook from this file is loaded)`, severity: 'error' }],
      };
    if (x.code === 'EISDIR') throw new AgyConfigReadError(`agy hooks ${file} is a folder`);
    throw new AgyConfigReadError(`cannot read agy hooks ${file}: ${x.message}`);
  }
  return { exists: true, ...parseAgyHooks(text, file, source) };
}

/** The user's two files and the workspace's two. */
export function agyHookPaths(projectDir: string, env: NodeJS.ProcessEnv = process.env): Array<{ source: AgySource; file: string }> {
  const home = path.join(geminiHome(env), '.gemini');
  return [
    { source: 'user', file: path.join(home, 'config', 'hooks.json') },
    { source: 'user', file: path.join(home, 'antigravity-cli', 'hooks.json') },
    { source: 'workspace', file: path.join(projectDir, '.agents', 'hooks.json') },
    { source: 'workspace', file: path.join(projectDir, '.antigravitycli', 'hooks.json') },
  ];
}

export function loadAgyConfig(opts: { projectDir: string; env?: NodeJS.ProcessEnv; file?: string }): AgyConfig {
  const all = agyHookPaths(opts.projectDir, opts.env);
  const places = opts.file
    ? [...all.filter((p) => p.source === 'user'), { source: 'explicit' as const, file: path.resolve(opts.file) }]
    : all;
  const files: AgyFile[] = [];
  const hooks: AgyHook[] = [];
  const problems: ConfigProblem[] = [];
  for (const { source, file } of places) {
    const r = loadAgyFile(file, source);
    files.push({ source, file, exists: r.exists });
    hooks.push(...r.hooks);
    problems.push(...r.problems);
  }
  return { files, hooks, problems };
}

const agyHookId = (h: AgyHook) => `${h.file}#${h.path}`;

/** A hook's fingerprint: event, suite, matcher, every field of the handler, and the files the command runs. */
export function agyHookKey(h: AgyHook, projectDir: string): HookFingerprint {
  const fields = { event: h.event, suite: h.suite, matcher: h.matcher ?? null, handler: h.handler };
  return fingerprintHook('agy', fields, h.command, { projectDir, vars: {} });
}

/** The workspace's hooks (never the user's, nor a `--config` file's), for trust and listing. */
export function agyWorkspaceHooks(config: AgyConfig, projectDir: string): DialectHook[] {
  return config.hooks
    .filter((h) => h.source === 'workspace')
    .map((h) => ({
      source: 'agy' as const,
      event: h.event,
      matcher: h.matcher,
      name: h.command,
      command: h.command,
      file: h.file,
      path: h.path,
      id: agyHookId(h),
      ...agyHookKey(h, projectDir),
    }));
}

/** The configuration without the workspace hooks whose ids are in `held`. */
export function agyWithout(config: AgyConfig, held: ReadonlySet<string>): AgyConfig {
  return { ...config, hooks: config.hooks.filter((h) => !(h.source === 'workspace' && held.has(agyHookId(h)))) };
}
