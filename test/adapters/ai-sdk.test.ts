// hookline/ai-sdk in an AI SDK app: the middleware and the tool wrapper on a mock model, with
// in-process hooks for the effects and one real hook process from the folder's settings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateText, jsonSchema, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { HookEngine } from '../../src/engine/index.js';
import { HookStop, createHooks } from '../../src/adapters/ai-sdk.js';
import { cmd, hook, makeProject } from '../helpers.js';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const stop = { unified: 'stop' as const, raw: 'stop' };

function streamOf(deltas: string[]): { stream: ReadableStream<LanguageModelV3StreamPart> } {
  const parts: LanguageModelV3StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...deltas.map((delta) => ({ type: 'text-delta' as const, id: 't', delta })),
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: stop, usage },
  ];
  return {
    stream: new ReadableStream({
      start(c) {
        for (const p of parts) c.enqueue(p);
        c.close();
      },
    }),
  };
}

/** First a call of `weather`, then a text answer. */
function toolThenText(args: Record<string, unknown>): MockLanguageModelV3 {
  const answers: LanguageModelV3GenerateResult[] = [
    {
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: JSON.stringify(args) }],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage,
      warnings: [],
    },
    { content: [{ type: 'text', text: 'done' }], finishReason: stop, usage, warnings: [] },
  ];
  return new MockLanguageModelV3({ doGenerate: answers });
}

/** An engine on an empty project (no settings hooks), for in-process hooks. */
function engine(): HookEngine {
  const p = makeProject();
  return new HookEngine({ cwd: p.dir, env: p.env });
}

function toolResultText(call: LanguageModelV3CallOptions): string {
  const m = call.prompt.find((x) => x.role === 'tool');
  const part = m?.role === 'tool' ? m.content[0] : undefined;
  if (part?.type !== 'tool-result') return '';
  const o = part.output;
  return o.type === 'text' || o.type === 'error-text' ? o.value : JSON.stringify(o);
}

test('the middleware: BeforeModel rewrites the request, AfterModel redacts whole lines however the stream splits them', async () => {
  const e = engine();
  const seen: unknown[] = [];
  e.register({
    event: 'BeforeModel',
    name: 'rewrite',
    action: (input) => {
      seen.push((input as { llm_request: unknown }).llm_request);
      return { hookSpecificOutput: { hookEventName: 'BeforeModel', llm_request: { messages: [{ role: 'user', content: 'rewritten' }] } } };
    },
  });
  e.register({
    event: 'AfterModel',
    name: 'redact',
    action: (input) => {
      const text = (input as { llm_response: { text: string } }).llm_response.text;
      if (!/sk_\w+/.test(text)) return undefined;
      const parts = [text.replace(/sk_\w+/g, '[REDACTED]')];
      return { hookSpecificOutput: { hookEventName: 'AfterModel', llm_response: { candidates: [{ content: { role: 'model', parts } }] } } };
    },
  });
  const hooks = createHooks({ engine: e, notice: () => {} });
  const mock = new MockLanguageModelV3({ modelId: 'mock-1', doStream: streamOf(['the key is sk_SE', 'CRET\nbye']) });
  const model = wrapLanguageModel({ model: mock, middleware: hooks.middleware() });
  const r = streamText({ model, system: 'be brief', prompt: 'original', temperature: 0.5 });
  assert.equal(await r.text, 'the key is [REDACTED]\nbye');
  assert.deepEqual(seen, [{ model: 'mock-1', messages: [{ role: 'user', content: 'original' }], config: { temperature: 0.5 } }]);
  const sent = mock.doStreamCalls[0].prompt;
  assert.deepEqual(sent[0], { role: 'system', content: 'be brief' });
  assert.deepEqual(sent[1].content, [{ type: 'text', text: 'rewritten' }]);
});

test('BeforeToolSelection restricts the tools the model is offered; a BeforeModel deny with a response answers instead of the model', async () => {
  const e = engine();
  e.register({
    event: 'BeforeToolSelection',
    name: 'only-weather',
    action: () => ({ hookSpecificOutput: { hookEventName: 'BeforeToolSelection', toolConfig: { allowedFunctionNames: ['weather'] } } }),
  });
  const hooks = createHooks({ engine: e, notice: () => {} });
  const mock = new MockLanguageModelV3({
    doGenerate: { content: [{ type: 'text', text: 'ok' }], finishReason: stop, usage, warnings: [] },
  });
  const schema = jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } } });
  await generateText({
    model: wrapLanguageModel({ model: mock, middleware: hooks.middleware() }),
    prompt: 'hi',
    tools: { weather: tool({ inputSchema: schema }), shell: tool({ inputSchema: schema }) },
  });
  assert.deepEqual(
    mock.doGenerateCalls[0].tools?.map((t) => t.name),
    ['weather'],
  );

  e.register({
    event: 'BeforeModel',
    name: 'cached',
    action: () => ({
      decision: 'deny',
      reason: 'cached',
      hookSpecificOutput: {
        hookEventName: 'BeforeModel',
        llm_response: { candidates: [{ content: { role: 'model', parts: ['from cache'] } }] },
      },
    }),
  });
  const r = await generateText({ model: wrapLanguageModel({ model: mock, middleware: hooks.middleware() }), prompt: 'hi' });
  assert.equal(r.text, 'from cache');
  assert.equal(r.providerMetadata?.hookline?.synthetic, true);
  assert.equal(mock.doGenerateCalls.length, 1, 'the model is not called');
});

