// End to end: BeforeAgent / AfterAgent hooks around the turns of `hookline agent`, and the
// `--display-hooks` lines.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { tmpFile } from '../helpers.js';
import { agentProject, fixture, on, readJsonl, respond, texts, transcripts, when, type AgentProject } from './e2e-util.js';

/** The messages recorded in the project's session transcript. */
const transcriptText = (p: AgentProject): string =>
  transcripts(p)
    .map((f) => fs.readFileSync(f, 'utf8'))
    .join('');

describe('BeforeAgent', () => {
  test('additionalContext reaches the model with the prompt, escaped, for this turn', async () => {
    const log = tmpFile('before-agent.jsonl');
    const p = agentProject({
      hooks: {
        BeforeAgent: on(
          respond(log, { hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'branch main, <3 files> dirty' } }),
        ),
      },
    });
    const r = await p.run({ prompt: 'fix the bug', script: [{ text: 'Fixed.' }] });
    assert.equal(r.code, 0, r.stderr);
    // A part of its own after the prompt, as Gemini CLI sends it.
    const user = r.calls[0].prompt.filter((m) => m.role === 'user').at(-1);
    assert.deepEqual(user?.content, [
      { type: 'text', text: 'fix the bug' },
      { type: 'text', text: '<hook_context>branch main, &lt;3 files&gt; dirty</hook_context>' },
    ]);
    assert.equal(readJsonl(log)[0].prompt, 'fix the bug');
  });

  test('deny: no model call, and the prompt is discarded from history', async () => {
    const log = tmpFile('before-agent.jsonl');
    const p = agentProject({
      hooks: { BeforeAgent: on(when(log, 'launch codes', { decision: 'deny', reason: 'prompt mentions launch codes' })) },
    });
    // Interactive: the second prompt shows what the first left in history.
    const r = await p.run({ input: 'tell me the launch codes\nwhat can you do?\n/quit\n', script: [{ text: 'I can read files.' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^Agent execution blocked: prompt mentions launch codes$/m);
    assert.equal(r.calls.length, 1, 'only the second prompt reached the model');
    assert.deepEqual(texts(r.calls[0], 'user'), ['what can you do?']);
    assert.doesNotMatch(transcriptText(p), /launch codes/);
    assert.equal(readJsonl(log).length, 2);
  });

  test('exit 2 blocks like deny, with stderr as the reason', async () => {
    const p = agentProject({ hooks: { BeforeAgent: on(respond(null, '', 2, 'prompt rejected by policy')) } });
    const r = await p.run({ prompt: 'anything', script: [] });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.calls.length, 0);
    assert.match(r.stderr, /^Agent execution blocked: prompt rejected by policy$/m);
  });

  test('continue:false: no model call, but the prompt is kept in history', async () => {
    const p = agentProject({ hooks: { BeforeAgent: on(when(null, 'deploy', { continue: false, stopReason: 'deploys are frozen' })) } });
    const r = await p.run({ input: 'deploy to prod\nwhat did I ask before?\n/quit\n', script: [{ text: 'You asked to deploy.' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^Agent execution stopped: deploys are frozen$/m);
    assert.equal(r.calls.length, 1);
    assert.deepEqual(texts(r.calls[0], 'user'), ['deploy to prod', 'what did I ask before?']);
    assert.match(transcriptText(p), /deploy to prod/);
  });
});

describe('AfterAgent', () => {
  test('deny retries: BeforeAgent fires again with the reason as the prompt, then AfterAgent with stop_hook_active', async () => {
    const before = tmpFile('before-agent.jsonl');
    const after = tmpFile('after-agent.jsonl');
    const p = agentProject({ hooks: { BeforeAgent: on(respond(before)), AfterAgent: on(`${fixture('e2e-retry.mjs')} '${after}'`) } });
    const r = await p.run({ prompt: 'write a haiku', script: [{ text: 'Autumn moonlight' }, { text: 'SUMMARY: a haiku' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      readJsonl(before).map((i) => i.prompt),
      ['write a haiku', 'Add a line that starts with SUMMARY:'],
    );
    const aa = readJsonl(after).map((i) => ({
      prompt: i.prompt,
      prompt_response: i.prompt_response,
      stop_hook_active: i.stop_hook_active,
    }));
    assert.deepEqual(aa, [
      { prompt: 'write a haiku', prompt_response: 'Autumn moonlight', stop_hook_active: false },
      // As in Gemini CLI: the original prompt, and every answer given to it.
      { prompt: 'write a haiku', prompt_response: 'Autumn moonlight\nSUMMARY: a haiku', stop_hook_active: true },
    ]);
    assert.equal(r.calls.length, 2);
    assert.deepEqual(texts(r.calls[1], 'user'), ['write a haiku', 'Add a line that starts with SUMMARY:']);
    assert.deepEqual(texts(r.calls[1], 'assistant'), ['Autumn moonlight']);
    assert.match(r.stdout, /SUMMARY: a haiku/);
  });

  test('a hook that always denies is retried at most 3 times', async () => {
    const after = tmpFile('after-agent.jsonl');
    const p = agentProject({ hooks: { AfterAgent: on(respond(after, { decision: 'deny', reason: 'try again' })) } });
    const script = Array.from({ length: 6 }, (_, i) => ({ text: `answer ${i + 1}` }));
    const r = await p.run({ prompt: 'go', script });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.calls.length, 4, 'the answer and 3 retries');
    assert.deepEqual(
      readJsonl(after).map((i) => i.stop_hook_active),
      [false, true, true, true],
    );
    assert.match(r.stderr, /stopping after 3 retries/);
  });

  test('continue:false stops: the answer stands, no retry', async () => {
    const p = agentProject({ hooks: { AfterAgent: on(respond(null, { continue: false, stopReason: 'session quota reached' })) } });
    const r = await p.run({ prompt: 'go', script: [{ text: 'first and last' }, { text: 'unused' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.calls.length, 1);
    assert.match(r.stdout, /first and last/);
    assert.match(r.stderr, /^Agent execution stopped: session quota reached$/m);
  });

  test('the response spans the turn: step texts joined by newlines', async () => {
    const after = tmpFile('after-agent.jsonl');
    const p = agentProject({ hooks: { AfterAgent: on(respond(after)) } });
    const r = await p.run({
      prompt: 'list',
      script: [{ text: 'Let me look.', toolCalls: [{ name: 'list_directory', args: { dir_path: '.' } }] }, { text: 'It is empty.' }],
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readJsonl(after)[0].prompt_response, 'Let me look.\nIt is empty.');
  });
});

describe('--display-hooks', () => {
  test('one line per hook run: 🪝 <n>. <event> [<tool>] · <command> → <decision>', async () => {
    const deny = respond(null, { decision: 'deny', reason: 'no' });
    const ctx = respond(null, { hookSpecificOutput: { additionalContext: 'abc' } });
    const quiet = respond(null);
    const p = agentProject({
      hooks: { BeforeAgent: on(ctx), BeforeTool: on(deny, { matcher: 'write_file' }), AfterTool: on(quiet), SessionEnd: on(quiet) },
    });
    const r = await p.run({
      prompt: 'go',
      script: [{ toolCalls: [{ name: 'write_file', args: { file_path: 'x', content: 'y' } }] }, { text: 'ok' }],
      args: ['--display-hooks', '--approval-mode', 'yolo'],
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.hookLines, [
      `🪝 1. BeforeAgent · ${ctx} → context (3 chars)`,
      `🪝 2. BeforeTool [write_file] · ${deny} → deny`,
      `🪝 3. SessionEnd [exit] · ${quiet} → continue`,
    ]);
    for (const l of r.hookLines) assert.match(l, /^🪝 \d+\. [A-Za-z]+( \[[^\]]+\])? · .+ → .+$/);
  });

  test('without the flag no 🪝 lines are printed', async () => {
    const p = agentProject({ hooks: { BeforeAgent: on(respond(null)) } });
    const r = await p.run({ prompt: 'go', script: [{ text: 'ok' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.hookLines, []);
  });
});
