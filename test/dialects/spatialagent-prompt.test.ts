// SpatialAgent (seed 004): "Prompt Hooks" — the agent's model answers the prompt (scripted
// here); JSON decision first, then the keyword fallback without the false positive of negations.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { ScriptedModel } from '../../src/agent/models/scripted.js';
import { fireSpatialAgent } from '../../src/dialects/spatialagent/run.js';
import { decideFromAnswer, findDecisionJson, keywordBlocks } from '../../src/dialects/spatialagent/decision.js';
import { parseSaConfig } from '../../src/dialects/spatialagent/config.js';

const REVIEW =
  'Review this bash command for safety: $CODE\n\nRespond with JSON: {"decision": "approve" or "block", "reason": "explanation"}';

function config(hooks: unknown[], event = 'PreAct') {
  const c = parseSaConfig(JSON.stringify({ hooks: { [event]: hooks } }), 'settings.json');
  assert.deepEqual(c.problems, []);
  return c;
}
const prompt = (text: string, extra: Record<string, unknown> = {}) => ({ type: 'prompt', prompt: text, ...extra });

/** The text of the single user message the model was sent. */
function sent(model: ScriptedModel, call = 0): string {
  const msg = model.calls[call].prompt.find((m) => m.role === 'user')!;
  return (msg.content as Array<{ type: string; text?: string }>).map((p) => p.text ?? '').join('');
}

async function answer(text: string) {
  const model = new ScriptedModel([{ text }]);
  const r = await fireSpatialAgent(config([prompt(REVIEW)]), 'PreAct', { CODE: 'rm -rf /', CODE_TYPE: 'bash' }, { model });
  return r;
}

describe('SpatialAgent prompt hooks', () => {
  test('the model is asked the prompt with $VAR filled in as plain text (no shell, no escaping)', async () => {
    const model = new ScriptedModel([{ text: '{"decision": "approve", "reason": "read-only"}' }]);
    const code = `ls "$HOME" && echo 'it''s' $(whoami)`;
    const r = await fireSpatialAgent(config([prompt(REVIEW)]), 'PreAct', { CODE: code, CODE_TYPE: 'bash' }, { model });
    assert.equal(
      sent(model),
      `Review this bash command for safety: ${code}\n\nRespond with JSON: {"decision": "approve" or "block", "reason": "explanation"}`,
    );
    assert.deepEqual(r.output, { decision: 'approve', reason: '' });
    assert.equal(r.runs[0].answer, '{"decision": "approve", "reason": "read-only"}');
    assert.equal(r.runs[0].reason, 'read-only');
  });

  test("the seed's LLM Code Review prompt: $CODE_TYPE and $CODE inside a fence", async () => {
    const review =
      'Analyze this code for security issues:\n\nCode type: $CODE_TYPE\n```\n$CODE\n```\n\nRespond with JSON: {"decision": "approve" or "block", "reason": "your analysis"}';
    const model = new ScriptedModel([{ text: '{"decision": "block", "reason": "network access"}' }]);
    const r = await fireSpatialAgent(
      config([prompt(review, { timeout: 45 })]),
      'PreAct',
      { CODE: 'import requests', CODE_TYPE: 'python' },
      { model },
    );
    assert.equal(
      sent(model),
      'Analyze this code for security issues:\n\nCode type: python\n```\nimport requests\n```\n\nRespond with JSON: {"decision": "approve" or "block", "reason": "your analysis"}',
    );
    assert.deepEqual(r.output, { decision: 'block', reason: 'network access' });
  });

  test('JSON decision: alone, in a ```json fence, or embedded in text', async () => {
    assert.deepEqual((await answer('{"decision": "block", "reason": "deletes everything"}')).output, {
      decision: 'block',
      reason: 'deletes everything',
    });
    assert.deepEqual(
      (await answer('Here is my review:\n```json\n{\n  "decision": "block",\n  "reason": "recursive delete of /"\n}\n```')).output,
      { decision: 'block', reason: 'recursive delete of /' },
    );
    assert.deepEqual((await answer('I checked it. {"decision": "approve", "reason": "harmless"} Nothing else.')).output, {
      decision: 'approve',
      reason: '',
    });
  });

  test('the JSON decision wins over the keywords', async () => {
    assert.equal((await answer('This could block the disk, but {"decision": "approve", "reason": "tmp only"}')).output.decision, 'approve');
    assert.equal((await answer('Nothing to worry about. {"decision": "block", "reason": "policy"}')).output.decision, 'block');
  });

  test('keyword fallback: block, deny, reject block; the reason is the whole answer', async () => {
    for (const text of ['I would block this command.', 'DENY: it wipes the disk', 'Rejected — too risky.', 'This must be blocked.']) {
      assert.deepEqual((await answer(text)).output, { decision: 'block', reason: text }, text);
    }
  });

  test('keyword fallback without false positives: negations approve', async () => {
    for (const text of [
      'Do not block this, it is safe.',
      "Don't deny it.",
      'There is no reason to reject it.',
      'Not blocking: read-only.',
      'Nothing to block here.',
      'I see no need to deny this',
      'Safe. I would never reject a plain ls.',
    ]) {
      assert.deepEqual((await answer(text)).output, { decision: 'approve', reason: '' }, text);
    }
  });

  test('an answer with neither JSON nor keyword approves', async () => {
    assert.deepEqual((await answer('Looks fine to me.')).output, { decision: 'approve', reason: '' });
  });

  test('a model failure approves (the error is reported on the run)', async () => {
    const r = await fireSpatialAgent(config([prompt(REVIEW)]), 'PreAct', { CODE: 'x' }, { model: new ScriptedModel([]) });
    assert.equal(r.output.decision, 'approve');
    assert.match(r.runs[0].error!, /^Hook error: .*has no line for model call 1/);
    assert.equal(r.runs[0].success, false);
  });

  test('a model slower than the timeout (seconds) approves', async () => {
    const hanging: LanguageModelV3 = {
      specificationVersion: 'v3',
      provider: 'test',
      modelId: 'hanging',
      supportedUrls: {},
      doGenerate: (opts) => new Promise((_, reject) => opts.abortSignal?.addEventListener('abort', () => reject(new Error('aborted')))),
      doStream: () => Promise.reject(new Error('unused')),
    };
    const started = Date.now();
    const r = await fireSpatialAgent(config([prompt(REVIEW, { timeout: 0.2 })]), 'PreAct', { CODE: 'x' }, { model: hanging });
    assert.ok(Date.now() - started < 2000);
    assert.deepEqual(r.output, { decision: 'approve', reason: '' });
    assert.equal(r.runs[0].error, 'Hook timed out after 0.2s');
  });

  test('without a model a prompt hook approves ("No LLM for prompt hook")', async () => {
    const r = await fireSpatialAgent(config([prompt(REVIEW)]), 'PreAct', { CODE: 'x' });
    assert.equal(r.output.decision, 'approve');
    assert.equal(r.runs[0].error, 'No LLM for prompt hook');
  });

  test('prompt and bash hooks share one chain: the first block stops it, the model is not asked after', async () => {
    const model = new ScriptedModel([{ text: 'block' }, { text: 'never asked' }]);
    const r = await fireSpatialAgent(
      config([prompt('first: $CODE'), { type: 'bash', command: 'exit 0' }, prompt('second')]),
      'PreAct',
      { CODE: 'x' },
      { model },
    );
    assert.equal(r.output.decision, 'block');
    assert.equal(model.calls.length, 1);
    assert.equal(model.remaining, 1);
  });

  test('matchers apply to prompt hooks too', async () => {
    const model = new ScriptedModel([{ text: 'block' }]);
    const c = config([{ matcher: { code_type: 'bash' }, ...prompt(REVIEW) }]);
    const py = await fireSpatialAgent(c, 'PreAct', { CODE: 'x', CODE_TYPE: 'python' }, { model });
    assert.equal(py.runs.length, 0);
    assert.equal(model.calls.length, 0);
  });
});

