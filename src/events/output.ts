import { z } from 'zod';
import { LLMRequest, LLMResponse, ToolConfig } from './model.js';
import type { EventName } from './names.js';

export const Decision = z.enum(['allow', 'approve', 'ask', 'block', 'deny']);
export type Decision = z.infer<typeof Decision>;

/** Fields every hook may print. Unknown fields are kept, as the reference engine keeps them. */
export const CommonOutput = z
  .object({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    systemMessage: z.string().optional(),
    decision: Decision.optional(),
    reason: z.string().optional(),
  })
  .loose();

/** `hookSpecificOutput` per event, as documented. */
export const SPECIFIC_OUTPUT = {
  BeforeTool: z.object({ tool_input: z.record(z.string(), z.unknown()).optional() }).loose(),
  AfterTool: z
    .object({
      additionalContext: z.string().optional(),
      tailToolCallRequest: z.object({ name: z.string(), args: z.record(z.string(), z.unknown()) }).optional(),
    })
    .loose(),
  BeforeAgent: z.object({ additionalContext: z.string().optional() }).loose(),
  AfterAgent: z.object({ clearContext: z.boolean().optional() }).loose(),
  SessionStart: z.object({ additionalContext: z.string().optional() }).loose(),
  SessionEnd: z.object({}).loose(),
  PreCompress: z.object({}).loose(),
  Notification: z.object({}).loose(),
  BeforeModel: z.object({ llm_request: LLMRequest.partial().optional(), llm_response: LLMResponse.optional() }).loose(),
  AfterModel: z.object({ llm_response: LLMResponse.partial().optional() }).loose(),
  BeforeToolSelection: z.object({ toolConfig: ToolConfig.optional() }).loose(),
} satisfies Record<EventName, z.ZodType>;

export function outputSchema<E extends EventName>(event: E) {
  return CommonOutput.extend({ hookSpecificOutput: (SPECIFIC_OUTPUT[event] as (typeof SPECIFIC_OUTPUT)[E]).optional() });
}

export type CommonOutput = z.infer<typeof CommonOutput>;
export type SpecificOutput<E extends EventName> = z.infer<(typeof SPECIFIC_OUTPUT)[E]>;
/** The documented output of one event, as published in schema/<Event>.output.json. */
export type EventOutput<E extends EventName> = z.infer<ReturnType<typeof outputSchema<E>>>;

/**
 * What a hook printed, once parsed. Any JSON object is accepted as-is (the reference engine does
 * not validate hook output); the appliers read fields defensively, so `decision` is any text.
 */
export const HookOutput = CommonOutput.extend({
  decision: z.string().optional(),
  hookSpecificOutput: z.record(z.string(), z.unknown()).optional(),
});
export type HookOutput = z.infer<typeof HookOutput>;
