/**
 * Claude Code's hook events, as its hooks reference documents them: what each one is matched on,
 * what exit code 2 (or `decision: "block"`) means there, and the fields of its input.
 *
 * Hookline fires the events below. Claude Code has more (TaskCompleted, CwdChanged…) whose moment
 * the reference agent never has; their hooks are reported by `validate` as a warning and never run.
 */
import { z } from 'zod';
import { closestName } from '../../config/suggest.js';

export const CLAUDE_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'PostCompact',
  'Notification',
  'PermissionRequest',
  'PermissionDenied',
  'PostToolBatch',
  'StopFailure',
  'InstructionsLoaded',
  'ConfigChange',
] as const;
export type ClaudeEvent = (typeof CLAUDE_EVENTS)[number];

export function isClaudeEvent(name: string): name is ClaudeEvent {
  return (CLAUDE_EVENTS as readonly string[]).includes(name);
}

/**
 * Events Claude Code has that the reference agent never fires (it has no such moment: it never
 * changes its working directory, has no slash-command expansion, teams, tasks, worktrees, file
 * watcher, MCP elicitation or model switch): valid in settings, reported, never run.
 */
export const UNSUPPORTED_CLAUDE_EVENTS: readonly string[] = [
  'Setup',
  'UserPromptExpansion',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'CwdChanged',
  'FileChanged',
  'DirectoryAdded',
  'WorktreeCreate',
  'WorktreeRemove',
  'Elicitation',
  'ElicitationResult',
  'PreModelSwitch',
  'PostModelSwitch',
  'MessageDisplay',
];

/**
 * What a block (exit code 2, or `decision: "block"` in JSON) does at this event:
 * - `tool`: the tool does not run; the reason goes to Claude (PreToolUse, as `permissionDecision: "deny"`).
 * - `feedback`: the tool already ran; the reason goes to Claude (PostToolUse, PostToolUseFailure).
 * - `prompt`: the prompt is not processed and is erased; the reason goes to the user (UserPromptSubmit).
 * - `stop`: Claude does not stop; it continues with the reason as its instruction (Stop, SubagentStop).
 * - `compact`: the compaction does not happen (PreCompact).
 * - `loop`: the agent stops before its next model call (PostToolBatch).
 * - `config`: the changed settings are not applied to the session (ConfigChange).
 * - `none`: nothing is blocked; exit 2's stderr is shown to the user.
 * - `ignored`: exit 2 and `decision` mean nothing here (PermissionRequest decides through its
 *   `decision` object; PermissionDenied, StopFailure and InstructionsLoaded cannot block).
 */
export type BlockKind = 'tool' | 'feedback' | 'prompt' | 'stop' | 'compact' | 'loop' | 'config' | 'none' | 'ignored';

export interface ClaudeEventSpec {
  /** The input field matchers are compared with; undefined when the event ignores matchers. */
  matchField?: 'tool_name' | 'source' | 'reason' | 'trigger' | 'notification_type' | 'agent_type' | 'error' | 'load_reason';
  block: BlockKind;
  /** Plain (non-JSON) stdout on exit 0 becomes context for Claude. */
  plainTextIsContext: boolean;
  /** `hookSpecificOutput.additionalContext` is honoured. */
  context: boolean;
}

export const CLAUDE_CATALOG: Readonly<Record<ClaudeEvent, ClaudeEventSpec>> = {
  PreToolUse: { matchField: 'tool_name', block: 'tool', plainTextIsContext: false, context: true },
  PostToolUse: { matchField: 'tool_name', block: 'feedback', plainTextIsContext: false, context: true },
  PostToolUseFailure: { matchField: 'tool_name', block: 'feedback', plainTextIsContext: false, context: true },
  UserPromptSubmit: { block: 'prompt', plainTextIsContext: true, context: true },
  // Since Claude Code 2.1.163 a Stop hook's additionalContext is feedback that keeps the turn going.
  Stop: { block: 'stop', plainTextIsContext: false, context: true },
  SubagentStart: { matchField: 'agent_type', block: 'none', plainTextIsContext: false, context: true },
  SubagentStop: { matchField: 'agent_type', block: 'stop', plainTextIsContext: false, context: true },
  SessionStart: { matchField: 'source', block: 'none', plainTextIsContext: true, context: true },
  SessionEnd: { matchField: 'reason', block: 'none', plainTextIsContext: false, context: false },
  PreCompact: { matchField: 'trigger', block: 'compact', plainTextIsContext: false, context: false },
  PostCompact: { matchField: 'trigger', block: 'none', plainTextIsContext: false, context: false },
  Notification: { matchField: 'notification_type', block: 'none', plainTextIsContext: false, context: false },
  PermissionRequest: { matchField: 'tool_name', block: 'ignored', plainTextIsContext: false, context: false },
  PermissionDenied: { matchField: 'tool_name', block: 'ignored', plainTextIsContext: false, context: false },
  PostToolBatch: { block: 'loop', plainTextIsContext: false, context: true },
  StopFailure: { matchField: 'error', block: 'ignored', plainTextIsContext: false, context: false },
  InstructionsLoaded: { matchField: 'load_reason', block: 'ignored', plainTextIsContext: false, context: false },
  ConfigChange: { matchField: 'source', block: 'config', plainTextIsContext: false, context: false },
};

