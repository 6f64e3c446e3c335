import type { HookOutput } from '../events/output.js';
import type { Note } from './tool.js';
import { additionalContext, systemMessage } from './common.js';

export interface SessionStartEffect {
  /** Interactive: the first history item. Non-interactive: prepended to the prompt (both inside `<hook_context>`). */
  context?: string;
  systemMessage?: string;
  /** A hook ended the session's work before it began (Claude Code's `continue: false`): the reason shown. */
  stop?: string;
  /** Messages for the model that follow the session's first prompt (Claude Code's SessionStart context). */
  notes?: Note[];
  /** User messages of their own, as written, before the session's first prompt (Copilot CLI's sessionStart context). */
  lead?: string[];
}

/** SessionStart never blocks: decision and continue are ignored. */
export function applySessionStart(output: HookOutput | undefined): SessionStartEffect {
  return { context: additionalContext(output), systemMessage: systemMessage(output) };
}

/** A non-interactive SessionStart context before the first prompt, inside `<hook_context>` tags as Gemini CLI puts it. */
export function prependSessionContext(prompt: string, context: string | undefined): string {
  return context ? `<hook_context>${context}</hook_context>\n\n${prompt}` : prompt;
}

/** SessionEnd, PreCompress and Notification are advisory: only the message shows. */
export function applyAdvisory(output: HookOutput | undefined): { systemMessage?: string } {
  return { systemMessage: systemMessage(output) };
}
