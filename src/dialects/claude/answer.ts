/**
 * An event's aggregated Claude Code output (output.ts) written back as one hook's JSON answer, as
 * a relay inside Claude Code (or Codex, which reads the same fields) prints it: what the hooks
 * decided together, so the host does the rest.
 */
import type { ClaudeEvent } from './events.js';
import type { ClaudeOutput } from './output.js';

export function claudeAnswer(event: ClaudeEvent, o: Omit<ClaudeOutput, 'blocks' | 'contexts'>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (o.continue === false) {
    out.continue = false;
    if (o.stopReason) out.stopReason = o.stopReason;
  }
  if (o.suppressOutput) out.suppressOutput = true;
  const shown = [...o.systemMessages, ...o.errors];
  if (shown.length) out.systemMessage = shown.join('\n');
  if (o.decision === 'block') {
    out.decision = 'block';
    if (o.reason) out.reason = o.reason;
  }
  const specific: Record<string, unknown> = {};
  if (o.permissionDecision) specific.permissionDecision = o.permissionDecision;
  if (o.permissionDecisionReason) specific.permissionDecisionReason = o.permissionDecisionReason;
  if (o.updatedInput) specific.updatedInput = o.updatedInput;
  if (o.additionalContext) specific.additionalContext = o.additionalContext;
  if (o.updatedToolOutput !== undefined) specific.updatedToolOutput = o.updatedToolOutput;
  if (o.permission) specific.decision = o.permission;
  if (o.retry) specific.retry = true;
  if (Object.keys(specific).length) out.hookSpecificOutput = { hookEventName: event, ...specific };
  return out;
}
