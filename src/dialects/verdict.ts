/**
 * What a fire came to, read the same way for every hook system from the shapes their outputs
 * share: the decision (`permissionDecision`, `decision` or mm's `action`), its reason, the
 * context added for the model, and the hooks' exit status. For `hookline test`.
 */
import type { SystemFire } from './system.js';
import { isObject } from './json.js';

export interface Verdict {
  /** allow when nothing decided; stop when a hook ended the turn without a decision. */
  decision: string;
  reason?: string;
  context?: string;
  /** The output judged: the aggregated one, or one hook's own answer. */
  output: Record<string, unknown>;
  exitCode: number;
  /** How many hooks ran. */
  hooks: number;
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** A run's own answer: Gemini's parsed `output`, Claude Code's and agy's `response`, Copilot CLI's `answer`, or its decision fields. */
function runAnswer(run: Record<string, unknown>): Record<string, unknown> {
  const own = isObject(run.output) ? run.output : isObject(run.response) ? run.response : isObject(run.answer) ? run.answer : {};
  return {
    ...(run.decision !== undefined ? { decision: run.decision } : {}),
    ...(run.reason !== undefined ? { reason: run.reason } : {}),
    ...own,
  };
}

function read(output: Record<string, unknown>): Pick<Verdict, 'decision' | 'reason' | 'context'> {
  const specific = isObject(output.hookSpecificOutput) ? output.hookSpecificOutput : {};
  const action = str(output.action);
  const decision =
    str(output.permissionDecision) ??
    str(specific.permissionDecision) ??
    str(output.decision) ??
    (action && action !== 'continue' ? action : undefined) ??
    // Copilot CLI's: what the model reads of a deny, and a permission's `behavior`.
    (str(output.deny) !== undefined ? 'deny' : undefined) ??
    str(output.behavior) ??
    (output.continue === false ? 'stop' : 'allow');
  const reason =
    str(output.permissionDecisionReason) ??
    str(specific.permissionDecisionReason) ??
    str(output.reason) ??
    str(output.stopReason) ??
    str(output.deny) ??
    str(output.message) ??
    str(output.error);
  const contexts = Array.isArray(output.contexts) && output.contexts.length ? output.contexts.join('\n') : undefined;
  const context = str(specific.additionalContext) ?? str(output.additionalContext) ?? str(output.context) ?? contexts;
  return { decision, ...(reason !== undefined ? { reason } : {}), ...(context !== undefined ? { context } : {}) };
}

const exitOf = (run: Record<string, unknown>) => (typeof run.exitCode === 'number' ? run.exitCode : 0);

/** The runs of one hook, named by its name or command. */
export function runsOf(fire: Pick<SystemFire, 'runs'>, hook: string): Record<string, unknown>[] {
  return fire.runs.filter(isObject).filter((r) => r.name === hook || r.command === hook);
}

/** The verdict of a whole fire, or of one hook's runs in it. */
export function verdictOf(fire: Pick<SystemFire, 'output' | 'runs'>, hook?: string): Verdict {
  const runs = hook === undefined ? fire.runs.filter(isObject) : runsOf(fire, hook);
  const output = hook === undefined ? (isObject(fire.output) ? fire.output : {}) : runs.length ? runAnswer(runs[runs.length - 1]) : {};
  const failed = runs.map(exitOf).find((c) => c !== 0);
  return { ...read(output), output, exitCode: failed ?? 0, hooks: runs.length };
}

const ALLOW = new Set(['allow', 'approve', 'continue']);

/** Decisions that mean the same thing across systems. */
export function sameDecision(expected: string, actual: string): boolean {
  return expected === actual || (ALLOW.has(expected) && ALLOW.has(actual));
}

/** True when `actual` has every field of `expected`, objects compared in part, everything else exactly. */
export function partialMatch(expected: unknown, actual: unknown): boolean {
  if (isObject(expected)) return isObject(actual) && Object.entries(expected).every(([k, v]) => partialMatch(v, actual[k]));
  if (Array.isArray(expected))
    return Array.isArray(actual) && expected.length === actual.length && expected.every((v, i) => partialMatch(v, actual[i]));
  return expected === actual;
}
