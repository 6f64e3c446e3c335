// Traces show what a hook changed, not a plain "ok": the rewritten input with a diff, the context
// added, and the tool's arguments when inputs are recorded (only the changed fields' names when
// they are not); `stats` counts every kind of failure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cmd, hook, makeProject, runCli } from '../helpers.js';

const traced = (mode: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-effects-'));
  return { dir, env: { HOOKLINE_TRACE: mode, HOOKLINE_TRACE_DIR: dir } };
};
const shell = (command: string) => JSON.stringify({ tool_name: 'run_shell_command', tool_input: { command } });

test('trace shows an input rewrite with before and after, the context added and the tool arguments', async () => {
  const p = makeProject({
    project: {
      hooks: {
        BeforeTool: [{ hooks: [cmd(hook('rewrite-input.sh'), { name: 'long-ls' })] }],
        AfterTool: [
          {
            hooks: [
              cmd(`cat >/dev/null; printf '{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"branch main"}}'`, {
                name: 'git-ctx',
              }),
            ],
          },
        ],
      },
    },
  });
  const t = traced('inputs');
  const env = { ...p.env, ...t.env };
  await runCli(['fire', 'BeforeTool', '--input', '-', '--session-id', 'fx-1'], { cwd: p.dir, env, input: shell('ls') });
  const after = JSON.stringify({
    tool_name: 'run_shell_command',
    tool_input: { command: 'ls -la' },
    tool_response: { llmContent: 'x', returnDisplay: 'x' },
  });
  await runCli(['fire', 'AfterTool', '--input', '-', '--session-id', 'fx-1'], { cwd: p.dir, env, input: after });
  const r = await runCli(['trace', 'fx-1'], { env });
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.split('\n');
  assert.match(
    lines[1],
    /^ {2}1 {2}\S+ {2}gemini BeforeTool run_shell_command \{"command":"ls"\} → allow \(input rewritten \(command\)\)$/,
  );
  assert.match(lines[2], /^ {7}ok {2}long-ls {2}\S+ ms {2}exit 0 {2}⇒ input rewritten \(command\)$/);
  assert.equal(lines[3], '           command: "ls" → "ls -la"');
  assert.match(r.stdout, /⇒ context added \(11 chars\)\n {11}context: branch main\n/);

  const html = path.join(t.dir, 'trace.html');
  await runCli(['trace', 'fx-1', '--html', html], { env });
  assert.match(fs.readFileSync(html, 'utf8'), /effect: input rewritten \(command\)\ncommand: &quot;ls&quot; → &quot;ls -la&quot;/);
});

test('a rewritten text of several lines is shown as a line diff; without full inputs only the field is named', async () => {
  const p = makeProject({
    project: { hooks: { BeforeTool: [{ hooks: [cmd(`${hook('rewrite-input.sh')} content`, { name: 'header' })] }] } },
  });
  const input = JSON.stringify({ tool_name: 'write_file', tool_input: { file_path: 'a.ts', content: 'line one\nline two\n' } });
  const full = traced('inputs');
  await runCli(['fire', 'BeforeTool', '--input', '-', '--session-id', 'fx-2'], { cwd: p.dir, env: { ...p.env, ...full.env }, input });
  const r = await runCli(['trace', 'fx-2'], { env: { ...p.env, ...full.env } });
  assert.match(r.stdout, /\n {11}content:\n {13}\+ \/\/ licence\n {15}line one\n {15}line two\n/);

  const bare = traced('1');
  await runCli(['fire', 'BeforeTool', '--input', '-', '--session-id', 'fx-3'], { cwd: p.dir, env: { ...p.env, ...bare.env }, input });
  const text = fs.readFileSync(path.join(bare.dir, 'fx-3.jsonl'), 'utf8');
  assert.ok(!text.includes('licence'), 'no value is kept without trace.inputs');
  const run = JSON.parse(text.split('\n')[0]);
  assert.deepEqual(run.changes, [{ field: 'content' }]);
  assert.equal(run.effect, 'input rewritten (content)');
});

test('stats counts every kind of failure: a crash, exit 126, a timeout, broken JSON, a plain non-zero exit', async () => {
  const noexec = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-noexec-')), 'guard.sh');
  fs.writeFileSync(noexec, '#!/bin/sh\necho {}\n', { mode: 0o644 });
  const p = makeProject({
    project: {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              cmd(`python3 ${hook('crash.py')}`, { name: 'crash' }),
              cmd(noexec, { name: 'noexec' }),
              cmd('sleep 5', { name: 'slow', timeout: 300 }),
              cmd(hook('bad-json.sh'), { name: 'bad' }),
              cmd('cat >/dev/null; exit 1', { name: 'one' }),
              cmd(`cat >/dev/null; echo '{}'`, { name: 'fine' }),
            ],
          },
        ],
      },
    },
  });
  const t = traced('1');
  const env = { ...p.env, ...t.env };
  await runCli(['fire', 'BeforeTool', '--input', '-', '--session-id', 'fx-4'], { cwd: p.dir, env, input: shell('ls') });
  const r = await runCli(['stats', 'fx-4', '--json'], { env });
  assert.equal(r.code, 0, r.stderr);
  const by = Object.fromEntries(
    r.json().hooks.map((h: { hook: string; errors: number; failures: Record<string, number> }) => [h.hook, [h.errors, h.failures]]),
  );
  assert.deepEqual(by, {
    crash: [1, { crash: 1 }],
    noexec: [1, { start: 1 }],
    slow: [1, { timeout: 1 }],
    bad: [1, { output: 1 }],
    one: [1, { exit: 1 }],
    fine: [0, {}],
  });
  const text = await runCli(['stats', 'fx-4'], { env });
  assert.match(text.stdout, /^crash +gemini BeforeTool +1 .* 1 \(crash 1\)$/m);
});
