/**
 * SpatialAgent's configuration: `.spatialagent/settings.json` in the project. As SpatialAgent
 * reads it: a hook without `type` is a `bash` hook, the Claude-style nesting
 * `{"matcher": …, "hooks": [ … ]}` is accepted (an inner matcher wins over the outer one), an
 * unknown event is skipped, and a file that is not valid JSON loads no hook at all. Problems
 * carry the file, the JSON path and the message; a hook with an error is dropped.
 */
import path from 'node:path';
import { RE2JS } from 're2js';
import { parseJson } from '../../config/jsonc.js';
import { FileTooLargeError, readLimitedText, textNestsDeeper, tooDeep } from '../../config/limits.js';
import { jsonPath, type ConfigProblem } from '../../config/problems.js';
import { SA_EVENTS, SA_MATCHER_FIELDS, isSaEvent, type SaEvent } from './events.js';
import type { DialectHook } from '../../trust/dialects.js';
import { fingerprintHook, type HookFingerprint } from '../../trust/keys.js';
import { MAX_TIMEOUT_MS, MAX_TIMEOUT_TEXT } from '../../config/timeout.js';
import { isObject, kind } from '../json.js';

export const DEFAULT_TIMEOUT_SECONDS = 30;

export interface SaMatcherField {
  /** The matcher key as written (`code_type`); compared with the variable of the same name upper-cased. */
  key: string;
  expected: string | number | boolean;
  /** For string values: a regular expression (RE2 syntax), matched from the start of the value as Python's re.match. */
  regex?: RE2JS;
}

export interface SaHook {
  event: SaEvent;
  /** Where it is in the file, e.g. `hooks.PreAct[0]` or `hooks.PreAct[1].hooks[0]`. */
  path: string;
  type: 'bash' | 'prompt';
  command?: string;
  prompt?: string;
  timeoutSeconds: number;
  /** `block`: a hook that errors (cannot start, times out, its model fails) blocks instead of approving. */
  onFailure?: 'block';
  /** Every field must match; absent = always. */
  matcher?: SaMatcherField[];
}

export interface SaConfig {
  file: string;
  exists: boolean;
  hooks: Record<SaEvent, SaHook[]>;
  problems: ConfigProblem[];
}

/** SpatialAgent's place for it: `<project>/.spatialagent/settings.json`. */
export function defaultSaConfigPath(cwd: string): string {
  return path.join(cwd, '.spatialagent', 'settings.json');
}

function emptyHooks(): Record<SaEvent, SaHook[]> {
  return Object.fromEntries(SA_EVENTS.map((e) => [e, []])) as unknown as Record<SaEvent, SaHook[]>;
}

const HOOK_KEYS = new Set(['type', 'command', 'prompt', 'timeout', 'matcher', 'hooks', 'onFailure']);

class Parser {
  readonly problems: ConfigProblem[] = [];
  constructor(private readonly file: string) {}

  problem(at: ReadonlyArray<string | number>, message: string, severity: ConfigProblem['severity'] = 'error'): void {
    const where = jsonPath(at);
    // An outer matcher shared by nested hooks is reported once.
    if (this.problems.some((x) => x.path === where && x.message === message)) return;
    this.problems.push({ file: this.file, path: where, message, severity });
  }

  matcher(at: Array<string | number>, value: unknown): SaMatcherField[] | undefined | false {
    if (value === undefined || value === null) return undefined;
    if (!isObject(value)) {
      this.problem(at, `must be an object such as {"code_type": "bash"}, got ${kind(value)}`);
      return false;
    }
    const fields: SaMatcherField[] = [];
    let ok = true;
    for (const [key, expected] of Object.entries(value)) {
      const here = [...at, key];
      if (!(SA_MATCHER_FIELDS as readonly string[]).includes(key)) {
        this.problem(
          here,
          `"${key}" is not a documented matcher field (${SA_MATCHER_FIELDS.join(', ')}); it is compared with the context variable ${key.toUpperCase()}`,
          'warning',
        );
      }
      if (typeof expected === 'string') {
        try {
          fields.push({ key, expected, regex: RE2JS.compile(expected) });
        } catch (e) {
          this.problem(here, `invalid regular expression: ${(e as Error).message}`);
          ok = false;
        }
      } else if (typeof expected === 'number' || typeof expected === 'boolean') fields.push({ key, expected });
      else {
        this.problem(here, `must be a string (a regular expression), a number or a boolean, got ${kind(expected)}`);
        ok = false;
      }
    }
    return ok ? fields : false;
  }

