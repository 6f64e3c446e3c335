// End to end: an `async` Claude Code hook decides nothing, but what it answers (systemMessage,
// additionalContext) reaches the next conversation turn, as in Claude Code: the model reads it
// with the next prompt and the user sees the message.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { tmpFile } from '../helpers.js';
import { agentProject, fixture, lastUser, sq, toolResults } from './e2e-util.js';

const shell = (command: string) => ({ toolCalls: [{ name: 'run_shell_command', args: { command } }] });

describe('Claude Code async hooks in the agent', () => {
  test("an async PostToolUse hook's message and context arrive with the next prompt; its block decides nothing", async () => {
    const pidFile = tmpFile('async-hook.pid');
    const p = agentProject({});
    fs.mkdirSync(path.join(p.dir, '.claude'), { recursive: true });
    fs.writeFileSync(
      path.join(p.dir, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          PostToolUse: [
            {
              matcher: 'Bash',
              hooks: [{ type: 'command', command: `${fixture('cc-async-note.sh')} ${sq(pidFile)}`, async: true, if: 'Bash(echo first)' }],
            },
          ],
        },
      }),
    );
    // The second command waits until the hook has ended and been reaped: its answer is in by then.
    const wait = `while [ ! -s ${sq(pidFile)} ]; do sleep 0.02; done; read -r pid < ${sq(pidFile)}; while kill -0 "$pid" 2>/dev/null; do sleep 0.02; done; echo waited`;
    const r = await p.run({
      input: 'one\ntwo\n/quit\n',
      script: [shell('echo first'), shell(wait), { text: 'one done' }, { text: 'two done' }],
      args: ['--approval-mode', 'yolo'],
      env: { HOME: p.home },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.calls.length, 4);
    // Nothing in the first turn: the block did not stop the turn, the context waited.
    const [first, waited] = toolResults(r.calls[2]).map((t) => t.value);
    assert.match(first, /first/);
    assert.match(waited, /waited/);
    for (const c of r.calls.slice(0, 3)) assert.doesNotMatch(JSON.stringify(c.prompt), /unused import/);
    const next = lastUser(r.calls[3]);
    assert.match(next, /^two/);
    assert.match(
      next,
      /<hook_context>Async hook PostToolUse \(.*cc-async-note\.sh.*\) reported:\nlint finished: 2 warnings\nlint: src\/a\.ts line 3 unused import<\/hook_context>/,
    );
    assert.equal((r.stderr + r.stdout).split('lint finished: 2 warnings').length - 1, 1, r.stderr);
  });
});
