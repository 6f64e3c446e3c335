import { z } from 'zod';
import { LLMRequest, LLMResponse } from './model.js';
import type { EventName } from './names.js';

/** Fields the engine fills on every input. */
export const BaseInput = z.object({
  session_id: z.string(),
  transcript_path: z.string(),
  cwd: z.string(),
  hook_event_name: z.string(),
  timestamp: z.string(),
});
export type BaseInput = z.infer<typeof BaseInput>;

export const McpContext = z
  .object({
    server_name: z.string(),
    tool_name: z.string(),
    command: z.string().optional(),
    args: z.array(z.string()).optional(),
    cwd: z.string().optional(),
    url: z.string().optional(),
    tcp: z.string().optional(),
  })
  .loose();

export const ToolResponse = z.object({ llmContent: z.unknown(), returnDisplay: z.unknown(), error: z.unknown().optional() }).loose();

const toolFields = {
  tool_name: z.string(),
  tool_input: z.record(z.string(), z.unknown()),
  mcp_context: McpContext.optional(),
  original_request_name: z.string().optional(),
};

/** Each event's own fields, with their wire names. */
export const EVENT_FIELDS = {
  BeforeTool: z.object(toolFields).loose(),
  AfterTool: z.object({ ...toolFields, tool_response: ToolResponse }).loose(),
  BeforeAgent: z.object({ prompt: z.string() }).loose(),
  AfterAgent: z.object({ prompt: z.string(), prompt_response: z.string(), stop_hook_active: z.boolean() }).loose(),
  SessionStart: z.object({ source: z.enum(['startup', 'resume', 'clear']) }).loose(),
  SessionEnd: z.object({ reason: z.enum(['exit', 'clear', 'logout', 'prompt_input_exit', 'other']) }).loose(),
  PreCompress: z.object({ trigger: z.enum(['manual', 'auto']) }).loose(),
  Notification: z
    .object({
      notification_type: z.string(),
      message: z.string(),
      details: z.record(z.string(), z.unknown()),
    })
    .loose(),
  BeforeModel: z.object({ llm_request: LLMRequest }).loose(),
  AfterModel: z.object({ llm_request: LLMRequest, llm_response: LLMResponse }).loose(),
  BeforeToolSelection: z.object({ llm_request: LLMRequest }).loose(),
} satisfies Record<EventName, z.ZodType>;

export type EventFields<E extends EventName> = z.infer<(typeof EVENT_FIELDS)[E]>;
export type HookInput<E extends EventName = EventName> = BaseInput & EventFields<E>;
/** An input as it travels through the engine: base fields plus any event fields. */
export type AnyHookInput = BaseInput & Record<string, unknown>;
