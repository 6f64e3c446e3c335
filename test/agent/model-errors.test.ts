// A wrong --model is one line in the error shape: what is wrong, then the fix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createModel } from '../../src/agent/models/providers.js';

const message = (spec: string, env: NodeJS.ProcessEnv = {}) => {
  try {
    createModel({ spec, env });
  } catch (e) {
    return (e as Error).message;
  }
  assert.fail(`${spec} was accepted`);
};

test('model errors say what is wrong and how to fix it', () => {
  assert.equal(message('bogus:x'), 'unknown model "bogus:x" — use scripted:FILE, openai-compatible:MODEL, gemini:MODEL or anthropic:MODEL');
  assert.equal(
    message('scripted:/no/such/script.jsonl'),
    '/no/such/script.jsonl: model script not found — check the path given to --model scripted:FILE',
  );
  assert.equal(message('scripted'), '--model scripted: no file — give one: --model scripted:FILE');
  assert.equal(message('anthropic:x'), '--model anthropic: no API key — set ANTHROPIC_API_KEY');
});
