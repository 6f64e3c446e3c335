// mm (seed 002): "Réponse", "Actions", "Effets sur le tour" and "Affichage", with real hooks.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fireMm } from '../../src/dialects/mm/chain.js';
import {
  mmModelPrompt,
  mmToolOutput,
  mmAskAnswer,
  mmAskMessage,
  mmPromptBlocked,
  mmStopResponse,
  mmDeniedOutput,
  mmAskDeniedOutput,
  mmAnswerReplacedSummary,
} from '../../src/dialects/mm/effects.js';
import type { MmEvent } from '../../src/dialects/mm/events.js';
import type { MmEventData } from '../../src/dialects/mm/input.js';
import { fx, mmSetup, mmYaml, q, read, tmpDir } from './util.js';

const reply = (json: unknown) => `${fx('mm-reply.sh')} ${q(typeof json === 'string' ? json : JSON.stringify(json))}`;
const DATA: Record<MmEvent, MmEventData> = {
  preGeneration: { prompt: 'list the files' },
  preToolCall: { tool: { id: 'c1', name: 'bash', input: { command: 'ls' } } },
  postToolCall: { tool: { id: 'c1', name: 'bash', input: { command: 'ls' } }, output: 'a.txt' },
  postGeneration: { prompt: 'list the files', answer: 'a.txt' },
  preAsk: { ask: { agent: 'expert', config: '/p/agent.expert.yaml', via: 'tool', prompt: 'what is an inode?' } },
  postAsk: {
    ask: { agent: 'expert', config: '/p/agent.expert.yaml', via: 'tool', prompt: 'what is an inode?' },
    answer: 'An inode is…',
    durationMs: 10,
  },
};

/** Fires `event` with hooks that print the given responses, in order. */
async function chain(event: MmEvent, responses: unknown[], data: MmEventData = DATA[event]) {
  const { dir, config } = mmSetup(mmYaml({ [event]: responses.map((r) => ({ command: reply(r) })) }));
  return fireMm(config, event, data, { cwd: dir });
}

