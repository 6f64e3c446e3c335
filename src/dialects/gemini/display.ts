import type { HookRun } from '../../engine/index.js';
import type { EventName } from '../../events/names.js';
import { visible } from '../../config/display.js';

/** What a hook run decided, in a word or two, for `--display-hooks`. */
export function runDecision(run: HookRun): string {
  if (run.error) return `error: ${run.error.replace(/^.*?: /, '').split('\n')[0]}`;
  const o = run.output;
  if (!o) return 'continue';
  if (o.continue === false) return 'stop';
  if (typeof o.decision === 'string' && o.decision !== 'allow' && o.decision !== 'approve') return o.decision;
  const s = (o.hookSpecificOutput ?? {}) as Record<string, unknown>;
  if (s.tool_input) return 'input replaced';
  if (s.llm_request) return 'request replaced';
  if (s.llm_response) return 'response replaced';
  if (s.toolConfig) return 'tools selected';
  if (s.tailToolCallRequest) return 'tail call';
  if (s.clearContext === true) return 'context cleared';
  if (typeof s.additionalContext === 'string') return `context (${s.additionalContext.length} chars)`;
  return typeof o.decision === 'string' ? o.decision : 'continue';
}

/** `🪝 <n>. <event> [<tool>] · <command> → <decision>`; a shadow hook's decision says `(shadow)`: it was not enforced. */
export function hookLine(n: number, event: EventName | string, subject: string | undefined, run: HookRun): string {
  return `🪝 ${n}. ${event}${subject ? ` [${visible(subject)}]` : ''} · ${visible(run.command ?? run.name)} → ${visible(runDecision(run))}${run.shadow ? ' (shadow)' : ''}`;
}
