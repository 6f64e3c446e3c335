/**
 * The neutral hooks written as another system's configuration: events and tool names mapped
 * through the agent's points (maps.ts), timeouts in the target's unit, matchers in its form,
 * and a note for every hook or field that had to be dropped or approximated.
 */
import { Document } from 'yaml';
import { formatGoDuration } from '../mm/duration.js';
import { MAPS } from './maps.js';
import type { NeutralHook } from './read.js';

/** The project folder as a variable in commands, for the systems that set one. */
const PROJECT_VAR: Record<string, string | undefined> = {
  gemini: 'GEMINI_PROJECT_DIR',
  claude: 'CLAUDE_PROJECT_DIR',
  copilot: 'COPILOT_PROJECT_DIR',
};

/** Claude Code's project variable, which Gemini CLI and Copilot CLI set for their hooks too. */
const ALSO_SET: Record<string, readonly string[]> = { gemini: ['CLAUDE_PROJECT_DIR'], copilot: ['CLAUDE_PROJECT_DIR'] };

function matcherText(to: string, m: NeutralHook['matcher']): string | undefined {
  if (!m) return undefined;
  if ('regex' in m) return m.regex;
  const names = [...new Set(m.names.map((n) => MAPS[to].tool(n)))];
  // mm matches anywhere in the name and SpatialAgent from its start: anchored, a name is that name only.
  if (to === 'mm' || to === 'spatialagent') return names.length === 1 ? `^${names[0]}$` : `^(${names.join('|')})$`;
  return names.join('|');
}

const TRIGGERS = new Set(['gemini', 'claude', 'codex']);
const rawMatcher = (m: NonNullable<NeutralHook['matcher']>) => ('regex' in m ? m.regex : m.names.join('|'));

function timeoutIn(to: string, ms: number, at: string, notes: string[]): number | string {
  const unit = MAPS[to].timeout;
  if (unit === 'ms') return ms;
  if (unit === 'duration') return formatGoDuration(Math.round(ms * 1e6));
  const s = Math.ceil(ms / 1000);
  if (s * 1000 !== ms) notes.push(`${at}.timeout: ${ms} ms rounded up to ${s} s`);
  return s;
}

/** The command with the source's project-folder variable replaced by the target's (or `.`: hooks run in the project folder). */
function commandFor(to: string, command: string, at: string, notes: string[]): string {
  const has = PROJECT_VAR[to];
  let out = command;
  for (const v of Object.values(PROJECT_VAR)) {
    if (!v || v === has || ALSO_SET[to]?.includes(v)) continue;
    const re = new RegExp(`\\$\\{${v}\\}|\\$${v}\\b`, 'g');
    if (!out.match(re)) continue;
    out = out.replace(re, () => (has ? `$${has}` : '.'));
    notes.push(`${at}.command: $${v} is not set by ${to}; written as ${has ? `$${has}` : '"." (its hooks run in the project folder)'}`);
  }
  return out;
}

export function writeHooks(
  from: string,
  to: string,
  hooks: readonly NeutralHook[],
  notes: string[],
): { format: 'json' | 'yaml'; value: unknown } {
  const map = MAPS[to];
  const events: Record<string, unknown[]> = {};
  const groups = new Map<string, { matcher?: string; hooks: Record<string, unknown>[] }>();
  for (const h of hooks) {
    const event = h.point ? map.events[h.point] : undefined;
    if (!event) {
      notes.push(`${h.at}: dropped: ${to} has no event at the point of ${from}'s ${h.event}`);
      continue;
    }
    const isTool = h.point === 'BeforeTool' || h.point === 'AfterTool';
    // Gemini CLI and Claude Code match the same trigger fields (SessionStart's source…) with the same words.
    const keepTrigger = to === from || (TRIGGERS.has(from) && TRIGGERS.has(to));
    if (h.matcher && !isTool && !keepTrigger) notes.push(`${h.at}.matcher: ${to} does not match ${event} hooks on a name; dropped`);
    let matcher = isTool ? matcherText(to, h.matcher) : keepTrigger && h.matcher ? rawMatcher(h.matcher) : undefined;
    // Copilot CLI matches a pattern against the whole name: anchored, it means the same elsewhere.
    const anchored = matcher !== undefined && from === 'copilot' && to !== 'copilot' && !!h.matcher && 'regex' in h.matcher;
    if (anchored) matcher = `^(?:${matcher})$`;
    if (h.matcher && isTool && 'regex' in h.matcher && to !== from)
      notes.push(
        `${h.at}.matcher: the pattern ${JSON.stringify(h.matcher.regex)} is ${anchored ? `written as ${JSON.stringify(matcher)} (Copilot CLI matches the whole tool name)` : 'kept as written'}; tool names in it are not translated${to === 'copilot' ? ' (Copilot CLI matches it against the whole tool name)' : ''}`,
      );
    const command = commandFor(to, h.command, h.at, notes);
    const timeout = h.timeoutMs !== undefined ? timeoutIn(to, h.timeoutMs, h.at, notes) : undefined;
    if (h.name !== undefined && to !== 'gemini') notes.push(`${h.at}.name: ${to} hooks have no name; dropped`);
    const handler: Record<string, unknown> = {
      ...(to === 'mm' ? {} : { type: to === 'spatialagent' ? 'bash' : 'command' }),
      ...(h.name !== undefined && to === 'gemini' ? { name: h.name } : {}),
      command,
      ...(timeout !== undefined ? { timeout } : {}),
    };
    events[event] ??= [];
    // Copilot's own entry: flat, its command in `bash`, seconds in `timeoutSec`.
    if (to === 'copilot') {
      events[event].push({
        type: 'command',
        ...(matcher !== undefined ? { matcher } : {}),
        bash: command,
        ...(timeout !== undefined ? { timeoutSec: timeout } : {}),
      });
      continue;
    }
    if (to === 'mm' || to === 'spatialagent') {
      events[event].push(
        matcher === undefined ? handler : to === 'mm' ? { ...handler, matcher } : { ...handler, matcher: { tool: matcher } },
      );
      continue;
    }
    // Consecutive hooks of one event and matcher share a group, as they were written.
    const key = `${event}\0${matcher ?? ''}`;
    const last = events[event].at(-1);
    const group = groups.get(key);
    if (group && last === group) group.hooks.push(handler);
    else {
      const g = { ...(matcher !== undefined ? { matcher } : {}), hooks: [handler] };
      groups.set(key, g);
      events[event].push(g);
    }
  }
  return { format: to === 'mm' ? 'yaml' : 'json', value: to === 'copilot' ? { version: 1, hooks: events } : { hooks: events } };
}

export function render(out: { format: 'json' | 'yaml'; value: unknown }): string {
  if (out.format === 'json') return JSON.stringify(out.value, null, 2) + '\n';
  return new Document(out.value).toString();
}
