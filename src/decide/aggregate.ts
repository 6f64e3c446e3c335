import { CATALOG } from '../events/catalog.js';
import type { EventName } from '../events/names.js';
import type { HookOutput } from '../events/output.js';

export function isBlocking(decision: unknown): boolean {
  return decision === 'block' || decision === 'deny';
}

function specific(o: HookOutput): Record<string, unknown> | undefined {
  const s = o.hookSpecificOutput;
  return s && typeof s === 'object' && !Array.isArray(s) ? s : undefined;
}

/** OR logic: any block wins, ask only without a block, texts joined, allow when nothing objected. */
function mergeOr(outputs: HookOutput[]): HookOutput {
  const merged: HookOutput = { continue: true, suppressOutput: false };
  const stops: string[] = [];
  const reasons: string[] = [];
  const messages: string[] = [];
  const contexts: string[] = [];
  let blocked = false;
  let asked = false;
  let stopped = false;
  for (const o of outputs) {
    if (o.continue === false) {
      stopped = true;
      merged.continue = false;
      if (o.stopReason) stops.push(o.stopReason);
    }
    if (isBlocking(o.decision)) {
      blocked = true;
      merged.decision = o.decision;
    } else if (o.decision === 'ask') {
      asked = true;
      if (!blocked) merged.decision = o.decision;
    }
    if (o.reason) reasons.push(o.reason);
    if (o.systemMessage) messages.push(o.systemMessage);
    if (o.suppressOutput) merged.suppressOutput = true;
    const s = specific(o);
    if (s) {
      const { clearContext, ...rest } = s;
      merged.hookSpecificOutput = { ...merged.hookSpecificOutput, ...(clearContext === true ? { clearContext: true } : {}), ...rest };
      if (typeof s.additionalContext === 'string') contexts.push(s.additionalContext);
    }
  }
  if (!blocked && !asked && !stopped) merged.decision = 'allow';
  if (stops.length) merged.stopReason = stops.join('\n');
  if (reasons.length) merged.reason = reasons.join('\n');
  if (messages.length) merged.systemMessage = messages.join('\n');
  if (contexts.length) merged.hookSpecificOutput = { ...merged.hookSpecificOutput, additionalContext: contexts.join('\n') };
  return merged;
}

/** Later hooks replace earlier ones field by field; `hookSpecificOutput` is merged one level deep. */
function mergeReplace(outputs: HookOutput[]): HookOutput {
  let merged: HookOutput = {};
  for (const o of outputs) merged = { ...merged, ...o, hookSpecificOutput: { ...merged.hookSpecificOutput, ...specific(o) } };
  return merged;
}

/** NONE beats ANY beats AUTO; allowed names are the sorted union. */
function mergeToolSelection(outputs: HookOutput[]): HookOutput {
  const names = new Set<string>();
  let none = false;
  let any = false;
  for (const o of outputs) {
    const cfg = specific(o)?.toolConfig as { mode?: unknown; allowedFunctionNames?: unknown } | undefined;
    if (!cfg || typeof cfg !== 'object') continue;
    if (cfg.mode === 'NONE') none = true;
    else if (cfg.mode === 'ANY') any = true;
    if (Array.isArray(cfg.allowedFunctionNames)) for (const n of cfg.allowedFunctionNames) names.add(n as string);
  }
  const mode = none ? 'NONE' : any ? 'ANY' : 'AUTO';
  return {
    hookSpecificOutput: {
      hookEventName: 'BeforeToolSelection',
      toolConfig: { mode, allowedFunctionNames: none ? [] : [...names].sort() },
    },
  };
}

function mergeSimple(outputs: HookOutput[]): HookOutput {
  return Object.assign({}, ...outputs) as HookOutput;
}

/** Only the fields the reference engine's output classes carry survive aggregation. */
function finalShape(o: HookOutput): HookOutput {
  const out: HookOutput = {};
  for (const k of ['continue', 'stopReason', 'suppressOutput', 'systemMessage', 'decision', 'reason', 'hookSpecificOutput'] as const) {
    if (o[k] !== undefined) (out as Record<string, unknown>)[k] = o[k];
  }
  return out;
}

/** Merges the outputs of one event's hooks, in plan order. Undefined when no hook gave output. */
export function aggregate(event: EventName, outputs: HookOutput[]): HookOutput | undefined {
  if (outputs.length === 0) return undefined;
  switch (CATALOG[event].merge) {
    case 'or':
      return finalShape(mergeOr(outputs));
    case 'replace':
      return finalShape(mergeReplace(outputs));
    case 'toolSelection':
      return finalShape(mergeToolSelection(outputs));
    default:
      return finalShape(mergeSimple(outputs));
  }
}
