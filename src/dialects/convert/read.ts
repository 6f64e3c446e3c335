/**
 * A hook configuration of any system read into one neutral list: each command hook with the
 * agent's point it runs at, the tools its matcher names (in the agent's names), its timeout in
 * milliseconds, and notes for every field that has no neutral form.
 */
import type { EventName } from '../../events/names.js';
import { parseGoDuration } from '../mm/duration.js';
import { agentEventOf, MAPS } from './maps.js';
import { numberFromText } from '../../config/timeout.js';
import { copilotEventOf, TOOL_EVENTS } from '../copilot/events.js';
import { isObject } from '../json.js';

export interface NeutralHook {
  /** Where it is in the source file, e.g. `hooks.PreToolUse[0].hooks[1]`. */
  at: string;
  event: string;
  /** The agent's point; undefined when the system's event has none. */
  point?: EventName;
  /** undefined: every tool (or no matcher); names: the agent's tool names; regex: a pattern kept as written. */
  matcher?: { names: string[] } | { regex: string };
  command: string;
  timeoutMs?: number;
  name?: string;
}

export interface Read {
  hooks: NeutralHook[];
  notes: string[];
}

/** `Bash`, `Edit|Write`, `^(a|b)$`: a list of names; anything else is a pattern. */
export function readMatcher(dialect: string, m: unknown, at: string, notes: string[]): NeutralHook['matcher'] {
  if (m === undefined || m === null) return undefined;
  if (typeof m !== 'string') {
    notes.push(`${at}: matcher ${JSON.stringify(m)} is not a string; dropped (the hook runs for every tool)`);
    return undefined;
  }
  const t = m.trim();
  if (t === '' || t === '*' || t === '.*') return undefined;
  const plain = /^\^?\(?([\w.-]+(?:[|,][\w.-]+)*)\)?\$?$/.exec(t.replace(/^\^\(\?:/, '^('));
  if (plain && (!/[()^$]/.test(t) || (t.startsWith('^') && t.endsWith('$'))))
    return { names: plain[1].split(/[|,]/).map((n) => MAPS[dialect].toolBack(n)) };
  return { regex: t };
}

/**
 * A Copilot entry's or group's matcher: whole-name, so `""` matches no tool, and neither does `*`
 * on a camelCase event (PascalCase ones read `*` as every tool). `never`: the hook never runs.
 */
function copilotMatcherOf(event: string, m: unknown, at: string, notes: string[]): NeutralHook['matcher'] | 'never' {
  const ev = copilotEventOf(event);
  if (ev && !TOOL_EVENTS.has(ev.event)) {
    notes.push(`${at}.matcher: Copilot CLI does not match ${event} hooks on a name (it ignores the matcher); dropped`);
    return undefined;
  }
  const t = typeof m === 'string' ? m.trim() : undefined;
  if (t === '' || (t === '*' && ev?.shape !== 'claude')) {
    notes.push(`${at}.matcher: ${JSON.stringify(m)} matches no tool in Copilot CLI, so the hook never runs there; dropped`);
    return 'never';
  }
  return readMatcher('copilot', m, at, notes);
}

function timeoutOf(dialect: string, v: unknown, at: string, notes: string[]): number | undefined {
  // Gemini CLI reads `null` as the default and a number written as text as that number: so does convert.
  if (v === undefined || (dialect === 'gemini' && v === null)) return undefined;
  if (dialect === 'gemini') v = numberFromText(v) ?? v;
  const unit = MAPS[dialect].timeout;
  if (unit === 'duration' && typeof v === 'string') {
    const d = parseGoDuration(v);
    if (d.ok) return d.ns / 1e6;
  } else if (typeof v === 'number' && v > 0) return unit === 'ms' ? v : v * 1000;
  notes.push(`${at}: ${JSON.stringify(v)} is not a valid timeout; dropped`);
  return undefined;
}

const HANDLER_FIELDS = new Set(['type', 'command', 'timeout', 'name', 'matcher', 'hooks']);

/**
 * A Copilot entry's command (`bash`, else `command`: what runs on Linux and macOS) and the
 * fields the neutral form carries; `powershell`, `cwd`, `env` and a second command are reported.
 */
function copilotCommand(h: Record<string, unknown>): { command?: string; carried: Set<string> } {
  const text = (k: string) => (typeof h[k] === 'string' && (h[k] as string).trim() ? (h[k] as string) : undefined);
  const key = text('bash') !== undefined ? 'bash' : text('command') !== undefined ? 'command' : undefined;
  const carried = new Set(['type', 'timeoutSec', 'timeout', 'matcher', ...(key ? [key] : [])]);
  return { ...(key ? { command: text(key) } : {}), carried };
}

function handler(dialect: string, event: string, h: unknown, at: string, matcher: NeutralHook['matcher'], out: Read): void {
  if (!isObject(h)) {
    out.notes.push(`${at}: not a hook object; dropped`);
    return;
  }
  const type = h.type ?? (dialect === 'mm' || dialect === 'copilot' ? 'command' : undefined);
  // Gemini CLI runs a "plugin" hook as a command.
  const isCommand = type === 'command' || (dialect === 'spatialagent' && type === 'bash') || (dialect === 'gemini' && type === 'plugin');
  const copilot = dialect === 'copilot' ? copilotCommand(h) : undefined;
  const command = copilot ? copilot.command : h.command;
  if (!isCommand || typeof command !== 'string') {
    out.notes.push(
      isCommand && copilot && h.powershell !== undefined
        ? `${at}: only a "powershell" command, which Copilot CLI runs on Windows alone; dropped`
        : `${at}: a ${typeof type === 'string' ? type : 'non-command'} hook; dropped (only command hooks convert)`,
    );
    return;
  }
  const fields = copilot?.carried ?? HANDLER_FIELDS;
  for (const k of Object.keys(h)) if (!fields.has(k)) out.notes.push(`${at}.${k}: no counterpart in the other system; dropped`);
  if (h.name !== undefined && dialect !== 'gemini') out.notes.push(`${at}.name: dropped`);
  const point = dialect === 'gemini' ? (event as EventName) : agentEventOf(dialect, event);
  const tkey = dialect === 'copilot' && h.timeoutSec !== undefined ? 'timeoutSec' : 'timeout';
  const timeoutMs = timeoutOf(dialect, h[tkey], `${at}.${tkey}`, out.notes);
  out.hooks.push({
    at,
    event,
    ...(point ? { point } : {}),
    ...(matcher ? { matcher } : {}),
    command,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(dialect === 'gemini' && typeof h.name === 'string' ? { name: h.name } : {}),
  });
}

/** A SpatialAgent matcher object: its `tool` field; other fields have no counterpart. */
function saMatcher(m: unknown, at: string, notes: string[]): NeutralHook['matcher'] {
  if (m === undefined) return undefined;
  if (!isObject(m)) return readMatcher('spatialagent', m, at, notes);
  for (const k of Object.keys(m)) if (k !== 'tool') notes.push(`${at}.matcher.${k}: no counterpart in the other system; dropped`);
  return m.tool === undefined ? undefined : readMatcher('spatialagent', m.tool, `${at}.matcher.tool`, notes);
}

/** The events object of a parsed configuration: `hooks`, or agy's named hooks and top-level events. */
function eventLists(dialect: string, root: Record<string, unknown>, notes: string[]): Array<[string, string, unknown]> {
  const out: Array<[string, string, unknown]> = [];
  const take = (obj: Record<string, unknown>, prefix: string) => {
    for (const [ev, list] of Object.entries(obj)) out.push([ev, `${prefix}${ev}`, list]);
  };
  for (const [k, v] of Object.entries(root)) {
    if (k === 'hooks' && isObject(v)) take(v, 'hooks.');
    else if (dialect === 'agy' && Array.isArray(v)) out.push([k, k, v]);
    else if (dialect === 'agy' && isObject(v)) {
      // A named hook (`{"<name>": {"enabled"?, "<Event>": [...]}}`).
      if (v.enabled === false) notes.push(`${k}: a disabled named hook; dropped`);
      else take(Object.fromEntries(Object.entries(v).filter(([e]) => e !== 'enabled')), `${k}.`);
      // A Copilot hooks file's `version` is its format's, not a hook's.
    } else if (k !== '$schema' && !(dialect === 'copilot' && k === 'version')) notes.push(`${k}: not hook configuration; dropped`);
  }
  return out;
}

/** Why Copilot CLI loads no hook from a file: `disableAllHooks`, or a group with an empty matcher. */
function copilotLoadsNothing(root: Record<string, unknown>): string | undefined {
  if (root.disableAllHooks === true) return "disableAllHooks: Copilot CLI runs none of this file's hooks";
  if (!isObject(root.hooks)) return undefined;
  for (const [event, list] of Object.entries(root.hooks))
    if (Array.isArray(list))
      for (const [i, g] of list.entries())
        if (isObject(g) && Array.isArray(g.hooks) && g.matcher === '')
          return `hooks.${event}[${i}].matcher: an empty matcher in a group makes Copilot CLI load no hook from this file`;
  return undefined;
}

export function readHooks(dialect: string, root: unknown): Read {
  const out: Read = { hooks: [], notes: [] };
  if (!isObject(root)) {
    out.notes.push('the file is not an object; nothing to convert');
    return out;
  }
  if (dialect === 'copilot') {
    const none = copilotLoadsNothing(root);
    if (none) {
      out.notes.push(`${none}; nothing converted`);
      return out;
    }
  }
  for (const [event, at, found] of eventLists(dialect, root, out.notes)) {
    // One Gemini definition object where a list belongs is a list of one, as Gemini CLI reads it.
    const list = dialect === 'gemini' && isObject(found) && Array.isArray(found.hooks) ? [found] : found;
    if (!Array.isArray(list)) {
      out.notes.push(`${at}: not a list; dropped`);
      continue;
    }
    list.forEach((g, i) => {
      const gat = `${at}[${i}]`;
      if (dialect === 'mm')
        return handler(dialect, event, g, gat, isObject(g) ? readMatcher('mm', g.matcher, gat, out.notes) : undefined, out);
      if (isObject(g) && Array.isArray(g.hooks)) {
        for (const k of Object.keys(g))
          if (k !== 'matcher' && k !== 'hooks') out.notes.push(`${gat}.${k}: no counterpart in the other system; dropped`);
        const m =
          dialect === 'spatialagent'
            ? saMatcher(g.matcher, gat, out.notes)
            : dialect === 'copilot' && g.matcher !== undefined
              ? copilotMatcherOf(event, g.matcher, gat, out.notes)
              : readMatcher(dialect, g.matcher, gat, out.notes);
        if (m === 'never') return;
        g.hooks.forEach((h, j) => {
          const hat = `${gat}.hooks[${j}]`;
          // SpatialAgent's and Copilot's hooks may have a matcher of their own.
          const own = (dialect === 'spatialagent' || dialect === 'copilot') && isObject(h) && h.matcher !== undefined;
          const inner = !own
            ? m
            : dialect === 'spatialagent'
              ? saMatcher(h.matcher, hat, out.notes)
              : copilotMatcherOf(event, h.matcher, hat, out.notes);
          if (inner !== 'never') handler(dialect, event, h, hat, inner, out);
        });
        return;
      }
      // A bare handler (SpatialAgent's and Copilot's form, agy's for events without a matcher).
      const m =
        dialect === 'spatialagent' && isObject(g)
          ? saMatcher(g.matcher, gat, out.notes)
          : dialect === 'copilot' && isObject(g) && g.matcher !== undefined
            ? copilotMatcherOf(event, g.matcher, gat, out.notes)
            : undefined;
      if (m !== 'never') handler(dialect, event, g, gat, m, out);
    });
  }
  return out;
}
