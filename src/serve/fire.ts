/** `hookline fire` through a running `hookline serve` (HOOKLINE_SOCKET): the same output, from a warm engine. */
import path from 'node:path';
import { UsageError } from '../config/problems.js';
import { visibleLines } from '../config/display.js';
import { DEFAULT_TIMEOUT_MS } from '../run/command.js';
import { envFrom } from '../run/process.js';
import { error, printJson, warn } from '../cli/io.js';
import { call, Refused, Unreachable } from './client.js';

export interface RemoteFire {
  cwd: string;
  sessionId?: string;
  transcriptPath?: string;
  dialect?: string;
  config?: string;
}

const visibleLine = (l: unknown) => visibleLines(String(l));

/** Past the hooks' own timeouts, what the server may take (loading, reaping). */
export const ANSWER_MARGIN_MS = 5000;
/** The longest a hook of another hook system may run by default (Claude Code: 600 s). */
const DIALECT_TIMEOUT_MS = 600_000;

/** Events whose hooks guard something: when no answer comes, the event is denied. */
const GUARDS = /^(BeforeTool|BeforeAgent|BeforeModel|PreToolUse|UserPromptSubmit|PermissionRequest|preToolCall|preUserPrompt|PreAct)$/;

/**
 * How long the answer may take: the timeouts of the event's hooks added up (a sequential chain
 * runs them one after another), plus a margin. Gemini settings are read for it; another hook
 * system gets its longest default.
 */
async function deadlineMs(event: string, opts: RemoteFire): Promise<number> {
  if (opts.dialect !== undefined && opts.dialect !== 'gemini') return DIALECT_TIMEOUT_MS + ANSWER_MARGIN_MS;
  const { loadConfig } = await import('../config/load.js');
  const entries = loadConfig({ projectDir: opts.cwd, env: process.env }).entries.filter((e) => e.event === event);
  const total = entries.reduce((ms, e) => ms + Math.min(('timeout' in e.hook && e.hook.timeout) || DEFAULT_TIMEOUT_MS, 2 ** 31 - 1), 0);
  return Math.min(total, 2 ** 31 - 1 - ANSWER_MARGIN_MS) + ANSWER_MARGIN_MS;
}

/** What a guard event answers when the server gives no usable answer: a deny, in the shape `fire` prints. */
function refusal(event: string, dialect: string | undefined, reason: string): Record<string, unknown> {
  const output =
    dialect === 'claude' && event === 'PreToolUse'
      ? { hookSpecificOutput: { hookEventName: event, permissionDecision: 'deny', permissionDecisionReason: reason } }
      : dialect === 'claude'
        ? { decision: 'block', reason }
        : { decision: 'deny', reason };
  return { output, runs: [], heldBack: [] };
}

/** Prints what `hookline fire` prints; false when the server cannot be reached or is not to be trusted (said in one line on stderr). */
export async function fireThroughServer(socket: string, event: string, input: Record<string, unknown>, opts: RemoteFire): Promise<boolean> {
  const params = {
    event,
    input,
    cwd: opts.cwd,
    ...(opts.sessionId !== undefined ? { sessionId: opts.sessionId } : {}),
    ...(opts.transcriptPath !== undefined ? { transcriptPath: opts.transcriptPath } : {}),
    ...(opts.dialect !== undefined ? { dialect: opts.dialect } : {}),
    ...(opts.config !== undefined ? { config: path.resolve(opts.config) } : {}),
    // The hooks run with this command's environment, as they would in-process.
    env: envFrom(process.env),
  };
  let answer: Awaited<ReturnType<typeof call>>;
  try {
    answer = await call(socket, 'fire', params, { deadlineMs: await deadlineMs(event, opts) });
  } catch (err) {
    if (err instanceof Refused) {
      warn(`HOOKLINE_SOCKET=${socket} is not used: ${err.message}; firing in-process`);
      return false;
    }
    if (err instanceof Unreachable) {
      warn(`HOOKLINE_SOCKET=${socket} is not reachable (${err.message}); firing in-process`);
      return false;
    }
    // Sent, then no usable answer: the event may have fired there, so it is not fired again here;
    // a guard fails closed.
    const line = `HOOKLINE_SOCKET=${socket}: ${(err as Error).message} — is a hookline serve listening there?`;
    if (!GUARDS.test(event)) throw new UsageError(line);
    error(`${line} (${event} denied)`);
    printJson(refusal(event, opts.dialect, `hookline serve gave no answer: ${(err as Error).message}`));
    process.exitCode = 1;
    return true;
  }
  if ('error' in answer) {
    const data = (answer.error.data ?? {}) as { usage?: string; exitCode?: number; raw?: string[]; warnings?: string[] };
    if (data.exitCode !== undefined) {
      for (const w of data.warnings ?? []) warn(String(w));
      for (const l of data.raw ?? []) process.stderr.write(`${visibleLine(l)}\n`);
      process.exitCode = data.exitCode;
      return true;
    }
    throw new UsageError(String(data.usage ?? answer.error.message));
  }
  const { warnings, raw, ...report } = answer.result as { warnings?: string[]; raw?: string[] };
  for (const w of warnings ?? []) warn(String(w));
  for (const l of raw ?? []) process.stderr.write(`${visibleLine(l)}\n`);
  printJson(report);
  return true;
}