describe('mm response: the fields', () => {
  test('empty or blank stdout is {"action":"continue"}', async () => {
    const r = await chain('preGeneration', ['', '  \n\t ']);
    assert.deepEqual(r.output, { action: 'continue' });
    assert.deepEqual(
      r.runs.map((x) => x.decision),
      ['continue', 'continue'],
    );
  });

  test('action: continue by default, also when absent', async () => {
    const r = await chain('preToolCall', [{ action: 'continue' }, {}, { reason: 'ignored without deny' }]);
    assert.deepEqual(r.output, { action: 'continue' });
  });

  test('prompt (preGeneration): absent = unchanged, "" = an empty question', async () => {
    assert.equal((await chain('preGeneration', [{}])).output.prompt, undefined);
    const empty = await chain('preGeneration', [{ prompt: '' }]);
    assert.equal(empty.output.prompt, '');
    assert.equal(empty.runs[0].decision, 'prompt replaced');
  });

  test('prompt (preAsk) replaces the question sent to the called agent', async () => {
    const r = await chain('preAsk', [{ prompt: 'explain inodes briefly' }]);
    assert.deepEqual(r.output, { action: 'continue', prompt: 'explain inodes briefly' });
  });

  test('transcript (preAsk): replaces the conversation; "" sends none (the next hook sees no transcript)', async () => {
    const out = tmpDir();
    const { dir, config } = mmSetup(
      mmYaml({ preAsk: [{ command: reply({ transcript: '' }) }, { command: `${fx('mm-capture.sh')} ${q(out)}` }] }),
    );
    const r = await fireMm(
      config,
      'preAsk',
      { ask: { agent: 'expert', config: '/c', withContext: true, prompt: 'q', transcript: 'user: secret stuff' } },
      { cwd: dir },
    );
    assert.equal(r.output.transcript, '');
    assert.equal('transcript' in JSON.parse(read(path.join(out, 'stdin'))).ask, false);
    const rewritten = await chain('preAsk', [{ transcript: 'user: (redacted)' }]);
    assert.equal(rewritten.output.transcript, 'user: (redacted)');
    assert.equal(rewritten.runs[0].decision, 'transcript replaced');
  });

  test('answer (postAsk) replaces the answer the asking agent reads; absent = unchanged', async () => {
    assert.equal((await chain('postAsk', [{}])).output.answer, undefined);
    const r = await chain('postAsk', [{ answer: 'An inode stores file metadata.' }]);
    assert.equal(r.output.answer, 'An inode stores file metadata.');
  });

  test('context: on preGeneration, postToolCall, preAsk, postAsk; blank is ignored', async () => {
    for (const e of ['preGeneration', 'postToolCall', 'preAsk', 'postAsk'] as const) {
      const r = await chain(e, [{ context: 'note' }, { context: '   ' }]);
      assert.equal(r.output.context, '[context added by a hook]\nnote', e);
      assert.deepEqual(
        r.runs.map((x) => x.decision),
        ['context (4 chars)', 'continue'],
        e,
      );
    }
  });

  test('input (preToolCall): any JSON value replaces the arguments', async () => {
    assert.deepEqual((await chain('preToolCall', [{ input: { command: 'ls -la' } }])).output.input, { command: 'ls -la' });
    assert.deepEqual((await chain('preToolCall', [{ input: ['x', 1] }])).output.input, ['x', 1]);
    assert.equal((await chain('preToolCall', [{ input: 'raw' }])).output.input, 'raw');
  });

  test('reason (stop, deny) and response (stop)', async () => {
    const stop = await chain('preGeneration', [{ action: 'stop', reason: 'secrets', response: 'Not with secrets, sorry.' }]);
    assert.deepEqual(stop.output, { action: 'stop', reason: 'secrets', response: 'Not with secrets, sorry.' });
    const deny = await chain('preAsk', [{ action: 'deny', reason: 'expert is busy' }]);
    assert.deepEqual(deny.output, { action: 'deny', reason: 'expert is busy' });
  });

  test('response absent or blank: ⛔ This request was blocked by a hook: <reason>', async () => {
    for (const response of [undefined, '  ']) {
      const r = await chain('preGeneration', [{ action: 'stop', reason: 'secrets', ...(response !== undefined ? { response } : {}) }]);
      assert.equal(r.output.response, '⛔ This request was blocked by a hook: secrets');
    }
  });

  test('error (action error): the failure message', async () => {
    const r = await chain('postToolCall', [{ action: 'error', error: 'database down' }]);
    assert.equal(r.runs[0].error, 'database down');
  });

  test('fields read on another event are ignored', async () => {
    const gen = await chain('postGeneration', [{ prompt: 'x', context: 'c', answer: 'a', input: {} }]);
    assert.deepEqual(gen.output, { action: 'continue' });
    assert.equal(gen.runs[0].decision, 'continue', 'a context returned to postGeneration is displayed continue');
    const tool = await chain('preToolCall', [{ prompt: 'x', context: 'c', answer: 'a', transcript: 't' }]);
    assert.deepEqual(tool.output, { action: 'continue' });
    const post = await chain('postToolCall', [{ input: { x: 1 }, prompt: 'p' }]);
    assert.deepEqual(post.output, { action: 'continue' });
    const ask = await chain('postAsk', [{ prompt: 'p', transcript: 't' }]);
    assert.deepEqual(ask.output, { action: 'continue' });
  });

  test('keys are matched as Go does, case-insensitively; unknown keys are ignored', async () => {
    const r = await chain('preGeneration', [{ Prompt: 'rewritten', CONTEXT: 'c', extra: 1 }]);
    assert.deepEqual(r.output, { action: 'continue', prompt: 'rewritten', context: '[context added by a hook]\nc' });
  });
});

