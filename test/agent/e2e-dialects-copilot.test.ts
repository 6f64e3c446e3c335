// `hookline agent` with Copilot CLI hooks: each event's answer lands where Copilot CLI puts it
// (sessionStart's context as a user message of its own, userPromptSubmitted's in
// <system_reminder>, a deny's text as the tool's error, postToolUse's guidance after the result),
// and an untrusted workspace's hooks are held back, said once with the command that trusts them.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { agentProject, lastUser, texts, toolResults } from './e2e-util.js';
import { HOOKS } from '../helpers.js';

const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const reply = (out: unknown) => `${sq(path.join(HOOKS, 'copilot-reply.sh'))} 0 ${sq(JSON.stringify(out))}`;
const guard = sq(path.join(HOOKS, 'copilot-guard.mjs'));
const shell = (command: string) => ({ toolCalls: [{ name: 'run_shell_command', args: { command } }] });

function project(hooks: Record<string, unknown[]>, trusted = true) {
  const p = agentProject({}, { trusted });
  const file = path.join(p.dir, '.github', 'hooks', 'hooks.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ version: 1, hooks }));
  fs.mkdirSync(path.join(p.dir, 'build'));
  return p;
}

describe('hookline agent: Copilot CLI hooks', () => {
  test('sessionStart context is a user message before the prompt; userPromptSubmitted context is in <system_reminder>; a deny is the tool error', async () => {
    const p = project({
      sessionStart: [{ type: 'command', bash: reply({ additionalContext: 'HK-start' }) }],
      userPromptSubmitted: [{ type: 'command', bash: reply({ additionalContext: 'HK-prompt' }) }],
      preToolUse: [{ type: 'command', bash: guard, matcher: 'bash' }],
    });
    const r = await p.run({ prompt: 'clean up', script: [shell('rm -rf build'), { text: 'done' }], args: ['--approval-mode', 'yolo'] });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(fs.existsSync(path.join(p.dir, 'build')), 'the denied command did not run');
    const users = texts(r.calls[0], 'user');
    assert.equal(users[0], 'HK-start');
    assert.equal(users[1], 'clean up\n\n<system_reminder>\nHK-prompt\n</system_reminder>');
    assert.deepEqual(
      toolResults(r.calls[1]).map((t) => t.value),
      ['Denied by preToolUse hook: destructive command: rm -rf build'],
    );
  });

  test("postToolUse guidance follows the tool's result in Copilot's words; a harmless command runs", async () => {
    const p = project({
      preToolUse: [{ type: 'command', bash: guard }],
      postToolUse: [{ type: 'command', bash: reply({ additionalContext: 'HK-post' }), matcher: 'bash' }],
    });
    const r = await p.run({ prompt: 'go', script: [shell('touch made'), { text: 'done' }], args: ['--approval-mode', 'yolo'] });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(fs.existsSync(path.join(p.dir, 'made')));
    const [result] = toolResults(r.calls[1]);
    assert.ok(result.value.endsWith('\n\nTool "bash" succeeded. Additional guidance from postToolUse hooks:\nHK-post'), result.value);
    assert.equal(lastUser(r.calls[1]), 'go');
  });

  test('an untrusted workspace: its hooks are held back and Hookline says so once, with the command that trusts them', async () => {
    const p = project({ preToolUse: [{ type: 'command', bash: guard }] }, false);
    const r = await p.run({ prompt: 'clean up', script: [shell('rm -rf build'), { text: 'done' }], args: ['--approval-mode', 'yolo'] });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.existsSync(path.join(p.dir, 'build')), false, 'nothing guarded the command: it ran');
    const said = r.stderr.split('\n').filter((l) => l.includes('hookline trust'));
    assert.equal(said.length, 1, r.stderr);
    assert.ok(said[0].includes(path.join('.github', 'hooks', 'hooks.json')), said[0]);
    assert.ok(said[0].includes(`hookline trust ${JSON.stringify(p.dir)}`), said[0]);
  });
});
