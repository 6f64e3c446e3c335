/**
 * What Codex 0.169 makes of its hooks' answers, in its own words: each hook's context is a
 * developer message of its own, a PreToolUse block is the tool's output `Command blocked by
 * PreToolUse hook: <reason>. Command: <command>`, a PostToolUse block replaces the output with the
 * reasons, a Stop block goes on with `<hook_prompt hook_run_id="…">reason</hook_prompt>`.
 */
import type { ClaudeFireResult, ClaudeRun } from '../claude/run.js';
import type { ClaudeOutput } from '../claude/output.js';

export const CODEX_TEXTS = {
  blocked: (reason: string, command: string) => `Command blocked by PreToolUse hook: ${reason}. Command: ${command}`,
  hookPrompt: (runId: string, reason: string) => `<hook_prompt hook_run_id="${escapeAttribute(runId)}">${escapeText(reason)}</hook_prompt>`,
  promptBlocked: (reason: string) => `UserPromptSubmit hook blocked the prompt: ${reason}`,
  stopped: (reason: string) => `Stopped by hook: ${reason}`,
  replaced: (tool: string, output: string) => `PostToolUse hook replaced the output of ${tool}: ${output}`,
  /** A PermissionRequest deny of a shell command: Codex's failed spawn, its message quoted twice (the model reads it, the user sees it logged). */
  shellDenied: (message: string) =>
    `exec_command failed: CreateProcess { message: ${JSON.stringify(`Rejected(${JSON.stringify(message)})`)} }`,
} as const;

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;');
}

/** Each hook's context, in configuration order: one developer message each, as Codex sends them. */
export function contextNotes(o: ClaudeOutput): string[] {
  return o.contexts.map((c) => c.text.trim()).filter(Boolean);
}

/** `continue: false`: the reason (undefined: go on). */
export function stopOf(o: ClaudeOutput): string | undefined {
  return o.continue === false ? (o.stopReason ?? 'Stopped by a Codex hook') : undefined;
}

/** The hooks' messages and errors for the user, one per line. */
export function shownOf(o: ClaudeOutput): string | undefined {
  const all = [...o.systemMessages, ...o.errors];
  return all.length ? all.join('\n') : undefined;
}

/** A run's block reason: its JSON `reason`, or exit code 2's stderr, trimmed. */
function blockReason(run: ClaudeRun): string | undefined {
  const r = run.response;
  if (!r || run.error) return undefined;
  if (r.decision === 'block') return (r.reason ?? '').trim();
  return undefined;
}

/** The runs that blocked (PostToolUse, UserPromptSubmit, Stop), with their reasons, in configuration order. */
export function blocksOf(result: ClaudeFireResult): Array<{ run: ClaudeRun; reason: string }> {
  return result.runs.flatMap((run) => {
    const reason = blockReason(run);
    return reason === undefined ? [] : [{ run, reason }];
  });
}

/** What PostToolUse blocks leave the model instead of the tool's output: the reasons, a paragraph each. */
export function replacedOutput(reasons: readonly string[]): string {
  return reasons.join('\n\n');
}
