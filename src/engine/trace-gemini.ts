/** A Gemini settings fire as a trace: each run's own answer, and what the aggregation decided. */
import type { HookOutput } from '../events/output.js';
import { matchValue } from '../plan/matcher.js';
import type { FireResult } from './fire.js';
import type { HookRun } from './run-hook.js';
import { effectOf, shadowLine, type TraceFire } from './trace.js';

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

export function geminiTraceRun(run: HookRun, start: number, input?: string): TraceFire['runs'][number] {
  const reason = reasonOf(run.output);
  const effect = effectOf(run.output, ['decision', 'reason', 'continue', 'stopReason', 'hookEventName']);
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
  const effect = effectOf(result.output, ['decision', 'reason', 'continue', 'stopReason', 'suppressOutput', 'hookEventName']);
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
    runs: result.runs.map((r, i) => geminiTraceRun(r, starts[i] ?? now - r.durationMs, inputs[i])),
  };
}

/** "would have denied …" for a shadow run that objected. */
export function shadowRunLine(event: string, run: HookRun, input: unknown): string | undefined {
  const subject =
    typeof (input as { tool_name?: unknown })?.tool_name === 'string' ? (input as { tool_name: string }).tool_name : undefined;
  return shadowLine(event, run.name, geminiDecision(run.output, run.error), reasonOf(run.output), subject);
}
