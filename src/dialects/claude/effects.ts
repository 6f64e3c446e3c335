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
