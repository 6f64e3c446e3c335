/**
 * Copilot CLI's hook events. One engine reads two formats, chosen by how an event is written:
 * camelCase names (`preToolUse`) get Copilot's own payloads and answers; PascalCase names
 * (`PreToolUse`, Claude Code's) get snake_case payloads with Claude's tool names and also read
 * Claude's `hookSpecificOutput` on preToolUse. Both name the same events.
 */
import { closestName } from '../../config/suggest.js';

export const COPILOT_EVENTS = [
  'sessionStart',
  'userPromptSubmitted',
  'preToolUse',
  'permissionRequest',
  'postToolUse',
  'postToolUseFailure',
  'notification',
  'agentStop',
  'sessionEnd',
  'subagentStart',
  'subagentStop',
  'preCompact',
  'errorOccurred',
  'preMcpToolCall',
] as const;
export type CopilotEvent = (typeof COPILOT_EVENTS)[number];

/** The PascalCase (Claude Code) names Copilot CLI reads, and the events they are. */
export const PASCAL_NAMES: Readonly<Record<string, CopilotEvent>> = {
  SessionStart: 'sessionStart',
  UserPromptSubmit: 'userPromptSubmitted',
  PreToolUse: 'preToolUse',
  PermissionRequest: 'permissionRequest',
  PostToolUse: 'postToolUse',
  PostToolUseFailure: 'postToolUseFailure',
  Notification: 'notification',
  Stop: 'agentStop',
  SessionEnd: 'sessionEnd',
  SubagentStart: 'subagentStart',
  SubagentStop: 'subagentStop',
  PreCompact: 'preCompact',
};

/** Which payloads and answers an event name gets: `copilot` (camelCase) or `claude` (PascalCase). */
export type Shape = 'copilot' | 'claude';

/** The event and shape an event name as written stands for, or undefined when Copilot CLI has no such event. */
export function copilotEventOf(name: string): { event: CopilotEvent; shape: Shape } | undefined {
  if ((COPILOT_EVENTS as readonly string[]).includes(name)) return { event: name as CopilotEvent, shape: 'copilot' };
  const pascal = Object.hasOwn(PASCAL_NAMES, name) ? PASCAL_NAMES[name] : undefined;
  return pascal ? { event: pascal, shape: 'claude' } : undefined;
}

/** The PascalCase name of an event (what a Claude-format payload's `hook_event_name` says). */
export function pascalName(event: CopilotEvent): string {
  return Object.entries(PASCAL_NAMES).find(([, e]) => e === event)?.[0] ?? event;
}

/** Events whose hooks are matched on the tool's name. */
export const TOOL_EVENTS: ReadonlySet<CopilotEvent> = new Set(['preToolUse', 'permissionRequest', 'postToolUse', 'postToolUseFailure']);

/**
 * Events the reference agent has no moment for: read and reported by `validate`, never run
 * (it has no MCP client, and its hand-offs are not Copilot's `task` subagents).
 */
export const UNFIRED_EVENTS: ReadonlySet<CopilotEvent> = new Set(['preMcpToolCall', 'subagentStart', 'subagentStop']);

const FOREIGN: Record<string, CopilotEvent> = {
  beforetool: 'preToolUse',
  aftertool: 'postToolUse',
  beforeagent: 'userPromptSubmitted',
  afteragent: 'agentStop',
  userpromptsubmit: 'userPromptSubmitted',
  stop: 'agentStop',
  precompress: 'preCompact',
};

/** A close event name for a misspelt one, or for another agent's name. */
export function closestCopilotEvent(name: string): string | undefined {
  return closestName(name, [...COPILOT_EVENTS, ...Object.keys(PASCAL_NAMES)], FOREIGN);
}
