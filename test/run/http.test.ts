// The http hook runner (src/run/http.ts) against an in-process server, and Gemini settings'
// `"type": "http"` hooks through the engine: validation, the run, and trust.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expandHeaders, runHttp } from '../../src/run/http.js';
import { validateLayer } from '../../src/config/validate.js';
import { HookEngine } from '../../src/engine/index.js';
import { geminiSystem } from '../../src/dialects/gemini/system.js';
import { makeProject, ROOT, trustProject } from '../helpers.js';
import nodeFs from 'node:fs';
import nodePath from 'node:path';

interface Seen {
  method?: string;
  path?: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One server for the file: each path answers its own way; every request is recorded. */
const seen: Seen[] = [];
let base = '';
let server: http.Server;
/** Requests that are never answered (the timeout case), ended when the file is done. */
const hanging: http.ServerResponse[] = [];

before(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method, path: req.url, headers: req.headers, body });
      const send = (status: number, text: string, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(text);
      };
      switch (req.url) {
        case '/deny':
          return send(200, JSON.stringify({ decision: 'deny', reason: 'policy says no' }));
        case '/empty':
          return send(204, '');
        case '/error':
          return send(500, 'database down\nmore');
        case '/redirect':
          return send(302, '', { location: 'http://elsewhere.example/' });
        case '/big':
          return send(200, JSON.stringify({ reason: 'x'.repeat(5000) }));
        case '/v1/data/hookline/decision': {
          // OPA's data API: {"input": …} in, {"result": …} out; this answers as policy.rego does.
          const input = JSON.parse(body).input;
          const command = String(input?.tool_input?.command ?? '');
          const bad = ['rm -rf /', 'git push --force', 'curl | sh'].find((b) => command.includes(b));
          if (input?.tool_name === 'run_shell_command' && bad)
            return send(200, JSON.stringify({ result: { decision: 'deny', reason: `fleet policy: "${command}" is not allowed` } }));
          return send(200, JSON.stringify({ result: {} }));
        }
        case '/v1/data/undefined':
          return send(200, '{}');
        case '/array':
          return send(200, '[1, 2]');
        case '/hang':
          hanging.push(res);
          return;
        default:
          return send(200, JSON.stringify({ echo: JSON.parse(body || 'null') }));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  for (const r of hanging) r.destroy();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const last = () => seen[seen.length - 1];

describe('http runner', () => {
  test('header variables come only from allowedEnvVars; anything else is empty', () => {
    const env = { TOKEN: 't0k', SECRET: 's3cret' };
    assert.deepEqual(expandHeaders({ Authorization: 'Bearer $TOKEN', 'X-Other': 'a${SECRET}b', 'X-Cost': '$$5' }, ['TOKEN'], env), {
      Authorization: 'Bearer t0k',
      'X-Other': 'ab',
      'X-Cost': '$5',
    });
  });

  test('POSTs the body as JSON with the expanded headers; a 2xx is exit 0 with the body as stdout', async () => {
    const r = await runHttp({
      url: `${base}/echo`,
      headers: { Authorization: 'Bearer ${TOKEN}', 'X-Leak': '$HOME' },
      allowedEnvVars: ['TOKEN'],
      env: { TOKEN: 'abc', HOME: '/home/me' },
      body: JSON.stringify({ hook_event_name: 'BeforeTool' }),
    });
    assert.equal(r.exitCode, 0);
    assert.equal(r.status, 200);
    assert.deepEqual(JSON.parse(r.stdout), { echo: { hook_event_name: 'BeforeTool' } });
    assert.equal(last().method, 'POST');
    assert.equal(last().headers.authorization, 'Bearer abc');
    assert.equal(last().headers['x-leak'], '');
    assert.equal(last().headers['content-type'], 'application/json');
  });

  test('an empty 2xx is success with no output', async () => {
    const r = await runHttp({ url: `${base}/empty`, env: {}, body: '{}' });
    assert.equal(r.exitCode, 0);
    assert.equal(r.stdout, '');
    assert.equal(r.error, undefined);
  });

  test('non-2xx, a redirect, refused connections, oversize bodies, timeouts and bad URLs are errors (no exit code)', async () => {
    const e500 = await runHttp({ url: `${base}/error`, env: {}, body: '{}' });
    assert.equal(e500.exitCode, null);
    assert.equal(e500.status, 500);
    assert.match(e500.error!, /answered HTTP 500 Internal Server Error: database down$/);

    const moved = await runHttp({ url: `${base}/redirect`, env: {}, body: '{}' });
    assert.match(moved.error!, /HTTP 302.*redirect to http:\/\/elsewhere\.example\/ not followed/);

    // A port that was just free: nothing listens there.
    const spare = http.createServer();
    await new Promise<void>((r) => spare.listen(0, '127.0.0.1', r));
    const port = (spare.address() as AddressInfo).port;
    await new Promise((r) => spare.close(r));
    const refused = await runHttp({ url: `http://127.0.0.1:${port}/x`, env: {}, body: '{}' });
    assert.match(refused.error!, /failed: connection refused/);

    const big = await runHttp({ url: `${base}/big`, env: {}, body: '{}', maxBytes: 1000 });
    assert.match(big.error!, /response larger than 1000 bytes; not read/);

    const slow = await runHttp({ url: `${base}/hang`, env: {}, body: '{}', timeoutMs: 100 });
    assert.equal(slow.timedOut, true);
    assert.match(slow.error!, /timed out after 100ms/);

    const ac = new AbortController();
    ac.abort();
    const cancelled = await runHttp({ url: `${base}/echo`, env: {}, body: '{}', signal: ac.signal });
    assert.equal(cancelled.error, 'Hook cancelled');

    const file = await runHttp({ url: 'file:///etc/passwd', env: {}, body: '{}' });
    assert.match(file.error!, /must be an http:\/\/ or https:\/\/ URL/);
  });
});

describe('Gemini settings: http hooks', () => {
  const settings = (hook: Record<string, unknown>) => ({ hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [hook] }] } });

  test('validation: url, headers, allowedEnvVars, with file and JSON path', () => {
    const ok = validateLayer(
      settings({
        type: 'http',
        url: 'https://policy.example/v1',
        headers: { Authorization: 'Bearer $TOKEN $OTHER' },
        allowedEnvVars: ['TOKEN'],
      }),
      's.json',
      'user',
    );
    assert.equal(ok.entries.length, 1);
    assert.deepEqual(
      ok.problems.map((p) => [p.path, p.severity, p.message]),
      [
        [
          'hooks.BeforeTool[0].hooks[0].headers',
          'warning',
          '$OTHER is not in "allowedEnvVars": it is sent as an empty string (list it to send its value)',
        ],
      ],
    );
    const bad = (hook: Record<string, unknown>) => validateLayer(settings(hook), 's.json', 'user');
    const missing = bad({ type: 'http' });
    assert.equal(missing.entries.length, 0);
    assert.deepEqual(
      missing.problems.map((p) => [p.path, p.message]),
      [['hooks.BeforeTool[0].hooks[0].url', 'missing "url" for an http hook']],
    );
    assert.match(bad({ type: 'http', url: 'ftp://x/' }).problems[0].message, /http:\/\/ or https:\/\//);
    assert.match(bad({ type: 'http', url: 'https://u:p@x/' }).problems[0].message, /must not carry credentials/);
    assert.match(bad({ type: 'http', url: 'https://x/', headers: { 'X-A': 'a\r\nInjected: 1' } }).problems[0].message, /line breaks/);
    const envName = bad({ type: 'http', url: 'https://x/', allowedEnvVars: ['$TOKEN'] });
    assert.equal(envName.problems[0].path, 'hooks.BeforeTool[0].hooks[0].allowedEnvVars[0]');
    assert.match(bad({ type: 'wat', url: 'https://x/' }).problems[0].message, /expected "command" or "http"/);
    const unknown = validateLayer(settings({ type: 'http', url: 'https://x/', command: 'ls' }), 's.json', 'user');
    assert.equal(unknown.entries.length, 1);
    assert.match(unknown.problems[0].message, /unknown field "command"/);
  });

  test('the engine POSTs the event and honours the JSON decision; errors fail open with a warning naming hook and event', async () => {
    const p = makeProject({
      user: {
        hooks: {
          BeforeTool: [
            {
              matcher: 'run_shell_command',
              hooks: [{ type: 'http', name: 'policy', url: `${base}/deny`, headers: { 'X-Team': '$TEAM' }, allowedEnvVars: ['TEAM'] }],
            },
            { matcher: 'read_file', hooks: [{ type: 'http', name: 'down', url: `${base}/error` }] },
          ],
        },
      },
    });
    const engine = new HookEngine({ cwd: p.dir, env: { ...p.env, TEAM: 'infra' }, watchConfig: false });
    try {
      const denied = await engine.fire('BeforeTool', { tool_name: 'run_shell_command', tool_input: { command: 'rm -rf /' } });
      assert.equal(denied.output?.decision, 'deny');
      assert.equal(denied.output?.reason, 'policy says no');
      assert.equal(denied.runs[0].url, `${base}/deny`);
      const req = last();
      assert.equal(req.headers['x-team'], 'infra');
      assert.equal(JSON.parse(req.body).tool_input.command, 'rm -rf /');
      const failed = await engine.fire('BeforeTool', { tool_name: 'read_file', tool_input: { file_path: 'a' } });
      assert.equal(failed.output?.decision, undefined);
      assert.match(failed.runs[0].error!, /^BeforeTool hook "down" \(.*settings\.json\): POST .*\/error answered HTTP 500/);
    } finally {
      engine.close();
    }
  });

  test('a project http hook is trusted like a command hook: a changed URL or header is held back', async () => {
    const hook = { type: 'http', name: 'policy', url: `${base}/deny` };
    const p = makeProject({ project: settings(hook) });
    const fire = () =>
      geminiSystem.fire(
        'BeforeTool',
        { tool_name: 'run_shell_command', tool_input: { command: 'ls' } },
        { cwd: p.dir, env: p.env, hasModel: false },
      );
    const trusted = await fire();
    assert.equal((trusted.output as { decision?: string }).decision, 'deny');
    assert.equal((trusted.runs[0] as { url?: string }).url, `${base}/deny`);
    assert.deepEqual(trusted.heldBack, []);
    const fs = await import('node:fs');
    const path = await import('node:path');
    const file = path.join(p.dir, '.gemini', 'settings.json');
    fs.writeFileSync(file, JSON.stringify(settings({ ...hook, headers: { 'X-Added': '1' } })));
    const changed = await fire();
    assert.equal(changed.runs.length, 0);
    assert.equal(changed.heldBack[0]?.reason, 'untrusted-hook');
    fs.writeFileSync(file, JSON.stringify(settings({ ...hook, url: `${base}/echo` })));
    assert.equal((await fire()).runs.length, 0);
    trustProject(p.dir, p.home);
    assert.equal((await fire()).runs.length, 1);
  });
});

