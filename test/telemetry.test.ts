// OpenTelemetry through a host's own SDK: each fired event is a span with a child per hook run,
// carrying event, hook system, hook, source, tool, decision, exit code and failure cause, and the
// metrics count runs by decision. Real SDK, in memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { metrics, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { HookEngine } from '../src/engine/index.js';
import { systemNamed } from '../src/dialects/registry.js';
import { telemetryFlushed, type HookEndEvent } from '../src/telemetry.js';
import { cmd, makeProject } from './helpers.js';

async function withSdk(body: (spans: InMemorySpanExporter, read: () => Promise<any[]>) => Promise<void>, env: NodeJS.ProcessEnv = {}) {
  const spans = new InMemorySpanExporter();
  const tracing = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const exported = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: exported, exportIntervalMillis: 3_600_000 });
  const metering = new MeterProvider({ readers: [reader] });
  trace.setGlobalTracerProvider(tracing);
  metrics.setGlobalMeterProvider(metering);
  const saved = process.env.HOOKLINE_OTEL_NAMING;
  if (env.HOOKLINE_OTEL_NAMING) process.env.HOOKLINE_OTEL_NAMING = env.HOOKLINE_OTEL_NAMING;
  try {
    await body(spans, async () => {
      await reader.forceFlush();
      return exported.getMetrics().flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics));
    });
  } finally {
    if (saved === undefined) delete process.env.HOOKLINE_OTEL_NAMING;
    else process.env.HOOKLINE_OTEL_NAMING = saved;
    await tracing.shutdown();
    await metering.shutdown();
    trace.disable();
    metrics.disable();
  }
}

const guarded = () =>
  makeProject({
    project: {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              cmd(`cat >/dev/null; echo '{"decision":"deny","reason":"no"}'`, { name: 'guard' }),
              cmd('sleep 5', { name: 'slow', timeout: 300 }),
            ],
          },
        ],
      },
    },
  });

test('a fired event is one span with a child per hook run, with event, tool, decision, exit code and failure', async () => {
  await withSdk(async (spans, read) => {
    const p = guarded();
    const engine = new HookEngine({ cwd: p.dir, env: p.env, sessionId: 'tel-1' });
    const ends: HookEndEvent[] = [];
    engine.on('hookEnd', (e) => ends.push(e));
    await engine.fire('BeforeTool', { tool_name: 'run_shell_command', tool_input: { command: 'ls' } });
    engine.close();
    await telemetryFlushed();
    assert.equal(ends.length, 2, 'hookEnd still fires for each run');
    const all = spans.getFinishedSpans();
    assert.deepEqual(all.map((s) => s.name).sort(), [
      'gen_ai.client.hook.BeforeTool',
      'hookline.hook.run BeforeTool',
      'hookline.hook.run BeforeTool',
    ]);
    const fire = all.find((s) => s.name === 'gen_ai.client.hook.BeforeTool')!;
    const runs = all.filter((s) => s !== fire);
    for (const r of runs) {
      assert.equal(r.parentSpanContext?.spanId, fire.spanContext().spanId, 'each run is a child of its fire');
      assert.equal(r.spanContext().traceId, fire.spanContext().traceId);
    }
    assert.deepEqual(fire.attributes, {
      'gen_ai.client.name': 'hookline',
      'hookline.dialect': 'gemini',
      'gen_ai.client.hook.event': 'BeforeTool',
      'gen_ai.conversation.id': 'tel-1',
      'gen_ai.client.session_id': 'tel-1',
      'gen_ai.tool.name': 'run_shell_command',
      'gen_ai.client.tool_name': 'run_shell_command',
      'hookline.event.decision': 'deny',
      'hookline.event.hooks': 2,
      'gen_ai.client.workspace': p.dir,
    });
    const guard = runs.find((s) => s.attributes['hookline.hook.name'] === 'guard')!;
    assert.equal(guard.attributes['hookline.hook.source'], 'project');
    assert.equal(guard.attributes['hookline.hook.decision'], 'deny');
    assert.equal(guard.attributes['process.exit.code'], 0);
    assert.equal(guard.attributes['error.type'], undefined);
    assert.equal(guard.attributes['gen_ai.tool.name'], 'run_shell_command');
    const slow = runs.find((s) => s.attributes['hookline.hook.name'] === 'slow')!;
    assert.equal(slow.attributes['error.type'], 'timeout');
    assert.equal(slow.attributes['hookline.hook.timed_out'], true);
    assert.equal(slow.status.code, 2, 'a failed run is an error span');
    // The fire spans its runs.
    const ms = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6;
    assert.ok(ms(fire.startTime) <= Math.min(...runs.map((r) => ms(r.startTime))));
    assert.ok(ms(fire.endTime) >= Math.max(...runs.map((r) => ms(r.endTime))));

    const m = await read();
    const runsMetric = m.find((x) => x.descriptor.name === 'hookline.hook.runs');
    const points = runsMetric.dataPoints.map((d: any) => [
      d.attributes['hookline.hook.name'],
      d.attributes['hookline.hook.decision'],
      d.attributes['error.type'] ?? null,
      d.value,
    ]);
    assert.deepEqual(points.sort(), [
      ['guard', 'deny', null, 1],
      ['slow', 'error', 'timeout', 1],
    ]);
    assert.ok(
      runsMetric.dataPoints.every((d: any) => d.attributes['gen_ai.conversation.id'] === undefined),
      'no session dimension',
    );
    const duration = m.find((x) => x.descriptor.name === 'hookline.hook.duration');
    assert.equal(duration.descriptor.unit, 's');
    const fires = m.find((x) => x.descriptor.name === 'hookline.event.fires');
    assert.deepEqual(fires.dataPoints[0].attributes, {
      'hookline.dialect': 'gemini',
      'gen_ai.client.hook.event': 'BeforeTool',
      'hookline.event.decision': 'deny',
    });
  });
});

