// End to end: SpatialAgent's hooks (.spatialagent/settings.json) in `hookline agent`, both
// dialects at once, and an untrusted folder.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { tmpFile } from '../helpers.js';
import { agentProject, fixture, lastUser, readJsonl, sq, texts, toolResults, type AgentProject } from './e2e-util.js';

const YOLO = ['--approval-mode', 'yolo'];
const shell = (command: string) => ({ toolCalls: [{ name: 'run_shell_command', args: { command } }] });
const code = (language: string, src: string) => ({ toolCalls: [{ name: 'run_code', args: { language, code: src } }] });

/** dx-sa-env.js: appends the named environment variables, as one JSON line, to `log`; approves. */
const env = (log: string, ...names: string[]) => [fixture('dx-sa-env.js'), sq(log), ...names].join(' ');
/** dx-reply.sh: prints `out` and exits with `code` (no log). */
const reply = (out: unknown, code = 0) =>
  [fixture('dx-reply.sh'), "'-'", sq(typeof out === 'string' ? out : JSON.stringify(out)), String(code)].join(' ');
const blockJson = (reason: string) => reply({ decision: 'block', reason });
const bash = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'bash', command, ...extra });

function writeSa(p: AgentProject, hooks: Record<string, unknown>): void {
  const f = path.join(p.dir, '.spatialagent', 'settings.json');
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, JSON.stringify({ hooks }, null, 2));
}

function saProject(hooks: Record<string, unknown>): AgentProject {
  const p = agentProject();
  writeSa(p, hooks);
  return p;
}

describe('SpatialAgent Start and Stop', () => {
  test('Start gets QUERY, THREAD_ID, MAX_STEP and TOOLS; Stop gets the conclusion and the iteration count', async () => {
    const start = tmpFile('start.jsonl');
    const stop = tmpFile('stop.jsonl');
    const p = saProject({
      Start: [bash(env(start, 'QUERY', 'THREAD_ID', 'MAX_STEP', 'TOOLS'))],
      Stop: [bash(env(stop, 'QUERY', 'CONCLUSION', 'ITERATION_COUNT', 'FINAL_STATE'))],
    });
    const r = await p.run({
      prompt: 'count the files',
      script: [{ text: 'Let me look.', ...shell('ls') }, { text: 'There are 2 files.' }],
      args: [...YOLO, '--max-steps', '7'],
    });
    assert.equal(r.code, 0, r.stderr);
    const [s] = readJsonl(start);
    assert.equal(s.QUERY, 'count the files');
    assert.match(s.THREAD_ID, /^[0-9a-f-]{8,}$/);
    assert.equal(s.MAX_STEP, '7');
    assert.match(s.TOOLS, /^\['read_file', .*'run_shell_command'.*\]$/);
    assert.match(s.TOOLS, /'run_code'/);
    const [e] = readJsonl(stop);
    assert.deepEqual(e, { QUERY: 'count the files', CONCLUSION: 'There are 2 files.', ITERATION_COUNT: '2', FINAL_STATE: 'done' });
  });

  test('a Start block ends the turn before the model is called; Stop still fires', async () => {
    const stop = tmpFile('stop.jsonl');
    const p = saProject({ Start: [bash(reply('', 3))], Stop: [bash(env(stop, 'FINAL_STATE', 'ITERATION_COUNT'))] });
    const r = await p.run({ prompt: 'hi', script: [{ text: 'never said' }] });
    assert.equal(r.calls.length, 0);
    assert.equal(r.stdout, '');
    assert.ok(r.stderr.includes('Blocked by hook: Command exited with code 3'), r.stderr);
    assert.deepEqual(readJsonl(stop), [{ FINAL_STATE: 'blocked', ITERATION_COUNT: '0' }]);
  });

  test('an injection through $QUERY never executes: the value lands in the command shell-escaped', async () => {
    const p = saProject({ Start: [bash('echo "Starting: $QUERY" >> queries.log; echo $QUERY >> queries.log')] });
    const query = '"; touch pwned1; echo " $(touch pwned2) `touch pwned3`; touch pwned4';
    const r = await p.run({ prompt: query, script: [{ text: 'ok' }] });
    assert.equal(r.code, 0, r.stderr);
    for (const m of ['pwned1', 'pwned2', 'pwned3', 'pwned4'])
      assert.equal(fs.existsSync(path.join(p.dir, m)), false, `${m} must not exist`);
    assert.equal(fs.readFileSync(path.join(p.dir, 'queries.log'), 'utf8'), `Starting: ${query}\n${query}\n`);
  });
});

