import type { z } from 'zod';
import { EVENT_NAMES, isEventName, type EventName } from '../events/names.js';
import { CATALOG } from '../events/catalog.js';
import { closestName } from './suggest.js';
import { CommandHookConfig, Settings, type HookEntry, type Source } from './schema.js';
import { jsonPath, type ConfigProblem } from './problems.js';

/** Keys inside `hooks` that configure the system rather than name an event. */
const HOOKS_META_KEYS = new Set(['enabled', 'disabled', 'notifications']);

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
    if (issue.code === 'unrecognized_keys') message = `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    else if (issue.code === 'invalid_type' && issue.expected !== 'int') {
      const received = /received (\w+)/.exec(issue.message)?.[1];
      const expected = issue.expected === 'record' ? 'object' : issue.expected;
      message = `${field} must be ${article(expected)}${typeName(received)}`;
    } else if (issue.code === 'invalid_union' && issue.errors.every((e) => e.length === 1 && e[0].code === 'invalid_type')) {
      const expected = issue.errors.map((e) => (e[0] as { expected: string }).expected);
      const received = /received (\w+)/.exec(issue.errors[0][0].message)?.[1];
      message = `${field} must be ${article(expected.slice(0, -1).join(', '))} or ${expected.at(-1)}${typeName(received)}`;
    } else if (issue.code === 'invalid_value' && issue.path.at(-1) === 'type') message = `unknown hook type; expected "command"`;
    if (issue.path[0] === 'env' && issue.path.length === 2 && issue.code !== 'unrecognized_keys') message = `"env" must map names to strings; ${message}`;
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

/**
 * Reads the non-hook settings leniently: each invalid value is reported and left out, and the
 * rest is kept (a bad `hooksConfig.enabled` must not lose `hooksConfig.disabled` or `security`).
 */
function readSettings(value: Record<string, unknown>, file: string): { settings: z.infer<typeof Settings>; problems: ConfigProblem[] } {
  const schema = Settings.omit({ hooks: true });
  const copy = structuredClone({ ...value, hooks: undefined }) as Record<string, unknown>;
  const problems: ConfigProblem[] = [];
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

/** Validates one hook; returns it when it can run, with every problem found either way. */
function validateHook(raw: unknown, file: string, at: Array<string | number>, event: EventName): { hook?: CommandHookConfig; problems: ConfigProblem[] } {
  const where = jsonPath(at);
  if (!isObject(raw)) return { problems: [{ file, path: where, message: 'a hook must be an object with "type" and "command"', severity: 'error' }] };
  if (raw.type === 'runtime') {
    return { problems: [{ file, path: jsonPath([...at, 'type']), message: 'runtime hooks are registered in code, not in settings', severity: 'error' }] };
  }
  if (raw.type === undefined) {
    return { problems: [{ file, path: jsonPath([...at, 'type']), message: 'missing "type" (expected "command")', severity: 'error' }] };
  }
  if (raw.type === 'command' && raw.command === undefined) {
    return { problems: [{ file, path: jsonPath([...at, 'command']), message: `missing "command" for a command hook on ${event}`, severity: 'error' }] };
  }
  // Unknown fields are reported but do not drop an otherwise valid hook.
  const known = new Set(Object.keys(CommandHookConfig.shape));
  const unknown = Object.keys(raw).filter((k) => !known.has(k));
  const problems: ConfigProblem[] = unknown.map((k) => ({ file, path: jsonPath([...at, k]), message: `unknown field "${k}" (ignored)`, severity: 'warning' }));
  // Accepted as the reference accepts them, but probably not what was meant: said as warnings.
  if (typeof raw.timeout === 'number' && raw.timeout > 0 && !Number.isInteger(raw.timeout)) {
    problems.push({ file, path: jsonPath([...at, 'timeout']), message: `timeout ${raw.timeout} is not a whole number of milliseconds (used as given)`, severity: 'warning' });
  }
  if (isObject(raw.env)) {
    for (const [k, v] of Object.entries(raw.env)) {
      if (typeof v === 'number' || typeof v === 'boolean') {
        problems.push({ file, path: jsonPath([...at, 'env', k]), message: `"env" values are strings; ${JSON.stringify(v)} is passed as the text "${String(v)}"`, severity: 'warning' });
      }
    }
  }
  const trimmed = Object.fromEntries(Object.entries(raw).filter(([k]) => known.has(k)));
  const parsed = CommandHookConfig.safeParse(trimmed);
  if (!parsed.success) return { problems: [...problems, ...issuesToProblems(file, at, parsed.error.issues)] };
  return { hook: parsed.data, problems };
}

function validateMatcher(matcher: unknown, file: string, at: Array<string | number>, event: EventName): { matcher?: string; problems: ConfigProblem[] } {
  if (matcher === undefined) return { problems: [] };
  const path = jsonPath([...at, 'matcher']);
  if (typeof matcher !== 'string') return { problems: [{ file, path, message: '"matcher" must be a string', severity: 'error' }] };
  const kind = CATALOG[event].matchOn.kind;
  const trimmed = matcher.trim();
  if (trimmed === '' || trimmed === '*') return { matcher, problems: [] };
  if (kind === 'none') {
    return { matcher, problems: [{ file, path, message: `${event} ignores matchers; the hook runs for every ${event}`, severity: 'warning' }] };
  }
  if (kind === 'tool') {
    try {
      new RegExp(trimmed);
    } catch (err) {
      const why = err instanceof Error ? err.message.replace(/^Invalid regular expression: /, '') : String(err);
      return { matcher, problems: [{ file, path, message: `invalid regular expression (${why}); it is compared as an exact tool name instead`, severity: 'warning' }] };
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
    problems.push({ file, path: 'hooks', message: '"hooks" must be an object keyed by event name', severity: 'error' });
    return { entries, problems, settings, disabled };
  }
  for (const [key, definitions] of Object.entries(hooks)) {
    if (HOOKS_META_KEYS.has(key)) {
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
    if (!Array.isArray(definitions)) {
      problems.push({ file, path: jsonPath(['hooks', key]), message: `"${key}" must be an array of hook definitions`, severity: 'error' });
      continue;
    }
    definitions.forEach((def, i) => {
      const at: Array<string | number> = ['hooks', key, i];
      if (!isObject(def)) {
        problems.push({ file, path: jsonPath(at), message: 'a hook definition must be an object with a "hooks" array', severity: 'error' });
        return;
      }
      if (!Array.isArray(def.hooks)) {
        problems.push({ file, path: jsonPath([...at, 'hooks']), message: def.hooks === undefined ? 'missing "hooks" array' : '"hooks" must be an array', severity: 'error' });
        return;
      }
      const m = validateMatcher(def.matcher, file, at, key);
      problems.push(...m.problems);
      if (def.matcher !== undefined && m.matcher === undefined) return;
      let sequential: boolean | undefined;
      if (def.sequential !== undefined && typeof def.sequential !== 'boolean') {
        problems.push({ file, path: jsonPath([...at, 'sequential']), message: '"sequential" must be true or false', severity: 'error' });
      } else sequential = def.sequential as boolean | undefined;
      for (const k of Object.keys(def)) {
        if (!['matcher', 'sequential', 'hooks'].includes(k)) problems.push({ file, path: jsonPath([...at, k]), message: `unknown field "${k}" (ignored)`, severity: 'warning' });
      }
      def.hooks.forEach((raw, j) => {
        const hookAt = [...at, 'hooks', j];
        const v = validateHook(raw, file, hookAt, key);
        problems.push(...v.problems);
        if (!v.hook) return;
        entries.push({ event: key, source, file, path: jsonPath(hookAt), extension, matcher: m.matcher, sequential, hook: v.hook, enabled: true });
      });
    });
  }
  return { entries, problems, settings, disabled };
}
