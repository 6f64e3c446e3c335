import type { FunctionHook } from '../config/schema.js';
import type { AnyHookInput } from '../events/input.js';
import type { HookOutput } from '../events/output.js';
import { DEFAULT_TIMEOUT_MS } from './command.js';
import { boundedTimeoutMs } from '../config/timeout.js';
import type { RunResult } from './result.js';

/**
 * Runs an in-process hook. The action gets an AbortSignal that fires on timeout or when the
 * event is cancelled; a throw or a timeout is recorded as an error, never propagated.
 */
export async function runFunction(hook: FunctionHook, input: AnyHookInput, signal?: AbortSignal): Promise<RunResult> {
  const started = performance.now();
  const timeoutMs = boundedTimeoutMs(hook.timeout, DEFAULT_TIMEOUT_MS);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`Hook timed out after ${timeoutMs}ms`), { timedOut: true })), timeoutMs);
    controller.signal.addEventListener('abort', () => reject(new Error('Hook cancelled')), { once: true });
  });
  // Once the race is settled nobody listens; a later abort must not become an unhandled rejection.
  stopped.catch(() => {});
  const onOuterAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onOuterAbort();
  else signal?.addEventListener('abort', onOuterAbort, { once: true });
  const base = { exitCode: null, stdout: '', stderr: '' };
  try {
    // structuredClone keeps a hook from mutating the engine's copy of the input.
    const value = await Promise.race([Promise.resolve(hook.action(structuredClone(input), { signal: controller.signal })), stopped]);
    // As for command hooks, only an object is an output.
    const output = value !== null && typeof value === 'object' ? (value as HookOutput) : undefined;
    return {
      ...base,
      exitCode: 0,
      success: true,
      output,
      outputFormat: output ? 'json' : undefined,
      durationMs: performance.now() - started,
    };
  } catch (err) {
    controller.abort();
    const e = err as Error & { timedOut?: boolean };
    return {
      ...base,
      success: false,
      error: e instanceof Error ? e.message : String(err),
      timedOut: e.timedOut,
      durationMs: performance.now() - started,
    };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onOuterAbort);
  }
}
