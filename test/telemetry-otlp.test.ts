// OTLP export: with OTEL_EXPORTER_OTLP_ENDPOINT set, `hookline fire` sends its hook spans and
// metrics to the collector before it exits. The collector here is a node:http server.
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

test('hookline fire exports a gemini_cli.hook_call span and hook metrics to an OTLP/HTTP collector', async (t) => {
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
  // The installed (bundled) command, cold and then from its compile cache: the SDK loads from
  // node_modules only now.
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

  const traces = received.filter((r) => r.url === '/v1/traces');
  const spans = traces.flatMap((r) => r.body.resourceSpans.flatMap((rs: any) => rs.scopeSpans.flatMap((ss: any) => ss.spans)));
  assert.equal(spans.length, 2, JSON.stringify(received.map((r) => r.url)));
  assert.equal(spans[0].name, 'gemini_cli.hook_call');
  const a = attrs(spans[0].attributes);
  assert.equal(a.hook_name, 'guard');
  assert.equal(a.hook_event_name, 'BeforeTool');
  assert.equal(a.hook_source, 'project');
  assert.equal(a.decision, 'deny');
  assert.equal(a.success, true);
  assert.equal(attrs(traces[0].body.resourceSpans[0].resource.attributes)['service.name'], 'hookline-test');

  const metrics = received
    .filter((r) => r.url === '/v1/metrics')
    .flatMap((r) => r.body.resourceMetrics.flatMap((rm: any) => rm.scopeMetrics.flatMap((sm: any) => sm.metrics)));
  const count = metrics.find((m: any) => m.name === 'hookline.hook_call.count');
  assert.ok(count, metrics.map((m: any) => m.name).join(', '));
  assert.equal(Number(count.sum.dataPoints[0].asInt ?? count.sum.dataPoints[0].asDouble), 1, 'one hook run per process');
  assert.ok(metrics.some((m: any) => m.name === 'hookline.hook_call.latency'));
});
