/**
 * hookline/sdk/copilot: typed Copilot CLI hooks, in Copilot's own (camelCase) format. Its input
 * names no event, so a hook says which event it is written for:
 * `defineCopilotHook('preToolUse', (input) => …)` types that event's input and answer, and a tool
 * event's input narrows on `toolName` (`bash` carries `toolArgs.command`). Hooks under a
 * PascalCase event (`PreToolUse`) get Claude Code's input: write them with hookline/sdk/claude.
 */
import { defineHook, type DefineOptions, type Handler } from './index.js';

/** The arguments of each of Copilot CLI's tools, as its hooks read them in `toolArgs`. */
export interface CopilotToolArgs {
  bash: { command: string; description?: string; mode?: string; shellId?: string; detach?: boolean; initial_wait?: number };
  view: { path: string; view_range?: [number, number]; forceReadLargeFiles?: boolean };
  create: { path: string; file_text: string };
  edit: { path: string; old_str: string; new_str: string };
  glob: { pattern: string; paths?: string | string[] };
  grep: {
    pattern: string;
    paths?: string | string[];
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
  task: { description: string; prompt: string; name?: string; agent_type?: string; model?: string };
}
export type CopilotToolName = keyof CopilotToolArgs;

/** Fields every camelCase Copilot hook input carries. */
export interface CopilotBase {
  sessionId: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
  cwd: string;
}

/**
 * A tool event's input for one tool: its name and its own arguments, narrowed by `toolName`.
 * Other tools (an MCP server's) come with their own `toolName` and `toolArgs`, not typed here.
 */
export type CopilotToolCall<Extra = unknown> = {
  [T in CopilotToolName]: { toolName: T; toolArgs: CopilotToolArgs[T] } & Extra;
}[CopilotToolName];

/** Each event's input. */
export interface CopilotInputs {
  sessionStart: CopilotBase & { source: 'new' | 'resume'; initialPrompt?: string };
  userPromptSubmitted: CopilotBase & { prompt: string };
  preToolUse: CopilotBase & CopilotToolCall;
  permissionRequest: CopilotBase & {
    hookName: 'permissionRequest';
    permissionSuggestions: unknown[];
  } & ({ toolName: 'bash'; toolInput: { command: string } } | { toolName: 'edit'; toolInput: { diff: string; file_path: string } });
  postToolUse: CopilotBase & CopilotToolCall<{ toolResult: { resultType: string; textResultForLlm: string } }>;
  postToolUseFailure: CopilotBase & CopilotToolCall<{ error: string }>;
  notification: CopilotBase & { hook_event_name: 'Notification'; message: string; title?: string; notification_type?: string };
  agentStop: CopilotBase & { transcriptPath: string; stopReason: string; stop_hook_active: boolean };
  sessionEnd: CopilotBase & { reason: 'complete' | 'error' | 'user_exit' | (string & {}) };
  preCompact: CopilotBase & { transcriptPath: string; trigger: 'manual' | 'auto'; customInstructions: string };
  errorOccurred: CopilotBase & {
    error: { message: string; name: string; stack?: string };
    errorContext: string;
    recoverable: boolean;
  };
}
export type CopilotEventName = keyof CopilotInputs;

/** What each event's hooks may answer (the fields Copilot CLI reads; others are ignored). */
export interface CopilotOutputs {
  sessionStart: { additionalContext?: string };
  userPromptSubmitted: { additionalContext?: string; modifiedPrompt?: string; decision?: 'block'; reason?: string };
  preToolUse: {
    permissionDecision?: 'allow' | 'deny' | 'ask';
    permissionDecisionReason?: string;
    modifiedArgs?: Record<string, unknown>;
    additionalContext?: string;
  };
  permissionRequest: { behavior?: 'allow' | 'deny'; message?: string };
  postToolUse: { additionalContext?: string; modifiedResult?: { resultType?: string; textResultForLlm: string } };
  postToolUseFailure: { additionalContext?: string };
  notification: Record<never, never>;
  agentStop: { decision?: 'block'; reason?: string };
  sessionEnd: Record<never, never>;
  preCompact: Record<never, never>;
  errorOccurred: Record<never, never>;
}

export type CopilotHandler<E extends CopilotEventName> = (
  input: CopilotInputs[E],
  ctx: { persistent: boolean },
) => CopilotOutputs[E] | void | undefined | Promise<CopilotOutputs[E] | void | undefined>;

/**
 * Runs `handler` as this process's Copilot CLI hook for `event` (one-shot: JSON on stdin, its
 * answer on stdout). `event` is the one the hook is configured under: Copilot's input does not
 * say it. An input that cannot be read exits 2, which on preToolUse refuses the call.
 */
export function defineCopilotHook<E extends CopilotEventName>(
  event: E,
  handler: CopilotHandler<E>,
  opts: DefineOptions = {},
): Promise<void> {
  void event;
  return defineHook(handler as unknown as Handler, opts);
}

/** preToolUse: the tool does not run; the model reads `Denied by preToolUse hook: <reason>`. */
export const denyTool = (reason: string): CopilotOutputs['preToolUse'] => ({
  permissionDecision: 'deny',
  permissionDecisionReason: reason,
});
/** preToolUse: run the tool without the permission check. */
export const allowTool = (reason?: string): CopilotOutputs['preToolUse'] => ({
  permissionDecision: 'allow',
  ...(reason ? { permissionDecisionReason: reason } : {}),
});
/** preToolUse: ask the user first (with nobody to ask, in `copilot -p`, the call is refused). */
export const askTool = (reason?: string): CopilotOutputs['preToolUse'] => ({
  permissionDecision: 'ask',
  ...(reason ? { permissionDecisionReason: reason } : {}),
});
/** preToolUse: run the tool with these arguments instead (in Copilot's names: `command`, `path`, `file_text`…). */
export const modifyArgs = (modifiedArgs: Record<string, unknown>): CopilotOutputs['preToolUse'] => ({ modifiedArgs });
/** sessionStart, userPromptSubmitted, preToolUse, postToolUse, postToolUseFailure: context for the model. */
export const addContext = (additionalContext: string) => ({ additionalContext });
/** userPromptSubmitted: the prompt is refused; agentStop: the agent goes on, with the reason as its next prompt. */
export const block = (reason: string) => ({ decision: 'block' as const, reason });
/** userPromptSubmitted: the model reads this prompt instead. */
export const modifyPrompt = (modifiedPrompt: string): CopilotOutputs['userPromptSubmitted'] => ({ modifiedPrompt });
/** postToolUse: what the model reads instead of the tool's result. */
export const replaceResult = (textResultForLlm: string, resultType = 'success'): CopilotOutputs['postToolUse'] => ({
  modifiedResult: { resultType, textResultForLlm },
});
/** permissionRequest: answer the permission check. */
export const permission = (behavior: 'allow' | 'deny', message?: string): CopilotOutputs['permissionRequest'] => ({
  behavior,
  ...(message ? { message } : {}),
});

/** Narrows a tool event's input to one tool: `if (isTool(input, 'bash')) input.toolArgs.command`. */
export function isTool<T extends CopilotToolName, I extends { toolName: string }>(input: I, name: T): input is Extract<I, { toolName: T }> {
  return input.toolName === name;
}