test('another hook system records the same way: a Claude Code PreToolUse is a span of its own dialect', async () => {
  await withSdk(async (spans) => {
    const p = makeProject();
    const fs = await import('node:fs');
    const path = await import('node:path');
    fs.mkdirSync(path.join(p.dir, '.claude'), { recursive: true });
    fs.writeFileSync(
      path.join(p.dir, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo blocked >&2; exit 2' }] }] } }),
    );
    const { trustProject } = await import('./helpers.js');
    trustProject(p.dir, p.home);
    const claude = await systemNamed('claude');
    await claude.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } }, { cwd: p.dir, env: p.env, hasModel: false });
    await telemetryFlushed();
    const fire = spans.getFinishedSpans().find((s) => s.name === 'gen_ai.client.hook.PreToolUse');
    assert.ok(
      fire,
      spans
        .getFinishedSpans()
        .map((s) => s.name)
        .join(', '),
    );
    assert.equal(fire.attributes['hookline.dialect'], 'claude');
    assert.equal(fire.attributes['gen_ai.tool.name'], 'Bash');
    const run = spans.getFinishedSpans().find((s) => s.parentSpanContext?.spanId === fire.spanContext().spanId)!;
    assert.equal(run.attributes['process.exit.code'], 2);
    assert.equal(run.attributes['hookline.hook.decision'], 'deny');
  });
});

test('HOOKLINE_OTEL_NAMING=gemini: run spans and metrics under Gemini CLI’s names', async () => {
  await withSdk(
    async (spans, read) => {
      const p = guarded();
      const engine = new HookEngine({ cwd: p.dir, env: p.env });
      await engine.fire('BeforeTool', { tool_name: 'run_shell_command', tool_input: { command: 'ls' } });
      engine.close();
      await telemetryFlushed();
      const runs = spans.getFinishedSpans().filter((s) => s.name === 'gemini_cli.hook_call');
      assert.equal(runs.length, 2);
      const guard = runs.find((s) => s.attributes.hook_name === 'guard')!;
      assert.equal(guard.attributes.hook_event_name, 'BeforeTool');
      assert.equal(guard.attributes.success, true);
      assert.equal(guard.attributes.exit_code, 0);
      assert.equal(runs.find((s) => s.attributes.hook_name === 'slow')!.attributes.success, false);
      const names = (await read()).map((x) => x.descriptor.name).sort();
      assert.deepEqual(names, ['gemini_cli.hook_call.count', 'gemini_cli.hook_call.latency']);
    },
    { HOOKLINE_OTEL_NAMING: 'gemini' },
  );
});
