/**
 * Firing a plan: its hooks in parallel (outputs merged in plan order) or in sequence (each
 * later hook reads the input as the earlier ones left it), then aggregated per event.
 */
import { CATALOG } from '../events/catalog.js';
import type { AnyHookInput } from '../events/input.js';
import type { EventName } from '../events/names.js';
import type { HookOutput } from '../events/output.js';
import type { HookEntry } from '../config/schema.js';
import type { Plan } from '../plan/plan.js';
import { aggregate } from '../decide/aggregate.js';
import type { HookRun } from './run-hook.js';

export interface FireResult {
  event: EventName;
  /** The input the first hook received. */
  input: AnyHookInput;
  /** The aggregated output, as Gemini CLI merges it; undefined when no hook gave one. */
  output?: HookOutput;
  runs: HookRun[];
  /** True when no hook had an error (timeout, crash, cancel); a non-zero exit is not an error. */
  success: boolean;
  sequential: boolean;
}

export type RunOne = (entry: HookEntry, input: AnyHookInput, index: number, total: number) => Promise<HookRun>;

export async function firePlan(event: EventName, plan: Plan | undefined, input: AnyHookInput, run: RunOne): Promise<FireResult> {
  if (!plan) return { event, input, runs: [], success: true, sequential: false };
  const total = plan.entries.length;
  if (!plan.sequential) {
    const runs = await Promise.all(plan.entries.map((e, i) => run(e, input, i, total)));
    // A shadow hook's answer is recorded and shown, never enforced.
    const outputs = runs.flatMap((r) => (r.output && !r.shadow ? [r.output] : []));
    return { event, input, output: aggregate(event, outputs), runs, success: runs.every((r) => !r.error), sequential: false };
  }
  const runs: HookRun[] = [];
  const outputs: HookOutput[] = [];
  let current = input;
  let toolInput: Record<string, unknown> | undefined;
  for (let i = 0; i < total; i++) {
    const r = await run(plan.entries[i], current, i, total);
    runs.push(r);
    if (r.shadow) continue;
    if (r.output) outputs.push(r.output);
    if (r.success && r.output) {
      current = CATALOG[event].chain?.(current, r.output) ?? current;
      const ti = r.output.hookSpecificOutput?.tool_input;
      if (event === 'BeforeTool' && ti && typeof ti === 'object' && !Array.isArray(ti))
        toolInput = { ...toolInput, ...(ti as Record<string, unknown>) };
    }
  }
  const output = aggregate(event, outputs);
  // Deliberate fix: a chain's rewrites accumulate instead of the last hook's object winning.
  if (output && toolInput) output.hookSpecificOutput = { ...output.hookSpecificOutput, tool_input: toolInput };
  return { event, input, output, runs, success: runs.every((r) => !r.error), sequential: true };
}
