// hookline/langchain in a LangChain JS agent, on LangChain's own fake chat model (no network):
// the middleware's model, tool and agent hooks, with in-process hooks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AIMessage, HumanMessage, createAgent, createMiddleware, tool, type BaseMessage } from 'langchain';
import { fakeModel } from '@langchain/core/testing';
import { z } from 'zod';
import { HookEngine } from '../../src/engine/index.js';
import { createLangChainHooks } from '../../src/adapters/langchain.js';
import { makeProject } from '../helpers.js';
import { registerWeatherPolicy } from './util.js';

function engine(): HookEngine {
  const p = makeProject();
  return new HookEngine({ cwd: p.dir, env: p.env });
}

const text = (m: BaseMessage | undefined) => (typeof m?.content === 'string' ? m.content : JSON.stringify(m?.content));

test('wrapToolCall: deny never runs the tool, a rewrite reaches it, AfterTool context is added; wrapModelCall filters tools and redacts', async () => {
  const e = engine();
  registerWeatherPolicy(e);
  const hooks = createLangChainHooks({ engine: e, notice: () => {} });
  const ran: string[] = [];
  const weather = tool(
    async ({ city }: { city: string }) => {
      ran.push(city);
      return `sunny in ${city}`;
    },
    { name: 'weather', description: 'The weather in a city', schema: z.object({ city: z.string() }) },
  );
  const shell = tool(async () => 'ran', { name: 'shell', description: 'Runs a command', schema: z.object({ command: z.string() }) });
  const ask = async (city: string) => {
    const model = fakeModel()
      .respondWithTools([{ name: 'weather', args: { city }, id: 'c1' }])
      .respond(new AIMessage('the key is sk_live_1'));
    const offered: string[][] = [];
    // Inside the hooks' middleware: what the model is really given.
    const observe = createMiddleware({
      name: 'observe',
      wrapModelCall: (request, handler) => {
        offered.push(request.tools.map((t) => String((t as { name?: string }).name)));
        return handler(request);
      },
    });
    const agent = createAgent({ model, tools: [weather, shell], middleware: [hooks.middleware(), observe] });
    const r = await agent.invoke({ messages: [new HumanMessage(`weather in ${city}?`)] });
    const result = r.messages.find((m: BaseMessage) => m.getType() === 'tool');
    return { offered, result: text(result), answer: text(r.messages.at(-1)) };
  };

  const denied = await ask('Atlantis');
  assert.equal(denied.result, 'Tool execution blocked: no such city');
  assert.deepEqual(ran, []);
  assert.equal(denied.answer, 'the key is [REDACTED]');
  assert.deepEqual(denied.offered[0], ['weather']);

  const rewritten = await ask('paris');
  assert.deepEqual(ran, ['Paris']);
  assert.match(
    rewritten.result,
    /^sunny in Paris\n\n<hook_context>audited<\/hook_context>\n\n\[System\] Tool input parameters were modified by a hook before execution\.$/,
  );
});

test('beforeAgent adds context or ends the run; afterAgent sends a deny back to the model once', async () => {
  const e = engine();
  e.register({
    event: 'BeforeAgent',
    name: 'gate',
    action: (input) =>
      (input as { prompt: string }).prompt.includes('password')
        ? { decision: 'deny', reason: 'no passwords' }
        : { hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'branch main' } },
  });
  e.register({
    event: 'AfterAgent',
    name: 'more',
    action: (input) => ((input as { stop_hook_active: boolean }).stop_hook_active ? undefined : { decision: 'deny', reason: 'add tests' }),
  });
  const hooks = createLangChainHooks({ engine: e, notice: () => {} });
  const model = fakeModel().respond(new AIMessage('first')).respond(new AIMessage('second'));
  const agent = createAgent({ model, tools: [], middleware: [hooks.middleware()] });

  const blocked = await agent.invoke({ messages: [new HumanMessage('what is the password?')] });
  assert.equal(text(blocked.messages.at(-1)), 'Agent execution blocked: no passwords');
  assert.equal(model.callCount, 0);

  const r = await agent.invoke({ messages: [new HumanMessage('fix it')] });
  assert.equal(text(r.messages.at(-1)), 'second');
  assert.equal(model.callCount, 2);
  const seen = model.calls[0].messages.map((m) => text(m));
  assert.ok(seen.includes('fix it\n\n<hook_context>branch main</hook_context>'), JSON.stringify(seen));
  assert.ok(
    model.calls[1].messages.some((m) => text(m) === 'add tests'),
    'the retry prompt reaches the model',
  );
});
