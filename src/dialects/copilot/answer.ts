/**
 * What a Copilot CLI hook answers, read as Copilot CLI 1.0.102 reads it, and what an event's
 * hooks decide together.
 *
 * Answers are JSON objects on stdout with exit 0. Copilot's own fields are read in both shapes:
 * preToolUse `permissionDecision` (`allow`, `deny`, `ask`), `permissionDecisionReason`,
 * `modifiedArgs`, `additionalContext`; userPromptSubmitted `modifiedPrompt`, `additionalContext`,
 * `decision: "block"` with `reason`; sessionStart `additionalContext`; postToolUse
 * `additionalContext`, `modifiedResult`; postToolUseFailure `additionalContext`; agentStop
 * `decision: "block"` with `reason`; permissionRequest `behavior` (`allow`, `deny`) and `message`.
 * A Claude-format (PascalCase) preToolUse hook may also answer in `hookSpecificOutput`
 * (`permissionDecision`, `permissionDecisionReason`, `updatedInput`, `additionalContext`).
 * Anything else (`decision` and `continue` on preToolUse among them) is ignored.
 */
import type { ProcessResult } from '../../run/result.js';
import { textNestsDeeper, tooDeep } from '../../config/limits.js';
import type { CopilotHook } from './config.js';
import type { CopilotEvent } from './events.js';
import { isObject } from '../json.js';

/** What one run gave. */
export interface CopilotReading {
  /** One word for lists and traces. */
  outcome: string;
  /** The run failed (reported to the user; what it does depends on the event and `onFailure`). */
  error?: string;
  /** Not a failure, but something in its answer was ignored (said so). */
  warning?: string;
  /** The JSON object it printed. */
  answer?: Record<string, unknown>;
  /** preToolUse and permissionRequest: it denied; what the model reads. */
  deny?: string;
  permissionDecision?: 'allow' | 'ask';
  reason?: string;
  modifiedArgs?: Record<string, unknown>;
  context?: string;
  modifiedPrompt?: string;
  decision?: 'block';
  modifiedResult?: { resultType: string; textResultForLlm: string };
  behavior?: 'allow' | 'deny';
  /** Exit code 2 off preToolUse and permissionRequest: its stderr, shown to the user. */
  shown?: string;
}

/** What an event's hooks decide together, in Copilot's terms; only what applies is present. */
export interface CopilotOutput {
  /** preToolUse, permissionRequest: the call does not run, and the model reads this. */
  deny?: string;
  /** preToolUse: the strongest decision short of a deny (`ask` over `allow`). */
  permissionDecision?: 'allow' | 'ask';
  /** The reason of that decision (preToolUse), or of the last block (userPromptSubmitted, agentStop). */
  reason?: string;
  /** preToolUse: the arguments as the last rewrite left them. */
  modifiedArgs?: Record<string, unknown>;
  /** Every hook's context, in order (preToolUse, postToolUse, postToolUseFailure, sessionStart). */
  contexts: string[];
  /** userPromptSubmitted: the last context given (each later one replaces the earlier). */
  additionalContext?: string;
  /** userPromptSubmitted: the prompt the model reads instead (the last given). */
  modifiedPrompt?: string;
  /** userPromptSubmitted: the prompt is refused; agentStop: the agent goes on with `reason` as a new prompt. */
  decision?: 'block';
  /** postToolUse: what the model reads instead of the tool's result (the last given). */
  modifiedResult?: { resultType: string; textResultForLlm: string };
  /** permissionRequest: the answer to the permission check. */
  behavior?: 'allow';
  /** Exit code 2's stderr, for the user (events other than preToolUse and permissionRequest). */
  shown: string[];
  /** Failed runs, one line each (Copilot CLI says nothing of most of them). */
  errors: string[];
  /** Answers in part ignored, one line each. */
  warnings: string[];
}

const DECISIONS = new Set(['allow', 'deny', 'ask']);

/** The model's words for a preToolUse deny, as Copilot CLI writes them. */
export const COPILOT_TEXTS = {
  denied: (reason: string | undefined) => `Denied by preToolUse hook: ${reason || 'No reason provided'}`,
  exit2: 'Denied by preToolUse hook: hook exited with code 2',
  errored: (file: string) => `Denied by preToolUse hook from "${file}" (hook errored)`,
  failClosed: (file: string, error: string) => `Denied by preToolUse hook from "${file}" (onFailure: block): ${error}`,
  noAsk: (reason: string | undefined) =>
    `Denied by preToolUse hook (unable to ask user for confirmation): ${reason || 'No reason provided'}`,
  permissionDenied: (message: string | undefined) => `Permission denied by a PermissionRequest hook: ${message || 'No reason provided'}`,
  /** The message of a permissionRequest hook that exited 2, and of one that failed otherwise. */
  permissionExit2: 'Permission denied by hook.',
  permissionFailed: 'Permission request hook failed',
  preContext: (contexts: readonly string[]) => `Additional context from preToolUse hook:\n${contexts.join('\n\n')}`,
  postContext: (tool: string, contexts: readonly string[]) =>
    `Tool "${tool}" succeeded. Additional guidance from postToolUse hooks:\n${contexts.join('\n\n')}`,
  failureContext: (tool: string, contexts: readonly string[]) =>
    `Tool "${tool}" failed. Additional guidance from postToolUseFailure hooks:\n${contexts.join('\n\n')}`,
  reminder: (context: string) => `<system_reminder>\n${context}\n</system_reminder>`,
} as const;

