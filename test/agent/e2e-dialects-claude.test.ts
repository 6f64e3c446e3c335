// End to end: Claude Code hooks (.claude/settings.json) in `hookline agent`, merged with the
// Gemini hooks at each point (the most restrictive decision wins).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { tmpFile } from '../helpers.js';
import { agentProject, lastUser, notes, on, readJsonl, respond, sq, toolResults, type AgentProject } from './e2e-util.js';

const YOLO = ['--approval-mode', 'yolo'];
const shell = (command: string) => ({ toolCalls: [{ name: 'run_shell_command', args: { command } }] });

function claudeProject(hooks: Record<string, unknown>, gemini: Record<string, unknown> = {}, trusted = true): AgentProject {
  const p = agentProject(gemini, { trusted });
  fs.mkdirSync(path.join(p.dir, '.claude'), { recursive: true });
  fs.writeFileSync(path.join(p.dir, '.claude', 'settings.json'), JSON.stringify({ hooks }));
  return p;
}

const cc = (command: string, matcher?: string) => [{ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command }] }];
// The Claude user settings are read from $HOME: point it at the project's own home.
const homeEnv = (p: AgentProject) => ({ HOME: p.home });

describe('Claude Code hooks in the agent', () => {
  test('PreToolUse exit 2 blocks Bash: the command never runs, the model reads stderr as the reason, with the command as Claude Code names it', async () => {
    const p = claudeProject({ PreToolUse: cc(`cat > pre.json; echo 'no shell here' >&2; exit 2`, 'Bash') });
    const marker = path.join(p.dir, 'ran');
    const r = await p.run({ prompt: 'go', script: [shell(`touch ${sq(marker)}`), { text: 'ok' }], args: YOLO, env: homeEnv(p) });
    assert.equal(r.code, 0);
    assert.equal(fs.existsSync(marker), false);
    assert.equal(
      toolResults(r.calls[1])[0].value,
      `PreToolUse:Bash hook error: [cat > pre.json; echo 'no shell here' >&2; exit 2]: no shell here\n`,
    );
    const input = JSON.parse(fs.readFileSync(path.join(p.dir, 'pre.json'), 'utf8'));
    assert.equal(input.hook_event_name, 'PreToolUse');
    assert.equal(input.tool_name, 'Bash');
    assert.deepEqual(input.tool_input, { command: `touch ${sq(marker)}` });
    assert.equal(input.permission_mode, 'bypassPermissions');
    assert.equal(typeof input.tool_use_id, 'string');
  });

  test('permissionDecision allow with updatedInput: the tool runs with the replaced input', async () => {
    const p = claudeProject({});
    const good = path.join(p.dir, 'good');
    const out = {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: `touch ${good}` } },
    };
    fs.writeFileSync(
      path.join(p.dir, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: cc(`echo ${sq(JSON.stringify(out))}`, 'Bash') } }),
    );
    const bad = path.join(p.dir, 'bad');
    const r = await p.run({ prompt: 'go', script: [shell(`touch ${bad}`), { text: 'ok' }], args: YOLO, env: homeEnv(p) });
    assert.equal(r.code, 0);
    assert.equal(fs.existsSync(good), true);
    assert.equal(fs.existsSync(bad), false);
  });

  test('UserPromptSubmit plain stdout becomes context the model reads, a message of its own after the prompt', async () => {
    const p = claudeProject({ UserPromptSubmit: cc(`echo 'branch main, 3 files changed'`) });
    const r = await p.run({ prompt: 'status?', script: [{ text: 'fine' }], env: homeEnv(p) });
    assert.equal(lastUser(r.calls[0]), 'status?');
    assert.deepEqual(notes(r.calls[0]), ['UserPromptSubmit hook success: branch main, 3 files changed']);
  });

  test('a Stop hook that blocks keeps the turn going: its reason is feedback after the answer, no new prompt', async () => {
    const log = tmpFile('prompts.jsonl');
    const p = claudeProject({
      UserPromptSubmit: cc(respond(log)),
      Stop: cc(`grep -q '"stop_hook_active":true' && exit 0; echo '{"decision":"block","reason":"run the tests first"}'`),
    });
    const r = await p.run({ prompt: 'done?', script: [{ text: 'yes' }, { text: 'tests pass' }], env: homeEnv(p) });
    assert.equal(r.calls.length, 2);
    assert.equal(lastUser(r.calls[1]), 'Stop hook feedback:\nrun the tests first');
    assert.equal(notes(r.calls[1]).length, 1);
    assert.match(notes(r.calls[1])[0], /^Stop hook blocking error from command: ".*": run the tests first$/);
    assert.equal(readJsonl(log).length, 1, 'UserPromptSubmit runs for the user’s prompt only');
    assert.match(r.stdout, /tests pass/);
  });

  test("a Stop hook that always blocks ends the turn after Claude Code's 8 blocks in a row; CLAUDE_CODE_STOP_HOOK_BLOCK_CAP changes it", async () => {
    const p = claudeProject({ Stop: cc(`echo '{"decision":"block","reason":"again"}'`) });
    const answers = Array.from({ length: 12 }, (_, i) => ({ text: `answer ${i}` }));
    const r = await p.run({ prompt: 'go', script: answers, env: homeEnv(p) });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.calls.length, 9, 'the first answer and 8 blocked retries');
    const capped = await p.run({ prompt: 'go', script: answers, env: { ...homeEnv(p), CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '2' } });
    assert.equal(capped.calls.length, 3);
  });

  test("a Stop hook's additionalContext is feedback that keeps the turn going (Claude Code 2.1.163)", async () => {
    const p = claudeProject({
      Stop: cc(
        `grep -q '"stop_hook_active":true' && exit 0; echo '{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"Also run the tests."}}'`,
      ),
    });
    const r = await p.run({ prompt: 'done?', script: [{ text: 'yes' }, { text: 'tests pass' }], env: homeEnv(p) });
    assert.equal(r.calls.length, 2);
    // After the model's answer a note is the user's message, marked as Claude Code marks it.
    assert.equal(lastUser(r.calls[1]), '<system-reminder>\nStop hook additional context: Also run the tests.\n</system-reminder>');
    assert.match(r.stdout, /tests pass/);
  });

  test('a Gemini hook allows and a Claude hook denies: the tool is denied', async () => {
    const p = claudeProject(
      {
        PreToolUse: cc(
          `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"claude says no"}}'`,
        ),
      },
      {
        hooks: { BeforeTool: on(respond(null, { decision: 'allow' })) },
      },
    );
    const marker = path.join(p.dir, 'ran');
    const r = await p.run({ prompt: 'go', script: [shell(`touch ${marker}`), { text: 'ok' }], args: YOLO, env: homeEnv(p) });
    assert.equal(fs.existsSync(marker), false);
    assert.equal(toolResults(r.calls[1])[0].value, 'PreToolUse:Bash hook error: claude says no');
  });

  test('in an untrusted folder the project Claude hooks do not run, and stderr says so', async () => {
    const p = claudeProject({ UserPromptSubmit: cc('touch claude-ran') }, {}, false);
    const r = await p.run({ prompt: 'hi', script: [{ text: 'hello' }], env: homeEnv(p) });
    assert.equal(r.code, 0);
    assert.equal(fs.existsSync(path.join(p.dir, 'claude-ran')), false);
    assert.match(r.stderr, /not a trusted folder: the hooks in \.claude\/settings\.json do not run/);
  });
});

describe('Claude Code hooks changed during a session', () => {
  test("a hook script the agent's own tool rewrites is held back from the next event on", async () => {
    const marker = tmpFile('ran.txt');
    const p = claudeProject({});
    const script = path.join(p.dir, 'hook.sh');
    fs.writeFileSync(script, `cat >/dev/null; echo v1 >> ${sq(marker)}\n`);
    fs.writeFileSync(path.join(p.dir, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: cc(`sh ${sq(script)}`) } }));
    const rewrite = {
      toolCalls: [{ name: 'write_file', args: { file_path: script, content: `cat >/dev/null; echo v2 >> ${sq(marker)}\n` } }],
    };
    const r = await p.run({ prompt: 'go', script: [rewrite, shell('true'), { text: 'done' }], args: YOLO, env: homeEnv(p) });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.readFileSync(script, 'utf8').includes('v2'), true, 'the tool rewrote the script');
    assert.deepEqual(fs.readFileSync(marker, 'utf8').split('\n').filter(Boolean), ['v1'], 'the rewritten script never ran');
    assert.match(r.stderr, /held back until trusted/);
  });
});
