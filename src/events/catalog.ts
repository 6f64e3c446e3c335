import { EVENT_NAMES, type EventName } from './names.js';
import type { AnyHookInput } from './input.js';
import type { HookOutput } from './output.js';

/** How a matcher is compared for an event: tool name (regex), a trigger field (exact), or ignored. */
export type MatchOn = { kind: 'tool' } | { kind: 'trigger'; field: 'source' | 'reason' | 'trigger' } | { kind: 'none' };

/** How the outputs of several hooks for one event are merged. */
export type MergeStrategy = 'or' | 'replace' | 'toolSelection' | 'simple';

export interface EventSpec {
  name: EventName;
  matchOn: MatchOn;
  merge: MergeStrategy;
  /** In a sequential plan, what the next hook sees after a successful hook with output. */
  chain?: (input: AnyHookInput, output: HookOutput) => AnyHookInput;
  /** What the event can do, in one line (for `hookline list` and docs). */
  summary: string;
}

function specific(output: HookOutput): Record<string, unknown> | undefined {
  const s = output.hookSpecificOutput;
  return s && typeof s === 'object' ? s : undefined;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const chainPrompt = (input: AnyHookInput, output: HookOutput): AnyHookInput => {
  const ctx = specific(output)?.additionalContext;
  if (typeof ctx !== 'string' || typeof input.prompt !== 'string') return input;
  return { ...input, prompt: `${input.prompt}\n\n${ctx}` };
};

const chainRequest = (input: AnyHookInput, output: HookOutput): AnyHookInput => {
  const partial = specific(output)?.llm_request;
  if (!partial || !isPlainObject(partial) || !isPlainObject(input.llm_request)) return input;
  return { ...input, llm_request: { ...input.llm_request, ...partial } };
};

const chainToolInput = (input: AnyHookInput, output: HookOutput): AnyHookInput => {
  const next = specific(output)?.tool_input;
  if (!isPlainObject(next) || !isPlainObject(input.tool_input)) return input;
  return { ...input, tool_input: { ...input.tool_input, ...next } };
};

export const CATALOG: Readonly<Record<EventName, EventSpec>> = {
  BeforeTool: {
    name: 'BeforeTool',
    matchOn: { kind: 'tool' },
    merge: 'or',
    chain: chainToolInput,
    summary: 'block the tool, ask the user, stop the agent, rewrite its arguments',
  },
  AfterTool: {
    name: 'AfterTool',
    matchOn: { kind: 'tool' },
    merge: 'or',
    summary: 'hide the result, add context, run a tail tool call, stop the agent',
  },
  BeforeAgent: {
    name: 'BeforeAgent',
    matchOn: { kind: 'none' },
    merge: 'or',
    chain: chainPrompt,
    summary: 'block the turn, stop it, add context to the prompt',
  },
  AfterAgent: {
    name: 'AfterAgent',
    matchOn: { kind: 'none' },
    merge: 'or',
    summary: 'reject the answer and retry, stop, clear the context',
  },
  SessionStart: {
    name: 'SessionStart',
    matchOn: { kind: 'trigger', field: 'source' },
    merge: 'or',
    summary: 'add context at the start of the session',
  },
  SessionEnd: {
    name: 'SessionEnd',
    matchOn: { kind: 'trigger', field: 'reason' },
    merge: 'simple',
    summary: 'advisory: clean up, show a message',
  },
  PreCompress: {
    name: 'PreCompress',
    matchOn: { kind: 'trigger', field: 'trigger' },
    merge: 'simple',
    summary: 'advisory: save state before the history is compressed',
  },
  Notification: {
    name: 'Notification',
    matchOn: { kind: 'none' },
    merge: 'simple',
    summary: 'advisory: forward alerts such as tool permission requests',
  },
  BeforeModel: {
    name: 'BeforeModel',
    matchOn: { kind: 'none' },
    merge: 'replace',
    chain: chainRequest,
    summary: 'rewrite the model request, answer instead of the model, block the turn',
  },
  AfterModel: {
    name: 'AfterModel',
    matchOn: { kind: 'none' },
    merge: 'replace',
    summary: 'replace or redact each response chunk, block the turn',
  },
  BeforeToolSelection: {
    name: 'BeforeToolSelection',
    matchOn: { kind: 'none' },
    merge: 'toolSelection',
    summary: 'choose the tool-calling mode and the allowed tools',
  },
};

export { EVENT_NAMES };
