// End to end: BeforeModel / AfterModel / BeforeToolSelection hooks around the model calls of
// `hookline agent`, the scripted model's failures, and the openai-compatible provider.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { tmpFile } from '../helpers.js';
import { agentProject, fixture, on, readJsonl, respond, texts, toolResults } from './e2e-util.js';

const readA = { toolCalls: [{ name: 'read_file', args: { file_path: 'a.txt' } }] };

describe('BeforeModel', () => {
  test('an llm_request override rewrites what the model receives (messages and config)', async () => {
    const log = tmpFile('before-model.jsonl');
    const override = {
      hookSpecificOutput: {
        hookEventName: 'BeforeModel',
        llm_request: {
          messages: [{ role: 'user', content: 'Rewritten: say hello in French' }],
          config: { temperature: 0.25, maxOutputTokens: 64 },
        },
      },
    };
    const p = agentProject({ hooks: { BeforeModel: on(respond(log, override)) } });
    const r = await p.run({ prompt: 'say hello', script: [{ text: 'Bonjour' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(texts(r.calls[0], 'user'), ['Rewritten: say hello in French']);
    assert.equal(r.calls[0].temperature, 0.25);
    assert.equal(r.calls[0].maxOutputTokens, 64);
    const [input] = readJsonl(log);
    assert.deepEqual(input.llm_request.messages, [{ role: 'user', content: 'say hello' }]);
    assert.match(r.stdout, /Bonjour/);
  });

  test('deny with llm_response: no model call is made and the synthetic text is the answer', async () => {
    const afterAgent = tmpFile('after-agent.jsonl');
    const synthetic = {
      decision: 'deny',
      reason: 'answered from the cache',
      hookSpecificOutput: {
        hookEventName: 'BeforeModel',
        llm_response: { candidates: [{ content: { role: 'model', parts: ['From the cache: 42'] }, finishReason: 'STOP' }] },
      },
    };
    const p = agentProject({ hooks: { BeforeModel: on(respond(null, synthetic)), AfterAgent: on(respond(afterAgent)) } });
    // An empty script: any real model call would fail the run.
    const r = await p.run({ prompt: 'what is the answer?', script: [] });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.calls.length, 0, 'the model was not called');
    assert.equal(r.stdout.trim(), 'From the cache: 42');
    assert.equal(readJsonl(afterAgent)[0].prompt_response, 'From the cache: 42');
  });

  test('continue:false stops the turn before the model is called', async () => {
    const p = agentProject({ hooks: { BeforeModel: on(respond(null, { continue: false, stopReason: 'out of credits' })) } });
    const r = await p.run({ prompt: 'hi', script: [] });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.calls.length, 0);
    assert.match(r.stderr, /^Agent execution stopped: out of credits$/m);
  });

  test('deny without a response blocks the call and ends the turn', async () => {
    const p = agentProject({ hooks: { BeforeModel: on(respond(null, '', 2, 'model budget exhausted')) } });
    const r = await p.run({ prompt: 'hi', script: [] });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.calls.length, 0);
    assert.match(r.stderr, /model budget exhausted/);
  });
});

describe('AfterModel', () => {
  test('llm_response replaces a streamed chunk: the redaction is what the user sees', async () => {
    const afterAgent = tmpFile('after-agent.jsonl');
    const p = agentProject({ hooks: { AfterModel: on(fixture('e2e-redact.mjs')), AfterAgent: on(respond(afterAgent)) } });
    const r = await p.run({
      prompt: 'config?',
      script: [{ chunks: ['The port is 8080.\n', 'The key is sk_live_4f9a8b7c.\n', 'Nothing else.\n'] }],
      args: ['--display-hooks'],
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'The port is 8080.\nThe key is [REDACTED].\nNothing else.\n');
    assert.equal(r.hookLines.filter((l) => / AfterModel · /.test(l)).length, 3, 'AfterModel fires on every chunk');
    assert.equal(readJsonl(afterAgent)[0].prompt_response, 'The port is 8080.\nThe key is [REDACTED].\nNothing else.\n');
  });

  test('deny discards the response and ends the turn', async () => {
    const p = agentProject({ hooks: { AfterModel: on(respond(null, { decision: 'deny', reason: 'policy violation' })) } });
    const r = await p.run({ prompt: 'plan', script: [{ text: 'the secret plan' }, { text: 'never used' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /secret plan/);
    assert.match(r.stderr, /policy violation/);
    assert.equal(r.calls.length, 1);
  });
});

describe('BeforeToolSelection', () => {
  test('mode NONE: no tools are offered to the model', async () => {
    const p = agentProject({
      hooks: {
        BeforeToolSelection: on(
          respond(null, { hookSpecificOutput: { hookEventName: 'BeforeToolSelection', toolConfig: { mode: 'NONE' } } }),
        ),
      },
    });
    const r = await p.run({ prompt: 'hi', script: [{ text: 'no tools today' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.calls[0].tools?.length ?? 0, 0);
    assert.equal(r.calls[0].toolChoice?.type, 'none');
  });

  test('without a hook every tool is offered', async () => {
    const p = agentProject({});
    const r = await p.run({ prompt: 'hi', script: [{ text: 'ok' }], args: ['--approval-mode', 'yolo'] });
    const offered = r.calls[0].tools ?? [];
    for (const t of ['glob', 'list_directory', 'read_file', 'replace', 'run_shell_command', 'search_file_content', 'write_file'])
      assert.ok(offered.includes(t), `${t} in ${offered}`);
    assert.equal(r.calls[0].toolChoice?.type, 'auto');
  });

  test('an allow-list (union over hooks) limits the tools offered, and a tool outside it is refused', async () => {
    const only = (names: string[], mode = 'ANY') =>
      respond(null, { hookSpecificOutput: { hookEventName: 'BeforeToolSelection', toolConfig: { mode, allowedFunctionNames: names } } });
    const p = agentProject({ hooks: { BeforeToolSelection: on([only(['read_file']), only(['glob'], 'AUTO')]) } });
    const r = await p.run({
      prompt: 'look',
      script: [{ toolCalls: [{ name: 'write_file', args: { file_path: 'x.txt', content: 'x' } }] }, { text: 'ok' }],
      args: ['--approval-mode', 'yolo'],
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual([...(r.calls[0].tools ?? [])].sort(), ['glob', 'read_file']);
    assert.equal(r.calls[0].toolChoice?.type, 'required', 'any ANY gives ANY');
    assert.equal(fs.existsSync(path.join(p.dir, 'x.txt')), false);
    assert.match(toolResults(r.calls[1])[0].value, /not available/);
  });
});

describe('the scripted model', () => {
  test('running out of lines is a clear error and exit status 1', async () => {
    const p = agentProject({});
    fs.writeFileSync(path.join(p.dir, 'a.txt'), 'x');
    const r = await p.run({ prompt: 'read', script: [readA] });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /the model script .* has no line for model call 2 \(it has 1 line\)/);
  });
});

/** An OpenAI chat-completions server that answers each request with the next canned SSE stream. */
function openAiServer(answers: Array<Array<Record<string, unknown>>>): Promise<{ url: string; requests: any[]; close: () => void }> {
  const requests: any[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      requests.push(JSON.parse(body));
      const deltas = answers[requests.length - 1] ?? [{ content: 'no more answers' }];
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const chunk = (choice: Record<string, unknown>) =>
        res.write(
          `data: ${JSON.stringify({ id: `chatcmpl-${requests.length}`, object: 'chat.completion.chunk', created: 1, model: 'test-model', choices: [{ index: 0, ...choice }] })}\n\n`,
        );
      deltas.forEach((delta, i) => chunk({ delta: i === 0 ? { role: 'assistant', ...delta } : delta, finish_reason: null }));
      chunk({ delta: {}, finish_reason: deltas.some((d) => d.tool_calls) ? 'tool_calls' : 'stop' });
      res.write(
        `data: ${JSON.stringify({ id: 'u', object: 'chat.completion.chunk', created: 1, model: 'test-model', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`,
      );
      res.end('data: [DONE]\n\n');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests, close: () => server.close() }),
    ),
  );
}

describe('the openai-compatible provider', () => {
  const answers = [
    [
      { tool_calls: [{ index: 0, id: 'call_abc', type: 'function', function: { name: 'read_file', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"file_path":' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '"a.txt"}' } }] },
    ],
    [{ content: 'The file says ' }, { content: 'hello from a.txt.' }],
  ];

  test('a tool call then text over streamed chat completions, with hooks on both; --record replays', async () => {
    const server = await openAiServer(answers);
    try {
      const before = tmpFile('before-tool.jsonl');
      const afterModel = tmpFile('after-model.jsonl');
      const record = tmpFile('recorded.jsonl');
      const p = agentProject({ hooks: { BeforeTool: on(respond(before)), AfterModel: on(respond(afterModel)) } });
      fs.writeFileSync(path.join(p.dir, 'a.txt'), 'hello from a.txt\n');
      const r = await p.run({
        prompt: 'what does a.txt say?',
        model: 'openai-compatible:test-model',
        args: ['--base-url', server.url, '--record', record],
        env: { HOOKLINE_API_KEY: '', OPENAI_API_KEY: '' },
      });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'The file says hello from a.txt.\n');

      assert.equal(server.requests.length, 2);
      const [first, second] = server.requests;
      assert.equal(first.model, 'test-model');
      assert.equal(first.stream, true);
      assert.ok(first.tools.some((t: any) => t.function.name === 'read_file'));
      assert.deepEqual(
        first.messages.filter((m: any) => m.role === 'user').map((m: any) => m.content),
        ['what does a.txt say?'],
      );
      const call = second.messages.find((m: any) => m.role === 'assistant' && m.tool_calls);
      assert.equal(call.tool_calls[0].id, 'call_abc');
      assert.equal(call.tool_calls[0].function.name, 'read_file');
      assert.deepEqual(JSON.parse(call.tool_calls[0].function.arguments), { file_path: 'a.txt' });
      const result = second.messages.find((m: any) => m.role === 'tool');
      assert.equal(result.tool_call_id, 'call_abc');
      assert.match(result.content, /hello from a\.txt/);

      const [bt] = readJsonl(before);
      assert.equal(bt.tool_name, 'read_file');
      assert.deepEqual(bt.tool_input, { file_path: 'a.txt' });
      const chunks = readJsonl(afterModel).map((i) => i.llm_response.text);
      // Streamed text reaches AfterModel hooks as whole lines.
      assert.deepEqual(chunks, ['', 'The file says hello from a.txt.']);

      // The recording replays to the same answer with no server.
      assert.deepEqual(readJsonl(record), [
        { toolCalls: [{ name: 'read_file', args: { file_path: 'a.txt' } }] },
        { text: 'The file says hello from a.txt.' },
      ]);
      const replay = await p.run({ prompt: 'what does a.txt say?', model: `scripted:${record}` });
      assert.equal(replay.code, 0, replay.stderr);
      assert.equal(replay.stdout, r.stdout);
      assert.match(toolResults(replay.calls[1])[0].value, /hello from a\.txt/);
      assert.equal(server.requests.length, 2, 'the replay did not touch the server');
    } finally {
      server.close();
    }
  });

  test('a BeforeModel hook that names another model switches the provider to it', async () => {
    const server = await openAiServer([[{ content: 'from the bigger model' }]]);
    try {
      const swap = respond(null, { hookSpecificOutput: { hookEventName: 'BeforeModel', llm_request: { model: 'bigger-model:70b' } } });
      const p = agentProject({ hooks: { BeforeModel: on(swap) } });
      const r = await p.run({
        prompt: 'hi',
        model: 'openai-compatible:test-model',
        args: ['--base-url', server.url],
        env: { HOOKLINE_API_KEY: '', OPENAI_API_KEY: '' },
      });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(server.requests[0].model, 'bigger-model:70b');
      assert.equal(r.stdout, 'from the bigger model\n');
    } finally {
      server.close();
    }
  });

  test('a server error is reported and the run exits 1', async () => {
    const server = http.createServer((_req, res) =>
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"model not loaded"}}'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const p = agentProject({});
      const r = await p.run({
        prompt: 'hi',
        model: 'openai-compatible:test-model',
        args: ['--base-url', `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`],
      });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /model not loaded/);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'reported once, without a stack trace');
    } finally {
      server.close();
    }
  });
});