describe('mm actions', () => {
  test('continue on every event applies the fields', async () => {
    for (const e of ['preGeneration', 'preToolCall', 'postToolCall', 'postGeneration', 'preAsk', 'postAsk'] as const) {
      const r = await chain(e, [{ action: 'continue' }]);
      assert.equal(r.output.action, 'continue', e);
      assert.equal(r.runs[0].success, true, e);
    }
  });

  test('stop on preGeneration ends the turn; the next hooks do not run', async () => {
    const log = path.join(tmpDir(), 'log');
    const { dir, config } = mmSetup(
      mmYaml({
        preGeneration: [
          { command: reply({ context: 'kept?' }) },
          { command: reply({ action: 'stop', reason: 'no' }) },
          { command: `${fx('mm-log.sh')} ${q(log)} after` },
        ],
      }),
    );
    const r = await fireMm(config, 'preGeneration', DATA.preGeneration, { cwd: dir });
    assert.equal(r.output.action, 'stop');
    assert.equal(r.runs.length, 2);
    assert.equal(r.runs[1].decision, 'stop');
    assert.throws(() => read(log), /ENOENT/);
  });

  test('deny on preToolCall and preAsk ends the chain', async () => {
    for (const e of ['preToolCall', 'preAsk'] as const) {
      const log = path.join(tmpDir(), 'log');
      const { dir, config } = mmSetup(
        mmYaml({ [e]: [{ command: reply({ action: 'deny', reason: 'r' }) }, { command: `${fx('mm-log.sh')} ${q(log)} after` }] }),
      );
      const r = await fireMm(config, e, DATA[e], { cwd: dir });
      assert.deepEqual(r.output, { action: 'deny', reason: 'r' }, e);
      assert.equal(r.runs[0].decision, 'deny');
      assert.throws(() => read(log), /ENOENT/, e);
    }
  });

  test('error on any event is a failure, handled by onError', async () => {
    for (const e of ['preGeneration', 'postAsk'] as const) {
      const r = await chain(e, [{ action: 'error' }]);
      assert.equal(r.runs[0].error, 'the hook reported an error', e);
      assert.equal(r.runs[0].decision, 'failed');
    }
  });

  test('any other value, or stop/deny on another event: action "<a>" is not valid for <event>', async () => {
    const cases: Array<[MmEvent, string]> = [
      ['preToolCall', 'stop'],
      ['postGeneration', 'stop'],
      ['preGeneration', 'deny'],
      ['postToolCall', 'deny'],
      ['postAsk', 'deny'],
      ['preToolCall', 'allow'],
      ['preGeneration', 'Continue'],
    ];
    for (const [e, action] of cases) {
      const r = await chain(e, [{ action }]);
      assert.equal(r.runs[0].error, `action "${action}" is not valid for ${e}`);
      assert.equal(r.output.action, 'continue', 'onError warn: the turn goes on');
    }
  });
});