/** Why a finished run failed, or undefined when it exited 0 in time. */
function failureOf(r: ProcessResult, timeoutSeconds: number): string | undefined {
  if (r.timedOut) return `timed out after ${timeoutSeconds}s`;
  if (r.error) return r.error;
  if (r.signal) return `killed by signal ${r.signal}`;
  if (r.exitCode !== 0) {
    const stderr = r.stderr.trim();
    return stderr ? `exit code ${r.exitCode}: ${stderr.split('\n')[0]}` : `exit code ${r.exitCode}`;
  }
  return undefined;
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The fields of an answer that mean something at this event, for this hook's shape. */
function readAnswer(event: CopilotEvent, hook: Pick<CopilotHook, 'shape'>, o: Record<string, unknown>): CopilotReading {
  const out: CopilotReading = { outcome: 'ok', answer: o };
  const ignored: string[] = [];
  // A Claude-format preToolUse hook may answer in hookSpecificOutput; its fields come first.
  const hso = hook.shape === 'claude' && event === 'preToolUse' && isObject(o.hookSpecificOutput) ? o.hookSpecificOutput : {};
  const pick = (name: string, claudeName = name) => (hso[claudeName] !== undefined ? hso[claudeName] : o[name]);
  const context = pick('additionalContext');
  if (context !== undefined && context !== null && typeof context !== 'string') ignored.push('additionalContext is not text');
  else if (typeof context === 'string' && context) out.context = context;
  if (event === 'preToolUse') {
    const d = pick('permissionDecision');
    const reason = str(pick('permissionDecisionReason'));
    if (d !== undefined && !DECISIONS.has(String(d))) ignored.push(`permissionDecision ${JSON.stringify(d)} is not allow, deny or ask`);
    else if (d === 'deny') {
      out.deny = COPILOT_TEXTS.denied(reason);
      out.outcome = 'deny';
    } else if (d === 'allow' || d === 'ask') {
      out.permissionDecision = d;
      out.outcome = d;
      if (reason) out.reason = reason;
    }
    const rewrite = hso.updatedInput !== undefined ? hso.updatedInput : o.modifiedArgs;
    if (rewrite !== undefined && !isObject(rewrite)) ignored.push('modifiedArgs is not an object of arguments');
    else if (isObject(rewrite)) out.modifiedArgs = rewrite;
  } else if (event === 'userPromptSubmitted') {
    if (o.modifiedPrompt !== undefined && (typeof o.modifiedPrompt !== 'string' || !o.modifiedPrompt))
      ignored.push('modifiedPrompt is not a non-empty text');
    else if (typeof o.modifiedPrompt === 'string') out.modifiedPrompt = o.modifiedPrompt;
    if (o.decision === 'block') {
      out.decision = 'block';
      out.outcome = 'block';
      if (str(o.reason)) out.reason = o.reason as string;
    }
  } else if (event === 'agentStop') {
    if (o.decision === 'block') {
      out.decision = 'block';
      out.outcome = 'block';
      if (str(o.reason)) out.reason = o.reason as string;
    }
  } else if (event === 'postToolUse') {
    const m = o.modifiedResult;
    if (m !== undefined) {
      if (isObject(m) && typeof m.textResultForLlm === 'string')
        out.modifiedResult = {
          resultType: typeof m.resultType === 'string' ? m.resultType : 'success',
          textResultForLlm: m.textResultForLlm,
        };
      else ignored.push('modifiedResult has no textResultForLlm text');
    }
  } else if (event === 'permissionRequest') {
    if (o.behavior === 'deny') {
      out.behavior = 'deny';
      out.deny = COPILOT_TEXTS.permissionDenied(str(o.message));
      out.outcome = 'deny';
    } else if (o.behavior === 'allow') {
      out.behavior = 'allow';
      out.outcome = 'allow';
    } else if (o.behavior !== undefined) ignored.push(`behavior ${JSON.stringify(o.behavior)} is not allow or deny`);
  }
  if (ignored.length) out.warning = `${ignored.join('; ')} (ignored, as Copilot CLI ignores it)`;
  return out;
}

/**
 * One finished run, read as Copilot CLI reads it. `file` names the hook's file in the deny text
 * of a hook that errored.
 */
export function readCopilotRun(
  event: CopilotEvent,
  hook: Pick<CopilotHook, 'shape' | 'timeoutSeconds' | 'onFailure'>,
  r: ProcessResult,
  file: string,
): CopilotReading {
  const guard = event === 'preToolUse' || event === 'permissionRequest';
  // Hookline's fail closed: the failure denies (preToolUse, permissionRequest) or blocks the prompt.
  const closed = (error: string): CopilotReading => {
    if (hook.onFailure !== 'block') return { outcome: 'error', error };
    if (guard)
      return {
        outcome: 'deny',
        error,
        deny: COPILOT_TEXTS.failClosed(file, error),
        ...(event === 'permissionRequest' ? { behavior: 'deny' as const } : {}),
      };
    if (event === 'userPromptSubmitted')
      return { outcome: 'block', error, decision: 'block', reason: `hook failed (onFailure: block): ${error}` };
    return { outcome: 'error', error };
  };
  const failure = failureOf(r, hook.timeoutSeconds);
  if (r.exitCode === 2 && !r.timedOut && !r.error) {
    if (event === 'preToolUse') return { outcome: 'deny', deny: COPILOT_TEXTS.exit2 };
    if (event === 'permissionRequest')
      return { outcome: 'deny', behavior: 'deny', deny: COPILOT_TEXTS.permissionDenied(COPILOT_TEXTS.permissionExit2) };
    const stderr = r.stderr.trim();
    return { outcome: 'shown', ...(stderr ? { shown: stderr } : {}) };
  }
  if (failure) {
    // A timeout lets the tool run; a hook that crashed denies it, or its permission (Copilot CLI fails closed there).
    if (event === 'preToolUse' && !r.timedOut && hook.onFailure !== 'block')
      return { outcome: 'deny', error: failure, deny: COPILOT_TEXTS.errored(file) };
    if (event === 'permissionRequest' && !r.timedOut && hook.onFailure !== 'block')
      return { outcome: 'deny', error: failure, behavior: 'deny', deny: COPILOT_TEXTS.permissionDenied(COPILOT_TEXTS.permissionFailed) };
    return closed(failure);
  }
  const text = r.stdout.trim();
  if (!text) return { outcome: 'ok' };
  if (text.startsWith('{') && textNestsDeeper(text)) return closed(`${tooDeep('stdout')}; not read`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return closed(
      text.startsWith('{')
        ? `stdout starts with "{" but is not valid JSON (${(e as Error).message}); ignored, as Copilot CLI ignores it`
        : `stdout is not a JSON object (${JSON.stringify(text.split('\n')[0].slice(0, 80))}); ignored, as Copilot CLI ignores it`,
    );
  }
  if (!isObject(value)) return closed('stdout is not a JSON object; ignored, as Copilot CLI ignores it');
  const reading = readAnswer(event, hook, value);
  if (reading.warning && hook.onFailure === 'block' && reading.outcome === 'ok') return closed(reading.warning);
  return reading;
}

/** Merges the runs of one event, in order. Pure. */
export function aggregateCopilot(event: CopilotEvent, readings: readonly CopilotReading[]): CopilotOutput {
  const out: CopilotOutput = { contexts: [], shown: [], errors: [], warnings: [] };
  for (const r of readings) {
    if (r.error) out.errors.push(r.error);
    if (r.warning) out.warnings.push(r.warning);
    if (r.shown) out.shown.push(r.shown);
    if (r.context) {
      if (event === 'userPromptSubmitted') out.additionalContext = r.context;
      else out.contexts.push(r.context);
    }
    if (r.deny !== undefined && out.deny === undefined) out.deny = r.deny;
    if (r.permissionDecision && (out.permissionDecision !== 'ask' || r.permissionDecision === 'ask')) {
      out.permissionDecision = r.permissionDecision;
      if (r.reason) out.reason = r.reason;
      else delete out.reason;
    }
    if (r.modifiedArgs) out.modifiedArgs = r.modifiedArgs;
    if (r.modifiedPrompt !== undefined) out.modifiedPrompt = r.modifiedPrompt;
    if (r.decision) {
      out.decision = 'block';
      if (r.reason) out.reason = r.reason;
    }
    if (r.modifiedResult) out.modifiedResult = r.modifiedResult;
    if (r.behavior === 'allow' && out.deny === undefined) out.behavior = 'allow';
  }
  if (out.deny !== undefined) {
    delete out.behavior;
    delete out.permissionDecision;
  }
  return out;
}
