/**
 * One model call for a hook the model judges (Claude Code prompt/agent hooks, SpatialAgent prompt
 * hooks): bounded by the hook's timeout, cancelled with the event, never retried.
 */
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { boundedTimeoutMs } from '../config/timeout.js';
import { deadline } from './deadline.js';

export type ModelAnswer = { ok: true; text: string } | { ok: false; timedOut: boolean; message: string };

export async function askModel(
  model: LanguageModelV3,
  request: { system?: string; prompt: string },
  timeoutSeconds: number,
  signal?: AbortSignal,
): Promise<ModelAnswer> {
  const wait = deadline(boundedTimeoutMs(timeoutSeconds * 1000, 1), signal);
  try {
    // Loaded on demand: the AI SDK is only needed when a model judges a hook.
    const { generateText } = await import('ai');
    const r = await generateText({ model, ...request, abortSignal: wait.signal, maxRetries: 0 });
    return { ok: true, text: r.text };
  } catch (e) {
    return { ok: false, timedOut: wait.timedOut(), message: (e as Error)?.message ?? String(e) };
  } finally {
    wait.done();
  }
}
