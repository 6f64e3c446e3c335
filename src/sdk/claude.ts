/**
 * hookline/sdk/claude: typed Claude Code hooks. The input narrows on `hook_event_name` and, for
 * the tool events, on `tool_name`, so `input.tool_input` is Bash's, Edit's… own shape; the
 * builders write Claude Code's JSON answers. Runs as `hookline/sdk` does (one-shot, or persistent
 * under Hookline). Types only besides the builders: nothing is loaded that a hook does not use.
 */
import { defineHook, type DefineOptions, type Handler } from './index.js';

/** The input of each of Claude Code's tools, as its PreToolUse and PostToolUse hooks read it. */
export interface ClaudeToolInputs {
  Bash: { command: string; description?: string; timeout?: number; run_in_background?: boolean };
  Read: { file_path: string; offset?: number; limit?: number };
  Write: { file_path: string; content: string };
  Edit: { file_path: string; old_string: string; new_string: string; replace_all?: boolean };
  MultiEdit: { file_path: string; edits: Array<{ old_string: string; new_string: string; replace_all?: boolean }> };
  Glob: { pattern: string; path?: string };
  Grep: {
    pattern: string;
    path?: string;
    glob?: string;
    type?: string;
    output_mode?: 'content' | 'files_with_matches' | 'count';
    '-i'?: boolean;
    '-n'?: boolean;
    '-A'?: number;
    '-B'?: number;
    '-C'?: number;
    head_limit?: number;
    multiline?: boolean;
  };
  LS: { path: string; ignore?: string[] };
  WebFetch: { url: string; prompt: string };
  WebSearch: { query: string; allowed_domains?: string[]; blocked_domains?: string[] };
  Task: { description: string; prompt: string; subagent_type: string };
  Agent: { description: string; prompt: string; subagent_type: string };
  NotebookEdit: {
    notebook_path: string;
    new_source: string;
    cell_id?: string;
    cell_type?: 'code' | 'markdown';
    edit_mode?: 'replace' | 'insert' | 'delete';
  };
  TodoWrite: { todos: Array<{ content: string; status: 'pending' | 'in_progress' | 'completed'; activeForm?: string }> };
}
export type ClaudeToolName = keyof ClaudeToolInputs;

/** Fields every Claude Code hook input carries. */
export interface ClaudeBase {
  session_id: string;
  transcript_path: string;
  cwd: string;
  permission_mode: string;
}

/** A tool event's input for one tool: its name and its own input shape; MCP tools are `mcp__<server>__<tool>`. */
export type ClaudeToolCall<Extra = unknown> =
  | { [T in ClaudeToolName]: { tool_name: T; tool_input: ClaudeToolInputs[T]; tool_use_id: string } & Extra }[ClaudeToolName]
  | ({ tool_name: `mcp__${string}`; tool_input: Record<string, unknown>; tool_use_id: string } & Extra);

type Ev<E extends string, F> = ClaudeBase & { hook_event_name: E } & F;

/** Every event's input, narrowed by `hook_event_name` (and `tool_name` for the tool events). */
export type ClaudeInput =
  | Ev<'PreToolUse', ClaudeToolCall>
  | Ev<'PostToolUse', ClaudeToolCall<{ tool_response: unknown }>>
  | Ev<'PostToolUseFailure', ClaudeToolCall<{ error: string; is_interrupt?: boolean }>>
  | Ev<'PermissionRequest', ClaudeToolCall<{ permission_suggestions?: unknown[] }>>
  | Ev<'PermissionDenied', ClaudeToolCall<{ reason: string }>>
  | Ev<'UserPromptSubmit', { prompt: string }>
  | Ev<'Stop', { stop_hook_active: boolean; last_assistant_message?: string }>
  | Ev<'SubagentStart', { agent_id: string; agent_type: string }>
  | Ev<
      'SubagentStop',
      { stop_hook_active: boolean; agent_id: string; agent_type: string; agent_transcript_path: string; last_assistant_message?: string }
    >
  | Ev<'SessionStart', { source: 'startup' | 'resume' | 'clear' | 'compact'; model?: string }>
  | Ev<'SessionEnd', { reason: string }>
  | Ev<'PreCompact', { trigger: 'manual' | 'auto'; custom_instructions: string }>
  | Ev<'PostCompact', { trigger: 'manual' | 'auto'; compact_summary: string }>
  | Ev<'Notification', { message: string; title?: string; notification_type?: string }>
  | Ev<'PostToolBatch', { tool_calls: Array<ClaudeToolCall<{ tool_response: unknown }>> }>
  | Ev<'StopFailure', { error: string; error_details?: string; last_assistant_message?: string }>
  | Ev<'InstructionsLoaded', { file_path: string; memory_type: 'User' | 'Project' | 'Local' | 'Managed'; load_reason: string }>
  | Ev<
      'ConfigChange',
      { source: 'user_settings' | 'project_settings' | 'local_settings' | 'policy_settings' | 'skills'; file_path: string }
    >;

