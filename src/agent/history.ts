import type { ModelMessage } from 'ai';
import type { LLMRequest } from '../events/model.js';

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
  | { role: 'user'; text: string }
  | { role: 'model'; text: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; results: ToolOutcome[] };

/** Messages that carry text, in order: what hooks see and may rewrite by index. */
function textBearing(m: Message): boolean {
  return m.role !== 'tool' && m.text.length > 0;
}

/** History to the hooks' stable request: text messages only (tool results carry no text part). */
export function toStableRequest(model: string, history: readonly Message[], config: LLMRequest['config']): LLMRequest {
  const messages = history
    .filter(textBearing)
    .map((m) => ({ role: m.role === 'model' ? ('model' as const) : ('user' as const), content: (m as { text: string }).text }));
  return { model, messages, config: { ...config } };
}

export function contentText(c: unknown): string {
  if (typeof c === 'string') return c;
  if (Array.isArray(c))
    return c
      .map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : ''))
      .join('');
  return String(c ?? '');
}

/**
 * A hook's rewritten messages back into history: the i-th text message takes the i-th hook
 * message's text (tool calls kept), extra hook messages are appended, as Gemini CLI merges them.
 */
export function fromStableMessages(history: readonly Message[], messages: ReadonlyArray<{ role: string; content: unknown }>): Message[] {
  const out: Message[] = [];
  let i = 0;
  for (const m of history) {
    if (!textBearing(m) || i >= messages.length) {
      out.push(m);
      continue;
    }
    const hm = messages[i++];
    const text = contentText(hm.content);
    if (hm.role === 'model') out.push({ role: 'model', text, toolCalls: m.role === 'model' ? m.toolCalls : undefined });
    else out.push({ role: 'user', text });
  }
  for (; i < messages.length; i++) {
    const hm = messages[i];
    out.push(hm.role === 'model' ? { role: 'model', text: contentText(hm.content) } : { role: 'user', text: contentText(hm.content) });
  }
  return out;
}

/** History to AI SDK messages (the system prompt goes in the call's own `system` option). */
export function toModelMessages(history: readonly Message[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const m of history) {
    if (m.role === 'user') out.push({ role: 'user', content: m.text });
    else if (m.role === 'model') {
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