describe('mm effects on the turn', () => {
  test('preGeneration, no change: the model reads the question', async () => {
    const r = await chain('preGeneration', ['']);
    assert.equal(mmModelPrompt(r.output.prompt ?? 'list the files', r.contexts), 'list the files');
  });

  test('preGeneration chain of two hooks rewriting the prompt and adding context: exactly the text the model receives', async () => {
    const { dir, config } = mmSetup(
      mmYaml({ preGeneration: [{ command: `${fx('mm-rewrite.js')} one` }, { command: `${fx('mm-rewrite.js')} two` }] }),
    );
    const r = await fireMm(config, 'preGeneration', { prompt: 'list the files' }, { cwd: dir });
    assert.deepEqual(r.output, {
      action: 'continue',
      prompt: 'list the files +one +two',
      context: '[context added by a hook]\none read: list the files\n\n[context added by a hook]\ntwo read: list the files +one',
    });
    assert.equal(
      mmModelPrompt(r.output.prompt!, r.contexts),
      'list the files +one +two\n\n[context added by a hook]\none read: list the files\n\n[context added by a hook]\ntwo read: list the files +one',
    );
    assert.deepEqual(r.lines, [
      `🪝 1. preGeneration · ${fx('mm-rewrite.js')} one → prompt replaced + context (24 chars)`,
      `🪝 2. preGeneration · ${fx('mm-rewrite.js')} two → prompt replaced + context (29 chars)`,
    ]);
  });

  test('preGeneration stop: the model is not called; history and postGeneration get the marker; the user reads the response', async () => {
    const r = await chain('preGeneration', [{ action: 'stop', reason: 'contains a secret' }]);
    assert.equal(r.output.action, 'stop');
    assert.equal(mmPromptBlocked(r.output.reason), '[prompt blocked by a hook: contains a secret]');
    assert.equal(r.output.response, '⛔ This request was blocked by a hook: contains a secret');
    const bare = await chain('preGeneration', [{ action: 'stop' }]);
    assert.equal(mmPromptBlocked(bare.output.reason), '[prompt blocked by a hook]');
  });

  test('preToolCall: no change runs with the arguments of the model; input replaces them; deny: the model reads [denied by a hook: <reason>]', async () => {
    assert.equal((await chain('preToolCall', [''])).output.input, undefined);
    const { dir, config } = mmSetup(mmYaml({ preToolCall: [{ command: fx('mm-input.js') }] }));
    const replaced = await fireMm(config, 'preToolCall', DATA.preToolCall, { cwd: dir });
    assert.deepEqual(replaced.output, { action: 'continue', input: { command: 'ls --dry-run' } });
    assert.equal(replaced.runs[0].decision, 'input replaced');
    const g = mmSetup(mmYaml({ preToolCall: [{ command: fx('mm-guard.sh') }] }));
    const denied = await fireMm(
      g.config,
      'preToolCall',
      { tool: { id: 'c2', name: 'bash', input: { command: 'rm -rf build' } } },
      { cwd: g.dir },
    );
    assert.equal(mmDeniedOutput(denied.output.reason), '[denied by a hook: no rm -rf here]');
  });

  test('postToolCall: the contexts of every matching hook are joined after the output', async () => {
    const { dir, config } = mmSetup(
      'hooks:\n  postToolCall:\n' +
        `    - matcher: ^bash$\n      command: ${JSON.stringify(reply({ context: 'first' }))}\n` +
        `    - matcher: read\n      command: ${JSON.stringify(reply({ context: 'never' }))}\n` +
        `    - command: ${JSON.stringify(reply({ context: 'second' }))}\n`,
    );
    const r = await fireMm(config, 'postToolCall', DATA.postToolCall, { cwd: dir });
    assert.equal(r.runs.length, 2, 'the read matcher does not match bash');
    assert.equal(mmToolOutput('a.txt', r.contexts), 'a.txt\n\n[context added by a hook]\nfirst\n\n[context added by a hook]\nsecond');
  });

  test('postGeneration: no effect; the response is decoded (invalid is a failure), then ignored', async () => {
    const ok = await chain('postGeneration', [{ action: 'continue', context: 'x' }]);
    assert.deepEqual(ok.output, { action: 'continue' });
    const bad = await chain('postGeneration', ['not json']);
    assert.match(bad.runs[0].error!, /^invalid JSON on stdout: /);
    assert.deepEqual(bad.output, { action: 'continue' });
  });

  test('preAsk: the called agent receives the rewritten question and conversation, then each context (chained)', async () => {
    const { dir, config } = mmSetup(
      mmYaml({
        preAsk: [
          { command: `${fx('mm-rewrite.js')} a` },
          { command: reply({ transcript: 'user: short version' }) },
          { command: `${fx('mm-rewrite.js')} b` },
        ],
      }),
    );
    const r = await fireMm(
      config,
      'preAsk',
      { ask: { agent: 'expert', config: '/c', withContext: true, prompt: 'why?', transcript: 'user: long version' } },
      { cwd: dir },
    );
    assert.deepEqual(r.output, {
      action: 'continue',
      prompt: 'why? +a +b',
      transcript: 'user: short version',
      context: '[context added by a hook]\na read: why?\n\n[context added by a hook]\nb read: why? +a',
    });
    assert.equal(
      mmAskMessage(r.output.prompt!, r.output.transcript, r.contexts),
      'user: short version\n\nwhy? +a +b\n\n[context added by a hook]\na read: why?\n\n[context added by a hook]\nb read: why? +a',
    );
    assert.equal(mmAskMessage('why?', undefined, []), 'why?');
  });

  test('preAsk deny: the model reads [ask denied by a hook: <reason>]', async () => {
    const r = await chain('preAsk', [{ action: 'deny', reason: 'no experts on Sunday' }]);
    assert.equal(mmAskDeniedOutput(r.output.reason), '[ask denied by a hook: no experts on Sunday]');
  });

  test('postAsk: answer replaced (chained), then each context; on a failed relay the answer replaces the failure', async () => {
    const { dir, config } = mmSetup(mmYaml({ postAsk: [{ command: fx('mm-answer.js') }, { command: fx('mm-answer.js') }] }));
    const r = await fireMm(config, 'postAsk', { ...DATA.postAsk, ask: { ...DATA.postAsk.ask!, depth: 1 } }, { cwd: dir });
    assert.equal(r.output.answer, 'checked: checked: An inode is…');
    assert.equal(
      mmAskAnswer(r.output.answer!, r.contexts),
      'checked: checked: An inode is…\n\n[context added by a hook]\nasked expert at depth 1\n\n[context added by a hook]\nasked expert at depth 1',
    );
    assert.equal(mmAnswerReplacedSummary('expert', r.output.answer!), 'expert answered; a hook replaced the answer (30 characters)');
    const failed = await fireMm(config, 'postAsk', { ask: DATA.postAsk.ask, error: 'model unreachable' }, { cwd: dir });
    assert.equal(failed.output.answer, 'checked: checked: model unreachable');
  });

  test('stop response text: the hook response wins when not blank', () => {
    assert.equal(mmStopResponse('Custom.', 'r'), 'Custom.');
  });
});

