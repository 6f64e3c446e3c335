import type { HookOutput } from '../events/output.js';
import { additionalContext, effectiveReason, isBlocking, isPlainObject, specific, stops, systemMessage } from './common.js';
import type { Note } from './note.js';

export type { Note } from './note.js';

export const INPUT_MODIFIED_NOTE = '\n\n[System] Tool input parameters were modified by a hook before execution.';

/** Messages for the model apart from the tool's result: they follow the tool results in the history, in order. */
export type Notes = { notes?: Note[] };

export type BeforeToolEffect =
  /** Run the tool with these arguments; `context` is read by the model with the tool's result. */
  | ({ action: 'run'; args: Record<string, unknown>; inputModified: boolean; context?: string; systemMessage?: string } & Notes)
  /**
   * Run only after the user confirms (a hook asked for it), with these arguments; with nobody to
   * ask, the model reads `refusal` (the hook's reason, in Claude Code) as the tool's error.
   */
  | ({
      action: 'ask';
      args: Record<string, unknown>;
      inputModified: boolean;
      context?: string;
      refusal?: string;
      systemMessage?: string;
    } & Notes)
  /** Do not run; the model reads `message` as the tool's error (and `notes` after it: Copilot CLI's earlier hooks' context). */
  | ({ action: 'deny'; message: string; systemMessage?: string } & Notes)
  /** Do not run and end the agent's turn. */
  | { action: 'stop'; message: string; systemMessage?: string };

/** BeforeTool: stop > block/deny > ask; `tool_input` merges over the model's arguments. */
export function applyBeforeTool(output: HookOutput | undefined, args: Record<string, unknown>): BeforeToolEffect {
  const msg = systemMessage(output);
  if (!output) return { action: 'run', args, inputModified: false };
  if (stops(output)) return { action: 'stop', message: `Agent execution stopped by hook: ${effectiveReason(output)}`, systemMessage: msg };
  if (isBlocking(output.decision))
    return { action: 'deny', message: `Tool execution blocked: ${effectiveReason(output)}`, systemMessage: msg };
  const rewrite = specific(output).tool_input;
  const next = isPlainObject(rewrite) ? { ...args, ...rewrite } : args;
  const inputModified = isPlainObject(rewrite);
  return { action: output.decision === 'ask' ? 'ask' : 'run', args: next, inputModified, systemMessage: msg };
}

/** A hook's context as the model reads it after a tool's result. */
export function withToolContext(llmContent: string, context: string | undefined): string {
  return context ? `${llmContent}\n\n<hook_context>${context}</hook_context>` : llmContent;
}

export type AfterToolEffect =
  | ({ action: 'keep'; llmContent: string; tail?: { name: string; args: Record<string, unknown> }; systemMessage?: string } & Notes)
  /**
   * The model reads `llmContent` instead of the tool's result. `blocked`: a hook refused the
   * result, which is then a failed call; `display` is what the user is told of it.
   */
  | ({ action: 'replace'; llmContent: string; blocked?: boolean; display?: string; systemMessage?: string } & Notes)
  | { action: 'stop'; llmContent: string; message: string; systemMessage?: string };

/**
 * AfterTool: stop; deny replaces the result with the hook's reason, verbatim, as Gemini CLI gives
 * it to the model (the user is told `Tool result blocked: <reason>`); context is appended; a tail
 * call may follow.
 */
export function applyAfterTool(output: HookOutput | undefined, llmContent: string): AfterToolEffect {
  const msg = systemMessage(output);
  if (!output) return { action: 'keep', llmContent };
  if (stops(output)) {
    const message = `Agent execution stopped by hook: ${effectiveReason(output)}`;
    return { action: 'stop', llmContent: message, message, systemMessage: msg };
  }
  if (isBlocking(output.decision)) {
    const reason = effectiveReason(output);
    return { action: 'replace', llmContent: reason, blocked: true, display: `Tool result blocked: ${reason}`, systemMessage: msg };
  }
  const ctx = additionalContext(output);
  const content = ctx ? `${llmContent}\n\n<hook_context>${ctx}</hook_context>` : llmContent;
  const tail = specific(output).tailToolCallRequest;
  const validTail =
    isPlainObject(tail) && typeof tail.name === 'string' ? { name: tail.name, args: isPlainObject(tail.args) ? tail.args : {} } : undefined;
  return { action: 'keep', llmContent: content, ...(validTail ? { tail: validTail } : {}), systemMessage: msg };
}
