import type { z } from 'zod';
import { EVENT_NAMES, isEventName, type EventName } from '../events/names.js';
import { CATALOG } from '../events/catalog.js';
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

function closest(name: string): string | undefined {
  const lower = name.toLowerCase();
  return EVENT_NAMES.find((e) => e.toLowerCase() === lower || e.toLowerCase().includes(lower) || lower.includes(e.toLowerCase()));
}

function issuesToProblems(file: string, base: Array<string | number>, issues: z.core.$ZodIssue[]): ConfigProblem[] {
  return issues.map((issue) => {
    const path = jsonPath([...base, ...(issue.path as Array<string | number>)]);
    let message = issue.message;
    if (issue.code === 'unrecognized_keys') message = `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    else if (issue.code === 'invalid_type') message = `${issue.path.length ? `"${String(issue.path.at(-1))}"` : 'value'} must be ${issue.expected === 'record' ? 'an object' : `a ${issue.expected}`}`;
    else if (issue.code === 'invalid_value' && issue.path.at(-1) === 'type') message = `unknown hook type; expected "command"`;
    return { file, path, message, severity: 'error' as const };
  });
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
      return { matcher, problems: [{ file, path, message: `invalid regular expression (${why}); it is compared as an exact tool name instead`, severity: 'error' }] };
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
  // The non-hook parts are read leniently: a bad `security` block must not drop the hooks.
  const settingsParse = Settings.omit({ hooks: true }).safeParse({ ...value, hooks: undefined });
  let settings: z.infer<typeof Settings> = {};
  if (settingsParse.success) settings = settingsParse.data;
  else problems.push(...issuesToProblems(file, [], settingsParse.error.issues));

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
      const hint = closest(key);
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
