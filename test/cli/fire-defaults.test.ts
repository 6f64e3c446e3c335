import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cmd, makeProject, runCli } from '../helpers.js';

test('fire AfterAgent without stop_hook_active gives the hook `stop_hook_active: false`, as Gemini CLI does', async () => {
  const p = makeProject({ project: { hooks: { AfterAgent: [{ hooks: [cmd('cat >&2')] }] } } });
  const r = await runCli(['fire', 'AfterAgent', '--input', '-'], { cwd: p.dir, env: p.env, input: '{"prompt":"p","prompt_response":"r"}' });
  assert.equal(r.code, 0, r.stderr);
  const seen = JSON.parse(r.json().runs[0].stderr);
  assert.equal(seen.stop_hook_active, false);
  assert.equal(seen.prompt, 'p');
  assert.equal(seen.hook_event_name, 'AfterAgent');
});

test('fire keeps session_id and transcript_path given in the input, and --session-id wins over them', async () => {
  const p = makeProject({ project: { hooks: { BeforeAgent: [{ hooks: [cmd('cat >&2')] }] } } });
  const input = '{"prompt":"p","session_id":"from-input","transcript_path":"/tmp/t.jsonl"}';
  const a = JSON.parse((await runCli(['fire', 'BeforeAgent', '--input', '-'], { cwd: p.dir, env: p.env, input })).json().runs[0].stderr);
  assert.equal(a.session_id, 'from-input');
  assert.equal(a.transcript_path, '/tmp/t.jsonl');
  const b = JSON.parse(
    (await runCli(['fire', 'BeforeAgent', '--input', '-', '--session-id', 'flag'], { cwd: p.dir, env: p.env, input })).json().runs[0]
      .stderr,
  );
  assert.equal(b.session_id, 'flag');
});
