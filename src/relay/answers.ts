/**
 * What a relay answers when Hookline itself cannot decide, per host, with nothing else loaded:
 * the light client (client.ts) needs it when no server and no full Hookline can be reached. A
 * guard event is refused with a one-line reason; any other event passes with the reason shown.
 */
export type HostName = 'claude' | 'codex' | 'copilot' | 'gemini';
export const HOST_NAMES: readonly HostName[] = ['claude', 'codex', 'copilot', 'gemini'];

/** Set in the environment of every hook the relay starts: a relay entry reached again answers at once instead of looping. */
export const RELAY_ENV = 'HOOKLINE_RELAYING';

/** What the relay prints: the answer on stdout, its exit status, lines for stderr. */
export interface RelayAnswer {
  stdout: string;
  exitCode: number;
  stderr: string[];
}

/** Events where Hookline failing means the action must not go on. */
export const GUARDS: Readonly<Record<HostName, ReadonlySet<string>>> = {
  claude: new Set(['PreToolUse', 'UserPromptSubmit', 'PermissionRequest']),
  codex: new Set(['PreToolUse', 'UserPromptSubmit', 'PermissionRequest']),
  copilot: new Set(['preToolUse', 'userPromptSubmitted', 'permissionRequest']),
  gemini: new Set(['BeforeTool', 'BeforeAgent']),
};

/** The answer that refuses a guard event in the host's format, with the reason it shows. */
export function denyAnswer(host: HostName, event: string, reason: string): Record<string, unknown> {
  if (host === 'gemini') return { decision: 'deny', reason };
  if (host === 'copilot') {
    if (event === 'preToolUse') return { permissionDecision: 'deny', permissionDecisionReason: reason };
    if (event === 'permissionRequest') return { behavior: 'deny', message: reason };
    return { decision: 'block', reason };
  }
  if (event === 'PreToolUse')
    return { hookSpecificOutput: { hookEventName: event, permissionDecision: 'deny', permissionDecisionReason: reason } };
  if (event === 'PermissionRequest')
    return { hookSpecificOutput: { hookEventName: event, decision: { behavior: 'deny', message: reason } } };
  return { decision: 'block', reason };
}

/** The answer when Hookline itself cannot decide (a crash, its own deadline, an unreadable event). */
export function failedAnswer(host: HostName, event: string, problem: string): RelayAnswer {
  const line = `Hookline could not decide (${problem})`;
  const guard = GUARDS[host].has(event);
  // Copilot CLI shows no hook's systemMessage; it shows the stderr of a hook that exits 2 (off preToolUse).
  if (host === 'copilot' && !guard) return { stdout: '', exitCode: 2, stderr: [line] };
  const json = guard ? denyAnswer(host, event, `${line}; refused to be safe`) : { systemMessage: line };
  return { stdout: `${JSON.stringify(json)}\n`, exitCode: 0, stderr: [line] };
}
