import { test } from 'node:test';
import assert from 'node:assert/strict';
import { trace, metrics, type Span, type Tracer, type TracerProvider, type Attributes } from '@opentelemetry/api';
import { HookEngine } from '../src/engine/index.js';
import { telemetryFlushed, type HookEndEvent } from '../src/telemetry.js';
import { cmd, makeProject } from './helpers.js';

interface Recorded {
  name: string;
  attributes: Attributes;
  status?: { code: number; message?: string };
}

/** A minimal tracer provider that records the spans the engine starts. */
function recordingProvider(spans: Recorded[]): TracerProvider {
  const tracer = {
    startSpan(name: string, opts?: { attributes?: Attributes }): Span {
      const rec: Recorded = { name, attributes: { ...(opts?.attributes ?? {}) } };
      spans.push(rec);
      const span = {
        setStatus(s: { code: number; message?: string }) {
          rec.status = s;
          return span;
        },
        end() {},
      };
      return span as unknown as Span;
    },
  } as unknown as Tracer;
  return { getTracer: () => tracer };
}

test('each hook run is a gemini_cli.hook_call span once an OpenTelemetry provider is registered, and a hookEnd event', async () => {
  const spans: Recorded[] = [];
  trace.setGlobalTracerProvider(recordingProvider(spans));
  try {
    const p = makeProject({
      project: {
        hooks: {
          BeforeTool: [{ hooks: [cmd(`echo '{"decision":"deny","reason":"no"}'`, { name: 'guard' }), cmd('exit 3', { name: 'broken' })] }],
        },
      },
    });
    const engine = new HookEngine({ cwd: p.dir, env: p.env });
    const ends: HookEndEvent[] = [];
    engine.on('hookEnd', (e) => ends.push(e));
    await engine.fire('BeforeTool', { tool_name: 'run_shell_command', tool_input: { command: 'ls' } });
    // The API is loaded on first use; the first records arrive once it has loaded.
    await telemetryFlushed();
    assert.deepEqual(ends.map((e) => [e.name, e.event, e.source, e.exitCode, e.decision ?? null]).sort(), [
      ['broken', 'BeforeTool', 'project', 3, null],
      ['guard', 'BeforeTool', 'project', 0, 'deny'],
    ]);
    assert.equal(spans.length, 2);
    assert.ok(spans.every((s) => s.name === 'gemini_cli.hook_call'));
    const guard = spans.find((s) => s.attributes.hook_name === 'guard')!;
    assert.equal(guard.attributes.hook_event_name, 'BeforeTool');
    assert.equal(guard.attributes.decision, 'deny');
    assert.equal(guard.attributes.success, true);
    const broken = spans.find((s) => s.attributes.hook_name === 'broken')!;
    assert.equal(broken.attributes.exit_code, 3);
    assert.equal(broken.status?.code, 2, 'a failed run is an error span');
  } finally {
    trace.disable();
    metrics.disable();
  }
});
