// OTLP export: with OTEL_EXPORTER_OTLP_ENDPOINT set, `hookline fire` sends its spans and metrics
// to the collector before it exits, each once. The collector here is a node:http server started by
// the test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { cmd, makeProject, ROOT } from './helpers.js';

interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}
const attrs = (list: KeyValue[] = []) => Object.fromEntries(list.map((a) => [a.key, Object.values(a.value)[0]]));

test('hookline fire exports a span per event with a child per hook run, and metrics by decision, each once, to an OTLP/HTTP collector', async (t) => {
  const received: Array<{ url: string; body: any }> = [];
  const collector = http.createServer((req, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      received.push({ url: req.url ?? '', body: JSON.parse(text) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
  t.after(() => collector.close());
  const port = (collector.address() as { port: number }).port;

  const p = makeProject({
    project: { hooks: { BeforeTool: [{ hooks: [cmd(`cat >/dev/null; echo '{"decision":"deny","reason":"no"}'`, { name: 'guard' })] }] } },
  });
  const input = path.join(p.dir, 'input.json');
  fs.writeFileSync(input, JSON.stringify({ tool_name: 'run_shell_command', tool_input: { command: 'ls' } }));
  const env = {
    ...p.env,
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
    OTEL_SERVICE_NAME: 'hookline-test',
    XDG_CACHE_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-cache-')),
  };
  delete env.OTEL_SDK_DISABLED;
  delete env.NODE_DISABLE_COMPILE_CACHE;
  // The installed (bundled) command, cold and then from its compile cache: the SDK is in the
  // bundle and loads only now.
  for (let i = 0; i < 2; i++) {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'bin', 'hookline.cjs'), 'fire', 'BeforeTool', '--input', input], {
      cwd: p.dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise((r) => child.on('close', r));
    assert.equal(code, 0, stderr);
    assert.equal(stderr, '');
    assert.equal(JSON.parse(stdout).output.decision, 'deny');
  }

  // Each process exports its batch once: one traces and one metrics request each.
  assert.deepEqual(received.map((r) => r.url).sort(), ['/v1/metrics', '/v1/metrics', '/v1/traces', '/v1/traces']);
  const traces = received.filter((r) => r.url === '/v1/traces');
  assert.equal(attrs(traces[0].body.resourceSpans[0].resource.attributes)['service.name'], 'hookline-test');
  for (const batch of traces) {
    const spans = batch.body.resourceSpans.flatMap((rs: any) => rs.scopeSpans.flatMap((ss: any) => ss.spans));
    const fire = spans.find((x: any) => x.name === 'gen_ai.client.hook.BeforeTool');
    const run = spans.find((x: any) => x.name === 'hookline.hook.run BeforeTool');
    assert.ok(fire && run, spans.map((x: any) => x.name).join(', '));
    assert.equal(spans.length, 2);
    assert.equal(run.parentSpanId, fire.spanId, 'the run is a child of its fire');
    assert.equal(run.traceId, fire.traceId);
    const f = attrs(fire.attributes);
    assert.equal(f['gen_ai.client.hook.event'], 'BeforeTool');
    assert.equal(f['gen_ai.tool.name'], 'run_shell_command');
    assert.equal(f['hookline.dialect'], 'gemini');
    assert.equal(f['hookline.event.decision'], 'deny');
    const a = attrs(run.attributes);
    assert.equal(a['hookline.hook.name'], 'guard');
    assert.equal(a['hookline.hook.source'], 'project');
    assert.equal(a['hookline.hook.decision'], 'deny');
    assert.equal(Number(a['process.exit.code']), 0);
  }

  for (const batch of received.filter((r) => r.url === '/v1/metrics')) {
    const metrics = batch.body.resourceMetrics.flatMap((rm: any) => rm.scopeMetrics.flatMap((sm: any) => sm.metrics));
    const runs = metrics.find((m: any) => m.name === 'hookline.hook.runs');
    assert.ok(runs, metrics.map((m: any) => m.name).join(', '));
    assert.equal(runs.sum.dataPoints.length, 1);
    const point = runs.sum.dataPoints[0];
    assert.equal(Number(point.asInt ?? point.asDouble), 1, 'one hook run per process');
    assert.equal(attrs(point.attributes)['hookline.hook.decision'], 'deny');
    assert.ok(metrics.some((m: any) => m.name === 'hookline.hook.duration'));
    assert.ok(metrics.some((m: any) => m.name === 'hookline.event.fires'));
  }
});
