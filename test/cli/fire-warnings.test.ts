// `hookline fire` says on stderr when a hook printed invalid UTF-8 (README, "Differences from
// Gemini CLI"): the bytes are replaced, the run still succeeds, and the warning is visible.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { cmd, hook, makeProject, runCli } from '../helpers.js';

const INPUT = '{"tool_name":"run_shell_command","tool_input":{"command":"ls"}}';

test('fire prints a warning on stderr for a hook whose stdout is not valid UTF-8; the run still succeeds', async () => {
  const p = makeProject({
    project: { hooks: { BeforeTool: [{ hooks: [cmd(`${hook('run-bad-utf8.sh')} "$GEMINI_PROJECT_DIR/pids"`, { name: 'garbled' })] }] } },
  });
  const r = await runCli(['fire', 'BeforeTool', '--input', '-'], { cwd: p.dir, env: p.env, input: INPUT });
  assert.equal(r.code, 0, r.stderr);
  const file = path.join(p.dir, '.gemini', 'settings.json');
  const line = `hookline: warning: BeforeTool hook "garbled" (${file}): stdout is not valid UTF-8 (invalid bytes were replaced with U+FFFD)`;
  assert.ok(r.stderr.split('\n').includes(line), `no warning line in: ${r.stderr}`);
  const run = r.json().runs[0];
  assert.equal(run.success, true);
  assert.equal(run.error, null);
  assert.equal(run.stdout, 'caf\uFFFD \uFFFD\uFFFD done\n');
});

test('fire prints no such warning for valid UTF-8, multi-byte characters included', async () => {
  const p = makeProject({
    project: { hooks: { BeforeTool: [{ hooks: [cmd(`printf 'caf\\303\\251 \\342\\234\\223 done\\n'`, { name: 'clean' })] }] } },
  });
  const r = await runCli(['fire', 'BeforeTool', '--input', '-'], { cwd: p.dir, env: p.env, input: INPUT });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json().runs[0].stdout, 'café ✓ done\n');
  assert.doesNotMatch(r.stderr, /UTF-8/);
});
