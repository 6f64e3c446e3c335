import type { HookOutput } from '../events/output.js';
import type { LLMRequest, LLMResponse, ToolConfig } from '../events/model.js';
import { effectiveReason, isBlocking, isPlainObject, specific, stops, systemMessage } from './common.js';

export type BeforeModelEffect =
  | { action: 'call'; request: LLMRequest; systemMessage?: string }
  /** Do not call the model; `response`, when given, is the answer instead (a synthetic response). */
  | { action: 'block'; reason: string; response?: LLMResponse; systemMessage?: string }
  | { action: 'stop'; reason: string; systemMessage?: string };

/**
 * An `llm_response` the agent can use: candidates, each with its content's parts (when given) a
 * list. Anything else a hook printed is not a response and is ignored, so a malformed one never
 * reaches the code that reads it.
 */
function asResponse(v: unknown): LLMResponse | undefined {
  if (!isPlainObject(v) || !Array.isArray(v.candidates)) return undefined;
  const wellFormed = v.candidates.every((c: unknown) => {
    if (!isPlainObject(c)) return false;
    if (c.content === undefined) return true;
    return isPlainObject(c.content) && (c.content.parts === undefined || Array.isArray(c.content.parts));
  });
  return wellFormed ? (v as LLMResponse) : undefined;
}

/** The generation settings a hook's `llm_request.config` may set. */
const GENERATION_KEYS = ['temperature', 'maxOutputTokens', 'topP', 'topK'] as const;

/**
 * A hook's `llm_request.config` in place of the request's, as Gemini CLI applies it: the four
 * generation settings are the hook's (one it leaves out is unset), anything else stays.
 */
function withHookConfig(config: LLMRequest['config'], given: Record<string, unknown>): LLMRequest['config'] {
  const out: Record<string, unknown> = { ...config };
  for (const k of GENERATION_KEYS) {
    if (given[k] === undefined) delete out[k];
    else out[k] = given[k];
  }
  return out as LLMRequest['config'];
}

/**
 * BeforeModel: an `llm_request` partial overrides the request (its `config` sets the generation
 * settings: those it leaves out are unset, as in Gemini CLI). A deny skips the model call, and an
 * `llm_response` given with it is used as the answer; without a deny it is ignored, as in the reference.
 */
export function applyBeforeModel(output: HookOutput | undefined, request: LLMRequest): BeforeModelEffect {
  const msg = systemMessage(output);
  if (!output) return { action: 'call', request };
  if (stops(output)) return { action: 'stop', reason: effectiveReason(output), systemMessage: msg };
  const s = specific(output);
  const response = asResponse(s.llm_response);
  if (isBlocking(output.decision)) return { action: 'block', reason: effectiveReason(output), response, systemMessage: msg };
  const partial = s.llm_request;
  const next = isPlainObject(partial)
    ? ({
        ...request,
        ...partial,
        config: isPlainObject(partial.config) ? withHookConfig(request.config, partial.config) : request.config,
      } as LLMRequest)
    : request;
  return { action: 'call', request: next, systemMessage: msg };
}

export type AfterModelEffect =
  | { action: 'keep'; response: LLMResponse; systemMessage?: string }
  | { action: 'replace'; response: LLMResponse; systemMessage?: string }
  /** Discard the chunk and end the turn. */
  | { action: 'deny'; reason: string; systemMessage?: string }
  | { action: 'stop'; reason: string; systemMessage?: string };

/** AfterModel: `llm_response` with candidate parts replaces the chunk; deny discards it. */
export function applyAfterModel(output: HookOutput | undefined, response: LLMResponse): AfterModelEffect {
  const msg = systemMessage(output);
  if (!output) return { action: 'keep', response };
  if (stops(output)) return { action: 'stop', reason: effectiveReason(output), systemMessage: msg };
  if (isBlocking(output.decision)) return { action: 'deny', reason: effectiveReason(output), systemMessage: msg };
  const r = asResponse(specific(output).llm_response);
  if (r?.candidates[0]?.content?.parts?.length) return { action: 'replace', response: r as LLMResponse, systemMessage: msg };
  return { action: 'keep', response, systemMessage: msg };
}

/** Text of a stable response: `text` when given, else the first candidate's parts. */
export function responseText(r: LLMResponse): string {
  if (typeof r.text === 'string') return r.text;
  const parts = r.candidates?.[0]?.content?.parts;
  return Array.isArray(parts) ? parts.filter((p) => typeof p === 'string').join('') : '';
}

export interface ToolSelection {
  mode: 'AUTO' | 'ANY' | 'NONE';
  /** Tools the model may call (all of `available` when no hook restricted them). */
  allowed: string[];
}

/** BeforeToolSelection: the merged toolConfig becomes the call's tool config. */
export function applyToolSelection(output: HookOutput | undefined, available: readonly string[]): ToolSelection {
  const cfg = specific(output).toolConfig as ToolConfig | undefined;
  if (!cfg) return { mode: 'AUTO', allowed: [...available] };
  const mode = cfg.mode ?? 'AUTO';
  if (mode === 'NONE') return { mode, allowed: [] };
  const names = cfg.allowedFunctionNames ?? [];
  return { mode, allowed: names.length ? available.filter((t) => names.includes(t)) : [...available] };
}
