// End to end: mm's hooks (agent.yaml) in `hookline agent`, and agent-to-agent hand-offs.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { tmpFile } from '../helpers.js';
import { agentProject, fixture, lastUser, on, readJsonl, sq, texts, toolResults, type AgentProject, type AgentRun } from './e2e-util.js';

const YOLO = ['--approval-mode', 'yolo'];
const CTX = '[context added by a hook]';
const shell = (command: string) => ({ toolCalls: [{ name: 'run_shell_command', args: { command } }] });
const askAgent = (args: Record<string, unknown>) => ({ toolCalls: [{ name: 'ask_agent', args }] });

/** dx-reply.sh: logs its stdin to `log` (unless null), prints `out`, writes `stderr`, exits `code`. */
const reply = (log: string | null, out: unknown = '', code = 0, stderr = '') =>
  [
    fixture('dx-reply.sh'),
    sq(log ?? '-'),
    sq(typeof out === 'string' ? out : JSON.stringify(out)),
    String(code),
    ...(stderr ? [sq(stderr)] : []),
  ].join(' ');
const rewrite = (tag: string) => `${fixture('dx-rewrite.js')} ${tag}`;
const order = (log: string, label: string) => `${fixture('dx-order.sh')} ${sq(log)} ${sq(label)}`;

/** An mm configuration as YAML, written to `file` in the project. */
function writeMm(p: AgentProject, config: Record<string, unknown>, file = 'agent.yaml'): string {
  const f = path.join(p.dir, file);
  fs.writeFileSync(f, stringify(config));
  return f;
}

/** A trusted project with `agent.yaml` (and optional Gemini settings). */
function mmProject(config: Record<string, unknown>, settings: Record<string, unknown> = {}): AgentProject {
  const p = agentProject(settings);
  writeMm(p, config);
  return p;
}

/** mm's display lines (indented `🪝 <n>. …`) and failure lines, trimmed. */
const mmLines = (r: AgentRun) =>
  r.stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^🪝 /.test(l));

