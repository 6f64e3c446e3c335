// End to end: Claude Code's hook effects and events at the reference agent's own moments —
// PreToolUse context, PostToolUse output replacement, suppressOutput, systemMessage, continue:false;
// PermissionRequest/PermissionDenied at the approval prompt, PostToolBatch, StopFailure,
// InstructionsLoaded with the context files, PreCompact/PostCompact, ConfigChange.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { tmpFile } from '../helpers.js';
import { agentProject, notes, readJsonl, respond, sq, texts, toolResults, type AgentProject } from './e2e-util.js';

const YOLO = ['--approval-mode', 'yolo'];
const shell = (command: string) => ({ toolCalls: [{ name: 'run_shell_command', args: { command } }] });
const cc = (command: string, matcher?: string) => [{ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command }] }];
const json = (o: unknown) => `echo ${sq(JSON.stringify(o))}`;

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value));
}

/** A trusted project with `.claude/settings.json` hooks; Claude's user settings are under the project's home. */
function claudeProject(hooks: Record<string, unknown>, gemini: Record<string, unknown> = {}): AgentProject {
  const p = agentProject(gemini);
  writeJson(path.join(p.dir, '.claude', 'settings.json'), { hooks });
  return p;
}
const homeEnv = (p: AgentProject) => ({ HOME: p.home });

describe('Claude Code hook effects in the agent', () => {
  test('PreToolUse context and PostToolUse updatedToolOutput reach the model; systemMessage shows; suppressOutput hides a hook’s stdout', async () => {
    const p = claudeProject({
      PreToolUse: cc(
        json({
          systemMessage: 'pre says hi',
          hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'the branch is main' },
        }),
        'Bash',
      ),
      PostToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            {
              type: 'command',
              command: json({
                suppressOutput: true,
                hookSpecificOutput: {
                  hookEventName: 'PostToolUse',
                  updatedToolOutput: { stdout: '[redacted]', stderr: '', interrupted: false, isImage: false },
                },
              }),
            },
            { type: 'command', command: 'echo shown-in-display' },
          ],
        },
      ],
    });
    const r = await p.run({
      prompt: 'go',
      script: [shell('echo the-secret'), { text: 'ok' }],
      args: [...YOLO, '--display-hooks'],
      env: homeEnv(p),
    });
    assert.equal(r.code, 0, r.stderr);
    const [res] = toolResults(r.calls[1]);
    // As Claude Code 2.1.328: the result is replaced, the context is a message of its own after it.
    assert.equal(res.value, '[redacted]');
    assert.deepEqual(notes(r.calls[1]), ['PreToolUse:Bash hook additional context: the branch is main']);
    assert.ok(r.stderr.split('\n').includes('PreToolUse:Bash says: pre says hi'), r.stderr);
    assert.match(r.stderr, /^ {5}shown-in-display$/m, 'plain stdout shows under its hook line');
    assert.doesNotMatch(r.stderr, /^ {5}.*updatedToolOutput/m, 'the suppressed hook’s stdout does not');
    assert.match(r.stderr, /^ {5}\{"systemMessage":"pre says hi"/m, 'an unsuppressed JSON answer shows too');
  });

  test('continue:false stops the agent with its reason: PostToolUse mid-turn, SessionStart before the first model call', async () => {
    const p = claudeProject({ PostToolUse: cc(json({ continue: false, stopReason: 'enough for today' }), 'Bash') });
    const r = await p.run({ prompt: 'go', script: [shell('echo hi'), { text: 'never' }], args: YOLO, env: homeEnv(p) });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.calls.length, 1);
    assert.match(r.stderr, /Agent execution stopped by hook: enough for today/);

    const q = claudeProject({ SessionStart: cc(json({ continue: false, stopReason: 'not in this repo' })) });
    const s = await q.run({ prompt: 'go', script: [{ text: 'never' }], env: homeEnv(q) });
    assert.equal(s.code, 0, s.stderr);
    assert.equal(s.calls.length, 0, 'the model is never called');
    assert.match(s.stderr, /Agent execution stopped by hook: not in this repo/);
  });
});

