/** A Gemini settings fire as a trace: each run's own answer, and what the aggregation decided. */
import type { HookOutput } from '../events/output.js';
import { matchValue } from '../plan/matcher.js';
import type { FireResult } from './fire.js';
import type { HookRun } from './run-hook.js';
import { shadowLine, type TraceChange, type TraceFire } from './trace.js';

/** One word for an output: stop, deny, block, ask, allow, approve; `ok` when it decided nothing. */
export function geminiDecision(output: HookOutput | undefined, error?: string): string {
  if (error) return 'error';
  if (!output) return 'ok';
  if (output.continue === false) return 'stop';
  return typeof output.decision === 'string' && output.decision ? output.decision : 'ok';
}

function reasonOf(output: HookOutput | undefined): string | undefined {
  if (!output) return undefined;
  if (output.continue === false) return output.stopReason || output.reason;
  return output.reason;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What an output does besides its decision, in words, with the tool input fields it rewrote and the context it added. */
export function geminiEffect(
  output: HookOutput | undefined,
  eventInput: unknown,
): { effect?: string; changes?: TraceChange[]; context?: string } {
  if (!output) return {};
  const s = isObject(output.hookSpecificOutput) ? output.hookSpecificOutput : {};
  const words: string[] = [];
  let changes: TraceChange[] | undefined;
  if (isObject(s.tool_input)) {
    const before = isObject((eventInput as { tool_input?: unknown })?.tool_input)
      ? (eventInput as { tool_input: Record<string, unknown> }).tool_input
      : {};
    changes = Object.entries(s.tool_input)
      .filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k]))
      .map(([field, after]) => ({ field, ...(field in before ? { before: before[field] } : {}), after }));
    words.push(changes.length ? `input rewritten (${changes.map((c) => c.field).join(', ')})` : 'input rewritten (no change)');
  }
  const context = typeof s.additionalContext === 'string' && s.additionalContext ? s.additionalContext : undefined;
  if (context) words.push(`context added (${context.length} chars)`);
  if (isObject(s.llm_request)) words.push('request rewritten');
  if (isObject(s.llm_response))
    words.push(isObject(s.llm_request) || 'llm_request' in s ? 'answered instead of the model' : 'response replaced');
  if (isObject(s.toolConfig)) {
    const names = (s.toolConfig as { allowedFunctionNames?: unknown }).allowedFunctionNames;
    words.push(Array.isArray(names) ? `tools selected (${names.join(', ') || 'none'})` : 'tools selected');
  }
  if (isObject(s.tailToolCallRequest)) words.push(`tail call (${String((s.tailToolCallRequest as { name?: unknown }).name ?? '?')})`);
  if (s.clearContext === true) words.push('context cleared');
  if (typeof output.systemMessage === 'string' && output.systemMessage) words.push('message shown');
  return {
    ...(words.length ? { effect: words.join('; ') } : {}),
    ...(changes?.length ? { changes } : {}),
    ...(context ? { context } : {}),
  };
}

export function geminiTraceRun(run: HookRun, start: number, input?: string, eventInput?: unknown): TraceFire['runs'][number] {
  const reason = reasonOf(run.output);
  const { effect, changes, context } = geminiEffect(run.output, eventInput);
  return {
    hook: run.name,
    source: run.source,
    ...(run.file ? { file: run.file } : {}),
    start,
    ms: run.durationMs,
    exit: run.exitCode,
    decision: geminiDecision(run.output, run.error),
    ...(reason ? { reason } : {}),
    ...(effect ? { effect } : {}),
    ...(changes ? { changes } : {}),
    ...(context ? { context } : {}),
    stderr: run.stderr,
    ...(run.error ? { error: run.error } : {}),
    ...(run.warning ? { warning: run.warning } : {}),
    ...(run.timedOut ? { failure: 'timeout' as const } : {}),
    ...(run.shadow ? { shadow: true } : {}),
    ...(input ? { input } : {}),
  };
}

export function geminiTraceFire(result: FireResult, starts: readonly number[], inputs: ReadonlyArray<string | undefined>): TraceFire {
  const input = result.input as Record<string, unknown>;
  const target = matchValue(result.event, input);
  const reason = reasonOf(result.output);
  const { effect } = geminiEffect(result.output, input);
  const now = Date.now();
  return {
    dialect: 'gemini',
    session: typeof input.session_id === 'string' ? input.session_id : '',
    event: result.event,
    ...(target ? { target } : {}),
    ...(typeof input.cwd === 'string' ? { cwd: input.cwd } : {}),
    input,
    decision: geminiDecision(result.output),
    ...(reason ? { reason } : {}),
    ...(effect ? { effect } : {}),
    ...(result.sequential ? { sequential: true } : {}),
    runs: result.runs.map((r, i) => geminiTraceRun(r, starts[i] ?? now - r.durationMs, inputs[i], input)),
  };
}

/** "would have denied …" for a shadow run that objected. */
export function shadowRunLine(event: string, run: HookRun, input: unknown): string | undefined {
  const subject =
    typeof (input as { tool_name?: unknown })?.tool_name === 'string' ? (input as { tool_name: string }).tool_name : undefined;
  return shadowLine(event, run.name, geminiDecision(run.output, run.error), reasonOf(run.output), subject);
}