export const TOOL_EVENTS: ReadonlySet<ClaudeEvent> = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'PermissionDenied',
]);

/** Fields every input carries. */
export const ClaudeBaseInput = z.object({
  session_id: z.string(),
  transcript_path: z.string(),
  cwd: z.string(),
  permission_mode: z.string(),
  hook_event_name: z.string(),
});

const tool = {
  tool_name: z.string(),
  tool_input: z.record(z.string(), z.unknown()),
  tool_use_id: z.string(),
};

/** Each event's own fields, with their wire names. Unknown fields are passed to the hooks as given. */
export const CLAUDE_EVENT_FIELDS = {
  PreToolUse: z.object(tool).loose(),
  PostToolUse: z.object({ ...tool, tool_response: z.unknown() }).loose(),
  PostToolUseFailure: z.object({ ...tool, error: z.string(), is_interrupt: z.boolean() }).loose(),
  UserPromptSubmit: z.object({ prompt: z.string() }).loose(),
  Stop: z.object({ stop_hook_active: z.boolean(), last_assistant_message: z.string() }).loose(),
  SubagentStart: z.object({ agent_id: z.string(), agent_type: z.string() }).loose(),
  SubagentStop: z
    .object({
      stop_hook_active: z.boolean(),
      agent_id: z.string(),
      agent_type: z.string(),
      agent_transcript_path: z.string(),
      last_assistant_message: z.string(),
    })
    .loose(),
  SessionStart: z.object({ source: z.enum(['startup', 'resume', 'clear', 'compact']), model: z.string() }).loose(),
  SessionEnd: z.object({ reason: z.string() }).loose(),
  PreCompact: z.object({ trigger: z.enum(['manual', 'auto']), custom_instructions: z.string() }).loose(),
  PostCompact: z.object({ trigger: z.enum(['manual', 'auto']), compact_summary: z.string() }).loose(),
  Notification: z.object({ message: z.string(), title: z.string(), notification_type: z.string() }).loose(),
  PermissionRequest: z
    .object({ tool_name: z.string(), tool_input: z.record(z.string(), z.unknown()), permission_suggestions: z.array(z.unknown()) })
    .loose(),
  PermissionDenied: z.object({ ...tool, reason: z.string() }).loose(),
  PostToolBatch: z
    .object({
      tool_calls: z.array(z.object({ ...tool, tool_response: z.unknown() }).loose()),
    })
    .loose(),
  StopFailure: z.object({ error: z.string(), error_details: z.string(), last_assistant_message: z.string() }).loose(),
  InstructionsLoaded: z
    .object({
      file_path: z.string(),
      memory_type: z.enum(['User', 'Project', 'Local', 'Managed']),
      load_reason: z.enum(['session_start', 'nested_traversal', 'path_glob_match', 'include', 'compact']),
    })
    .loose(),
  ConfigChange: z
    .object({
      source: z.enum(['user_settings', 'project_settings', 'local_settings', 'policy_settings', 'skills']),
      file_path: z.string(),
    })
    .loose(),
} satisfies Record<ClaudeEvent, z.ZodObject>;

/** A close Claude Code event name for a misspelt one, or for another agent's name (Gemini CLI's). */
const FOREIGN: Record<string, ClaudeEvent> = {
  beforetool: 'PreToolUse',
  aftertool: 'PostToolUse',
  beforeagent: 'UserPromptSubmit',
  afteragent: 'Stop',
  precompress: 'PreCompact',
  pretool: 'PreToolUse',
  posttool: 'PostToolUse',
  userprompt: 'UserPromptSubmit',
};

export function closestClaudeEvent(name: string): ClaudeEvent | undefined {
  return closestName(name, CLAUDE_EVENTS, FOREIGN);
}
