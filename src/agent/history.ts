import type { ModelMessage } from 'ai';

export interface ToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

export interface ToolOutcome {
  id: string;
  name: string;
  output: string;
  isError?: boolean;
}

/** The agent's conversation, in a form that converts to both the AI SDK and the hooks' stable format. */
export type Message =
  /** `parts`: the text as the model reads it, part by part (a prompt, then each hook's context block); `text` joins them. */
  | { role: 'user'; text: string; parts?: string[] }
  | { role: 'model'; text: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; results: ToolOutcome[] }
  /** A hook's message for the model, apart from the prompt and the tool results (Claude Code's labelled hook messages). */
  | { role: 'note'; text: string };

export function contentText(c: unknown): string {
  if (typeof c === 'string') return c;
  if (Array.isArray(c))
    return c
      .map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : ''))
      .join('');
  return String(c ?? '');
}

export interface ModelMessageOptions {
  /**
   * Whether the provider takes system messages in the middle of a conversation (Anthropic,
   * OpenAI-compatible); where it does not (Gemini), a note is a user message.
   */
  systemNotes?: boolean;
}

/** Providers that reject a system message after the conversation's start. */
const FIRST_SYSTEM_ONLY = /^google\./;

/** Whether a provider (the AI SDK model's `provider`) takes notes as system messages. */
export function takesSystemNotes(provider: string): boolean {
  return !FIRST_SYSTEM_ONLY.test(provider);
}

/** History to AI SDK messages (the system prompt goes in the call's own `system` option). */
export function toModelMessages(history: readonly Message[], opts: ModelMessageOptions = {}): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const m of history) {
    if (m.role === 'user')
      out.push({ role: 'user', content: m.parts?.length ? m.parts.map((text) => ({ type: 'text' as const, text })) : m.text });
    else if (m.role === 'note') {
      // A system message follows what the user side said (a prompt, tool results); right after the model's
      // answer, or where the provider takes none, it is the user's message, marked as Claude Code marks it.
      const prev = out.at(-1)?.role;
      const asSystem = opts.systemNotes !== false && (prev === 'user' || prev === 'tool' || prev === 'system');
      out.push(
        asSystem ? { role: 'system', content: m.text } : { role: 'user', content: `<system-reminder>\n${m.text}\n</system-reminder>` },
      );
    } else if (m.role === 'model') {
      const parts: Array<{ type: 'text'; text: string } | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }> = [];
      if (m.text) parts.push({ type: 'text', text: m.text });
      for (const c of m.toolCalls ?? []) parts.push({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: c.args });
      if (parts.length) out.push({ role: 'assistant', content: parts });
    } else {
      out.push({
        role: 'tool',
        content: m.results.map((r) => ({
          type: 'tool-result' as const,
          toolCallId: r.id,
          toolName: r.name,
          output: { type: r.isError ? ('error-text' as const) : ('text' as const), value: r.output },
        })),
      });
    }
  }
  return out;
}

/** A rough token count (4 characters a token), for the auto-compression threshold. */
export function estimateTokens(history: readonly Message[]): number {
  let chars = 0;
  for (const m of history) {
    if (m.role === 'tool') for (const r of m.results) chars += r.output.length;
    else chars += m.text.length + JSON.stringify(m.role === 'model' ? (m.toolCalls ?? []) : []).length;
  }
  return Math.ceil(chars / 4);
}
