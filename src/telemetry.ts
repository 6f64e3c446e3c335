import { metrics, trace, SpanStatusCode } from '@opentelemetry/api';
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

// No-ops until the host application registers an OpenTelemetry SDK.
const meter = metrics.getMeter('hookline');
const calls = meter.createCounter('hookline.hook_call.count', { description: 'Hook runs' });
const latency = meter.createHistogram('hookline.hook_call.latency', { description: 'Hook run time', unit: 'ms' });
const tracer = trace.getTracer('hookline');

export function recordHookCall(e: HookEndEvent): void {
  const attrs = { 'hook_event_name': e.event, 'hook_name': e.name, 'hook_source': e.source, success: e.success };
  calls.add(1, attrs);
  latency.record(e.durationMs, attrs);
  const span = tracer.startSpan('gemini_cli.hook_call', { attributes: { ...attrs, exit_code: e.exitCode ?? -1, duration_ms: e.durationMs, ...(e.decision ? { decision: e.decision } : {}) } });
  if (!e.success) span.setStatus({ code: SpanStatusCode.ERROR, message: e.error });
  span.end();
}