  hook(event: SaEvent, at: Array<string | number>, value: unknown, parentMatcher: unknown, out: SaHook[]): void {
    if (!isObject(value)) {
      this.problem(at, `a hook must be an object with "type" and "command" or "prompt", got ${kind(value)}`);
      return;
    }
    if (value.hooks !== undefined) {
      // Claude Code's nesting, which SpatialAgent also reads.
      if (!Array.isArray(value.hooks)) {
        this.problem([...at, 'hooks'], `must be an array of hooks, got ${kind(value.hooks)}`);
        return;
      }
      value.hooks.forEach((h, i) => this.hook(event, [...at, 'hooks', i], h, value.matcher ?? parentMatcher, out));
      return;
    }
    for (const key of Object.keys(value))
      if (!HOOK_KEYS.has(key)) this.problem([...at, key], `unknown field "${key}" (ignored)`, 'warning');
    let ok = true;
    const fail = (where: string, message: string) => {
      ok = false;
      this.problem([...at, where], message);
    };
    let type = value.type;
    if (type === undefined) {
      this.problem(at, 'no "type": taken as "bash", as SpatialAgent does', 'warning');
      type = 'bash';
    } else if (type !== 'bash' && type !== 'prompt') fail('type', `must be "bash" or "prompt", got ${JSON.stringify(type)}`);

    if (type === 'bash' && (typeof value.command !== 'string' || !value.command.trim())) {
      fail('command', value.command === undefined ? 'a bash hook needs a command' : 'must be a non-empty string');
    }
    if (type === 'prompt' && (typeof value.prompt !== 'string' || !value.prompt.trim())) {
      fail('prompt', value.prompt === undefined ? 'a prompt hook needs a prompt' : 'must be a non-empty string');
    }
    let timeoutSeconds = DEFAULT_TIMEOUT_SECONDS;
    if (value.timeout !== undefined && value.timeout !== null) {
      if (typeof value.timeout !== 'number' || Number.isNaN(value.timeout) || value.timeout <= 0)
        fail('timeout', `must be a positive number of seconds, got ${JSON.stringify(value.timeout)}`);
      else if (value.timeout * 1000 > MAX_TIMEOUT_MS) {
        timeoutSeconds = MAX_TIMEOUT_MS / 1000;
        this.problem(
          [...at, 'timeout'],
          `timeout ${value.timeout} seconds is above the limit of ${MAX_TIMEOUT_TEXT}; ${timeoutSeconds} seconds is used`,
          'warning',
        );
      } else timeoutSeconds = value.timeout;
    }
    if (value.onFailure !== undefined && value.onFailure !== 'block')
      fail('onFailure', `must be "block" (fail closed) or left out, got ${JSON.stringify(value.onFailure)}`);
    const own = value.matcher !== undefined;
    const matcher = this.matcher(own ? [...at, 'matcher'] : [...at.slice(0, -2), 'matcher'], own ? value.matcher : parentMatcher);
    if (matcher === false) ok = false;
    if (!ok) return;
    out.push({
      event,
      path: jsonPath(at),
      type: type as 'bash' | 'prompt',
      ...(type === 'bash' ? { command: value.command as string } : { prompt: value.prompt as string }),
      timeoutSeconds,
      ...(value.onFailure === 'block' ? { onFailure: 'block' as const } : {}),
      ...(matcher ? { matcher } : {}),
    });
  }
}

