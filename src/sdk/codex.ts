/**
 * hookline/sdk/codex: typed Codex CLI hooks, from Codex's published hook schemas. The input narrows
 * on `hook_event_name` and `tool_name` (`Bash` and `apply_patch` carry their text in
 * `tool_input.command`; MCP tools are `mcp__<server>__<tool>`). Codex reads Claude Code's answers,
 * so the builders are hookline/sdk/claude's, but for `replaceToolOutput` (Codex replaces a tool's
 * output only with a PostToolUse block's reasons).
 */
import { defineHook, type DefineOptions, type Handler } from './index.js';
import type { ClaudeOutput } from './claude.js';

export { addContext, allowTool, askTool, block, denyTool, message, permission, stop, updateToolInput } from './claude.js';
export type { ClaudeOutput as CodexOutput } from './claude.js';

/** Narrows a tool event's input to one tool: `if (isTool(input, 'Bash')) input.tool_input.command`. */
export function isTool<T extends CodexToolName, I extends { tool_name: string }>(input: I, name: T): input is Extract<I, { tool_name: T }> {
  return input.tool_name === name;
}

/** The input of each Codex tool a hook sees. */
export interface CodexToolInputs {
  Bash: { command: string; description?: string };
  apply_patch: { command: string };
}
export type CodexToolName = keyof CodexToolInputs;

/** Fields every Codex hook input carries. */
export interface CodexBase {
  session_id: string;
  turn_id?: string;
  transcript_path: string | null;
  cwd: string;
  model: string;
  permission_mode?: 'default' | 'acceptEdits' | 'plan' | 'dontAsk' | 'bypassPermissions';
}

/** A tool event's input for one tool. */
export type CodexToolCall<Extra = unknown> =
  | { [T in CodexToolName]: { tool_name: T; tool_input: CodexToolInputs[T]; tool_use_id: string } & Extra }[CodexToolName]
  | ({ tool_name: `mcp__${string}`; tool_input: Record<string, unknown>; tool_use_id: string } & Extra);

type Ev<E extends string, F> = CodexBase & { hook_event_name: E } & F;

/** Every Codex event's input, narrowed by `hook_event_name` (and `tool_name` for the tool events). */
export type CodexInput =
  | Ev<'PreToolUse', CodexToolCall>
  | Ev<'PostToolUse', CodexToolCall<{ tool_response: unknown }>>
  | Ev<'PermissionRequest', { tool_name: 'Bash' | 'NetworkAccess'; tool_input: { command: string; description?: string } }>
  | Ev<'UserPromptSubmit', { prompt: string }>
  | Ev<'Stop', { stop_hook_active: boolean; last_assistant_message: string | null }>
  | Ev<'SessionStart', { source: 'startup' | 'resume' | 'clear' | 'compact' }>
  | Ev<'SessionEnd', { reason: 'other' | 'prompt_input_exit' | 'clear' | 'logout' }>
  | Ev<'PreModelRequest', Record<never, never>>
  | Ev<'PreCompact', { trigger: 'manual' | 'auto'; custom_instructions: string | null }>
  | Ev<'PostCompact', { trigger: 'manual' | 'auto'; compact_summary: string }>
  | Ev<'SubagentStart', { agent_id?: string; agent_type?: string }>
  | Ev<
      'SubagentStop',
      {
        agent_id?: string;
        agent_type?: string;
        stop_hook_active?: boolean;
        agent_transcript_path?: string;
        last_assistant_message?: string | null;
      }
    >;

export type CodexEventName = CodexInput['hook_event_name'];

export type CodexHandler = (
  input: CodexInput,
  ctx: { persistent: boolean },
) => ClaudeOutput | void | undefined | Promise<ClaudeOutput | void | undefined>;

/** Runs `handler` as this process's Codex hook (one-shot: JSON on stdin, its answer on stdout). */
export function defineCodexHook(handler: CodexHandler, opts: DefineOptions = {}): Promise<void> {
  return defineHook(handler as unknown as Handler, opts);
}