describe('SpatialAgent planning', () => {
  test('PrePlan and PostPlan fire around each model call with their variables; a step matcher picks one step', async () => {
    const pre = tmpFile('pre.jsonl');
    const post = tmpFile('post.jsonl');
    const second = tmpFile('second.jsonl');
    const p = saProject({
      PrePlan: [bash(env(pre, 'STEP', 'MESSAGES', 'SYSTEM_PROMPT')), { matcher: { step: 2 }, ...bash(env(second, 'STEP')) }],
      PostPlan: [bash(env(post, 'STEP', 'RESPONSE', 'NEXT_STEP', 'HAS_ACT', 'HAS_CONCLUSION'))],
    });
    const r = await p.run({ prompt: 'plan it', script: [{ text: 'Looking.', ...shell('true') }, { text: 'Done.' }], args: YOLO });
    assert.equal(r.code, 0, r.stderr);
    const [p1, p2] = readJsonl(pre);
    assert.deepEqual([p1.STEP, p2.STEP], ['1', '2']);
    assert.match(p1.SYSTEM_PROMPT, /careful coding agent/);
    const m1 = JSON.parse(p1.MESSAGES);
    assert.deepEqual(
      m1.map((m: { role: string }) => m.role),
      ['user'],
    );
    assert.match(JSON.stringify(m1), /plan it/);
    assert.ok(JSON.parse(p2.MESSAGES).length > 1, 'the second call sees the tool round');
    assert.deepEqual(readJsonl(second), [{ STEP: '2' }]);
    assert.deepEqual(readJsonl(post), [
      { STEP: '1', RESPONSE: 'Looking.', NEXT_STEP: 'act', HAS_ACT: 'True', HAS_CONCLUSION: 'False' },
      { STEP: '2', RESPONSE: 'Done.', NEXT_STEP: 'conclude', HAS_ACT: 'False', HAS_CONCLUSION: 'True' },
    ]);
  });

  test('a PrePlan block stops the turn before the model is called', async () => {
    const p = saProject({ PrePlan: [bash(blockJson('over budget'))] });
    const r = await p.run({ prompt: 'hi', script: [{ text: 'never said' }] });
    assert.equal(r.calls.length, 0);
    assert.ok(r.stderr.includes('Agent execution blocked: over budget'), r.stderr);
  });

  test('a PreConclusion block stops the turn at the final answer; PreRoute fires before it', async () => {
    const log = tmpFile('route.log');
    const stop = tmpFile('stop.jsonl');
    const p = saProject({
      PreRoute: [bash(`${fixture('dx-order.sh')} ${sq(log)} PreRoute`)],
      PreConclusion: [bash(blockJson('needs a citation'))],
      Stop: [bash(env(stop, 'FINAL_STATE'))],
    });
    const r = await p.run({ prompt: 'answer', script: [{ text: 'Because.' }] });
    assert.equal(r.calls.length, 1);
    assert.equal(fs.readFileSync(log, 'utf8'), 'PreRoute\n');
    assert.ok(r.stderr.includes('Agent execution blocked: needs a citation'), r.stderr);
    assert.deepEqual(readJsonl(stop), [{ FINAL_STATE: 'blocked' }]);
  });
});

