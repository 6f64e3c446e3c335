// hookline/openai-agents in an OpenAI Agents JS app, on a local stub model (no network): the
// model wrapper, the tool wrapper and the guardrails, with in-process hooks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Agent,
  InputGuardrailTripwireTriggered,
  Usage,
  run,
  setTracingDisabled,
  tool,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type StreamEvent,
} from '@openai/agents';
import { z } from 'zod';
import { HookEngine } from '../../src/engine/index.js';
import { createAgentsHooks } from '../../src/adapters/openai-agents.js';
import { makeProject } from '../helpers.js';
import { registerWeatherPolicy } from './util.js';

setTracingDisabled(true);

const message = (text: string) => ({
  type: 'message' as const,
  role: 'assistant' as const,
  status: 'completed' as const,
  content: [{ type: 'output_text' as const, text }],
});

/** A stub model: the given answers in order (a tool call, or text), each request kept. */
class StubModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(private readonly answers: Array<{ call: Record<string, unknown> } | { text: string }>) {}
  private next(request: ModelRequest): ModelResponse {
    this.requests.push(request);
    const a = this.answers[this.requests.length - 1] ?? { text: 'no more answers' };
    const output =
      'call' in a
        ? [
            {
              type: 'function_call' as const,
              callId: `c${this.requests.length}`,
              name: 'weather',
              arguments: JSON.stringify(a.call),
              status: 'completed' as const,
            },
          ]
        : [message(a.text)];
    return { usage: new Usage(), output };
  }
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    return this.next(request);
  }
  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const r = this.next(request);
    const text = r.output.map((o) => (o.type === 'message' ? (o.content[0] as { text: string }).text : '')).join('');
    for (const piece of text.match(/.{1,4}/gs) ?? []) yield { type: 'output_text_delta', delta: piece };
    yield { type: 'response_done', response: { id: 'r', usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, output: r.output } };
  }
}

function engine(): HookEngine {
  const p = makeProject();
  return new HookEngine({ cwd: p.dir, env: p.env });
}

function toolOutput(request: ModelRequest): string {
  const items = request.input as Array<{ type?: string; output?: unknown }>;
  const result = items.find((i) => i.type === 'function_call_result');
  const o = result?.output as { type: string; text: string } | string | undefined;
  return typeof o === 'string' ? o : (o?.text ?? '');
}

test('tools: BeforeTool denies or rewrites, AfterTool adds context; the model wrapper filters tools and redacts the answer', async () => {
  const e = engine();
  registerWeatherPolicy(e);
  const hooks = createAgentsHooks({ engine: e, notice: () => {} });
  const ran: string[] = [];
  const weather = tool({
    name: 'weather',
    description: 'The weather in a city',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      ran.push(city);
      return `sunny in ${city}`;
    },
  });
  const shell = tool({
    name: 'shell',
    description: 'Runs a command',
    parameters: z.object({ command: z.string() }),
    execute: async () => 'ran',
  });
  const ask = async (city: string, stream = false) => {
    const model = new StubModel([{ call: { city } }, { text: 'the key is sk_live_1\nbye' }]);
    const agent = new Agent({ name: 'helper', instructions: 'be brief', model: hooks.model(model), tools: hooks.tools([weather, shell]) });
    let finalOutput: unknown;
    if (stream) {
      const r = await run(agent, `weather in ${city}?`, { stream: true });
      for await (const _ of r) {
        // drained
      }
      await r.completed;
      finalOutput = r.finalOutput;
    } else finalOutput = (await run(agent, `weather in ${city}?`)).finalOutput;
    return { model, finalOutput };
  };

  const denied = await ask('Atlantis');
  assert.equal(toolOutput(denied.model.requests[1]), 'Tool execution blocked: no such city');
  assert.deepEqual(ran, []);
  assert.deepEqual(
    denied.model.requests[0].tools.map((t) => (t.type === 'function' ? t.name : t.type)),
    ['weather'],
  );
  assert.equal(denied.finalOutput, 'the key is [REDACTED]\nbye');

  const rewritten = await ask('paris', true);
  assert.deepEqual(ran, ['Paris']);
  assert.match(
    toolOutput(rewritten.model.requests[1]),
    /^sunny in Paris\n\n<hook_context>audited<\/hook_context>\n\n\[System\] Tool input parameters were modified by a hook before execution\.$/,
  );
  assert.equal(rewritten.finalOutput, 'the key is [REDACTED]\nbye', 'the streamed answer is redacted too');
});

test('guardrails: a BeforeAgent deny trips the input guardrail; a BeforeModel synthetic answer replaces the model', async () => {
  const e = engine();
  e.register({
    event: 'BeforeAgent',
    name: 'no-secrets',
    action: (input) =>
      (input as { prompt: string }).prompt.includes('password') ? { decision: 'deny', reason: 'no passwords' } : undefined,
  });
  e.register({
    event: 'BeforeModel',
    name: 'cache',
    action: () => ({
      decision: 'deny',
      reason: 'cached',
      hookSpecificOutput: {
        hookEventName: 'BeforeModel',
        llm_response: { candidates: [{ content: { role: 'model', parts: ['from cache'] } }] },
      },
    }),
  });
  const hooks = createAgentsHooks({ engine: e, notice: () => {} });
  const model = new StubModel([{ text: 'from the model' }]);
  const agent = new Agent({
    name: 'helper',
    model: hooks.model(model),
    inputGuardrails: [hooks.inputGuardrail],
    outputGuardrails: [hooks.outputGuardrail],
  });
  await assert.rejects(run(agent, 'what is the password?'), InputGuardrailTripwireTriggered);
  const r = await run(agent, 'hello');
  assert.equal(r.finalOutput, 'from cache');
  assert.equal(model.requests.length, 0, 'the model is never called');
});
