import { z } from 'zod';

/** Stable, SDK-agnostic model request seen by BeforeModel, AfterModel and BeforeToolSelection hooks. */
export const LLMMessage = z
  .object({
    role: z.enum(['user', 'model', 'system']),
    content: z.union([z.string(), z.array(z.object({ type: z.string() }).loose())]),
  })
  .loose();

export const ToolConfig = z
  .object({
    mode: z.enum(['AUTO', 'ANY', 'NONE']).optional(),
    allowedFunctionNames: z.array(z.string()).optional(),
  })
  .loose();
export type ToolConfig = z.infer<typeof ToolConfig>;

export const GenerationConfig = z
  .object({
    temperature: z.number().optional(),
    maxOutputTokens: z.number().optional(),
    topP: z.number().optional(),
    topK: z.number().optional(),
  })
  .loose();

export const LLMRequest = z
  .object({
    model: z.string(),
    messages: z.array(LLMMessage),
    config: GenerationConfig.optional(),
    toolConfig: ToolConfig.optional(),
  })
  .loose();
export type LLMRequest = z.infer<typeof LLMRequest>;

export const FinishReason = z.enum(['STOP', 'MAX_TOKENS', 'SAFETY', 'RECITATION', 'OTHER']);

export const LLMCandidate = z
  .object({
    content: z.object({ role: z.literal('model'), parts: z.array(z.string()) }).loose(),
    finishReason: z.string().optional(),
    index: z.number().optional(),
    safetyRatings: z.array(z.object({ category: z.string(), probability: z.string(), blocked: z.boolean().optional() }).loose()).optional(),
  })
  .loose();

/** Stable model response: what AfterModel hooks read and what BeforeModel may synthesise. */
export const LLMResponse = z
  .object({
    text: z.string().optional(),
    candidates: z.array(LLMCandidate),
    usageMetadata: z
      .object({
        promptTokenCount: z.number().optional(),
        candidatesTokenCount: z.number().optional(),
        totalTokenCount: z.number().optional(),
      })
      .loose()
      .optional(),
  })
  .loose();
export type LLMResponse = z.infer<typeof LLMResponse>;
