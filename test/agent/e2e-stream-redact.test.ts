// End to end: an AfterModel hook that redacts secrets is not defeated by where the model's
// stream splits a secret. Streamed text reaches AfterModel hooks and the screen in whole lines
// (src/agent/coalesce.ts).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { tmpFile } from '../helpers.js';
import { agentProject, fixture, on, readJsonl, respond } from './e2e-util.js';

describe('AfterModel and streaming', () => {
  test('a secret split across two streamed deltas is redacted: sk-SE + CRET never reaches the user', async () => {
    const afterModel = tmpFile('after-model.jsonl');
    const afterAgent = tmpFile('after-agent.jsonl');
    const p = agentProject({
      hooks: { AfterModel: on([fixture('e2e-redact-sk.mjs'), respond(afterModel)]), AfterAgent: on(respond(afterAgent)) },
    });
    const r = await p.run({ prompt: 'key?', script: [{ chunks: ['The key is sk-SE', 'CRET123 and that is all.\n', 'Bye'] }] });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /CRET/, 'no part of the secret is shown');
    assert.equal(r.stdout, 'The key is [REDACTED] and that is all.\nBye\n');
    assert.equal(readJsonl(afterAgent)[0].prompt_response, 'The key is [REDACTED] and that is all.\nBye');
    // The hooks saw whole lines: the first one with the whole key, and the rest at the end.
    const seen = readJsonl(afterModel).map((i) => i.llm_response.candidates[0].content.parts.join(''));
    assert.deepEqual(seen, ['The key is sk-SECRET123 and that is all.\n', 'Bye']);
  });
});