describe('SpatialAgent tools and code', () => {
  test('PreToolUse and PreAct see TOOL, CODE, COMMAND and CODE_TYPE for run_shell_command and run_code', async () => {
    const use = tmpFile('use.jsonl');
    const act = tmpFile('act.jsonl');
    const p = saProject({
      PreToolUse: [bash(env(use, 'TOOL', 'CODE', 'COMMAND', 'CODE_TYPE'))],
      PreAct: [bash(env(act, 'CODE', 'CODE_TYPE', 'RAW_CODE', 'ITERATION'))],
    });
    const r = await p.run({
      prompt: 'go',
      script: [
        shell('echo hi > a.txt'),
        code('python', 'print(6 * 7)'),
        { toolCalls: [{ name: 'read_file', args: { file_path: 'a.txt' } }] },
        { text: 'done' },
      ],
      args: YOLO,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readJsonl(use), [
      { TOOL: 'run_shell_command', CODE: 'echo hi > a.txt', COMMAND: 'echo hi > a.txt', CODE_TYPE: 'bash' },
      { TOOL: 'run_code', CODE: 'print(6 * 7)', CODE_TYPE: 'python' },
      { TOOL: 'read_file', CODE: '{"file_path":"a.txt"}' },
    ]);
    assert.deepEqual(
      readJsonl(act),
      [
        { CODE: 'echo hi > a.txt', CODE_TYPE: 'bash', RAW_CODE: 'echo hi > a.txt', ITERATION: '1' },
        { CODE: 'print(6 * 7)', CODE_TYPE: 'python', RAW_CODE: 'print(6 * 7)', ITERATION: '2' },
      ],
      'PreAct wraps code execution only',
    );
  });

  test('a block means the tool never runs; the model reads "Blocked by hook: <reason>"', async () => {
    const p = saProject({
      PreAct: [{ matcher: { code_type: 'bash' }, ...bash(fixture('sa-guard.sh')) }],
      PreToolUse: [{ matcher: { tool: '^run_code$' }, ...bash(reply('', 1)) }],
    });
    fs.mkdirSync(path.join(p.dir, 'keep'));
    const r = await p.run({
      prompt: 'go',
      script: [shell('rm -rf keep'), code('bash', 'touch marker2'), shell('touch marker3'), { text: 'ok' }],
      args: YOLO,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(fs.existsSync(path.join(p.dir, 'keep')), 'rm -rf was blocked');
    assert.equal(fs.existsSync(path.join(p.dir, 'marker2')), false, 'run_code was blocked');
    assert.ok(fs.existsSync(path.join(p.dir, 'marker3')), 'a safe command runs');
    const results = toolResults(r.calls[3]);
    assert.deepEqual(
      results.slice(0, 2).map((x) => [x.toolName, x.type, x.value]),
      [
        ['run_shell_command', 'error-text', 'Blocked by hook: Dangerous command'],
        ['run_code', 'error-text', 'Blocked by hook: Command exited with code 1'],
      ],
    );
    assert.doesNotMatch(results[2].value, /Blocked/);
  });

  test('PostAct and PostToolUse see RESULT, IS_ERROR and SUCCESS; a PostToolUse block replaces the result', async () => {
    const act = tmpFile('post-act.jsonl');
    const use = tmpFile('post-use.jsonl');
    const p = saProject({
      PostAct: [bash(env(act, 'CODE', 'CODE_TYPE', 'RESULT', 'IS_ERROR', 'ITERATION'))],
      PostToolUse: [
        bash(env(use, 'TOOL', 'COMMAND', 'RESULT', 'SUCCESS')),
        { matcher: { tool: 'read_file' }, ...bash(blockJson('no reading today')) },
      ],
    });
    fs.writeFileSync(path.join(p.dir, 'a.txt'), 'secret\n');
    const r = await p.run({
      prompt: 'go',
      script: [
        shell('echo out-1'),
        { toolCalls: [{ name: 'run_shell_command', args: { command: 'true', dir_path: 'missing-dir' } }] },
        { toolCalls: [{ name: 'read_file', args: { file_path: 'a.txt' } }] },
        { text: 'ok' },
      ],
      args: YOLO,
    });
    assert.equal(r.code, 0, r.stderr);
    const [a1, a2] = readJsonl(act);
    assert.deepEqual(
      { ...a1, RESULT: undefined },
      { CODE: 'echo out-1', CODE_TYPE: 'bash', IS_ERROR: 'False', ITERATION: '1', RESULT: undefined },
    );
    assert.match(a1.RESULT, /Output: out-1/);
    assert.equal(a2.IS_ERROR, 'True');
    const [u1, u2, u3] = readJsonl(use);
    assert.deepEqual([u1.TOOL, u1.COMMAND, u1.SUCCESS], ['run_shell_command', 'echo out-1', 'True']);
    assert.equal(u1.RESULT, a1.RESULT);
    assert.equal(u2.SUCCESS, 'False');
    assert.deepEqual([u3.TOOL, u3.SUCCESS], ['read_file', 'True']);
    assert.match(u3.RESULT, /secret/);
    const last = toolResults(r.calls[3]);
    assert.equal(last[2].value, 'Tool result blocked by hook: no reading today');
    assert.doesNotMatch(JSON.stringify(r.calls[3].prompt), /secret/);
  });

  test("a prompt hook is decided by the agent's model (one script line): JSON block, then the keyword rule", async () => {
    const p = saProject({ PreAct: [{ type: 'prompt', prompt: 'Review this $CODE_TYPE for safety: $CODE\nRespond with JSON.' }] });
    const r = await p.run({
      prompt: 'go',
      script: [
        shell('touch risky'),
        { text: 'Sure: {"decision": "block", "reason": "touches files"}' },
        shell('touch fine'),
        { text: 'I see no reason to block this.' },
        { text: 'done' },
      ],
      args: YOLO,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.calls.length, 5, 'each prompt hook is one model call');
    assert.equal(lastUser(r.calls[1]), 'Review this bash for safety: touch risky\nRespond with JSON.');
    assert.equal(fs.existsSync(path.join(p.dir, 'risky')), false);
    assert.ok(fs.existsSync(path.join(p.dir, 'fine')), '"no reason to block" approves');
    const results = toolResults(r.calls[4]);
    assert.deepEqual(
      results.map((x) => (x.value.startsWith('Blocked by hook') ? x.value : 'ran')),
      ['Blocked by hook: touches files', 'ran'],
    );
  });

  test('--display-hooks lists SpatialAgent runs', async () => {
    const p = saProject({ Start: [bash(reply(''))], PreToolUse: [bash(blockJson('nope'))] });
    const r = await p.run({ prompt: 'go', script: [shell('true'), { text: 'ok' }], args: [...YOLO, '--display-hooks'] });
    const lines = r.stderr
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /^🪝 \d/.test(l));
    assert.deepEqual(lines, [`🪝 1. Start · ${reply('')} → approve`, `🪝 2. PreToolUse · ${blockJson('nope')} → block: nope`]);
  });
});

describe('both dialects, and trust', () => {
  test('mm allows, SpatialAgent blocks: the call is blocked (the most restrictive decision wins)', async () => {
    const mmLog = tmpFile('mm.jsonl');
    const p = saProject({ PreToolUse: [bash(blockJson('SpatialAgent says no'))] });
    fs.writeFileSync(
      path.join(p.dir, 'agent.yaml'),
      stringify({ hooks: { preToolCall: [{ command: `${fixture('dx-reply.sh')} ${sq(mmLog)} '{"action":"continue"}'` }] } }),
    );
    const r = await p.run({ prompt: 'go', script: [shell('touch marker'), { text: 'ok' }], args: YOLO });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readJsonl(mmLog).length, 1, 'the mm hook ran and allowed');
    assert.equal(fs.existsSync(path.join(p.dir, 'marker')), false);
    assert.equal(toolResults(r.calls[1])[0].value, 'Blocked by hook: SpatialAgent says no');
  });

  test('SpatialAgent sees what mm left: the rewritten query and the replaced tool input', async () => {
    const start = tmpFile('start.jsonl');
    const use = tmpFile('use.jsonl');
    const stop = tmpFile('stop.jsonl');
    const p = saProject({ Start: [bash(env(start, 'QUERY'))], PreToolUse: [bash(env(use, 'COMMAND'))], Stop: [bash(env(stop, 'QUERY'))] });
    fs.writeFileSync(
      path.join(p.dir, 'agent.yaml'),
      stringify({
        hooks: {
          preGeneration: [{ command: `${fixture('dx-rewrite.js')} A` }],
          preToolCall: [{ command: `${fixture('dx-reply.sh')} - '{"input":{"command":"touch replaced"}}'` }],
        },
      }),
    );
    const r = await p.run({ prompt: 'go', script: [shell('touch original'), { text: 'ok' }], args: YOLO });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readJsonl(start), [{ QUERY: 'go +A' }]);
    assert.deepEqual(readJsonl(use), [{ COMMAND: 'touch replaced' }]);
    assert.deepEqual(readJsonl(stop), [{ QUERY: 'go +A' }]);
    assert.ok(fs.existsSync(path.join(p.dir, 'replaced')));
    assert.equal(texts(r.calls[0], 'user')[0], 'go +A\n\n[context added by a hook]\nA saw: go');
  });

  test("an untrusted folder: the project's agent.yaml and .spatialagent hooks do not run, and stderr says so", async () => {
    const p = agentProject({}, { trusted: false });
    const marker = path.join(p.base, 'marker');
    writeSa(p, { Start: [bash(`touch ${sq(marker + '-sa')}`)] });
    fs.writeFileSync(path.join(p.dir, 'agent.yaml'), stringify({ hooks: { preGeneration: [{ command: `touch ${sq(marker + '-mm')}` }] } }));
    const r = await p.run({ prompt: 'hi', script: [{ text: 'hello' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.existsSync(marker + '-mm'), false);
    assert.equal(fs.existsSync(marker + '-sa'), false);
    assert.match(r.stderr, /is not a trusted folder: the mm hooks in .*agent\.yaml do not run/);
    assert.match(r.stderr, /is not a trusted folder: the hooks in .*settings\.json do not run/);
    assert.equal(lastUser(r.calls[0]), 'hi');
  });
});