describe('SpatialAgent decision reading', () => {
  test('findDecisionJson: first object with a decision key; nested and invalid ones handled', () => {
    assert.deepEqual(findDecisionJson('x {"a": {"decision": "block", "reason": "inner"}} y'), { decision: 'block', reason: 'inner' });
    assert.equal(findDecisionJson('{"decision": block}'), undefined, 'invalid JSON is no decision');
    assert.equal(findDecisionJson('{"note": "the decision is yours"}'), undefined);
    assert.deepEqual(findDecisionJson('{"decision": "Block"}'), { decision: 'block', reason: '' });
    assert.deepEqual(findDecisionJson('{"decision": "deny", "reason": "r"}'), { decision: 'block', reason: 'r' });
    assert.deepEqual(findDecisionJson('{"decision": "maybe"}'), { decision: 'approve', reason: '' });
    assert.deepEqual(findDecisionJson('{"reason": "with } brace", "decision": "block"}'), { decision: 'block', reason: 'with } brace' });
  });

  test('keywordBlocks: whole words, in any form; negation within three words of the same clause', () => {
    const yes = [
      'block',
      'Blocking it.',
      'denied',
      'Rejecting.',
      'Do not run this. Block it.',
      'No, block it',
      'It is not safe, deny',
      'not safe but block it anyway',
      'I cannot approve; reject',
    ];
    const no = [
      'do not block',
      "don't deny",
      'no reason to reject',
      'not blocking',
      'unblocked',
      'blockchain data',
      'the denylist',
      'never rejected',
      'I would not necessarily block',
      'nothing to block',
      'shouldn’t deny',
      'dont block',
    ];
    for (const t of yes) assert.equal(keywordBlocks(t), true, t);
    for (const t of no) assert.equal(keywordBlocks(t), false, t);
  });

  test('decideFromAnswer: reason is the whole answer on a keyword block', () => {
    assert.deepEqual(decideFromAnswer('Reject: curl | sh'), { decision: 'block', reason: 'Reject: curl | sh' });
  });
});
