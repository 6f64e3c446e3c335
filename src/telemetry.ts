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
  // Recorded when the run has ended: the span starts when the hook did.
  const span = api.trace.getTracer('hookline').startSpan('gemini_cli.hook_call', {
    startTime: Date.now() - e.durationMs,
    attributes: { ...attrs, exit_code: e.exitCode ?? -1, duration_ms: e.durationMs, ...(e.decision ? { decision: e.decision } : {}) },
  });
  if (!e.success) span.setStatus({ code: api.SpanStatusCode.ERROR, message: e.error });
  span.end();
}

/** The OTLP endpoints Hookline exports to, from the standard variables; none means no export. */
export function otlpConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT);
}

/**
 * Exports hook spans and metrics over OTLP/HTTP (JSON) to the collector the standard
 * OTEL_EXPORTER_OTLP_* variables name (endpoint, headers, timeout; OTEL_SERVICE_NAME and
 * OTEL_RESOURCE_ATTRIBUTES for the resource). The SDK loads only here, so a command without
 * them pays nothing. Returns the flush to await before exiting (it also stops the export).
 */
export async function startOtlpExport(env: NodeJS.ProcessEnv = process.env): Promise<(() => Promise<void>) | undefined> {
  if (!otlpConfigured(env)) return undefined;
  const [api, traceSdk, metricsSdk, resources, { OTLPTraceExporter }, { OTLPMetricExporter }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/exporter-metrics-otlp-http'),
  ]);
  const resource = resources
    .resourceFromAttributes({ 'service.name': 'hookline' })
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const tracing = new traceSdk.BasicTracerProvider({
    resource,
    spanProcessors: [new traceSdk.BatchSpanProcessor(new OTLPTraceExporter())],
  });
  const reader = new metricsSdk.PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter() });
  const metering = new metricsSdk.MeterProvider({ resource, readers: [reader] });
  api.trace.setGlobalTracerProvider(tracing);
  api.metrics.setGlobalMeterProvider(metering);
  return async () => {
    await Promise.allSettled([tracing.forceFlush(), metering.forceFlush()]);
    await Promise.allSettled([tracing.shutdown(), metering.shutdown()]);
  };
}
