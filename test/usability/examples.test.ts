// The example configurations under examples/ (one per hook system) run as documented: trusted
// with `hookline trust`, fired with `hookline fire --dialect`, they block `rm -rf` and let `ls` by.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli, ROOT } from '../helpers.js';

const CASES = [
  {
    dialect: 'claude',
    folder: 'claude-code',
    event: 'PreToolUse',
    input: (command: string) => ({ tool_name: 'Bash', tool_input: { command } }),
    blocked: (o: any) => o.permissionDecision === 'deny' && o.permissionDecisionReason === 'rm -rf is not allowed here',
  },
  {
    dialect: 'mm',
    folder: 'mm',
    event: 'preToolCall',
    input: (command: string) => ({ tool: { name: 'run_shell_command', input: { command } } }),
    blocked: (o: any) => o?.action === 'deny' && o.reason === 'no rm -rf here',
  },
  {
    dialect: 'spatialagent',
    folder: 'spatialagent',
    event: 'PreToolUse',
    input: (command: string) => ({ TOOL: 'run_shell_command', COMMAND: command }),
    blocked: (o: any) => o.decision === 'block' && o.reason === 'Dangerous command',
  },
];

for (const c of CASES) {
  test(`examples/${c.folder}: trusted, it blocks rm -rf and lets ls run`, async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-examples-'));
    const dir = path.join(home, c.folder);
    fs.cpSync(path.join(ROOT, 'examples', c.folder), dir, { recursive: true });
    const env = { ...process.env, HOME: home, GEMINI_CLI_HOME: home };
    delete env.GEMINI_CLI_TRUST_WORKSPACE;
    delete env.MM_CONFIG;
    const trusted = await runCli(['trust', dir], { env });
    assert.equal(trusted.code, 0, trusted.stderr);
    const fire = (command: string) =>
      runCli(['fire', c.event, '--dialect', c.dialect, '--input', '-'], { cwd: dir, env, input: JSON.stringify(c.input(command)) });
    const bad = await fire('rm -rf /');
    assert.equal(bad.code, 0, bad.stderr);
    assert.equal(bad.stderr, '');
    const out = bad.json();
    assert.equal(out.runs.length, 1);
    assert.ok(c.blocked(out.output), JSON.stringify(out.output));
    const ok = await fire('ls');
    assert.equal(ok.json().runs.length, 1);
    assert.ok(!c.blocked(ok.json().output), JSON.stringify(ok.json().output));
  });
}

test('SpatialAgent fire: an input variable it does not document is one warning line naming the event and the ones it has', async () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-examples-'));
  const env = { ...process.env, HOME: home, GEMINI_CLI_HOME: home };
  const r = await runCli(['fire', 'PreToolUse', '--dialect', 'spatialagent', '--input', '-'], {
    cwd: home,
    env,
    input: JSON.stringify({ tool_name: 'run_shell_command' }),
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /^hookline: PreToolUse: input variable "tool_name" is not one SpatialAgent documents \(still set\) — PreToolUse's are TOOL, CODE, COMMAND, CODE_TYPE$/m,
  );
});