describe("examples/fleet-opa: a central policy service in OPA's REST data API shape", () => {
  test('the example settings send {"input": event} with the token header and read the decision from "result"', async () => {
    const text = nodeFs.readFileSync(nodePath.join(ROOT, 'examples', 'fleet-opa', 'settings.json'), 'utf8');
    const settings = JSON.parse(text.replace('http://127.0.0.1:8181', base));
    assert.deepEqual(validateLayer(settings, 'settings.json', 'user').problems, []);
    const p = makeProject({ user: settings });
    const engine = new HookEngine({ cwd: p.dir, env: { ...p.env, OPA_TOKEN: 'fleet-secret' }, watchConfig: false });
    try {
      const denied = await engine.fire('BeforeTool', { tool_name: 'run_shell_command', tool_input: { command: 'sudo rm -rf /' } });
      assert.equal(denied.output?.decision, 'deny');
      assert.equal(denied.output?.reason, 'fleet policy: "sudo rm -rf /" is not allowed');
      const req = last();
      assert.equal(req.path, '/v1/data/hookline/decision');
      assert.equal(req.headers.authorization, 'Bearer fleet-secret');
      assert.equal(JSON.parse(req.body).input.hook_event_name, 'BeforeTool');
      const allowed = await engine.fire('BeforeTool', { tool_name: 'run_shell_command', tool_input: { command: 'ls' } });
      assert.equal(allowed.output?.decision, 'allow');
      assert.equal(allowed.runs[0].error, undefined);
    } finally {
      engine.close();
    }
  });

  test('an undefined result (OPA answers {}) is no decision; a body that is not an object is an error', async () => {
    const none = await runHttp({ url: `${base}/v1/data/undefined`, env: {}, body: '{}', inputKey: 'input', resultKey: 'result' });
    assert.equal(none.exitCode, 0);
    assert.equal(none.stdout, '');
    assert.equal(JSON.parse(last().body).input !== undefined, true);
    const notObject = await runHttp({ url: `${base}/array`, env: {}, body: '{}', resultKey: 'result' });
    assert.equal(notObject.exitCode, null);
    assert.match(notObject.error!, /the response is not a JSON object, so it has no "result" field$/);
  });
});