describe('mm display', () => {
  test('🪝 <n>. <event> [<tool or agent>] · <command> → <decision>, numbered through the turn', async () => {
    const { dir, config } = mmSetup(
      mmYaml({
        preGeneration: [{ command: reply({ context: 'héllo🙂' }) }],
        preToolCall: [{ command: reply({ input: { command: 'ls' }, reason: 'r' }) }, { command: reply({ action: 'deny' }) }],
        postToolCall: [{ command: 'exit 1', onError: 'ignore' }],
        postGeneration: [{ command: reply({ context: 'x' }) }],
        preAsk: [{ command: reply({ prompt: 'p', transcript: 't', context: 'abc' }) }],
        postAsk: [{ command: reply({ answer: 'a', context: 'xy' }) }],
      }),
    );
    const counter = { next: 1 };
    const lines: string[] = [];
    for (const e of ['preGeneration', 'preToolCall', 'postToolCall', 'postGeneration', 'preAsk', 'postAsk'] as const) {
      lines.push(...(await fireMm(config, e, DATA[e], { cwd: dir, counter })).lines);
    }
    const cmd = (r: unknown) => reply(r);
    assert.deepEqual(lines, [
      `🪝 1. preGeneration · ${cmd({ context: 'héllo🙂' })} → context (6 chars)`,
      `🪝 2. preToolCall [bash] · ${cmd({ input: { command: 'ls' }, reason: 'r' })} → input replaced`,
      `🪝 3. preToolCall [bash] · ${cmd({ action: 'deny' })} → deny`,
      `🪝 4. postToolCall [bash] · exit 1 → failed`,
      `🪝 5. postGeneration · ${cmd({ context: 'x' })} → continue`,
      `🪝 6. preAsk [expert] · ${cmd({ prompt: 'p', transcript: 't', context: 'abc' })} → prompt replaced + transcript replaced + context (3 chars)`,
      `🪝 7. postAsk [expert] · ${cmd({ answer: 'a', context: 'xy' })} → answer replaced + context (2 chars)`,
    ]);
  });

  test('stop is displayed stop; the context text itself is never displayed', async () => {
    const r = await chain('preGeneration', [{ context: 'TOP-SECRET-TEXT' }, { action: 'stop', reason: 'x' }]);
    assert.deepEqual(
      r.runs.map((x) => x.decision),
      ['context (15 chars)', 'stop'],
    );
    assert.ok(!r.lines[0].replace(reply({ context: 'TOP-SECRET-TEXT' }), '').includes('TOP-SECRET-TEXT'));
  });
});
