/**
 * OpenTelemetry for every fired event, whatever its hook system: one span per event with a child
 * span per hook run, and metrics with the decision as a dimension. Records are made from the same
 * data a trace line holds (src/engine/trace.ts calls `recordFireTelemetry`), after the hooks ran,
 * with their real start and end times. Names follow OpenTelemetry's semantic conventions (GenAI
 * where they fit, and the `gen_ai.client.*` names of opentelemetry-hooks); with
 * `HOOKLINE_OTEL_NAMING=gemini` the run spans and metrics carry Gemini CLI's names instead.
 */
import type { EventName } from './events/names.js';
import type { Source } from './config/schema.js';
import { looksSecret } from './run/env.js';

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

/** One hook run as telemetry needs it (a trace line's run has these fields). */
export interface RunRecord {
  hook: string;
  source?: string;
  file?: string;
  /** Start (ms since the epoch) and duration (ms). */
  start: number;
  ms: number;
  exit: number | null;
  decision: string;
  error?: string;
  failure?: string;
  shadow?: boolean;
}

/** One fired event and its runs (a trace's fire has these fields). */
export interface FireRecord {
  dialect: string;
  session: string;
  event: string;
  target?: string;
  cwd?: string;
  decision: string;
  sequential?: boolean;
  runs: readonly RunRecord[];
}

type Api = typeof import('@opentelemetry/api');
type Meter = ReturnType<Api['metrics']['getMeter']>;
interface Meters {
  /** The provider they were made from: a host that registers another gets new ones. */
  provider: unknown;
  runs: ReturnType<Meter['createCounter']>;
  duration: ReturnType<Meter['createHistogram']>;
  fires: ReturnType<Meter['createCounter']>;
  geminiCount: ReturnType<Meter['createCounter']>;
  geminiLatency: ReturnType<Meter['createHistogram']>;
}

// @opentelemetry/api keeps its registered providers under this global. Without it no SDK is set
// up and every record would be a no-op, so the API is not even loaded (it costs start-up time).
const OTEL_GLOBAL = Symbol.for('opentelemetry.js.api.1');
let otel: Api | undefined;
let meters: Meters | undefined;
let loading: Promise<void> | undefined;

function load(): void {
  loading ??= import('@opentelemetry/api')
    .then((api) => {
      otel = api;
    })
    // A registered provider without a loadable API (an odd install) records nothing; it never breaks a fire.
    .catch(() => {});
}

/** The instruments of the meter provider registered now. */
function metersOf(api: Api): Meters {
  const provider = api.metrics.getMeterProvider();
  if (meters?.provider === provider) return meters;
  const meter = provider.getMeter('hookline');
  meters = {
    provider,
    runs: meter.createCounter('hookline.hook.runs', { description: 'Hook runs, by hook system, event, hook, decision and failure' }),
    duration: meter.createHistogram('hookline.hook.duration', { description: 'How long each hook run took', unit: 's' }),
    fires: meter.createCounter('hookline.event.fires', { description: 'Fired events that ran hooks, by the decision of all of them' }),
    geminiCount: meter.createCounter('gemini_cli.hook_call.count', {
      description: 'Counts hook calls, tagged by hook event name and success.',
    }),
    geminiLatency: meter.createHistogram('gemini_cli.hook_call.latency', {
      description: 'Latency of hook calls in milliseconds.',
      unit: 'ms',
    }),
  };
  return meters;
}

/** Resolves once the records started so far are made (the API loads on first use). */
export async function telemetryFlushed(): Promise<void> {
  await loading;
  // The records queued behind the load run in the same microtask turn as it settles.
  await Promise.resolve();
}

/** `gemini`: Gemini CLI's names for run spans and metrics; anything else: the semantic conventions. */
export type Naming = 'semconv' | 'gemini';
export const namingOf = (env: NodeJS.ProcessEnv = process.env): Naming =>
  env.HOOKLINE_OTEL_NAMING?.trim().toLowerCase() === 'gemini' ? 'gemini' : 'semconv';

/** Events whose matcher value is a tool name, in any hook system's words. */
const TOOL_EVENT = /tool|^Permission|^Pre(?:Act)$|^PostAct$/i;

