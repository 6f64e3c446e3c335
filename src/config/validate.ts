import type { z } from 'zod';
import { EVENT_NAMES, isEventName, type EventName } from '../events/names.js';
import { CATALOG } from '../events/catalog.js';
import { closestName } from './suggest.js';
import type { HookEntry, Source } from './entry.js';
import type { Settings, SettingsHookConfig } from './schema.js';
import { settingsSchemas } from './lazy-schema.js';
import { DEFINITION_KEYS, HOOKS_META_KEYS, plainCommandHook, plainMeta, plainSettings } from './plain.js';
import { unlistedHeaderVars } from './header-vars.js';
import { jsonPath, type ConfigProblem } from './problems.js';
import { compileLinear } from './regex.js';
import { MAX_TIMEOUT_MS, MAX_TIMEOUT_TEXT, numberFromText } from './timeout.js';

export interface LayerResult {
  entries: HookEntry[];
  problems: ConfigProblem[];
  settings: z.infer<typeof Settings>;
  /** Names disabled in this layer (`hooksConfig.disabled`, and the older `hooks.disabled`). */
  disabled: string[];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Event names of other agents' hook systems, for a helpful hint. */
const FOREIGN_EVENTS: Record<string, EventName> = {
  pretooluse: 'BeforeTool',
  posttooluse: 'AfterTool',
  userpromptsubmit: 'BeforeAgent',
  stop: 'AfterAgent',
  precompact: 'PreCompress',
};

/** The event a misspelt (or another agent's) event name most likely meant. */
export function closestEvent(name: string): EventName | undefined {
  return closestName(name, EVENT_NAMES, FOREIGN_EVENTS);
}

const article = (what: string) => (/^[aeiou]/.test(what) ? `an ${what}` : `a ${what}`);

function typeName(received: string | undefined): string {
  if (!received) return '';
  return `, got ${received === 'null' || received === 'undefined' ? received : article(received)}`;
}

function issuesToProblems(file: string, base: Array<string | number>, issues: z.core.$ZodIssue[]): ConfigProblem[] {
  return issues.map((issue) => {
    const path = jsonPath([...base, ...(issue.path as Array<string | number>)]);
    const field = issue.path.length ? `"${String(issue.path.at(-1))}"` : 'value';
    let message = issue.message;
    // The schema's own messages are kept; zod's generic ones ("Invalid input: …") are reworded.
    const generic = message.startsWith('Invalid input');
    if (issue.code === 'unrecognized_keys')
      message = `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    else if (issue.code === 'invalid_type' && issue.expected !== 'int' && generic) {
      const received = /received (\w+)/.exec(issue.message)?.[1];
      const expected = issue.expected === 'record' ? 'object' : issue.expected;
      message = `${field} must be ${article(expected)}${typeName(received)}`;
    } else if (issue.code === 'invalid_union' && generic && issue.errors.every((e) => e.length === 1 && e[0].code === 'invalid_type')) {
      const expected = issue.errors.map((e) => (e[0] as { expected: string }).expected);
      const received = /received (\w+)/.exec(issue.errors[0][0].message)?.[1];
      message = `${field} must be ${article(expected.slice(0, -1).join(', '))} or ${expected.at(-1)}${typeName(received)}`;
    }
    if (issue.path[0] === 'env' && issue.path.length === 2 && issue.code !== 'unrecognized_keys')
      message = `"env" must map names to strings; ${message}`;
    return { file, path, message, severity: 'error' as const };
  });
}

/** Removes the value at `path` (an array element is spliced out) so the rest can be read. */
function dropAt(root: unknown, path: ReadonlyArray<PropertyKey>): boolean {
  if (!path.length) return false;
  let parent: unknown = root;
  for (const k of path.slice(0, -1)) {
    if (typeof parent !== 'object' || parent === null) return false;
    parent = (parent as Record<PropertyKey, unknown>)[k];
  }
  const last = path[path.length - 1];
  if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
  else if (typeof parent === 'object' && parent !== null) delete (parent as Record<PropertyKey, unknown>)[last];
  else return false;
  return true;
}

/** The boolean settings Gemini CLI also accepts as the text "true" or "false". */
const TEXT_BOOLEANS: ReadonlyArray<readonly string[]> = [
  ['hooksConfig', 'enabled'],
  ['hooksConfig', 'notifications'],
  ['security', 'folderTrust', 'enabled'],
  ['security', 'environmentVariableRedaction', 'enabled'],
];

/**
 * Reads the non-hook settings leniently: each invalid value is reported and left out, and the
 * rest is kept (a bad `hooksConfig.enabled` must not lose `hooksConfig.disabled` or `security`).
 */
function readSettings(value: Record<string, unknown>, file: string): { settings: z.infer<typeof Settings>; problems: ConfigProblem[] } {
  const copy = structuredClone({ ...value, hooks: undefined }) as Record<string, unknown>;
  const problems: ConfigProblem[] = [];
  // Gemini CLI reads "true" and "false" as the booleans (its settings schema converts them): so does Hookline, and says so.
  for (const at of TEXT_BOOLEANS) {
    const parent = at.slice(0, -1).reduce<unknown>((o, k) => (isObject(o) ? o[k] : undefined), copy);
    const key = at.at(-1)!;
    if (!isObject(parent) || (parent[key] !== 'true' && parent[key] !== 'false')) continue;
    problems.push({
      file,
      path: jsonPath(at),
      message: `${at.join('.')} is the text "${parent[key]}"; read as ${parent[key]}, as Gemini CLI reads it (write it without quotes)`,
      severity: 'warning',
    });
    parent[key] = parent[key] === 'true';
  }
  const plain = plainSettings(copy);
  if (plain) return { settings: plain as z.infer<typeof Settings>, problems };
  const schema = settingsSchemas().Settings.omit({ hooks: true });
  for (let round = 0; round < 20; round++) {
    const r = schema.safeParse(copy);
    if (r.success) return { settings: r.data, problems };
    problems.push(...issuesToProblems(file, [], r.error.issues));
    // Splice array elements from the highest index down so earlier indexes stay valid.
    const paths = r.error.issues.map((i) => i.path).sort((a, b) => Number(b.at(-1)) - Number(a.at(-1)) || 0);
    if (!paths.map((p) => dropAt(copy, p)).some(Boolean)) break;
  }
  return { settings: {}, problems };
}

/**
 * What Gemini CLI reads past the letter of the schema, read the same way and said as a warning:
 * a timeout written as text ("5000") or null (the default), and `"type": "plugin"` (run as a
 * command hook).
 */
function asGeminiReads(raw: unknown, file: string, at: Array<string | number>, problems: ConfigProblem[]): unknown {
  if (!isObject(raw)) return raw;
  const warn = (key: string, message: string) => problems.push({ file, path: jsonPath([...at, key]), message, severity: 'warning' });
  let out: Record<string, unknown> = raw;
  const timeout = numberFromText(raw.timeout);
  if (timeout !== undefined) {
    warn('timeout', `timeout is the text "${raw.timeout}"; read as ${timeout} ms, as Gemini CLI reads it (write it without quotes)`);
    out = { ...out, timeout };
  } else if (raw.timeout === null) {
    warn('timeout', 'timeout is null; the default is used, as Gemini CLI uses it');
    const { timeout: _none, ...rest } = out;
    out = rest;
  }
  if (raw.type === 'plugin') {
    warn('type', '"type": "plugin" runs as a command hook, as Gemini CLI runs it (write "command")');
    out = { ...out, type: 'command' };
  }
  return out;
}

/** Validates one hook; returns it when it can run, with every problem found either way. */
function validateHook(
  raw: unknown,
  file: string,
  at: Array<string | number>,
  event: EventName,
): { hook?: SettingsHookConfig; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  raw = asGeminiReads(raw, file, at, problems);
  const plain = plainCommandHook(raw);
  // Plainly valid and nothing to warn about (a timeout past the cap or not whole, prewarm on a persistent hook).
  const warns =
    plain &&
    ((plain.timeout !== undefined && (plain.timeout > MAX_TIMEOUT_MS || !Number.isInteger(plain.timeout))) ||
      (plain.prewarm && plain.persistent));
  if (plain && !warns) return { hook: plain, problems };
  const { CommandHookConfig, HttpHookConfig } = settingsSchemas();
  const schema = isObject(raw) && raw.type === 'http' ? HttpHookConfig : CommandHookConfig;
  const known = new Set(Object.keys(schema.shape));
  if (isObject(raw) && (raw.type === 'command' || raw.type === 'http')) {
    // Unknown fields are reported but do not drop an otherwise valid hook.
    for (const k of Object.keys(raw).filter((k) => !known.has(k)))
      problems.push({ file, path: jsonPath([...at, k]), message: `unknown field "${k}" (ignored)`, severity: 'warning' });
    // Accepted as the reference accepts them, but probably not what was meant: said as warnings.
    if (typeof raw.timeout === 'number' && raw.timeout > 0 && raw.timeout <= MAX_TIMEOUT_MS && !Number.isInteger(raw.timeout)) {
      problems.push({
        file,
        path: jsonPath([...at, 'timeout']),
        message: `timeout ${raw.timeout} is not a whole number of milliseconds (used as given)`,
        severity: 'warning',
      });
    }
    if (raw.type === 'http' && isObject(raw.headers)) {
      const allowed = Array.isArray(raw.allowedEnvVars) ? raw.allowedEnvVars.filter((v): v is string => typeof v === 'string') : [];
      const strings = Object.fromEntries(Object.entries(raw.headers).filter((e): e is [string, string] => typeof e[1] === 'string'));
      for (const name of unlistedHeaderVars(strings, allowed))
        problems.push({
          file,
          path: jsonPath([...at, 'headers']),
          message: `$${name} is not in "allowedEnvVars": it is sent as an empty string (list it to send its value)`,
          severity: 'warning',
        });
    }
    if (raw.prewarm === true && raw.persistent === true)
      problems.push({
        file,
        path: jsonPath([...at, 'prewarm']),
        message: '"prewarm" has no effect on a persistent hook (it is started once anyway)',
        severity: 'warning',
      });
    if (isObject(raw.env)) {
      for (const [k, v] of Object.entries(raw.env)) {
        if (typeof v === 'number' || typeof v === 'boolean') {
          problems.push({
            file,
            path: jsonPath([...at, 'env', k]),
            message: `"env" values are strings; ${JSON.stringify(v)} is passed as the text "${String(v)}"`,
            severity: 'warning',
          });
        }
      }
    }
  }
  let checked = raw;
  // A longer delay overflows Node's timer and would kill the hook at once: clamped, and said.
  if (isObject(raw) && typeof raw.timeout === 'number' && raw.timeout > MAX_TIMEOUT_MS) {
    problems.push({
      file,
      path: jsonPath([...at, 'timeout']),
      message: `timeout ${raw.timeout} is above the limit of ${MAX_TIMEOUT_TEXT}; ${MAX_TIMEOUT_MS} is used`,
      severity: 'warning',
    });
    checked = { ...raw, timeout: MAX_TIMEOUT_MS };
  }
  const parsed = schema.safeParse(checked); // unknown fields are stripped
  if (parsed.success) return { hook: parsed.data, problems };
  // A wrong "type" says what the hook is not; its other fields are not checked against "command".
  const typeIssues = parsed.error.issues.filter((i) => i.path[0] === 'type');
  const found = issuesToProblems(file, at, typeIssues.length ? typeIssues : parsed.error.issues);
  const onEvent = (p: ConfigProblem) =>
    p.path === jsonPath([...at, 'command']) && p.message.startsWith('missing ') ? { ...p, message: `${p.message} on ${event}` } : p;
  return { problems: [...problems, ...found.map(onEvent)] };
}

function validateMatcher(
  matcher: unknown,
  file: string,
  at: Array<string | number>,
  event: EventName,
): { matcher?: string; problems: ConfigProblem[] } {
  if (matcher === undefined) return { problems: [] };
  const path = jsonPath([...at, 'matcher']);
  const typed =
    typeof matcher === 'string' ? { success: true as const } : settingsSchemas().HookDefinition.shape.matcher.safeParse(matcher);
  if (!typed.success) return { problems: issuesToProblems(file, [...at, 'matcher'], typed.error.issues) };
  if (typeof matcher !== 'string') return { problems: [] };
  const kind = CATALOG[event].matchOn.kind;
  const trimmed = matcher.trim();
  if (trimmed === '' || trimmed === '*') return { matcher, problems: [] };
  if (kind === 'none') {
    return {
      matcher,
      problems: [{ file, path, message: `${event} ignores matchers; the hook runs for every ${event}`, severity: 'warning' }],
    };
  }
  if (kind === 'tool' && !/^[\w-]+(\|[\w-]+)*$/.test(trimmed)) {
    const c = compileLinear(trimmed);
    if (!c.ok) {
      const what =
        c.reason === 'invalid'
          ? 'invalid regular expression'
          : 'regular expression not supported by the linear-time engine (RE2: no backreferences or lookaround)';
      return {
        matcher,
        problems: [{ file, path, message: `${what} (${c.message}); it is compared as an exact tool name instead`, severity: 'warning' }],
      };
    }
  }
  return { matcher, problems: [] };
}

/** Reads one settings object (already parsed JSON) into hook entries and problems. */
export function validateLayer(value: unknown, file: string, source: Source, extension?: string): LayerResult {
  const problems: ConfigProblem[] = [];
  const entries: HookEntry[] = [];
  const empty: LayerResult = { entries, problems, settings: {}, disabled: [] };
  if (!isObject(value)) {
    problems.push({ file, path: '', message: 'settings must be a JSON object', severity: 'error' });
    return empty;
  }
  const { settings, problems: settingsProblems } = readSettings(value, file);
  problems.push(...settingsProblems);
  const disabled = [...(settings.hooksConfig?.disabled ?? [])];
  const hooks = value.hooks;
  if (hooks === undefined) return { entries, problems, settings, disabled };
  if (!isObject(hooks)) {
    problems.push(...issuesToProblems(file, ['hooks'], settingsSchemas().HooksBlock.safeParse(hooks).error?.issues ?? []));
    return { entries, problems, settings, disabled };
  }
  for (const [key, definitions] of Object.entries(hooks)) {
    if (HOOKS_META_KEYS.has(key)) {
      const meta = plainMeta(key, definitions) ? { success: true as const } : settingsSchemas().HooksMeta.safeParse({ [key]: definitions });
      if (!meta.success) problems.push(...issuesToProblems(file, ['hooks'], meta.error.issues));
      if (key === 'disabled' && Array.isArray(definitions)) disabled.push(...definitions.filter((d): d is string => typeof d === 'string'));
      continue;
    }
    if (!isEventName(key)) {
      const hint = closestEvent(key);
      problems.push({
        file,
        path: jsonPath(['hooks', key]),
        message: `unknown event "${key}"${hint ? ` (did you mean "${hint}"?)` : ''}; expected one of ${EVENT_NAMES.join(', ')}`,
        severity: 'error',
      });
      continue;
    }
    // One definition object where a list belongs: Gemini CLI's merge makes it a list of one, and so does Hookline.
    const single = isObject(definitions) && Array.isArray(definitions.hooks);
    if (single)
      problems.push({
        file,
        path: jsonPath(['hooks', key]),
        message: `${key} is one definition, not a list of them; read as [ … ], as Gemini CLI reads it`,
        severity: 'warning',
      });
    else if (!Array.isArray(definitions)) {
      problems.push(
        ...issuesToProblems(file, ['hooks', key], settingsSchemas().HooksBlock.shape[key].safeParse(definitions).error?.issues ?? []),
      );
      continue;
    }
    (single ? [definitions] : (definitions as unknown[])).forEach((def, i) => {
      const at: Array<string | number> = single ? ['hooks', key] : ['hooks', key, i];
      if (!isObject(def)) {
        problems.push(...issuesToProblems(file, at, settingsSchemas().HookDefinition.safeParse(def).error?.issues ?? []));
        return;
      }
      if (!Array.isArray(def.hooks)) {
        problems.push(
          ...issuesToProblems(
            file,
            [...at, 'hooks'],
            settingsSchemas().HookDefinition.shape.hooks.safeParse(def.hooks).error?.issues ?? [],
          ),
        );
        return;
      }
      const m = validateMatcher(def.matcher, file, at, key);
      problems.push(...m.problems);
      if (def.matcher !== undefined && m.matcher === undefined) return;
      let sequential: boolean | undefined;
      const seq =
        def.sequential === undefined || typeof def.sequential === 'boolean'
          ? { success: true as const, data: def.sequential }
          : settingsSchemas().HookDefinition.shape.sequential.safeParse(def.sequential);
      if (seq.success) sequential = seq.data;
      else problems.push(...issuesToProblems(file, [...at, 'sequential'], seq.error.issues));
      for (const k of Object.keys(def)) {
        if (!DEFINITION_KEYS.has(k))
          problems.push({ file, path: jsonPath([...at, k]), message: `unknown field "${k}" (ignored)`, severity: 'warning' });
      }
      def.hooks.forEach((raw, j) => {
        const hookAt = [...at, 'hooks', j];
        const v = validateHook(raw, file, hookAt, key);
        problems.push(...v.problems);
        if (!v.hook) return;
        entries.push({
          event: key,
          source,
          file,
          path: jsonPath(hookAt),
          extension,
          matcher: m.matcher,
          sequential,
          hook: v.hook,
          enabled: true,
        });
      });
    });
  }
  return { entries, problems, settings, disabled };
}