test('the tool wrapper: deny never runs the tool; a rewrite reaches it; AfterTool context is added; ask without a way to ask refuses', async () => {
  const e = engine();
  e.register({
    event: 'BeforeTool',
    name: 'policy',
    action: (input) => {
      const city = (input as { tool_input: { city: string } }).tool_input.city;
      if (city === 'Atlantis') return { decision: 'deny', reason: 'no such city' };
      if (city === 'Paris') return { decision: 'ask', systemMessage: 'Paris needs a yes' };
      if (city === 'paris') return { hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { city: 'Paris' } } };
      return undefined;
    },
  });
  e.register({
    event: 'AfterTool',
    name: 'context',
    action: () => ({ hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'checked by policy' } }),
  });
  const hooks = createHooks({ engine: e, notice: () => {} });
  const ran: unknown[] = [];
  const weather = tool({
    inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
    execute: async ({ city }) => {
      ran.push(city);
      return `sunny in ${city}`;
    },
  });
  const run = async (city: string, confirm?: () => Promise<boolean>) => {
    const mock = toolThenText({ city });
    await generateText({ model: mock, prompt: 'weather?', tools: hooks.tools({ weather }, { confirm }), stopWhen: stepCountIs(2) });
    return toolResultText(mock.doGenerateCalls[1]);
  };

  assert.equal(await run('Atlantis'), 'Tool execution blocked: no such city');
  assert.deepEqual(ran, []);
  // As in Gemini CLI, the rewrite's note follows the result after the after-tool hooks' context.
  assert.match(
    await run('paris', async () => true),
    /^sunny in Paris\n\n<hook_context>checked by policy<\/hook_context>\n\n\[System\] Tool input parameters were modified by a hook before execution\.$/,
  );
  assert.match(await run('paris', async () => true), /<hook_context>checked by policy<\/hook_context>\n\n\[System\]/);
  assert.deepEqual(ran, ['Paris', 'Paris']);
  assert.match(await run('Paris'), /needs the user's approval/);
  assert.match(await run('Paris', async () => false), /declined/);
  assert.deepEqual(ran, ['Paris', 'Paris']);
});

test('turn(): BeforeAgent context reaches the prompt, an AfterAgent deny runs the turn again with its reason', async () => {
  const e = engine();
  e.register({
    event: 'BeforeAgent',
    name: 'ctx',
    action: () => ({ hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'branch main' } }),
  });
  e.register({
    event: 'AfterAgent',
    name: 'once-more',
    action: (input) => ((input as { stop_hook_active: boolean }).stop_hook_active ? undefined : { decision: 'deny', reason: 'add tests' }),
  });
  const hooks = createHooks({ engine: e, notice: () => {} });
  const prompts: string[] = [];
  const out = await hooks.turn('fix it', async (prompt) => {
    prompts.push(prompt);
    return `answer ${prompts.length}`;
  });
  assert.deepEqual(out, { status: 'done', text: 'answer 2' });
  assert.deepEqual(prompts, [
    'fix it\n\n<hook_context>branch main</hook_context>',
    'add tests\n\n<hook_context>branch main</hook_context>',
  ]);
});

test('the folder’s configured command hooks run as processes; an untrusted folder runs none', async () => {
  const settings = {
    hooks: { BeforeTool: [{ hooks: [cmd(`${hook('e2e-respond.sh')} - '{"decision":"deny","reason":"from settings"}'`)] }] },
  };
  const weather = tool({
    inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } } }),
    execute: async () => 'sunny',
  });
  for (const trusted of [true, false]) {
    const p = makeProject({ project: settings, trusted });
    const hooks = createHooks({ cwd: p.dir, env: p.env, notice: () => {} });
    const mock = toolThenText({ city: 'Oslo' });
    await generateText({ model: mock, prompt: 'weather?', tools: hooks.tools({ weather }), stopWhen: stepCountIs(2) });
    assert.equal(toolResultText(mock.doGenerateCalls[1]), trusted ? 'Tool execution blocked: from settings' : 'sunny');
    hooks.close();
  }
});

test('a hook that refuses the answer or stops the agent ends the call with a HookStop; stopWhen: hooks.stopped ends the run', async () => {
  const e = engine();
  e.register({ event: 'AfterModel', name: 'refuse', action: () => ({ decision: 'deny', reason: 'not this answer' }) });
  e.register({ event: 'BeforeTool', name: 'halt', action: () => ({ continue: false, stopReason: 'enough' }) });
  const hooks = createHooks({ engine: e, notice: () => {} });
  const mock = new MockLanguageModelV3({ doStream: streamOf(['secret\n']) });
  const r = streamText({ model: wrapLanguageModel({ model: mock, middleware: hooks.middleware() }), prompt: 'hi', onError: () => {} });
  const errors: unknown[] = [];
  let text = '';
  for await (const part of r.fullStream) {
    if (part.type === 'error') errors.push(part.error);
    if (part.type === 'text-delta') text += part.text;
  }
  assert.equal(text, '', 'the refused chunk never reaches the app');
  assert.ok(errors[0] instanceof HookStop && errors[0].status === 'blocked' && errors[0].reason === 'not this answer', String(errors[0]));

  const weather = tool({ inputSchema: jsonSchema<{ city: string }>({ type: 'object' }), execute: async () => 'sunny' });
  const model = toolThenText({ city: 'Oslo' });
  const run = await generateText({ model, prompt: 'weather?', tools: hooks.tools({ weather }), stopWhen: [hooks.stopped, stepCountIs(5)] });
  assert.equal(model.doGenerateCalls.length, 1, 'no model call after the stop');
  const stopped = run.steps[0].content.find((c) => c.type === 'tool-error');
  assert.ok(stopped && stopped.type === 'tool-error' && String(stopped.error).includes('Agent execution stopped by hook: enough'));
});