/** A hook's name as telemetry shows it: short, and never a word that looks like a secret. */
function shown(name: string): string {
  const cut = name.length > 120 ? `${name.slice(0, 119)}…` : name;
  return cut.replace(/[^\s"'`=:,;()[\]{}<>]{8,}/g, (w) => (looksSecret(w) ? '[redacted]' : w));
}

/** The attributes every span and metric of a fire shares. */
function fireAttributes(f: FireRecord): Record<string, string> {
  const tool = f.target && TOOL_EVENT.test(f.event) ? f.target : undefined;
  return {
    'gen_ai.client.name': 'hookline',
    'hookline.dialect': f.dialect,
    'gen_ai.client.hook.event': f.event,
    ...(f.session ? { 'gen_ai.conversation.id': f.session, 'gen_ai.client.session_id': f.session } : {}),
    ...(tool ? { 'gen_ai.tool.name': tool, 'gen_ai.client.tool_name': tool } : {}),
  };
}

/** A run's own attributes, beside its fire's. */
function runAttributes(r: RunRecord): Record<string, string | number | boolean> {
  return {
    'hookline.hook.name': shown(r.hook),
    ...(r.source ? { 'hookline.hook.source': r.source } : {}),
    'hookline.hook.decision': r.decision,
    'gen_ai.client.duration_ms': r.ms,
    ...(r.exit !== null ? { 'process.exit.code': r.exit, 'gen_ai.client.exit_code': r.exit } : {}),
    ...(r.failure ? { 'error.type': r.failure, 'hookline.hook.timed_out': r.failure === 'timeout' } : {}),
    ...(r.shadow ? { 'hookline.hook.shadow': true } : {}),
  };
}

/** The same run under Gemini CLI's attribute names (its `gemini_cli.hook_call` record). */
function geminiAttributes(f: FireRecord, r: RunRecord): Record<string, string | number | boolean> {
  return {
    hook_event_name: f.event,
    hook_name: shown(r.hook),
    hook_type: 'command',
    duration_ms: r.ms,
    success: !r.failure && (r.exit === 0 || r.exit === null),
    exit_code: r.exit ?? -1,
  };
}

/**
 * Records one fired event: a span covering its runs (a child of the caller's active span, if
 * any), a child span per run, and the metrics. Costs nothing when no OpenTelemetry provider is
 * registered.
 */
export function recordFireTelemetry(f: FireRecord, env: NodeJS.ProcessEnv = process.env): void {
  if (!f.runs.length || !(globalThis as Record<symbol, unknown>)[OTEL_GLOBAL]) return;
  if (!otel) {
    load();
    void loading!.then(() => otel && recordFireTelemetry(f, env));
    return;
  }
  const api = otel;
  const instruments = metersOf(api);
  const naming = namingOf(env);
  const shared = fireAttributes(f);
  const tracer = api.trace.getTracer('hookline');
  const start = Math.min(...f.runs.map((r) => r.start));
  const end = Math.max(...f.runs.map((r) => r.start + r.ms));
  const fire = tracer.startSpan(`gen_ai.client.hook.${f.event}`, {
    startTime: start,
    attributes: {
      ...shared,
      'hookline.event.decision': f.decision,
      'hookline.event.hooks': f.runs.length,
      ...(f.sequential ? { 'hookline.event.sequential': true } : {}),
      ...(f.cwd ? { 'gen_ai.client.workspace': f.cwd } : {}),
    },
  });
  const parent = api.trace.setSpan(api.context.active(), fire);
  for (const r of f.runs) {
    const own = runAttributes(r);
    const span = tracer.startSpan(
      naming === 'gemini' ? 'gemini_cli.hook_call' : `hookline.hook.run ${f.event}`,
      { startTime: r.start, attributes: { ...shared, ...own, ...(naming === 'gemini' ? geminiAttributes(f, r) : {}) } },
      parent,
    );
    if (r.failure) span.setStatus({ code: api.SpanStatusCode.ERROR, message: r.error ?? r.failure });
    span.end(r.start + r.ms);
    if (naming === 'gemini') {
      const g = geminiAttributes(f, r);
      const dims = { hook_event_name: g.hook_event_name, hook_name: g.hook_name, success: g.success };
      instruments.geminiCount.add(1, dims);
      instruments.geminiLatency.record(r.ms, dims);
    } else {
      const dims = {
        ...shared,
        'hookline.hook.name': own['hookline.hook.name'],
        ...(r.source ? { 'hookline.hook.source': r.source } : {}),
        'hookline.hook.decision': r.decision,
        ...(r.failure ? { 'error.type': r.failure } : {}),
      };
      // Sessions are not a metric dimension: one series per session would never end.
      delete (dims as Record<string, unknown>)['gen_ai.conversation.id'];
      delete (dims as Record<string, unknown>)['gen_ai.client.session_id'];
      instruments.runs.add(1, dims);
      instruments.duration.record(r.ms / 1000, dims);
    }
  }
  fire.end(end);
  if (naming === 'semconv')
    instruments.fires.add(1, { 'hookline.dialect': f.dialect, 'gen_ai.client.hook.event': f.event, 'hookline.event.decision': f.decision });
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
 * them pays nothing. Returns what to await before exiting: it stops the export, sending what is
 * left once (a flush before the shutdown would send the same metrics twice).
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
    await Promise.allSettled([tracing.shutdown(), metering.shutdown()]);
  };
}
