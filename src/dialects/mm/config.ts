/**
 * mm's configuration: the `hooks:` block of its YAML file (`agent.yaml`). Validation gives the
 * seed's messages word for word ("Erreurs de validation"), printed `[config error: <path>: <message>]`.
 * mm refuses to start on any of them, so a configuration with errors runs no hook.
 */
import path from 'node:path';
import { parseDocument } from 'yaml';
import { FileTooLargeError, readLimitedText, tooDeep, yamlNestsDeeper } from '../../config/limits.js';
import { RE2JS } from 're2js';
import { MATCHER_EVENTS, MM_EVENTS, isMmEvent, type MmEvent } from './events.js';
import { formatGoDuration, parseGoDuration } from './duration.js';
import type { DialectHook } from '../../trust/dialects.js';
import { fingerprintHook, type HookFingerprint } from '../../trust/keys.js';
import { MAX_TIMEOUT_MS, MAX_TIMEOUT_TEXT } from '../../config/timeout.js';

export type OnError = 'fail' | 'warn' | 'ignore';

/** The seed's default timeout (`10s`), used for an absent timeout and for `0`. */
export const DEFAULT_TIMEOUT_NS = 10_000_000_000;

export interface MmHook {
  event: MmEvent;
  /** Position in its event's list, from 0 (the `N` of `hooks.<event>[N]`). */
  index: number;
  /** As written: it is run by `sh -c` and shown in display and failure lines. */
  command: string;
  matcher?: string;
  /** Compiled with RE2 (Go) syntax; unanchored. */
  regex?: RE2JS;
  timeoutNs: number;
  /** Go's spelling of the effective timeout: `10s`, `1m30s`, `500ms`. */
  timeoutText: string;
  onError: OnError;
  /** Absolute folder of the file that declared the hook: `MM_CONFIG_DIR`. */
  configDir: string;
}

export interface MmConfigError {
  /** The configuration file, as it was named (relative paths stay relative, like mm's banner). */
  file: string;
  message: string;
}

export interface MmConfig {
  file: string;
  /** Absolute path of the file: `MM_CONFIG`. */
  absFile: string;
  hooks: Record<MmEvent, MmHook[]>;
  errors: MmConfigError[];
  /** The whole parsed document, for the rest of mm's configuration (model, mmConfigs, displayHooks…). */
  raw: Record<string, unknown>;
}

/**
 * How many times the nodes an alias points to may be expanded (the `yaml` package's
 * `maxAliasCount`): ordinary anchors are used a few times; an alias bomb needs thousands.
 */
export const MAX_YAML_ALIASES = 100;

export function formatMmConfigError(e: MmConfigError): string {
  return `[config error: ${e.file}: ${e.message}]`;
}

/** mm's usual place: `$MM_CONFIG`, or `agent.yaml` in the folder. */
export function defaultMmConfigPath(cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.MM_CONFIG ? env.MM_CONFIG : path.join(cwd, 'agent.yaml');
}

function emptyHooks(): Record<MmEvent, MmHook[]> {
  return Object.fromEntries(MM_EVENTS.map((e) => [e, []])) as unknown as Record<MmEvent, MmHook[]>;
}

