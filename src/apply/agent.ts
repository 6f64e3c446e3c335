import type { HookOutput } from '../events/output.js';
import type { Note } from './tool.js';
import { additionalContext, effectiveReason, isBlocking, specific, stops, systemMessage } from './common.js';

export type BeforeAgentEffect =
  /** Go on; `context` is added to this turn's prompt as `<hook_context>`. */
  | { action: 'proceed'; context?: string; systemMessage?: string }
  /** End the turn but keep the user's message in history. */
  | { action: 'stop'; reason: string; systemMessage?: string }
  /** Refuse the turn and discard the user's message. */
  | { action: 'deny'; reason: string; systemMessage?: string };

export function applyBeforeAgent(output: HookOutput | undefined): BeforeAgentEffect {
  const msg = systemMessage(output);
  if (!output) return { action: 'proceed' };
  if (stops(output)) return { action: 'stop', reason: effectiveReason(output), systemMessage: msg };
  if (isBlocking(output.decision)) return { action: 'deny', reason: effectiveReason(output), systemMessage: msg };
  return { action: 'proceed', context: additionalContext(output), systemMessage: msg };
}

/** A BeforeAgent context as the model reads it after the prompt. */
export function promptBlock(context: string): string {
  return `<hook_context>${context}</hook_context>`;
}

/** The text the model reads for a turn: the prompt, then each context block, a blank line apart. */
export function withBlocks(prompt: string, blocks: readonly string[]): string {
  return [prompt, ...blocks].filter(Boolean).join('\n\n');
}

/** The prompt parts the model receives for a turn, given a BeforeAgent context. */
export function promptWithContext(prompt: string, context: string | undefined): string {
  return context ? withBlocks(prompt, [promptBlock(context)]) : prompt;
}

/** AfterAgent retries are capped: the reference loops until the turn limit. */
export const MAX_AFTER_AGENT_RETRIES = 3;

export type AfterAgentEffect =
  | { action: 'accept'; clearContext: boolean; systemMessage?: string }
  /**
   * Send `prompt` as a new prompt with `stop_hook_active: true`; with `continuation`, the turn
   * goes on instead (no new prompt point): its `user` message, if any, then its notes, follow
   * the answer (Claude Code's Stop feedback).
   */
  | {
      action: 'retry';
      prompt: string;
      clearContext: boolean;
      systemMessage?: string;
      continuation?: { user?: string; notes: Note[] };
      /** The line the user reads about the retry (the agent's own when absent). */
      notice?: string;
    }
  | { action: 'stop'; reason: string; clearContext: boolean; systemMessage?: string; notice?: string }
  /** A retry was asked for but the cap was reached. */
  | { action: 'retry-limit'; reason: string; clearContext: boolean; systemMessage?: string };

export function applyAfterAgent(
  output: HookOutput | undefined,
  retriesSoFar: number,
  maxRetries = MAX_AFTER_AGENT_RETRIES,
): AfterAgentEffect {
  const msg = systemMessage(output);
  const clearContext = specific(output).clearContext === true;
  if (!output) return { action: 'accept', clearContext: false };
  if (stops(output)) return { action: 'stop', reason: effectiveReason(output), clearContext, systemMessage: msg };
  if (isBlocking(output.decision)) {
    if (retriesSoFar >= maxRetries) return { action: 'retry-limit', reason: effectiveReason(output), clearContext, systemMessage: msg };
    return { action: 'retry', prompt: effectiveReason(output), clearContext, systemMessage: msg };
  }
  return { action: 'accept', clearContext, systemMessage: msg };
}