describe('mm preGeneration', () => {
  test('a chain of two hooks: the model reads the rewritten question, then each context; the display lists both', async () => {
    const gen = tmpFile('post-gen.jsonl');
    const p = mmProject({
      displayHooks: true,
      hooks: { preGeneration: [{ command: rewrite('A') }, { command: rewrite('B') }], postGeneration: [{ command: reply(gen) }] },
    });
    const r = await p.run({ prompt: 'list the files', script: [{ text: 'Here they are.' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.calls.length, 1);
    const expected = `list the files +A +B\n\n${CTX}\nA saw: list the files\n\n${CTX}\nB saw: list the files +A`;
    assert.equal(lastUser(r.calls[0]), expected);
    assert.deepEqual(texts(r.calls[0], 'user'), [expected], 'the model reads one user message, the rewritten one');
    assert.deepEqual(mmLines(r), [
      `🪝 1. preGeneration · ${rewrite('A')} → prompt replaced + context (${'A saw: list the files'.length} chars)`,
      `🪝 2. preGeneration · ${rewrite('B')} → prompt replaced + context (${'B saw: list the files +A'.length} chars)`,
      `🪝 3. postGeneration · ${reply(gen)} → continue`,
    ]);
    const [post] = readJsonl(gen);
    assert.deepEqual(
      { event: post.event, prompt: post.prompt, answer: post.answer, error: post.error },
      { event: 'postGeneration', prompt: expected, answer: 'Here they are.', error: undefined },
    );
    assert.equal(fs.realpathSync(post.cwd), fs.realpathSync(p.dir));
    assert.equal(post.asked, undefined, 'an agent a person started has no "asked"');
  });

  test('stop with a response: the model is not called, the user reads the response, the chain ends, postGeneration gets the marker', async () => {
    const gen = tmpFile('post-gen.jsonl');
    const second = tmpFile('second.jsonl');
    const p = mmProject({
      hooks: {
        preGeneration: [
          { command: reply(null, { action: 'stop', reason: 'secrets in the prompt', response: 'Please remove the API key first.' }) },
          { command: reply(second) },
        ],
        postGeneration: [{ command: reply(gen) }],
      },
    });
    const r = await p.run({ prompt: 'my key is sk-123', script: [{ text: 'never said' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.calls.length, 0, 'the model is not called');
    assert.equal(r.stdout, 'Please remove the API key first.\n');
    assert.equal(fs.existsSync(second), false, 'stop ends the chain');
    const [post] = readJsonl(gen);
    assert.equal(post.prompt, '[prompt blocked by a hook: secrets in the prompt]');
    assert.equal(post.answer, 'Please remove the API key first.');
  });

  test('the input names the model as mm does, <provider>/<model>', async () => {
    const log = tmpFile('pre-gen.jsonl');
    const p = mmProject({ hooks: { preGeneration: [{ command: reply(log, { action: 'stop', reason: 'x' }) }] } });
    // The stop means the model, an unreachable server, is never called.
    const r = await p.run({ prompt: 'hi', model: 'openai-compatible:qwen3', args: ['--base-url', 'http://127.0.0.1:9/v1'] });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readJsonl(log)[0].model, 'openai-compatible/qwen3');
  });

  test('stop without a response: the user reads the default ⛔ text', async () => {
    const gen = tmpFile('post-gen.jsonl');
    const p = mmProject({
      hooks: {
        preGeneration: [{ command: reply(null, { action: 'stop', reason: 'off topic' }) }],
        postGeneration: [{ command: reply(gen) }],
      },
    });
    const r = await p.run({ prompt: 'tell me a joke', script: [] });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '⛔ This request was blocked by a hook: off topic\n');
    assert.equal(readJsonl(gen)[0].prompt, '[prompt blocked by a hook: off topic]');
  });

  test('onError fail stops the turn with "hook failed: …" and prints the failure line', async () => {
    const cmd = reply(null, '', 4, 'no network');
    const p = mmProject({ hooks: { preGeneration: [{ command: cmd, onError: 'fail' }] } });
    const r = await p.run({ prompt: 'hi', script: [{ text: 'never said' }] });
    assert.equal(r.calls.length, 0);
    assert.equal(r.stdout, '⛔ This request was blocked by a hook: hook failed: exit status 4: no network\n');
    assert.deepEqual(mmLines(r), [`🪝 preGeneration hook \`${cmd}\`: exit status 4: no network`]);
  });
});

describe('mm preToolCall and postToolCall', () => {
  test('deny: the tool never runs nor asks for approval, the model reads [denied by a hook: <reason>], the user sees 🪝 <tool> […]', async () => {
    const note = tmpFile('notification.log');
    const p = mmProject(
      { hooks: { preToolCall: [{ matcher: '^run_shell_command$', command: reply(null, { action: 'deny', reason: 'no shell today' }) }] } },
      { hooks: { Notification: on(order(note, 'Notification')) } },
    );
    const r = await p.run({ prompt: 'make a marker', script: [shell('touch marker'), { text: 'ok, I did not.' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.existsSync(note), false, 'no approval is asked for a denied call');
    assert.equal(fs.existsSync(path.join(p.dir, 'marker')), false, 'the tool must not run');
    const [res] = toolResults(r.calls[1]);
    assert.equal(res.value, '[denied by a hook: no shell today]');
    assert.ok(r.stderr.split('\n').includes('🪝 run_shell_command [denied by a hook: no shell today]'), r.stderr);
  });

  test('a matcher that does not match leaves the tool alone', async () => {
    const log = tmpFile('never.jsonl');
    const p = mmProject({ hooks: { preToolCall: [{ matcher: '^read_file$', command: reply(log, { action: 'deny', reason: 'x' }) }] } });
    const r = await p.run({ prompt: 'go', script: [shell('touch marker'), { text: 'done' }], args: YOLO });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(fs.existsSync(path.join(p.dir, 'marker')));
    assert.equal(fs.existsSync(log), false);
  });

  test('input replaced: the tool runs with the new arguments; the history keeps the call as the model wrote it; the display says so', async () => {
    const log = tmpFile('pre-tool.jsonl');
    const cmd = reply(log, { input: { command: 'touch replaced' } });
    const p = mmProject({ hooks: { preToolCall: [{ command: cmd }] } });
    const r = await p.run({ prompt: 'go', script: [shell('touch original'), { text: 'done' }], args: [...YOLO, '--display-hooks'] });
    assert.equal(r.code, 0, r.stderr);
    const [input] = readJsonl(log);
    assert.equal(input.event, 'preToolCall');
    assert.deepEqual(
      { name: input.tool.name, input: input.tool.input },
      { name: 'run_shell_command', input: { command: 'touch original' } },
    );
    assert.equal(typeof input.tool.id, 'string');
    assert.ok(fs.existsSync(path.join(p.dir, 'replaced')), 'the replaced command ran');
    assert.equal(fs.existsSync(path.join(p.dir, 'original')), false, "the model's command did not");
    const call = r.calls[1].prompt.find((m) => m.role === 'assistant') as { content: Array<{ type: string; input?: unknown }> };
    assert.deepEqual(call.content.find((c) => c.type === 'tool-call')?.input, { command: 'touch original' });
    assert.ok(mmLines(r).includes(`🪝 1. preToolCall [run_shell_command] · ${cmd} → input replaced`), r.stderr);
  });

  test('onError fail on preToolCall denies the call with "hook failed: …"; warn lets it run', async () => {
    const failing = reply(null, '', 3, 'guard crashed');
    const p = mmProject({ hooks: { preToolCall: [{ command: failing, onError: 'fail' }] } });
    const r = await p.run({ prompt: 'go', script: [shell('touch marker'), { text: 'done' }], args: YOLO });
    assert.equal(fs.existsSync(path.join(p.dir, 'marker')), false);
    assert.equal(toolResults(r.calls[1])[0].value, '[denied by a hook: hook failed: exit status 3: guard crashed]');
    assert.ok(mmLines(r).includes(`🪝 preToolCall hook \`${failing}\`: exit status 3: guard crashed`), r.stderr);

    const q = mmProject({ hooks: { preToolCall: [{ command: failing, onError: 'warn' }] } });
    const w = await q.run({ prompt: 'go', script: [shell('touch marker'), { text: 'done' }], args: YOLO });
    assert.ok(fs.existsSync(path.join(q.dir, 'marker')), 'warn: the tool runs');
    assert.ok(mmLines(w).includes(`🪝 preToolCall hook \`${failing}\`: exit status 3: guard crashed`), w.stderr);
  });

  test('postToolCall: the contexts are appended to the output the model reads', async () => {
    const log = tmpFile('post-tool.jsonl');
    const p = mmProject({
      hooks: {
        postToolCall: [
          { matcher: 'read_file', command: reply(log, { context: 'lint: 2 warnings' }) },
          { command: reply(null, { context: 'size: small' }) },
        ],
      },
    });
    fs.writeFileSync(path.join(p.dir, 'a.txt'), 'alpha beta\n');
    const r = await p.run({
      prompt: 'read',
      script: [{ toolCalls: [{ name: 'read_file', args: { file_path: 'a.txt' } }] }, { text: 'done' }],
      args: ['--display-hooks'],
    });
    assert.equal(r.code, 0, r.stderr);
    const [input] = readJsonl(log);
    assert.match(input.output, /alpha beta/);
    const [res] = toolResults(r.calls[1]);
    assert.equal(res.value, `${input.output}\n\n${CTX}\nlint: 2 warnings\n\n${CTX}\nsize: small`);
    assert.deepEqual(
      mmLines(r).map((l) => l.replace(/ · .* → /, ' → ')),
      ['🪝 1. postToolCall [read_file] → context (16 chars)', '🪝 2. postToolCall [read_file] → context (11 chars)'],
    );
  });
});

describe('mm postGeneration', () => {
  test('reads the prompt the model read, the final answer, and the error of a failed turn', async () => {
    const gen = tmpFile('post-gen.jsonl');
    const p = mmProject({
      hooks: { preGeneration: [{ command: reply(null, { context: 'be brief' }) }], postGeneration: [{ command: reply(gen) }] },
    });
    const ok = await p.run({ prompt: 'check', script: [{ text: 'Let me look.', ...shell('true') }, { text: 'All good.' }], args: YOLO });
    assert.equal(ok.code, 0, ok.stderr);
    const bad = await p.run({ prompt: 'again', script: [] });
    assert.equal(bad.code, 1);
    const [a, b] = readJsonl(gen);
    assert.equal(a.prompt, `check\n\n${CTX}\nbe brief`);
    assert.equal(a.answer, 'All good.', 'the text of the last response');
    assert.equal(a.error, undefined);
    assert.equal(b.prompt, `again\n\n${CTX}\nbe brief`);
    assert.match(b.error, /no line for model call 1/);
    assert.equal(b.answer, undefined, 'an empty answer is omitted');
  });
});

describe('mm configuration', () => {
  test('the interactive banner ends with the hook counts', async () => {
    const hook = { command: reply(null) };
    const p = mmProject({ hooks: { preGeneration: [hook, hook], preToolCall: [hook], postToolCall: [hook], postGeneration: [hook] } });
    const r = await p.run({ input: '/quit\n', script: [] });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.split('\n')[0].endsWith(' | hooks: preGeneration×2 preToolCall×1 postToolCall×1 postGeneration×1'), r.stdout);
  });

  test('display numbering restarts with each turn', async () => {
    const p = mmProject({ hooks: { preGeneration: [{ command: reply(null) }], postGeneration: [{ command: reply(null) }] } });
    const r = await p.run({ input: 'one\ntwo\n/quit\n', script: [{ text: 'a' }, { text: 'b' }], args: ['--display-hooks'] });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      mmLines(r).map((l) => l.replace(/ · .* → /, ' → ')),
      [
        '🪝 1. preGeneration → continue',
        '🪝 2. postGeneration → continue',
        '🪝 1. preGeneration → continue',
        '🪝 2. postGeneration → continue',
      ],
    );
  });

  test('validation errors print [config error: <path>: <message>] and exit 1 before anything runs', async () => {
    const p = agentProject();
    const file = writeMm(p, {
      hooks: {
        preToolcall: [{ command: 'true' }],
        preGeneration: [{ command: 'true', matcher: 'x' }],
        postToolCall: [{ command: ' ' }, { command: 'true', onError: 'panic' }],
      },
    });
    const r = await p.run({ prompt: 'hi', script: [{ text: 'never said' }] });
    assert.equal(r.code, 1);
    assert.equal(r.calls.length, 0);
    const lines = r.stderr.trim().split('\n');
    assert.deepEqual(
      new Set(lines),
      new Set([
        `[config error: ${file}: hooks: unknown event "preToolcall" (want one of preGeneration, preToolCall, postToolCall, postGeneration, preAsk, postAsk)]`,
        `[config error: ${file}: hooks.preGeneration[0]: matcher is only for preToolCall, postToolCall, preAsk and postAsk]`,
        `[config error: ${file}: hooks.postToolCall[0]: command must not be empty]`,
        `[config error: ${file}: hooks.postToolCall[1]: onError must be "fail", "warn" or "ignore"]`,
      ]),
    );
  });

  test('--mm-config names the configuration; a called agent with a broken configuration fails the hand-off, not the session', async () => {
    const p = agentProject();
    const cfg = path.join(p.base, 'elsewhere.yaml');
    fs.writeFileSync(
      cfg,
      stringify({
        mmConfigs: { broken: 'broken.yaml' },
        hooks: { preGeneration: [{ command: reply(null, { context: 'from elsewhere' }) }] },
      }),
    );
    fs.writeFileSync(path.join(p.base, 'broken.yaml'), stringify({ hooks: { nope: [] } }));
    const r = await p.run({
      prompt: 'hi',
      script: [askAgent({ agent: 'broken', prompt: 'q' }), { text: 'ok' }],
      args: [...YOLO, '--mm-config', cfg],
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(texts(r.calls[0], 'user')[0], `hi\n\n${CTX}\nfrom elsewhere`);
    const [res] = toolResults(r.calls[1]);
    assert.match(res.value, /\[config error: .*broken\.yaml: hooks: unknown event "nope"/);
  });
});

/** A project whose agent.yaml names a second agent, `expert`, with its own configuration. */
function handOff(
  parentHooks: Record<string, unknown>,
  expertHooks: Record<string, unknown> = {},
  settings: Record<string, unknown> = {},
  top: Record<string, unknown> = {},
): AgentProject {
  const p = agentProject(settings);
  writeMm(p, { model: 'scripted/main', ...top, mmConfigs: { expert: 'agent.expert.yaml' }, hooks: parentHooks });
  writeMm(p, { model: 'scripted/expert', hooks: expertHooks }, 'agent.expert.yaml');
  return p;
}

describe('hand-offs: ask_agent', () => {
  test('the called agent answers from the script with its own hooks (asked.depth 1); the asking model reads the answer', async () => {
    const child = tmpFile('child.jsonl');
    const p = handOff({}, { preGeneration: [{ command: reply(child) }] });
    const r = await p.run({
      prompt: 'ask the expert',
      script: [
        askAgent({ agent: 'expert', prompt: 'What is an inode?' }),
        { text: 'An inode is a file record.' },
        { text: 'The expert explained it.' },
      ],
      args: YOLO,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.calls.length, 3);
    assert.ok(r.calls[0].tools?.includes('ask_agent'));
    assert.equal(lastUser(r.calls[1]), 'What is an inode?', 'the called agent receives the question');
    assert.equal(texts(r.calls[1], 'user').length, 1, 'and nothing of the asking conversation');
    const [res] = toolResults(r.calls[2]);
    assert.deepEqual(
      { name: res.toolName, type: res.type, value: res.value },
      { name: 'ask_agent', type: 'text', value: 'An inode is a file record.' },
    );
    const [input] = readJsonl(child);
    assert.deepEqual(
      { event: input.event, prompt: input.prompt, asked: input.asked },
      { event: 'preGeneration', prompt: 'What is an inode?', asked: { depth: 1 } },
    );
    assert.match(r.stdout, /An inode is a file record\.[\s\S]*The expert explained it\./, 'the answer streams to the user');
  });

  test('preAsk deny: the called agent never starts; the model reads [ask denied by a hook: <reason>]', async () => {
    const child = tmpFile('child.jsonl');
    const pre = tmpFile('pre-ask.jsonl');
    const p = handOff(
      { preAsk: [{ matcher: '^expert$', command: reply(pre, { action: 'deny', reason: 'the expert is busy' }) }] },
      { preGeneration: [{ command: reply(child) }] },
    );
    const r = await p.run({ prompt: 'ask', script: [askAgent({ agent: 'expert', prompt: 'q?' }), { text: 'fine' }], args: YOLO });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.calls.length, 2, 'no model call for the called agent');
    assert.equal(fs.existsSync(child), false, "the called agent's hooks never ran");
    const [res] = toolResults(r.calls[1]);
    assert.equal(res.value, '[ask denied by a hook: the expert is busy]');
    assert.ok(r.stderr.split('\n').includes('🪝 ask_agent [ask denied by a hook: the expert is busy]'), r.stderr);
    const [input] = readJsonl(pre);
    assert.deepEqual(input.ask, {
      agent: 'expert',
      config: path.join(p.dir, 'agent.expert.yaml'),
      agentModel: 'scripted/expert',
      via: 'tool',
      withContext: false,
      depth: 0,
      prompt: 'q?',
    });
  });

  test('preAsk rewrites the question and the transcript and adds context: the called agent receives exactly that', async () => {
    const pre = tmpFile('pre-ask.jsonl');
    const p = handOff({ preAsk: [{ command: reply(pre) }, { command: rewrite('A') }, { command: rewrite('B') }] });
    const r = await p.run({
      prompt: 'ask with context',
      script: [askAgent({ agent: 'expert', prompt: 'why?', withContext: true }), { text: 'because' }, { text: 'ok' }],
      args: YOLO,
    });
    assert.equal(r.code, 0, r.stderr);
    const [input] = readJsonl(pre);
    assert.equal(input.ask.withContext, true);
    assert.match(input.ask.transcript, /^User: ask with context/);
    const transcriptB = `B transcript (${`A transcript (${input.ask.transcript.length} chars)`.length} chars)`;
    assert.equal(lastUser(r.calls[1]), `${transcriptB}\n\nwhy? +A +B\n\n${CTX}\nA saw: why?\n\n${CTX}\nB saw: why? +A`);
    assert.equal(toolResults(r.calls[2])[0].value, 'because');
  });

  test('postAsk replaces the answer and adds context; the user is told', async () => {
    const post = tmpFile('post-ask.jsonl');
    const after = tmpFile('after-tool.jsonl');
    const p = handOff(
      { postAsk: [{ command: reply(post, { answer: 'checked: 42' }) }, { command: reply(null, { context: 'source: expert' }) }] },
      {},
      { hooks: { AfterTool: on(reply(after), { matcher: 'ask_agent' }) } },
    );
    const r = await p.run({
      prompt: 'ask',
      script: [askAgent({ agent: 'expert', prompt: 'the answer?' }), { text: 'forty-two' }, { text: 'ok' }],
      args: YOLO,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readJsonl(after)[0].tool_response.returnDisplay, 'expert answered; a hook replaced the answer (11 characters)');
    assert.equal(toolResults(r.calls[2])[0].value, `checked: 42\n\n${CTX}\nsource: expert`);
    assert.ok(r.stderr.includes("🪝 postAsk: expert's answer was replaced by a hook — the asking agent reads the new one"), r.stderr);
    assert.match(r.stdout, /forty-two/, 'the user saw the answer as it was written');
    const [input] = readJsonl(post);
    assert.equal(input.answer, 'forty-two');
    assert.equal(input.ask.prompt, 'the answer?');
    assert.equal(typeof input.durationMs, 'number');
  });

  test('a failed hand-off: postAsk reads the error, and its answer replaces the failure', async () => {
    const post = tmpFile('post-ask.jsonl');
    const p = handOff({ postAsk: [{ command: reply(post, { answer: 'the expert is unavailable; answer alone' }) }] });
    // The called agent's model call finds no script line and fails; the asking model's next call is logged before failing too.
    const r = await p.run({ prompt: 'ask', script: [askAgent({ agent: 'expert', prompt: 'q' })], args: YOLO });
    assert.equal(r.calls.length, 3);
    const [input] = readJsonl(post);
    assert.match(input.error, /no line for model call 2/);
    assert.equal(input.answer, undefined);
    assert.equal(toolResults(r.calls[2])[0].value, 'the expert is unavailable; answer alone');
    assert.equal(toolResults(r.calls[2])[0].type, 'text');
  });

  test('a called agent can ask another one: depths 0, 1 and 2', async () => {
    const pre = tmpFile('pre-ask.jsonl');
    const deep = tmpFile('deep.jsonl');
    const p = handOff({ preAsk: [{ command: reply(pre) }] });
    writeMm(p, { mmConfigs: { deep: 'agent.deep.yaml' }, hooks: { preAsk: [{ command: reply(pre) }] } }, 'agent.expert.yaml');
    writeMm(p, { hooks: { preGeneration: [{ command: reply(deep) }] } }, 'agent.deep.yaml');
    const r = await p.run({
      prompt: 'go deep',
      script: [
        askAgent({ agent: 'expert', prompt: 'q1' }),
        askAgent({ agent: 'deep', prompt: 'q2' }),
        { text: 'deep answer' },
        { text: 'expert answer' },
        { text: 'done' },
      ],
      args: YOLO,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      readJsonl(pre).map((x) => [x.ask.agent, x.ask.depth, x.asked]),
      [
        ['expert', 0, undefined],
        ['deep', 1, { depth: 1 }],
      ],
    );
    assert.deepEqual(readJsonl(deep)[0].asked, { depth: 2 });
    assert.equal(toolResults(r.calls[3])[0].value, 'deep answer');
    assert.equal(toolResults(r.calls[4])[0].value, 'expert answer');
  });

  test('agents that keep asking each other stop at depth 4: the fifth hand-off is refused with the documented message', async () => {
    const pre = tmpFile('pre-ask.jsonl');
    const gen = tmpFile('pre-gen.jsonl');
    // Every agent of this configuration may ask `again`, which is this configuration once more.
    const p = handOff({});
    writeMm(p, { model: 'scripted/main', mmConfigs: { again: 'agent.again.yaml' }, hooks: { preAsk: [{ command: reply(pre) }] } });
    writeMm(
      p,
      {
        model: 'scripted/again',
        mmConfigs: { again: 'agent.again.yaml' },
        hooks: { preAsk: [{ command: reply(pre) }], preGeneration: [{ command: reply(gen) }] },
      },
      'agent.again.yaml',
    );
    const asks = [0, 1, 2, 3, 4].map((d) => askAgent({ agent: 'again', prompt: `from depth ${d}` }));
    const answers = [4, 3, 2, 1, 0].map((d) => ({ text: `answer at depth ${d}` }));
    const r = await p.run({ prompt: 'keep asking', script: [...asks, ...answers], args: YOLO });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.calls.length, 10);
    assert.deepEqual(
      readJsonl(pre).map((x) => x.ask.depth),
      [0, 1, 2, 3],
      'the refused hand-off runs no preAsk',
    );
    assert.deepEqual(
      readJsonl(gen).map((x) => x.asked),
      [{ depth: 1 }, { depth: 2 }, { depth: 3 }, { depth: 4 }],
      'no agent starts at depth 5',
    );
    const [refused] = toolResults(r.calls[5]);
    assert.equal(refused.toolName, 'ask_agent');
    assert.equal(refused.value, 'hand-off refused: agents may ask agents only 4 levels deep');
    assert.equal(toolResults(r.calls[6])[0].value, 'answer at depth 4');
    assert.equal(toolResults(r.calls[9])[0].value, 'answer at depth 1');
  });

  test('order: preToolCall → preAsk → the called agent → postAsk → postToolCall (yolo, with Gemini BeforeTool/AfterTool)', async () => {
    const log = tmpFile('order.log');
    const mm = (e: string) => [{ command: order(log, e) }];
    const p = handOff(
      {
        preGeneration: mm('preGeneration'),
        preToolCall: mm('preToolCall'),
        preAsk: mm('preAsk'),
        postAsk: mm('postAsk'),
        postToolCall: mm('postToolCall'),
        postGeneration: mm('postGeneration'),
      },
      { preGeneration: mm('preGeneration'), postGeneration: mm('postGeneration') },
      {
        hooks: {
          BeforeTool: on(order(log, 'BeforeTool'), { matcher: 'ask_agent' }),
          AfterTool: on(order(log, 'AfterTool'), { matcher: 'ask_agent' }),
        },
      },
    );
    const r = await p.run({
      prompt: 'ask',
      script: [askAgent({ agent: 'expert', prompt: 'q' }), { text: 'a' }, { text: 'done' }],
      args: YOLO,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(fs.readFileSync(log, 'utf8').trim().split('\n'), [
      'preGeneration',
      'BeforeTool',
      'preToolCall',
      'preAsk',
      'preGeneration @child',
      'postGeneration @child',
      'postAsk',
      'AfterTool',
      'postToolCall',
      'postGeneration',
    ]);
  });

  test('default mode: approval (Notification) comes after preToolCall; refused without a terminal, so preAsk never runs', async () => {
    const log = tmpFile('order.log');
    const p = handOff(
      { preToolCall: [{ command: order(log, 'preToolCall') }], preAsk: [{ command: order(log, 'preAsk') }] },
      {},
      { hooks: { Notification: on(order(log, 'Notification')) } },
    );
    const r = await p.run({ prompt: 'ask', script: [askAgent({ agent: 'expert', prompt: 'q' }), { text: 'done' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(fs.readFileSync(log, 'utf8').trim().split('\n'), ['preToolCall', 'Notification']);
    assert.equal(r.calls.length, 2, 'the called agent never ran');
    assert.match(toolResults(r.calls[1])[0].value, /needs the user's approval/);
  });
});

describe('hand-offs: /ask commands', () => {
  test('/ask <agent>, /ask-<agent> and /ask-with-context-<agent>: preAsk sees via "command", the exchange joins the history', async () => {
    const pre = tmpFile('pre-ask.jsonl');
    const p = handOff({ preAsk: [{ command: reply(pre) }] });
    const input = '/ask expert first?\n/ask-expert second?\n/ask-with-context-expert third?\nwhat did they say?\n/quit\n';
    const r = await p.run({ input, script: [{ text: 'one' }, { text: 'two' }, { text: 'three' }, { text: 'they said three things' }] });
    assert.equal(r.code, 0, r.stderr);
    const asks = readJsonl(pre).map((x) => x.ask);
    assert.deepEqual(
      asks.map((a) => [a.via, a.withContext, a.prompt]),
      [
        ['command', false, 'first?'],
        ['command', false, 'second?'],
        ['command', true, 'third?'],
      ],
    );
    const transcript = "User: first?\n\nAssistant: [expert's answer]\none\n\nUser: second?\n\nAssistant: [expert's answer]\ntwo";
    assert.equal(asks[2].transcript, transcript);
    assert.equal(lastUser(r.calls[0]), 'first?');
    assert.equal(lastUser(r.calls[2]), `${transcript}\n\nthird?`);
    assert.deepEqual(texts(r.calls[3], 'assistant'), ["[expert's answer]\none", "[expert's answer]\ntwo", "[expert's answer]\nthree"]);
    assert.match(r.stdout, /one[\s\S]*two[\s\S]*three[\s\S]*they said three things/);
  });

  test('/ask: the called agent gets the rewritten question and context; the history keeps the question as sent', async () => {
    const p = handOff({ preAsk: [{ command: rewrite('A') }] });
    const r = await p.run({ input: '/ask expert why?\nand?\n/quit\n', script: [{ text: 'because' }, { text: 'that is all' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(lastUser(r.calls[0]), `why? +A\n\n${CTX}\nA saw: why?`);
    assert.deepEqual(texts(r.calls[1], 'user'), ['why? +A', 'and?']);
  });

  test('a preAsk deny fails the command with "ask denied by a hook: <reason>" and leaves the history alone', async () => {
    const p = handOff({ preAsk: [{ command: reply(null, { action: 'deny', reason: 'not during a demo' }) }] });
    const r = await p.run({ input: '/ask-expert anything?\nhello\n/quit\n', script: [{ text: 'hi there' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes('ask denied by a hook: not during a demo\n'), r.stdout);
    assert.equal(r.calls.length, 1);
    assert.deepEqual(texts(r.calls[0], 'user'), ['hello']);
    assert.deepEqual(texts(r.calls[0], 'assistant'), []);
  });

  test('a called agent with a broken configuration fails the command, not the session', async () => {
    const p = handOff({});
    writeMm(p, { hooks: { preGeneration: [{ command: 'true', onError: 'sometimes' }] } }, 'agent.expert.yaml');
    const r = await p.run({ input: '/ask expert q\nstill there?\n/quit\n', script: [{ text: 'yes' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /ask failed: expert failed: \[config error: .*agent\.expert\.yaml: hooks\.preGeneration\[0\]: onError must be "fail", "warn" or "ignore"\]/,
    );
    assert.equal(r.calls.length, 1);
    assert.equal(lastUser(r.calls[0]), 'still there?');
  });

  test('the display does not list hooks run outside a turn (/ask)', async () => {
    const p = handOff({ preAsk: [{ command: reply(null, { context: 'c' }) }] }, {}, {}, { displayHooks: true });
    const r = await p.run({ input: '/ask expert q\n/quit\n', script: [{ text: 'a' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(lastUser(r.calls[0]), `q\n\n${CTX}\nc`);
    assert.deepEqual(mmLines(r), []);
  });
});

describe('hand-offs: hookline agent --ask', () => {
  test('prints the answer and exits 0; with postAsk hooks it prints the answer they leave', async () => {
    const p = handOff({});
    const r = await p.run({ prompt: 'what is 6*7?', script: [{ text: '42' }], args: ['--ask', 'expert'] });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '42\n');
    assert.equal(lastUser(r.calls[0]), 'what is 6*7?');

    const pre = tmpFile('pre-ask.jsonl');
    const q = handOff(
      { preAsk: [{ command: reply(pre) }], postAsk: [{ command: reply(null, { answer: 'forty-two', context: 'checked' }) }] },
      { preGeneration: [{ command: reply(null) }] },
      {},
      { displayHooks: true },
    );
    const held = await q.run({ prompt: 'what is 6*7?', script: [{ text: '42' }], args: ['--ask', 'expert', '--display-hooks'] });
    assert.equal(held.code, 0, held.stderr);
    assert.equal(held.stdout, `forty-two\n\n${CTX}\nchecked\n`, 'held until postAsk ran; the original answer is never printed');
    assert.equal(readJsonl(pre)[0].ask.via, 'cli');
    assert.deepEqual(
      mmLines(held).filter((l) => /^🪝 \d/.test(l)),
      [],
      '--ask lists no hook run, even with displayHooks',
    );
    assert.ok(held.stderr.includes("🪝 postAsk: expert's answer was replaced by a hook"), held.stderr);
  });

  test('the question may also come as an argument: hookline agent --ask <agent> "question"', async () => {
    const p = handOff({});
    const r = await p.run({ script: [{ text: '42' }], args: ['--ask', 'expert', 'what is 6*7?'] });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '42\n');
    assert.equal(lastUser(r.calls[0]), 'what is 6*7?');
  });

  test('a preAsk deny prints [ask: ask denied by a hook: <reason>] on stderr and exits 1', async () => {
    const p = handOff({ preAsk: [{ command: reply(null, { action: 'deny', reason: 'no experts on weekends' }) }] });
    const r = await p.run({ prompt: 'q', script: [{ text: 'never said' }], args: ['--ask', 'expert'] });
    assert.equal(r.code, 1);
    assert.equal(r.calls.length, 0);
    assert.equal(r.stdout, '');
    assert.ok(r.stderr.split('\n').includes('[ask: ask denied by a hook: no experts on weekends]'), r.stderr);
  });
});

describe('mm hooks changed during a session', () => {
  test("a hook script the agent's own tool rewrites is held back from the next event on", async () => {
    const marker = tmpFile('ran.txt');
    const p = agentProject();
    const script = path.join(p.dir, 'hook.sh');
    fs.writeFileSync(script, `cat >/dev/null; echo v1 >> ${sq(marker)}\n`);
    writeMm(p, { hooks: { preToolCall: [{ command: `sh ${sq(script)}` }] } });
    const rewrite = {
      toolCalls: [{ name: 'write_file', args: { file_path: script, content: `cat >/dev/null; echo v2 >> ${sq(marker)}\n` } }],
    };
    const r = await p.run({ prompt: 'go', script: [rewrite, shell('true'), { text: 'done' }], args: YOLO });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.readFileSync(script, 'utf8').includes('v2'), true, 'the tool rewrote the script');
    assert.deepEqual(fs.readFileSync(marker, 'utf8').split('\n').filter(Boolean), ['v1'], 'the rewritten script never ran');
    assert.match(r.stderr, /held back until trusted/);
  });
});