export function parseSaConfig(text: string, file: string): SaConfig {
  const config: SaConfig = { file, exists: true, hooks: emptyHooks(), problems: [] };
  const p = new Parser(file);
  config.problems = p.problems;
  if (textNestsDeeper(text)) {
    p.problem([], `${tooDeep('its JSON')} (no hook is loaded)`);
    return config;
  }
  const parsed = parseJson(text);
  if (!parsed.ok) {
    // SpatialAgent disables every hook on invalid JSON.
    p.problem([], `${parsed.message} (no hook is loaded)`);
    return config;
  }
  const root = parsed.value;
  if (!isObject(root)) {
    p.problem([], `must be a JSON object with "hooks", got ${kind(root)}`);
    return config;
  }
  if (root.hooks === undefined || root.hooks === null) return config;
  if (!isObject(root.hooks)) {
    p.problem(['hooks'], `must be an object of events, got ${kind(root.hooks)}`);
    return config;
  }
  for (const [name, list] of Object.entries(root.hooks)) {
    if (!isSaEvent(name)) {
      p.problem(['hooks', name], `unknown event "${name}" (ignored); expected one of ${SA_EVENTS.join(', ')}`, 'warning');
      continue;
    }
    if (!Array.isArray(list)) {
      p.problem(['hooks', name], `must be an array of hooks, got ${kind(list)}`);
      continue;
    }
    list.forEach((h, i) => p.hook(name, ['hooks', name, i], h, undefined, config.hooks[name]));
  }
  return config;
}

export class SaConfigReadError extends Error {}

/** Reads the settings file. A missing file is no hooks (as SpatialAgent); an unreadable one throws. */
export function loadSaConfig(file: string): SaConfig {
  let text: string;
  try {
    text = readLimitedText(file);
  } catch (e) {
    const x = e as NodeJS.ErrnoException;
    if (x.code === 'ENOENT') return { file, exists: false, hooks: emptyHooks(), problems: [] };
    // Like invalid JSON: no hook of this file is loaded.
    if (e instanceof FileTooLargeError)
      return {
        file,
        exists: true,
        hooks: emptyHooks(),
        problems: [{ file, path: '', message: `not read: ${x.message} (no hook is loaded)`, severity: 'error' }],
      };
    if (x.code === 'EISDIR') throw new SaConfigReadError(`SpatialAgent settings ${file} is a folder`);
    throw new SaConfigReadError(`cannot read SpatialAgent settings ${file}: ${x.message}`);
  }
  return parseSaConfig(text, file);
}

export function saHookCount(config: SaConfig): number {
  return SA_EVENTS.reduce((n, e) => n + config.hooks[e].length, 0);
}

/** The key older versions wrote for a hook, still read when migrating. */
export function saLegacyKey(h: SaHook): string {
  return `spatialagent:${h.event}:${h.type}:${h.command ?? h.prompt}`;
}

/** A hook's fingerprint in trusted_hooks.json: event, matcher, type, command or prompt, timeout, and the files a command runs. */
export function saHookKey(h: SaHook, projectDir: string): HookFingerprint {
  const fields = {
    event: h.event,
    type: h.type,
    command: h.command ?? null,
    prompt: h.prompt ?? null,
    timeoutSeconds: h.timeoutSeconds,
    matcher: h.matcher ? h.matcher.map((f) => [f.key, f.expected]) : null,
    // Only when set, so the keys of hooks trusted before it existed stay the same.
    ...(h.onFailure ? { onFailure: h.onFailure } : {}),
  };
  return fingerprintHook('spatialagent', fields, h.command ?? null, { projectDir }, saLegacyKey(h));
}

const saHookId = (config: SaConfig, h: SaHook) => `${path.resolve(config.file)}#${h.path}`;

/** The hooks of `.spatialagent/settings.json`, for trust and `hookline list`. */
export function saWorkspaceHooks(config: SaConfig, projectDir: string): DialectHook[] {
  return SA_EVENTS.flatMap((event) =>
    config.hooks[event].map((h) => ({
      source: 'spatialagent' as const,
      event,
      matcher: h.matcher && JSON.stringify(Object.fromEntries(h.matcher.map((f) => [f.key, f.expected]))),
      name: (h.command ?? h.prompt)!,
      command: h.command ?? null,
      file: path.resolve(config.file),
      path: h.path,
      id: saHookId(config, h),
      ...saHookKey(h, projectDir),
    })),
  );
}

/** The configuration without the hooks whose ids are in `held`. */
export function saWithout(config: SaConfig, held: ReadonlySet<string>): SaConfig {
  const hooks = emptyHooks();
  for (const e of SA_EVENTS) hooks[e] = config.hooks[e].filter((h) => !held.has(saHookId(config, h)));
  return { ...config, hooks };
}