function kind(v: unknown): string {
  if (v === null || v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return `a ${typeof v}`;
}

/** A YAML scalar read into a Go string field: any scalar is taken as its text. */
function asString(v: unknown): string | undefined {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

function parseHook(event: MmEvent, index: number, value: unknown, configDir: string, err: (m: string) => void): MmHook | undefined {
  const at = `hooks.${event}[${index}]`;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    err(`${at}: want a mapping (command, matcher, timeout, onError), got ${kind(value)}`);
    return undefined;
  }
  const h = value as Record<string, unknown>;
  let ok = true;
  const fail = (m: string) => {
    ok = false;
    err(`${at}: ${m}`);
  };

  const command = asString(h.command);
  if (command === undefined) fail(`command: want a string, got ${kind(h.command)}`);
  else if (!command.trim()) fail('command must not be empty');

  const matcher = asString(h.matcher);
  let regex: RE2JS | undefined;
  if (matcher === undefined) fail(`matcher: want a string, got ${kind(h.matcher)}`);
  else if (matcher !== '') {
    if (!MATCHER_EVENTS.has(event)) fail('matcher is only for preToolCall, postToolCall, preAsk and postAsk');
    else {
      try {
        regex = RE2JS.compile(matcher);
      } catch (e) {
        // re2js words its errors as Go's regexp package does: "error parsing regexp: …".
        fail(`matcher: ${(e as Error).message}`);
      }
    }
  }

  let timeoutNs = DEFAULT_TIMEOUT_NS;
  const t = h.timeout;
  if (typeof t === 'number') {
    if (t < 0) fail('timeout must be >= 0');
    else if (t !== 0) fail(`timeout: time: missing unit in duration "${t}"`);
  } else if (typeof t === 'string' && t !== '') {
    const d = parseGoDuration(t);
    if (!d.ok) fail(`timeout: ${d.message}`);
    else if (d.ns < 0) fail('timeout must be >= 0');
    else if (d.ns > MAX_TIMEOUT_MS * 1e6)
      fail(`timeout ${t} is above Hookline's limit of ${formatGoDuration(MAX_TIMEOUT_MS * 1e6)} (${MAX_TIMEOUT_TEXT})`);
    else if (d.ns > 0) timeoutNs = d.ns;
  } else if (t !== undefined && t !== null && t !== '') fail(`timeout: want a duration such as 5s, got ${kind(t)}`);

  const onError = asString(h.onError) || 'warn';
  if (onError !== 'fail' && onError !== 'warn' && onError !== 'ignore') fail('onError must be "fail", "warn" or "ignore"');

  if (!ok) return undefined;
  return {
    event,
    index,
    command: command!,
    ...(matcher ? { matcher, regex } : {}),
    timeoutNs,
    timeoutText: formatGoDuration(timeoutNs),
    onError: onError as OnError,
    configDir,
  };
}

/** Parses and validates the YAML text of a configuration file named `file`. */
export function parseMmConfig(text: string, file: string): MmConfig {
  const absFile = path.resolve(file);
  const configDir = path.dirname(absFile);
  const config: MmConfig = { file, absFile, hooks: emptyHooks(), errors: [], raw: {} };
  const err = (message: string) => config.errors.push({ file, message });

  if (yamlNestsDeeper(text)) {
    err(`yaml: ${tooDeep('the document')}`);
    return config;
  }
  let doc: ReturnType<typeof parseDocument>;
  let root: unknown;
  try {
    doc = parseDocument(text, { uniqueKeys: true });
    // Aliases are expanded by toJS: a "billion laughs" document is refused, not expanded.
    root = doc.errors.length ? undefined : doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (e) {
    const message =
      e instanceof ReferenceError && /alias/i.test(e.message)
        ? `too many alias expansions (more than ${MAX_YAML_ALIASES} per alias; an alias bomb?)`
        : (e as Error).message;
    err(`yaml: ${message.split('\n')[0]}`);
    return config;
  }
  if (doc.errors.length) {
    for (const e of doc.errors) {
      // Go's yaml words it `yaml: line N: …`; the position suffix of the message is dropped.
      const line = e.linePos?.[0].line;
      err(`yaml: ${line ? `line ${line}: ` : ''}${e.message.replace(/ at line \d+, column \d+:[\s\S]*$/, '')}`);
    }
    return config;
  }
  if (root === null || root === undefined) return config;
  if (typeof root !== 'object' || Array.isArray(root)) {
    err(`want a mapping at the top of the file, got ${kind(root)}`);
    return config;
  }
  config.raw = root as Record<string, unknown>;
  const hooks = config.raw.hooks;
  if (hooks === undefined || hooks === null) return config;
  if (typeof hooks !== 'object' || Array.isArray(hooks)) {
    err(`hooks: want a mapping of events, got ${kind(hooks)}`);
    return config;
  }
  for (const [name, list] of Object.entries(hooks as Record<string, unknown>)) {
    if (!isMmEvent(name)) {
      err(`hooks: unknown event "${name}" (want one of ${MM_EVENTS.join(', ')})`);
      continue;
    }
    if (list === null || list === undefined) continue;
    if (!Array.isArray(list)) {
      err(`hooks.${name}: want a list of hooks, got ${kind(list)}`);
      continue;
    }
    list.forEach((value, i) => {
      const hook = parseHook(name, i, value, configDir, err);
      if (hook) config.hooks[name].push(hook);
    });
  }
  // mm does not start with a configuration error: nothing runs.
  if (config.errors.length) config.hooks = emptyHooks();
  return config;
}

export class MmConfigReadError extends Error {}

/** Reads a configuration file. A missing or unreadable file throws MmConfigReadError. */
export function loadMmConfig(file: string): MmConfig {
  let text: string;
  try {
    text = readLimitedText(file);
  } catch (e) {
    const x = e as NodeJS.ErrnoException;
    // A configuration error like any other: mm starts with no hook, and says why.
    if (e instanceof FileTooLargeError)
      return { file, absFile: path.resolve(file), hooks: emptyHooks(), errors: [{ file, message: `not read: ${x.message}` }], raw: {} };
    if (x.code === 'ENOENT') throw new MmConfigReadError(`mm configuration ${file} not found`);
    if (x.code === 'EISDIR') throw new MmConfigReadError(`mm configuration ${file} is a folder`);
    throw new MmConfigReadError(`cannot read mm configuration ${file}: ${x.message}`);
  }
  return parseMmConfig(text, file);
}

/** The hooks of one event that apply to a tool or agent name (matcher events), in order. */
export function mmHooksFor(config: MmConfig, event: MmEvent, target = ''): MmHook[] {
  return config.hooks[event].filter((h) => !h.regex || h.regex.matcher(target).find());
}

/** The start-up banner's end: ` | hooks: preGeneration×2 preToolCall×1 …`, or '' without hooks. */
export function mmBannerSuffix(config: MmConfig): string {
  const parts = MM_EVENTS.filter((e) => config.hooks[e].length).map((e) => `${e}×${config.hooks[e].length}`);
  return parts.length ? ` | hooks: ${parts.join(' ')}` : '';
}

/** The key older versions wrote for a hook (`mm:<event>:<command>`), still read when migrating. */
export function mmLegacyKey(h: MmHook): string {
  return `mm:${h.event}:${h.command}`;
}

/**
 * A hook's fingerprint in trusted_hooks.json: event, matcher, command, timeout, onError and its
 * configuration's folder (`$MM_CONFIG_DIR`), with the files the command runs inside the project
 * or that folder.
 */
export function mmHookKey(h: MmHook, projectDir: string): HookFingerprint {
  const fields = {
    event: h.event,
    matcher: h.matcher ?? null,
    command: h.command,
    timeoutNs: h.timeoutNs,
    onError: h.onError,
    configDir: path.relative(projectDir, h.configDir),
  };
  return fingerprintHook(
    'mm',
    fields,
    h.command,
    { projectDir, roots: [h.configDir], vars: { MM_CONFIG_DIR: h.configDir } },
    mmLegacyKey(h),
  );
}

const mmHookId = (config: MmConfig, h: MmHook) => `${config.absFile}#hooks.${h.event}[${h.index}]`;

/** The hooks of a configuration that is workspace configuration of `projectDir`, for trust and `hookline list`. */
export function mmWorkspaceHooks(config: MmConfig, projectDir: string): DialectHook[] {
  return MM_EVENTS.flatMap((event) =>
    config.hooks[event].map((h) => ({
      source: 'mm' as const,
      event,
      matcher: h.matcher,
      name: h.command,
      command: h.command,
      file: config.absFile,
      path: `hooks.${event}[${h.index}]`,
      id: mmHookId(config, h),
      ...mmHookKey(h, projectDir),
    })),
  );
}

/** The configuration without the hooks whose ids are in `held`. */
export function mmWithout(config: MmConfig, held: ReadonlySet<string>): MmConfig {
  const hooks = emptyHooks();
  for (const e of MM_EVENTS) hooks[e] = config.hooks[e].filter((h) => !held.has(mmHookId(config, h)));
  return { ...config, hooks };
}

/** `mmConfigs`: agent name to its configuration file, resolved against the declaring file's folder. */
export function mmAgentFiles(config: MmConfig): Record<string, string> {
  const raw = config.raw.mmConfigs;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const out: Record<string, string> = {};
  for (const [name, file] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof file === 'string' && file) out[name] = path.resolve(path.dirname(config.absFile), file);
  }
  return out;
}
