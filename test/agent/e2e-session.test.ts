// End to end: the session events of `hookline agent` (SessionStart, SessionEnd, PreCompress),
// interactive commands, --resume, and the exact input every one of the 11 events receives.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { tmpFile } from '../helpers.js';
import { agentProject, hookEntry, on, readJsonl, respond, texts, lastUser, type AgentProject } from './e2e-util.js';

const inputs = (log: string) => readJsonl(log).map((i) => `${i.hook_event_name}:${i.source ?? i.reason ?? i.trigger ?? ''}`);

describe('SessionStart and SessionEnd', () => {
  test('-p: SessionStart startup context is prepended to the prompt in <hook_context>; never blocks; SessionEnd exit', async () => {
    const log = tmpFile('session.jsonl');
    const start = {
      decision: 'deny',
      continue: false,
      systemMessage: 'welcome back',
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'Project uses <pnpm>' },
    };
    const p = agentProject({ hooks: { SessionStart: on(respond(log, start)), SessionEnd: on(respond(log)) } });
    const r = await p.run({ prompt: 'install deps', script: [{ text: 'Running pnpm install.' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(inputs(log), ['SessionStart:startup', 'SessionEnd:exit']);
    assert.equal(r.calls.length, 1, 'decision and continue are ignored: the turn runs');
    assert.equal(lastUser(r.calls[0]), '<hook_context>Project uses &lt;pnpm&gt;</hook_context>\n\ninstall deps');
    assert.match(r.stderr, /^Hook system message: welcome back$/m);
  });

  test('interactive: context opens the history; /clear fires SessionEnd clear then SessionStart clear and forgets', async () => {
    const log = tmpFile('session.jsonl');
    const start = { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'ctx' } };
    const p = agentProject({ hooks: { SessionStart: on(respond(log, start)), SessionEnd: on(respond(log)) } });
    const r = await p.run({
      input: 'my name is Ada\n/clear\nwhat is my name?\n/quit\n',
      script: [{ text: 'Hello Ada.' }, { text: 'I do not know.' }],
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(inputs(log), ['SessionStart:startup', 'SessionEnd:clear', 'SessionStart:clear', 'SessionEnd:exit']);
    assert.deepEqual(texts(r.calls[0], 'user'), ['<hook_context>ctx</hook_context>', 'my name is Ada']);
    assert.deepEqual(texts(r.calls[1], 'user'), ['<hook_context>ctx</hook_context>', 'what is my name?']);
    assert.deepEqual(texts(r.calls[1], 'assistant'), []);
    assert.match(r.stdout, /conversation cleared/);
  });

  test('interactive: the end of input is SessionEnd prompt_input_exit', async () => {
    const log = tmpFile('session.jsonl');
    const p = agentProject({ hooks: { SessionEnd: on(respond(log)) } });
    const r = await p.run({ input: 'hi\n', script: [{ text: 'hello' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(inputs(log), ['SessionEnd:prompt_input_exit']);
  });

  test('--resume: SessionStart resume, same session, and the model sees the earlier conversation', async () => {
    const log = tmpFile('session.jsonl');
    const p = agentProject({ hooks: { SessionStart: on(respond(log)) } });
    const first = await p.run({ prompt: 'Remember: the code word is PELICAN', script: [{ text: 'Noted.' }] });
    assert.equal(first.code, 0, first.stderr);
    const second = await p.run({ prompt: 'What is the code word?', script: [{ text: 'PELICAN' }], args: ['--resume'] });
    assert.equal(second.code, 0, second.stderr);
    const [a, b] = readJsonl(log);
    assert.equal(a.source, 'startup');
    assert.equal(b.source, 'resume');
    assert.equal(b.session_id, a.session_id);
    assert.equal(b.transcript_path, a.transcript_path);
    assert.deepEqual(texts(second.calls[0], 'user'), ['Remember: the code word is PELICAN', 'What is the code word?']);
    assert.deepEqual(texts(second.calls[0], 'assistant'), ['Noted.']);
  });

  test('--resume with nothing saved is a clear error', async () => {
    const p = agentProject({});
    const r = await p.run({ prompt: 'hi', script: [{ text: 'x' }], args: ['--resume'] });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /no saved session/);
  });
});

describe('interactive commands', () => {
  test('/hooks disable and enable switch a hook off and on for the next prompts', async () => {
    const p = agentProject({
      hooks: { BeforeAgent: [{ hooks: [hookEntry(respond(null, { decision: 'deny', reason: 'gate closed' }), { name: 'gate' })] }] },
    });
    const input = 'one\n/hooks disable gate\ntwo\n/hooks enable gate\nthree\n/quit\n';
    const r = await p.run({ input, script: [{ text: 'answer two' }, { text: 'unused' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.calls.length, 1, 'only the prompt sent while the hook was off reached the model');
    assert.deepEqual(texts(r.calls[0], 'user'), ['two']);
    assert.equal((r.stderr.match(/Agent execution blocked: gate closed/g) ?? []).length, 2);
    assert.match(r.stdout, /Hook "gate" disabled/);
  });

  test('AfterAgent clearContext: the next prompt starts from an empty history', async () => {
    const p = agentProject({
      hooks: { AfterAgent: on(respond(null, { hookSpecificOutput: { hookEventName: 'AfterAgent', clearContext: true } })) },
    });
    const r = await p.run({ input: 'my name is Ada\nwhat is my name?\n/quit\n', script: [{ text: 'Hi Ada' }, { text: 'I do not know' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(texts(r.calls[1], 'user'), ['what is my name?']);
    assert.deepEqual(texts(r.calls[1], 'assistant'), []);
  });

  test('an unknown command is reported and the session goes on', async () => {
    const p = agentProject({});
    const r = await p.run({ input: '/frobnicate\nhello\n/exit\n', script: [{ text: 'hi there' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /unknown command \/frobnicate; commands: .*, \/quit or \/exit$/m);
    assert.match(r.stdout, /hi there/);
  });
});

describe('PreCompress', () => {
  test('manual: /compress fires PreCompress manual and the model then sees a summary', async () => {
    const log = tmpFile('pre-compress.jsonl');
    const p = agentProject({ hooks: { PreCompress: on(respond(log, { systemMessage: 'saving notes before compression' })) } });
    const script = ['one', 'two', 'three', 'four'].map((t) => ({ text: `answer ${t}` }));
    const r = await p.run({ input: 'first question\nsecond question\nthird question\n/compress\nfourth question\n/quit\n', script });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      readJsonl(log).map((i) => i.trigger),
      ['manual'],
    );
    assert.match(r.stderr, /saving notes before compression/);
    const users = texts(r.calls[3], 'user');
    assert.match(users[0], /^Summary of the earlier conversation \(compressed\):\n\[user\] first question\n\[model\] answer one/);
    assert.equal(users.includes('first question'), false);
    assert.equal(users[users.length - 1], 'fourth question');
  });

  test('auto: past --compress-threshold PreCompress fires with trigger auto and older history is summarised', async () => {
    const log = tmpFile('pre-compress.jsonl');
    const p = agentProject({ hooks: { PreCompress: on(respond(log)) } });
    const script = ['one', 'two', 'three'].map((t) => ({ text: `answer ${t}` }));
    const r = await p.run({
      input: 'a first question of some length\na second question\na third question\n/quit\n',
      script,
      args: ['--compress-threshold', '10'],
    });
    assert.equal(r.code, 0, r.stderr);
    const triggers = readJsonl(log).map((i) => i.trigger);
    assert.ok(triggers.length >= 1 && triggers.every((t) => t === 'auto'), JSON.stringify(triggers));
    assert.match(texts(r.calls[2], 'user')[0], /^Summary of the earlier conversation \(compressed\):\n\[user\] a first question/);
  });

  test('below the threshold it does not fire', async () => {
    const log = tmpFile('pre-compress.jsonl');
    const p = agentProject({ hooks: { PreCompress: on(respond(log)) } });
    const r = await p.run({ prompt: 'hi', script: [{ text: 'hello' }] });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readJsonl(log).length, 0);
  });
});

describe('the exact input of every event', () => {
  const EVENTS = [
    'SessionStart',
    'SessionEnd',
    'BeforeAgent',
    'AfterAgent',
    'BeforeModel',
    'AfterModel',
    'BeforeToolSelection',
    'BeforeTool',
    'AfterTool',
    'PreCompress',
    'Notification',
  ];
  const BASE = ['cwd', 'hook_event_name', 'session_id', 'timestamp', 'transcript_path'];
  let p: AgentProject;
  let all: any[];

  test('one run fires all 11 events in order', async () => {
    const log = tmpFile('events.jsonl');
    // A hook asks before the write: in -p its approval is announced (Notification) and refused, as Gemini CLI's is.
    const ask = { matcher: 'write_file', hooks: [hookEntry(respond(null, { decision: 'ask' }))] };
    p = agentProject({
      hooks: Object.fromEntries(EVENTS.map((e) => [e, e === 'BeforeTool' ? [...on(respond(log)), ask] : on(respond(log))])),
    });
    fs.writeFileSync(path.join(p.dir, 'a.txt'), 'alpha\n');
    const script = [
      {
        text: 'Reading.\n',
        toolCalls: [
          { name: 'read_file', args: { file_path: 'a.txt' } },
          { name: 'write_file', args: { file_path: 'b.txt', content: 'beta' } },
        ],
      },
      { text: 'All done.' },
    ];
    const r = await p.run({ prompt: 'copy a.txt to b.txt', script, args: ['--compress-threshold', '1', '--approval-mode', 'yolo'] });
    assert.equal(r.code, 0, r.stderr);
    all = readJsonl(log);
    assert.deepEqual(
      all.map((i) => i.hook_event_name),
      [
        'SessionStart',
        'BeforeAgent',
        'PreCompress',
        'BeforeModel',
        'BeforeToolSelection',
        'AfterModel',
        'BeforeTool',
        'AfterTool',
        'BeforeTool',
        'Notification',
        'BeforeModel',
        'BeforeToolSelection',
        'AfterModel',
        'AfterAgent',
        'SessionEnd',
      ],
    );
  });

  test('base fields: session_id, an existing transcript_path, cwd, hook_event_name, an ISO timestamp', () => {
    assert.ok(all, 'needs the previous test');
    const sid = all[0].session_id;
    assert.match(sid, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    for (const i of all) {
      assert.equal(i.session_id, sid);
      assert.equal(i.transcript_path, all[0].transcript_path);
      assert.ok(fs.statSync(i.transcript_path).isFile(), i.transcript_path);
      assert.equal(fs.realpathSync(i.cwd), fs.realpathSync(p.dir));
      assert.equal(new Date(i.timestamp).toISOString(), i.timestamp);
    }
  });

  test("each event's own fields", () => {
    assert.ok(all, 'needs the first test');
    const own = (i: any): any => Object.fromEntries(Object.entries(i).filter(([k]) => !BASE.includes(k)));
    const byEvent = (e: string) => all.filter((i) => i.hook_event_name === e).map(own);
    const prompt = 'copy a.txt to b.txt';
    assert.deepEqual(byEvent('SessionStart'), [{ source: 'startup' }]);
    assert.deepEqual(byEvent('SessionEnd'), [{ reason: 'exit' }]);
    assert.deepEqual(byEvent('PreCompress'), [{ trigger: 'auto' }]);
    assert.deepEqual(byEvent('BeforeAgent'), [{ prompt }]);
    assert.deepEqual(byEvent('AfterAgent'), [{ prompt, prompt_response: 'Reading.\n\nAll done.', stop_hook_active: false }]);

    const [bm1, bm2] = byEvent('BeforeModel');
    assert.deepEqual(Object.keys(bm1), ['llm_request']);
    assert.deepEqual(bm1.llm_request.messages, [{ role: 'user', content: prompt }]);
    assert.equal(typeof bm1.llm_request.model, 'string');
    assert.deepEqual(bm2.llm_request.messages, [
      { role: 'user', content: prompt },
      { role: 'model', content: 'Reading.\n' },
    ]);
    assert.deepEqual(byEvent('BeforeToolSelection'), [bm1, bm2], 'BeforeToolSelection sees the same request');

    const am = byEvent('AfterModel');
    assert.deepEqual(Object.keys(am[0]).sort(), ['llm_request', 'llm_response']);
    assert.deepEqual(am[0].llm_request, bm1.llm_request);
    assert.deepEqual(
      am.map((i) => i.llm_response.text),
      ['Reading.\n', 'All done.'],
    );
    assert.deepEqual(am[1].llm_response.candidates[0].content, { role: 'model', parts: ['All done.'] });

    const bt = byEvent('BeforeTool');
    assert.deepEqual(bt, [
      { tool_name: 'read_file', tool_input: { file_path: 'a.txt' } },
      { tool_name: 'write_file', tool_input: { file_path: 'b.txt', content: 'beta' } },
    ]);
    const [at] = byEvent('AfterTool');
    assert.deepEqual(Object.keys(at).sort(), ['tool_input', 'tool_name', 'tool_response']);
    assert.equal(at.tool_name, 'read_file');
    assert.deepEqual(at.tool_input, { file_path: 'a.txt' });
    assert.match(at.tool_response.llmContent, /alpha/);
    assert.equal(typeof at.tool_response.returnDisplay, 'string', 'read_file shows a line');
    assert.equal(at.tool_response.error, undefined);

    const [n] = byEvent('Notification');
    assert.deepEqual(Object.keys(n).sort(), ['details', 'message', 'notification_type']);
    assert.equal(n.notification_type, 'ToolPermission');
    assert.equal(n.message, 'Tool Confirm Write: b.txt requires editing');
    assert.equal(n.details.type, 'edit');
  });
});
