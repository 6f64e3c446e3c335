// Small things an adopter trips on: a shadow hook's line says it was not enforced, another hook
// system's event name gets the --dialect that fires it, and the Go client of docs/serve.md is the
// example's own and takes the folder to fire in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { cmd, makeProject, ROOT, runCli, tmpFile } from '../helpers.js';

test('--display-hooks: a shadow hook that denies reads "→ deny (shadow)"; an enforced one "→ deny"', async () => {
  const deny = `cat >/dev/null; echo '{"decision":"deny","reason":"no"}'`;
  const p = makeProject({
    project: {
      hooks: {
        BeforeTool: [{ hooks: [cmd(deny, { name: 'trial', shadow: true })] }],
        AfterTool: [{ hooks: [cmd(deny, { name: 'real' })] }],
      },
    },
  });
  const script = tmpFile('shadow.jsonl');
  fs.writeFileSync(
    script,
    `${JSON.stringify({ toolCalls: [{ name: 'run_shell_command', args: { command: 'echo hi' } }] })}\n{"text":"done"}\n`,
  );
  const r = await runCli(['agent', '--model', `scripted:${script}`, '--approval-mode', 'yolo', '--display-hooks', '-p', 'go'], {
    cwd: p.dir,
    env: p.env,
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^🪝 1\. BeforeTool \[run_shell_command\] · cat >\/dev\/null; echo .* → deny \(shadow\)$/m);
  assert.match(r.stderr, /^🪝 2\. AfterTool \[run_shell_command\] · cat >\/dev\/null; echo .* → deny$/m);
});

test('fire with another hook system’s event names the --dialect that fires it', async () => {
  const p = makeProject();
  const fire = (event: string) => runCli(['fire', event, '--input', '-'], { cwd: p.dir, env: p.env, input: '{}' });
  const claude = await fire('PreToolUse');
  assert.equal(claude.code, 1);
  assert.equal(
    claude.stderr,
    'hookline: "PreToolUse" is an event of Claude Code, Codex, Copilot CLI, SpatialAgent, Antigravity CLI (agy), not of Gemini settings — add --dialect claude (or codex, copilot, spatialagent, agy)\n',
  );
  assert.equal(
    (await fire('UserPromptSubmit')).stderr,
    'hookline: "UserPromptSubmit" is an event of Claude Code, Codex, Copilot CLI, not of Gemini settings — add --dialect claude (or codex, copilot)\n',
  );
  assert.equal(
    (await fire('preToolUse')).stderr,
    'hookline: "preToolUse" is an event of Copilot CLI, not of Gemini settings — add --dialect copilot\n',
  );
  assert.equal(
    (await fire('preToolCall')).stderr,
    'hookline: "preToolCall" is an event of mm, not of Gemini settings — add --dialect mm\n',
  );
  // A name no system has is still a misspelling, with the closest Gemini event.
  assert.match((await fire('BeforeTol')).stderr, /^hookline: unknown event "BeforeTol" \(did you mean "BeforeTool"\?\)/);
});

test('the Go client in docs/serve.md is examples/serve/client.go, and fires in the folder it is given', () => {
  const client = fs.readFileSync(path.join(ROOT, 'examples', 'serve', 'client.go'), 'utf8');
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'serve.md'), 'utf8');
  const shown = /```go\n([\s\S]*?)```/.exec(doc)?.[1];
  assert.equal(shown, client.slice(client.indexOf('package main')), 'docs/serve.md shows the example as it is');
  assert.match(client, /usage: go run client\.go SOCKET EVENT INPUT_JSON \[FOLDER\]/);
  assert.match(client, /if len\(os\.Args\) > 4 \{\n\t\tcwd = os\.Args\[4\]/);
  assert.match(client, /cwd, _ = filepath\.Abs\(cwd\)/, 'serve takes an absolute folder');
  assert.match(client, /"cwd": cwd/);
});
