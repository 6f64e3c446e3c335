import type { EventName } from './events/names.js';
import type { Source } from './config/schema.js';

/** Emitted when a hook starts: for display and telemetry. */
export interface HookStartEvent {
  event: EventName;
  name: string;
  source: Source;
  index: number;
  total: number;
}

/** Emitted when a hook ends. `decision` is the hook's own decision, if it gave one. */
export interface HookEndEvent extends HookStartEvent {
  durationMs: number;
  exitCode: number | null;
  success: boolean;
  decision?: string;
  error?: string;
}

type Api = typeof import('@opentelemetry/api');
interface Instruments {
  api: Api;
  calls: ReturnType<ReturnType<Api['metrics']['getMeter']>['createCounter']>;
  latency: ReturnType<ReturnType<Api['metrics']['getMeter']>['createHistogram']>;
}

// @opentelemetry/api keeps its registered providers under this global. Without it no SDK is set
// up and every record would be a no-op, so the API is not even loaded (it costs start-up time).
const OTEL_GLOBAL = Symbol.for('opentelemetry.js.api.1');
let instruments: Instruments | undefined;
let loading: Promise<void> | undefined;

function load(): void {
  loading ??= import('@opentelemetry/api').then((api) => {
    const meter = api.metrics.getMeter('hookline');
    instruments = {
      api,
      calls: meter.createCounter('hookline.hook_call.count', { description: 'Hook runs' }),
      latency: meter.createHistogram('hookline.hook_call.latency', { description: 'Hook run time', unit: 'ms' }),
    };
  });
}

/** Resolves once the records started so far are written (the API loads on first use). */
export async function telemetryFlushed(): Promise<void> {
  await loading;
  // The records queued behind the load run in the same microtask turn as it settles.
  await Promise.resolve();
}

/** One record per hook run: a `gemini_cli.hook_call` span plus count and latency metrics. */
export function recordHookCall(e: HookEndEvent): void {
  if (!(globalThis as Record<symbol, unknown>)[OTEL_GLOBAL]) return;
  if (!instruments) {
    load();
    void loading!.then(() => recordHookCall(e));
    return;
  }
  const { api, calls, latency } = instruments;
  const attrs = { hook_event_name: e.event, hook_name: e.name, hook_source: e.source, success: e.success };
  calls.add(1, attrs);
  latency.record(e.durationMs, attrs);
  const span = api.trace.getTracer('hookline').startSpan('gemini_cli.hook_call', {
    attributes: { ...attrs, exit_code: e.exitCode ?? -1, duration_ms: e.durationMs, ...(e.decision ? { decision: e.decision } : {}) },
  });
  if (!e.success) span.setStatus({ code: api.SpanStatusCode.ERROR, message: e.error });
  span.end();
}