describe('Claude Code events at the agent’s moments', () => {
  test('PermissionRequest answers the approval prompt (allow with new input, deny, deny with interrupt); in -p nobody refuses, so no PermissionDenied', async () => {
    const req = tmpFile('permission-request.jsonl');
    const denied = tmpFile('permission-denied.jsonl');
    const allow = {
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: { command: 'touch good' } } },
    };
    const deny = {
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'not the second one' } },
    };
    const interrupt = {
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'stop here', interrupt: true } },
    };
    // Matched on the command words: a session id's hex digits can spell "bad".
    const decide = `input=$(cat); printf '%s\\n' "$input" >> ${sq(req)}; case "$input" in *'touch bad'*) ${json(allow)};; *'touch second'*) ${json(deny)};; *'touch last'*) ${json(interrupt)};; esac`;
    const p = claudeProject({
      PermissionRequest: cc(decide, 'Bash'),
      PermissionDenied: cc(respond(denied, { hookSpecificOutput: { hookEventName: 'PermissionDenied', retry: true } })),
    });
    const r = await p.run({
      prompt: 'go',
      script: [shell('touch bad'), shell('touch second'), shell('touch third'), shell('touch last'), { text: 'never' }],
      env: homeEnv(p),
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.existsSync(path.join(p.dir, 'good')), true, 'allowed without asking, with the hook’s input');
    assert.equal(fs.existsSync(path.join(p.dir, 'bad')), false);
    assert.equal(fs.existsSync(path.join(p.dir, 'second')), false);
    assert.equal(fs.existsSync(path.join(p.dir, 'third')), false);
    const results = toolResults(r.calls[3]);
    assert.equal(results[1].value, 'not the second one', 'the model reads the hook’s message as it is, as in Claude Code');
    assert.match(results[2].value, /needs the user's approval[\s\S]*auto_edit or yolo to allow such tools without asking\.$/);
    const asked = readJsonl(req);
    assert.equal(asked.length, 4);
    assert.equal(r.calls.length, 4, 'interrupt: the turn ends at the denied call');
    assert.match(r.stderr, /^Agent execution stopped: stop here$/m);
    assert.deepEqual(
      { event: asked[0].hook_event_name, tool: asked[0].tool_name, input: asked[0].tool_input, mode: asked[0].permission_mode },
      { event: 'PermissionRequest', tool: 'Bash', input: { command: 'touch bad' }, mode: 'default' },
    );
    // As Claude Code in -p: a call it could not ask about is refused with no PermissionDenied.
    assert.equal(readJsonl(denied).length, 0);
  });

  test('PostToolBatch: once per model response with every call; its context reaches the model; exit 2 stops before the next model call', async () => {
    const log = tmpFile('batch.jsonl');
    const twoCalls = {
      toolCalls: [
        { name: 'run_shell_command', args: { command: 'echo one' } },
        { name: 'run_shell_command', args: { command: 'echo two' } },
      ],
    };
    // The first batch gets context; the second (echo three) is stopped by exit 2.
    const ctx = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolBatch', additionalContext: 'both ran' } });
    const hook = `input=$(cat); printf '%s\\n' "$input" >> ${sq(log)}; case "$input" in *three*) echo 'tests are red' >&2; exit 2;; esac; echo ${sq(ctx)}`;
    const p = claudeProject({ PostToolBatch: cc(hook) });
    const r = await p.run({ prompt: 'go', script: [twoCalls, shell('echo three'), { text: 'never' }], args: YOLO, env: homeEnv(p) });
    assert.equal(r.code, 0, r.stderr);
    const [batch, second, ...more] = readJsonl(log);
    assert.equal(more.length, 0);
    assert.deepEqual(
      batch.tool_calls.map((c: Record<string, unknown>) => [c.tool_name, c.tool_input, typeof c.tool_use_id]),
      [
        ['Bash', { command: 'echo one' }, 'string'],
        ['Bash', { command: 'echo two' }, 'string'],
      ],
    );
    assert.match(batch.tool_calls[1].tool_response, /two/);
    assert.equal(second.tool_calls.length, 1);
    const results = toolResults(r.calls[1]);
    assert.doesNotMatch(results[0].value + results[1].value, /both ran/);
    assert.deepEqual(notes(r.calls[1]), ['PostToolBatch hook additional context: both ran'], 'a message of its own after the results');
    assert.equal(r.calls.length, 2, 'no model call after the stopped batch');
    assert.match(r.stderr, /^Agent execution stopped: tests are red$/m);
  });

  test('InstructionsLoaded per context file in the system prompt; StopFailure (not Stop) when the model call fails', async () => {
    const loaded = tmpFile('instructions.jsonl');
    const failed = tmpFile('stop-failure.jsonl');
    const stop = tmpFile('stop.jsonl');
    const p = claudeProject({
      InstructionsLoaded: cc(respond(loaded)),
      StopFailure: cc(respond(failed)),
      Stop: cc(respond(stop)),
    });
    fs.writeFileSync(path.join(p.dir, 'CLAUDE.md'), 'Use tabs. Style: @docs/style.md\n');
    fs.mkdirSync(path.join(p.dir, 'docs'));
    fs.writeFileSync(path.join(p.dir, 'docs', 'style.md'), 'Short lines.\n');
    fs.writeFileSync(path.join(p.dir, 'AGENTS.md'), 'Run the tests.\n');
    fs.writeFileSync(path.join(p.dir, 'CLAUDE.local.md'), 'My sandbox is /tmp.\n');
    writeJson(path.join(p.home, '.claude', 'settings.json'), {});
    fs.writeFileSync(path.join(p.home, '.claude', 'CLAUDE.md'), 'Answer briefly.\n');
    // An empty script: the first model call fails.
    const r = await p.run({ prompt: 'go', script: [], env: homeEnv(p) });
    assert.equal(r.code, 1);
    const system = texts(r.calls[0], 'system').join('\n');
    for (const t of ['Answer briefly.', 'Use tabs.', 'Short lines.', 'Run the tests.', 'My sandbox is /tmp.'])
      assert.ok(system.includes(t), system);
    assert.ok(system.indexOf('Answer briefly.') < system.indexOf('Use tabs.'), 'the user’s file first');
    assert.deepEqual(
      readJsonl(loaded).map((i) => [path.relative(p.base, i.file_path), i.memory_type, i.load_reason, i.parent_file_path]),
      [
        ['home/.claude/CLAUDE.md', 'User', 'session_start', undefined],
        ['project/AGENTS.md', 'Project', 'session_start', undefined],
        ['project/CLAUDE.md', 'Project', 'session_start', undefined],
        ['project/docs/style.md', 'Project', 'include', path.join(p.dir, 'CLAUDE.md')],
        ['project/CLAUDE.local.md', 'Local', 'session_start', undefined],
      ],
    );
    const [f] = readJsonl(failed);
    assert.deepEqual([f.hook_event_name, f.error], ['StopFailure', 'unknown']);
    assert.equal(f.error_details, undefined, 'Claude Code sends none for such an error');
    assert.match(f.last_assistant_message, /^API Error: .*has no line for model call 1/);
    assert.equal(readJsonl(stop).length, 0);
  });

  test('PreCompact blocks a compression; PostCompact hears the summary (manual /compress)', async () => {
    const pre = tmpFile('pre-compact.jsonl');
    const post = tmpFile('post-compact.jsonl');
    const once = `input=$(cat); printf '%s\\n' "$input" >> ${sq(pre)}; if [ ! -e blocked-once ]; then touch blocked-once; ${json({ decision: 'block', reason: 'not now' })}; fi`;
    const p = claudeProject({ PreCompact: cc(once, 'manual'), PostCompact: cc(respond(post)) });
    const r = await p.run({
      input: 'one\ntwo\nthree\n/compress\n/compress\n/quit\n',
      script: [{ text: 'a' }, { text: 'b' }, { text: 'c' }],
      env: homeEnv(p),
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /history not compressed \(manual\): blocked by hook: not now/);
    assert.match(r.stderr, /history compressed \(manual\): 2 message\(s\) summarised/);
    assert.deepEqual(
      readJsonl(pre).map((i) => [i.hook_event_name, i.trigger]),
      [
        ['PreCompact', 'manual'],
        ['PreCompact', 'manual'],
      ],
    );
    const [done, ...more] = readJsonl(post);
    assert.equal(more.length, 0);
    assert.equal(done.trigger, 'manual');
    assert.match(done.compact_summary, /\[user\] one/);
  });

  test('ConfigChange: a changed settings file is applied unless a hook blocks it (then the earlier settings stay)', async () => {
    const log = tmpFile('config-change.jsonl');
    const user = (p: AgentProject) => path.join(p.home, '.claude', 'settings.json');
    // The first change is blocked, the second applied.
    const gate = `input=$(cat); printf '%s\\n' "$input" >> ${sq(log)}; if [ ! -e seen-change ]; then touch seen-change; exit 2; fi`;
    const p = agentProject({});
    const base = { hooks: { ConfigChange: cc(gate) } };
    const next = { hooks: { ConfigChange: cc(gate), PreToolUse: cc(respond(null, '', 2, 'new rule: no touching'), 'Bash') } };
    writeJson(user(p), base);
    const v2 = path.join(p.base, 'v2.json');
    const v3 = path.join(p.base, 'v3.json');
    fs.writeFileSync(v2, JSON.stringify(next));
    fs.writeFileSync(v3, JSON.stringify(next, null, 2));
    const r = await p.run({
      prompt: 'go',
      script: [shell(`cp ${sq(v2)} ${sq(user(p))}`), shell(`touch m1 && cp ${sq(v3)} ${sq(user(p))}`), shell('touch m2'), { text: 'ok' }],
      args: YOLO,
      env: homeEnv(p),
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.existsSync(path.join(p.dir, 'm1')), true, 'the blocked change left the old settings');
    assert.equal(fs.existsSync(path.join(p.dir, 'm2')), false, 'the applied change’s hook blocks');
    assert.match(toolResults(r.calls[3])[2].value, /^PreToolUse:Bash hook error: \[.*\]: new rule: no touching\n$/);
    assert.deepEqual(
      readJsonl(log).map((i) => [i.hook_event_name, i.source, i.file_path]),
      [
        ['ConfigChange', 'user_settings', user(p)],
        ['ConfigChange', 'user_settings', user(p)],
      ],
    );
    assert.match(r.stderr, /settings change in .*settings\.json not applied: the earlier settings stay/);
    assert.match(r.stderr, /settings change in .*settings\.json applied/);
  });
});
