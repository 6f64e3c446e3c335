// `hookline agent` on the `gemini:` provider, as Gemini CLI runs its hooks: the model's name and
// generation settings in `llm_request`, the response's end on the last AfterModel chunk, where
// SessionStart and BeforeAgent contexts reach the model, a BeforeModel config that unsets what it
// leaves out. The provider talks to a scripted Gemini-protocol server on loopback.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { agentProject, on, readJsonl, respond } from './e2e-util.js';
import { startModelServer, type Turn } from '../real-agents/model-server.js';

const specific = (event: string, fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: event, ...fields } });

/** A file for a hook's inputs, in a folder of its own. */
const logFile = (name: string) => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-gemini-cli-')), `${name}.jsonl`);
const gemini = (url: string) => ({ model: 'gemini:gemini-2.5-flash', env: { GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'test' } });

async function withServer<T>(turns: Turn[], f: (url: string, bodies: () => any[]) => Promise<T>): Promise<T> {
  const server = await startModelServer({ turns, isMain: (url) => url.includes(':streamGenerateContent') });
  try {
    return await f(server.url, () => server.requests.map((r) => r.body));
  } finally {
    await server.close();
  }
}

describe('hookline agent --model gemini:… as Gemini CLI', () => {
  test('llm_request names the model alone and carries Gemini CLI’s generation settings; the last chunk says how it ended', async () => {
    await withServer([{ text: 'one line' }], async (url, bodies) => {
      const before = logFile('before');
      const after = logFile('after');
      const p = agentProject({ hooks: { BeforeModel: on(respond(before)), AfterModel: on(respond(after)) } });
      const r = await p.run({ prompt: 'hi', ...gemini(url) });
      assert.equal(r.code, 0, r.stderr);
      const [bm] = readJsonl(before);
      assert.equal(bm.llm_request.model, 'gemini-2.5-flash');
      assert.deepEqual(bm.llm_request.config, { temperature: 1, topP: 0.95, topK: 64 });
      assert.deepEqual(
        {
          temperature: bodies()[0].generationConfig.temperature,
          topP: bodies()[0].generationConfig.topP,
          topK: bodies()[0].generationConfig.topK,
        },
        { temperature: 1, topP: 0.95, topK: 64 },
        'the settings hooks read are the ones sent',
      );
      const chunks = readJsonl(after).map((i) => i.llm_response);
      assert.deepEqual(chunks.at(-1), {
        text: 'one line',
        candidates: [{ content: { role: 'model', parts: ['one line'] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      });
    });
  });

  test('a BeforeModel config sets all four generation settings: the ones it leaves out are not sent', async () => {
    await withServer([{ text: 'ok' }], async (url, bodies) => {
      const log = logFile('after');
      const cool = respond(null, specific('BeforeModel', { llm_request: { config: { temperature: 0.2 } } }));
      const p = agentProject({ hooks: { BeforeModel: on(cool), AfterModel: on(respond(log)) } });
      const r = await p.run({ prompt: 'hi', ...gemini(url) });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(readJsonl(log)[0].llm_request.config, { temperature: 0.2 });
      const sent = bodies()[0].generationConfig;
      assert.equal(sent.temperature, 0.2);
      assert.equal(sent.topP, undefined);
      assert.equal(sent.topK, undefined);
    });
  });

  test('in -p a SessionStart context comes before the prompt in <hook_context>, a BeforeAgent context is a part of its own', async () => {
    await withServer([{ text: 'ok' }], async (url, bodies) => {
      const model = logFile('model');
      const after = logFile('after');
      const p = agentProject({
        hooks: {
          SessionStart: on(respond(null, specific('SessionStart', { additionalContext: 'from start' }))),
          BeforeAgent: on(respond(null, specific('BeforeAgent', { additionalContext: 'from prompt' }))),
          BeforeModel: on(respond(model)),
          AfterAgent: on(respond(after)),
        },
      });
      const r = await p.run({ prompt: 'go', ...gemini(url) });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(
        bodies()[0].contents[0].parts.map((x: any) => x.text),
        ['<hook_context>from start</hook_context>\n\ngo', '<hook_context>from prompt</hook_context>'],
      );
      assert.deepEqual(readJsonl(model)[0].llm_request.messages, [
        { role: 'user', content: '<hook_context>from start</hook_context>\n\ngo<hook_context>from prompt</hook_context>' },
      ]);
      assert.equal(readJsonl(after)[0].prompt, '<hook_context>from start</hook_context>\n\ngo');
    });
  });
});
