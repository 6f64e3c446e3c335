// End to end: after the agent compresses its history, Claude Code hooks hear SessionStart with
// source "compact" (matcher `compact`), as in Claude Code: their context follows the summary,
// and what they export to `$CLAUDE_ENV_FILE` reaches later shell commands.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { tmpFile } from '../helpers.js';
import { agentProject, readJsonl, respond, sq } from './e2e-util.js';

const cc = (command: string, matcher?: string) => [{ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command }] }];
const shell = (command: string) => ({ toolCalls: [{ name: 'run_shell_command', args: { command } }] });

describe('Claude Code SessionStart after compaction in the agent', () => {
  test('SessionStart "compact" runs before PostCompact; its context follows the summary and its exports reach the shell', async () => {
    const log = tmpFile('session-start.jsonl');
    const order = tmpFile('compact-order.txt');
    const restore = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'Rules restored: use tabs' },
    });
    const compact = `cat > /dev/null; echo start >> ${sq(order)}; echo 'export AFTER_COMPACT=yes' >> "$CLAUDE_ENV_FILE"; echo ${sq(restore)}`;
    const p = agentProject({});
    fs.mkdirSync(path.join(p.dir, '.claude'), { recursive: true });
    fs.writeFileSync(
      path.join(p.dir, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          SessionStart: [...cc(respond(log)), ...cc(compact, 'compact')],
          PostCompact: cc(`cat > /dev/null; echo post >> ${sq(order)}`),
        },
      }),
    );
    const out = path.join(p.dir, 'after.txt');
    const r = await p.run({
      input: 'one\ntwo\nthree\n/compress\nfour\n/quit\n',
      script: [{ text: 'a' }, { text: 'b' }, { text: 'c' }, shell(`echo "$AFTER_COMPACT" > ${sq(out)}`), { text: 'd' }],
      args: ['--approval-mode', 'yolo'],
      env: { HOME: p.home },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      readJsonl(log).map((i) => [i.hook_event_name, i.source]),
      [
        ['SessionStart', 'startup'],
        ['SessionStart', 'compact'],
      ],
    );
    assert.deepEqual(fs.readFileSync(order, 'utf8').split('\n').filter(Boolean), ['start', 'post']);
    // The fourth prompt's model call: the summary, then the hook's context as a message of its own, before the prompt.
    const prompt = JSON.stringify(r.calls[3].prompt);
    const summary = prompt.indexOf('Summary of the earlier conversation');
    const context = prompt.indexOf(
      '<system-reminder>\\nSessionStart hook additional context: Rules restored: use tabs\\n</system-reminder>',
    );
    assert.ok(summary >= 0 && context > summary && prompt.indexOf('four') > context, prompt);
    for (const c of r.calls.slice(0, 3)) assert.doesNotMatch(JSON.stringify(c.prompt), /Rules restored/);
    assert.equal(fs.readFileSync(out, 'utf8').trim(), 'yes');
  });
});
