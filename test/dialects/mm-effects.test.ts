// mm (seed 002): the exact texts of "Effets sur le tour", as the agent will use them.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as fx from '../../src/dialects/mm/effects.js';
import { mmDisplayLine, mmFailureLine } from '../../src/dialects/mm/display.js';

describe('mm effect texts', () => {
  test('contexts: each introduced by [context added by a hook], after the text', () => {
    assert.equal(fx.CONTEXT_HEADER, '[context added by a hook]');
    assert.equal(fx.mmToolOutput('out', ['c']), 'out\n\n[context added by a hook]\nc');
    assert.equal(fx.mmModelPrompt('q', []), 'q');
    assert.equal(fx.mmModelPrompt('q', ['a', 'b']), 'q\n\n[context added by a hook]\na\n\n[context added by a hook]\nb');
    assert.equal(fx.mmAskAnswer('answer', ['n']), 'answer\n\n[context added by a hook]\nn');
  });

  test('preToolCall deny: the output, the line-mode line and the window title', () => {
    assert.equal(fx.mmDeniedOutput('not here'), '[denied by a hook: not here]');
    assert.equal(fx.mmDeniedLine('bash', 'not here'), '🪝 bash [denied by a hook: not here]');
    assert.equal(fx.mmDeniedTitle('bash', { command: 'rm -rf build' }), 'bash: rm -rf build — denied by a hook');
    assert.equal(fx.mmDeniedTitle('write_file', { path: 'src/a.ts', content: 'x' }), 'write_file: src/a.ts — denied by a hook');
    assert.equal(fx.mmDeniedTitle('fetch', { url: 'https://example.com' }), 'fetch: https://example.com — denied by a hook');
    assert.equal(fx.mmDeniedTitle('ask_agent', { agent: 'expert', question: 'q' }), 'ask_agent: expert — denied by a hook');
    assert.equal(fx.mmDeniedTitle('list_tools', {}), 'list_tools — denied by a hook');
    const long = fx.mmDeniedTitle('bash', { command: 'x'.repeat(100) });
    assert.equal([...long.slice('bash: '.length, long.indexOf(' — '))].length, 60, '60 characters at most');
  });

  test('preAsk deny: ask_agent output and line, /ask error, mm --ask stderr', () => {
    assert.equal(fx.mmAskDeniedOutput('busy'), '[ask denied by a hook: busy]');
    assert.equal(fx.mmAskDeniedLine('busy'), '🪝 ask_agent [ask denied by a hook: busy]');
    assert.equal(fx.mmAskDeniedCommandError('busy'), 'ask denied by a hook: busy');
    assert.equal(fx.mmAskDeniedCliLine('busy'), '[ask: ask denied by a hook: busy]');
  });

  test('preGeneration stop: history marker with and without a reason, and the default response', () => {
    assert.equal(fx.mmPromptBlocked('secret'), '[prompt blocked by a hook: secret]');
    assert.equal(fx.mmPromptBlocked(''), '[prompt blocked by a hook]');
    assert.equal(fx.mmStopResponse(undefined, 'secret'), '⛔ This request was blocked by a hook: secret');
    assert.equal(
      fx.mmStopResponse(' ', fx.mmHookFailedReason('exit status 1: x')),
      '⛔ This request was blocked by a hook: hook failed: exit status 1: x',
    );
  });

  test('postAsk: the /ask answer label, the replacement notice and the ask_agent summary', () => {
    assert.equal(fx.mmAskAnswerLabel('expert'), "[expert's answer]");
    assert.equal(
      fx.mmAnswerReplacedNotice('expert'),
      "🪝 postAsk: expert's answer was replaced by a hook — the asking agent reads the new one",
    );
    assert.equal(fx.mmAnswerReplacedSummary('expert', 'é🙂 ok'), 'expert answered; a hook replaced the answer (5 characters)');
  });

  test('preAsk: the question preceded by the conversation (withContext), then each context', () => {
    assert.equal(fx.mmAskMessage('q', 'user: hi', ['c']), 'user: hi\n\nq\n\n[context added by a hook]\nc');
    assert.equal(fx.mmAskMessage('q', '', []), 'q', 'an empty transcript sends none');
  });

  test("display and failure lines, as the seed's example", () => {
    assert.equal(
      mmDisplayLine(1, 'preGeneration', undefined, 'node "$MM_CONFIG_DIR/hooks/guards.js"', 'context (178 chars)'),
      '🪝 1. preGeneration · node "$MM_CONFIG_DIR/hooks/guards.js" → context (178 chars)',
    );
    assert.equal(mmDisplayLine(3, 'postAsk', 'expert', 'x', 'continue'), '🪝 3. postAsk [expert] · x → continue');
    assert.equal(
      mmFailureLine('preToolCall', './hooks/guard.sh', 'timed out after 10s'),
      '🪝 preToolCall hook `./hooks/guard.sh`: timed out after 10s',
    );
  });
});
