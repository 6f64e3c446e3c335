// hookline/sdk's builders: each gives an output the engine aggregates and the appliers act on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import * as sdk from '../src/sdk/index.js';
import { aggregate } from '../src/decide/aggregate.js';
import {
  applyAfterAgent,
  applyAfterModel,
  applyAfterTool,
  applyBeforeAgent,
  applyBeforeModel,
  applyBeforeTool,
  applyToolSelection,
} from '../src/apply/index.js';
import type { LLMRequest, LLMResponse } from '../src/events/model.js';

const args = { command: 'ls', dir_path: 'src' };
const request: LLMRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
const chunk: LLMResponse = { candidates: [{ content: { role: 'model', parts: ['sk_live_secret'] } }] };

test('tool builders: deny, ask, stop, rewriteToolInput, tailToolCall, addContext', () => {
  assert.deepEqual(applyBeforeTool(aggregate('BeforeTool', [sdk.deny('nope')]), args), {
    action: 'deny',
    message: 'Tool execution blocked: nope',
    systemMessage: undefined,
  });
  assert.equal(applyBeforeTool(aggregate('BeforeTool', [sdk.ask('confirm?')]), args).action, 'ask');
  assert.equal(applyBeforeTool(aggregate('BeforeTool', [sdk.stop('enough')]), args).action, 'stop');
  assert.deepEqual(applyBeforeTool(aggregate('BeforeTool', [sdk.allow(), sdk.rewriteToolInput({ command: 'ls -la' })]), args), {
    action: 'run',
    args: { command: 'ls -la', dir_path: 'src' },
    inputModified: true,
    systemMessage: undefined,
  });
  const after = applyAfterTool(
    aggregate('AfterTool', [sdk.tailToolCall('read_file', { file_path: 'a' }), sdk.addContext('AfterTool', 'ctx')]),
    'out',
  );
  assert.deepEqual(after, {
    action: 'keep',
    llmContent: 'out\n\n<hook_context>ctx</hook_context>',
    tail: { name: 'read_file', args: { file_path: 'a' } },
    systemMessage: undefined,
  });
});

test('model and agent builders: syntheticResponse, replaceResponse, selectTools, retry, message', () => {
  const synthetic = applyBeforeModel(aggregate('BeforeModel', [sdk.syntheticResponse('cached answer')]), request);
  assert.equal(synthetic.action, 'block');
  assert.deepEqual((synthetic as { response?: LLMResponse }).response?.candidates[0].content.parts, ['cached answer']);
  const replaced = applyAfterModel(aggregate('AfterModel', [sdk.replaceResponse('[REDACTED]')]), chunk);
  assert.deepEqual(replaced.action === 'replace' && replaced.response.candidates[0].content.parts, ['[REDACTED]']);
  assert.deepEqual(applyToolSelection(aggregate('BeforeToolSelection', [sdk.selectTools('ANY', ['glob'])]), ['glob', 'read_file']), {
    mode: 'ANY',
    allowed: ['glob'],
  });
  assert.deepEqual(applyAfterAgent(aggregate('AfterAgent', [sdk.retry('run the tests')]), 0), {
    action: 'retry',
    prompt: 'run the tests',
    clearContext: false,
    systemMessage: undefined,
  });
  assert.deepEqual(applyBeforeAgent(aggregate('BeforeAgent', [sdk.message('hello'), sdk.addContext('BeforeAgent', 'ctx')])), {
    action: 'proceed',
    context: 'ctx',
    systemMessage: 'hello',
  });
});

test('defineHook one-shot: reads the event, prints the output; prints nothing for no answer', async () => {
  const run = async (handler: sdk.Handler, input: unknown) => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (d) => (out += d));
    const done = sdk.defineHook(handler, { stdin, stdout, stderr: new PassThrough(), persistent: false });
    stdin.end(JSON.stringify(input));
    await done;
    return out;
  };
  const event = { hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'rm -rf /' } };
  const out = await run(
    (i) => (i.hook_event_name === 'BeforeTool' && String(i.tool_input.command).includes('rm') ? sdk.deny('no') : undefined),
    event,
  );
  assert.deepEqual(JSON.parse(out), { decision: 'deny', reason: 'no' });
  assert.equal(await run(() => undefined, event), '');
});

test('defineHook persistent: answers each line in order, ends with its input; a read error fails it; a paused or ended input does not hang', async () => {
  const start = (stdin: PassThrough) => {
    const stdout = new PassThrough();
    const lines: unknown[] = [];
    let buf = '';
    stdout.on('data', (d) => {
      buf += d;
      for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
        lines.push(JSON.parse(buf.slice(0, nl)));
        buf = buf.slice(nl + 1);
      }
    });
    const done = sdk.defineHook(
      async (i) => {
        // The first answer is the slowest: order still follows the requests.
        const n = Number((i as { n?: number }).n);
        await new Promise((r) => setTimeout(r, n === 1 ? 30 : 0));
        return sdk.message(`saw ${n}`);
      },
      { stdin, stdout, stderr: new PassThrough(), persistent: true },
    );
    return { done, lines };
  };
  const input = new PassThrough();
  const a = start(input);
  // Split mid-line across writes, as a pipe may deliver it.
  input.write('{"id":1,"input":{"n":1}}\n{"id":2,"in');
  input.end('put":{"n":2}}\n');
  await a.done;
  assert.deepEqual(a.lines, [
    { hookline: 'ready', concurrent: false },
    { id: 1, output: { systemMessage: 'saw 1' } },
    { id: 2, output: { systemMessage: 'saw 2' } },
  ]);

  const failing = new PassThrough();
  const b = start(failing);
  failing.destroy(new Error('EIO: read failed'));
  await assert.rejects(b.done, /EIO: read failed/);

  const paused = new PassThrough();
  paused.pause();
  const c = start(paused);
  paused.end('{"id":7,"input":{"n":7}}\n');
  await c.done;
  assert.deepEqual(c.lines.at(-1), { id: 7, output: { systemMessage: 'saw 7' } });

  const ended = new PassThrough();
  ended.end();
  ended.resume();
  await new Promise((r) => ended.once('end', r));
  await start(ended).done;
});
