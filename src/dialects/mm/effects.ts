/**
 * The texts a turn shows or hands to a model after mm hooks ran: the seed's "Effets sur le
 * tour" tables, as pure functions for the agent. A reason left empty by the hook drops the
 * `: <reason>` part (`[prompt blocked by a hook]`), as the seed shows for the history marker.
 */

/** The line that introduces every context a hook adds. */
export const CONTEXT_HEADER = '[context added by a hook]';

/** One context block: the header line, then the hook's text. */
export function contextBlock(context: string): string {
  return `${CONTEXT_HEADER}\n${context}`;
}

/** Several contexts, in hook order, each introduced by its header, separated by a blank line. */
export function joinContexts(contexts: readonly string[]): string {
  return contexts.map(contextBlock).join('\n\n');
}

/** `<text>\n\n[context added by a hook]\n<context>` for each context; the text alone without any. */
export function appendContexts(text: string, contexts: readonly string[]): string {
  if (!contexts.length) return text;
  const blocks = joinContexts(contexts);
  return text ? `${text}\n\n${blocks}` : blocks;
}

/** preGeneration: what the model reads — the (rewritten) question, then each context. */
export function mmModelPrompt(prompt: string, contexts: readonly string[]): string {
  return appendContexts(prompt, contexts);
}

/** postToolCall: the tool output the model reads: `<output>\n\n[context added by a hook]\n<context>`. */
export function mmToolOutput(output: string, contexts: readonly string[]): string {
  return appendContexts(output, contexts);
}

/** postAsk: what the asking agent reads — the (replaced) answer, then each context. */
export function mmAskAnswer(answer: string, contexts: readonly string[]): string {
  return appendContexts(answer, contexts);
}

/**
 * preAsk: what the called agent receives — the conversation (withContext), the question, then
 * each context. The transcript and the question are separated by a blank line.
 */
export function mmAskMessage(prompt: string, transcript: string | undefined, contexts: readonly string[]): string {
  const head = transcript ? `${transcript}\n\n${prompt}` : prompt;
  return appendContexts(head, contexts);
}

const withReason = (label: string, reason: string | undefined) => (reason ? `${label}: ${reason}` : label);

/** preToolCall deny: the tool output the model reads. */
export function mmDeniedOutput(reason?: string): string {
  return `[${withReason('denied by a hook', reason)}]`;
}

/** preToolCall deny, line mode: `🪝 <tool> [denied by a hook: <reason>]`. */
export function mmDeniedLine(tool: string, reason?: string): string {
  return `🪝 ${tool} ${mmDeniedOutput(reason)}`;
}

/** The subject of a denied call for its title: the command, path, URL or agent of the input. */
function subjectOf(input: unknown): string | undefined {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return undefined;
  const o = input as Record<string, unknown>;
  for (const k of ['command', 'path', 'file_path', 'filePath', 'dir_path', 'url', 'agent']) {
    if (typeof o[k] === 'string' && o[k]) return o[k] as string;
  }
  return undefined;
}

/** preToolCall deny, window and editor: `<tool>: <subject, 60 chars at most> — denied by a hook`. */
export function mmDeniedTitle(tool: string, input?: unknown): string {
  const subject = subjectOf(input);
  if (!subject) return `${tool} — denied by a hook`;
  const chars = [...subject.replace(/\s+/g, ' ')];
  const short = chars.length > 60 ? chars.slice(0, 59).join('') + '…' : chars.join('');
  return `${tool}: ${short} — denied by a hook`;
}

/** preAsk deny through `ask_agent`: what the model reads. */
export function mmAskDeniedOutput(reason?: string): string {
  return `[${withReason('ask denied by a hook', reason)}]`;
}

/** preAsk deny through `ask_agent`, line mode: `🪝 ask_agent [ask denied by a hook: <reason>]`. */
export function mmAskDeniedLine(reason?: string): string {
  return `🪝 ask_agent ${mmAskDeniedOutput(reason)}`;
}

/** preAsk deny on `/ask…`: the command's error. */
export function mmAskDeniedCommandError(reason?: string): string {
  return withReason('ask denied by a hook', reason);
}

/** preAsk deny on `mm --ask`: the stderr line (exit status 1). */
export function mmAskDeniedCliLine(reason?: string): string {
  return `[ask: ${mmAskDeniedCommandError(reason)}]`;
}

/** preGeneration stop: the question the history keeps (and postGeneration's `prompt`). */
export function mmPromptBlocked(reason?: string): string {
  return `[${withReason('prompt blocked by a hook', reason)}]`;
}

/** preGeneration stop: what the user reads — the hook's `response`, or the default when absent or blank. */
export function mmStopResponse(response: string | undefined, reason?: string): string {
  if (response?.trim()) return response;
  return withReason('⛔ This request was blocked by a hook', reason);
}

/** The reason of a stop or deny caused by a failed hook with `onError: fail`. */
export function mmHookFailedReason(failure: string): string {
  return `hook failed: ${failure}`;
}

/** `/ask…`: the message that carries the called agent's answer into the history. */
export function mmAskAnswerLabel(agent: string): string {
  return `[${agent}'s answer]`;
}

/** postAsk answer replaced: the notice after the answer as it was shown. */
export function mmAnswerReplacedNotice(agent: string): string {
  return `🪝 postAsk: ${agent}'s answer was replaced by a hook — the asking agent reads the new one`;
}

/** postAsk answer replaced: the summary of the `ask_agent` call. */
export function mmAnswerReplacedSummary(agent: string, answer: string): string {
  return `${agent} answered; a hook replaced the answer (${[...answer].length} characters)`;
}
