/** What the agent reads from a Claude Code event's aggregated output for the points with no Gemini counterpart. */
import type { ClaudeSource } from './config.js';
import type { ClaudeOutput } from './output.js';

/** `continue: false`: the reason shown when the agent stops (undefined: it goes on). */
export function stopOf(o: ClaudeOutput): string | undefined {
  return o.continue === false ? (o.stopReason ?? 'Stopped by a Claude Code hook') : undefined;
}

/** The hooks' messages and errors for the user, one per line. */
export function messagesOf(o: ClaudeOutput): string | undefined {
  const all = [...o.systemMessages, ...o.errors];
  return all.length ? all.join('\n') : undefined;
}

/**
 * A PostToolUse `updatedToolOutput` as the text the model reads: a string as it is; a tool's
 * structured output by its text fields (Bash's `stdout` and `stderr`, a read's `content`, the
 * agent's own `llmContent`); anything else as JSON.
 */
export function toolOutputText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const v = value as Record<string, unknown>;
    if (typeof v.llmContent === 'string') return v.llmContent;
    if (typeof v.stdout === 'string') return [v.stdout, typeof v.stderr === 'string' ? v.stderr : ''].filter(Boolean).join('\n');
    if (typeof v.content === 'string') return v.content;
    const file = v.file as Record<string, unknown> | undefined;
    if (file && typeof file.content === 'string') return file.content;
  }
  // MCP tools' content blocks: their text parts.
  if (Array.isArray(value) && value.every((b) => b && typeof b === 'object' && typeof (b as { text?: unknown }).text === 'string'))
    return value.map((b) => (b as { text: string }).text).join('\n');
  return JSON.stringify(value);
}

/** ConfigChange's `source` for each settings file a session loads (plugin and `--config` files are not watched). */
export const CONFIG_SOURCES: Partial<Record<ClaudeSource, string>> = {
  managed: 'policy_settings',
  user: 'user_settings',
  project: 'project_settings',
  local: 'local_settings',
};

/**
 * The words Claude Code gives the model and the user for what hooks did (as Claude Code 2.1.328
 * writes them): each hook message to the model is a labelled message of its own, not text added
 * to a tool result or a prompt. `name` is the hook's name in Claude Code: the event, and for tool
 * events the tool (`PreToolUse:Bash`); a SessionStart hook's own output is named with its
 * source (`SessionStart:startup`).
 */
export const CLAUDE_TEXTS = {
  context: (name: string, texts: readonly string[]) => `${name} hook additional context: ${texts.join('\n')}`,
  success: (name: string, text: string) => `${name} hook success: ${text}`,
  blocking: (name: string, command: string, reason: string) => `${name} hook blocking error from command: "${command}": ${reason}`,
  error: (name: string, reason: string) => `${name} hook error: ${reason}`,
  says: (name: string, message: string) => `${name} says: ${message}`,
  feedback: (name: string, reason: string) => `${name} hook feedback:\n${reason}`,
  promptBlocked: (reason: string, prompt: string) => `UserPromptSubmit operation blocked by hook:\n${reason}\n\nOriginal prompt: ${prompt}`,
  operationStopped: (reason: string) => `Operation stopped by hook: ${reason}`,
} as const;

/** A block's reason as Claude Code shows it: exit code 2's stderr names the hook's command. */
export function blockText(b: ClaudeOutput['blocks'][number]): string {
  return b.exit2 ? `[${b.command}]: ${b.reason}` : b.reason;
}

/** The model's notes for an event's contexts: the JSON ones together, each plain stdout on its own. */
export function contextNotes(o: ClaudeOutput, name: string, successName = name): string[] {
  const json = o.contexts.filter((c) => !c.plain).map((c) => c.text);
  const plain = o.contexts.filter((c) => c.plain).map((c) => CLAUDE_TEXTS.success(successName, c.text));
  return [...plain, ...(json.length ? [CLAUDE_TEXTS.context(name, json)] : [])];
}

/** What the user is shown of the hooks' `systemMessage`s (`PreToolUse:Bash says: …`) and errors, one per line. */
export function shownOf(o: ClaudeOutput, name: string): string | undefined {
  const all = [...o.systemMessages.map((m) => CLAUDE_TEXTS.says(name, m)), ...o.errors];
  return all.length ? all.join('\n') : undefined;
}
