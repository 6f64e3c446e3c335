/**
 * One model call for a hook the model judges (Claude Code prompt/agent hooks, SpatialAgent prompt
 * hooks): bounded by the hook's timeout, cancelled with the event, never retried.
 */
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { boundedTimeoutMs } from '../config/timeout.js';

export type ModelAnswer = { ok: true; text: string } | { ok: false; timedOut: boolean; message: string };

export async function askModel(
  model: LanguageModelV3,
  request: { system?: string; prompt: string },
  timeoutSeconds: number,
  signal?: AbortSignal,
): Promise<ModelAnswer> {
  // A ref'd timer, not AbortSignal.timeout: that one would let the process exit mid-wait.
  const ac = new AbortController();
  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
      ac.abort(new Error('timeout'));
    },
    boundedTimeoutMs(timeoutSeconds * 1000, 1),
  );
  const onCancel = () => ac.abort(new Error('cancelled'));
  if (signal?.aborted) onCancel();
  else signal?.addEventListener('abort', onCancel, { once: true });
  try {
    // Loaded on demand: the AI SDK is only needed when a model judges a hook.
    const { generateText } = await import('ai');
    const r = await generateText({ model, ...request, abortSignal: ac.signal, maxRetries: 0 });
    return { ok: true, text: r.text };
  } catch (e) {
    return { ok: false, timedOut, message: (e as Error)?.message ?? String(e) };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onCancel);
  }
}