export type ClaudeEventName = ClaudeInput['hook_event_name'];

/** What a Claude Code hook may answer (the fields Claude Code reads; others are ignored). */
export interface ClaudeOutput {
  continue?: boolean;
  stopReason?: string;
  suppressOutput?: boolean;
  systemMessage?: string;
  decision?: 'block' | 'approve';
  reason?: string;
  hookSpecificOutput?: {
    hookEventName: ClaudeEventName;
    permissionDecision?: 'allow' | 'deny' | 'ask' | 'defer';
    permissionDecisionReason?: string;
    updatedInput?: Record<string, unknown>;
    additionalContext?: string;
    updatedToolOutput?: unknown;
    decision?: { behavior: 'allow' | 'deny'; updatedInput?: Record<string, unknown>; message?: string; interrupt?: boolean };
    retry?: boolean;
  };
}

export type ClaudeHandler = (
  input: ClaudeInput,
  ctx: { persistent: boolean },
) => ClaudeOutput | void | undefined | Promise<ClaudeOutput | void | undefined>;

/** Runs `handler` as this process's Claude Code hook (one-shot: JSON on stdin, its answer on stdout). */
export function defineClaudeHook(handler: ClaudeHandler, opts: DefineOptions = {}): Promise<void> {
  return defineHook(handler as unknown as Handler, opts);
}

const decide = (
  permissionDecision: 'allow' | 'deny' | 'ask' | 'defer',
  reason?: string,
  extra: ClaudeOutput['hookSpecificOutput'] = undefined,
): ClaudeOutput => ({
  hookSpecificOutput: {
    hookEventName: 'PreToolUse',
    permissionDecision,
    ...(reason ? { permissionDecisionReason: reason } : {}),
    ...extra,
  },
});

/** PreToolUse: run the tool without asking. */
export const allowTool = (reason?: string): ClaudeOutput => decide('allow', reason);
/** PreToolUse: the tool does not run; Claude reads the reason. */
export const denyTool = (reason: string): ClaudeOutput => decide('deny', reason);
/** PreToolUse: ask the user first. */
export const askTool = (reason?: string): ClaudeOutput => decide('ask', reason);
/** PreToolUse: run the tool with this input instead (it replaces the model's). */
export const updateToolInput = (updatedInput: Record<string, unknown>, reason?: string): ClaudeOutput =>
  decide('allow', reason, { hookEventName: 'PreToolUse', updatedInput });
/** UserPromptSubmit, PostToolUse, Stop, SubagentStop, PreCompact, PostToolBatch, ConfigChange: block, with the reason. */
export const block = (reason: string): ClaudeOutput => ({ decision: 'block', reason });
/** Context for Claude: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop, PostToolBatch, SubagentStart. */
export const addContext = (event: ClaudeEventName, additionalContext: string): ClaudeOutput => ({
  hookSpecificOutput: { hookEventName: event, additionalContext },
});
/** PostToolUse: what Claude reads as the tool's result. */
export const replaceToolOutput = (updatedToolOutput: unknown): ClaudeOutput => ({
  hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput },
});
/** PermissionRequest: answer the approval prompt. */
export const permission = (
  behavior: 'allow' | 'deny',
  opts: { updatedInput?: Record<string, unknown>; message?: string; interrupt?: boolean } = {},
): ClaudeOutput => ({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior, ...opts } } });
/** Any event: stop the agent, with the reason shown to the user. */
export const stop = (stopReason: string): ClaudeOutput => ({ continue: false, stopReason });
/** Any event: a line shown to the user. */
export const message = (systemMessage: string): ClaudeOutput => ({ systemMessage });

/** Narrows a tool event's input to one tool: `if (isTool(input, 'Bash')) input.tool_input.command`. */
export function isTool<T extends ClaudeToolName, I extends { tool_name: string }>(
  input: I,
  name: T,
): input is Extract<I, { tool_name: T }> {
  return input.tool_name === name;
}
