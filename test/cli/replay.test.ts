import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { cmd, hook, makeProject, runCli } from '../helpers.js';
import { recordingEvents } from '../../src/cli/replay.js';

const guard = (extra: Record<string, unknown> = {}) => ({
  hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [cmd(hook('trace-guard.sh'), { name: 'new-guard', ...extra })] }] },
});
const call = (command: string) => JSON.stringify({ tool_name: 'run_shell_command', tool_input: { command } });

test('replay fires a traced session again and prints the decision a changed hook would make', async () => {
  // Recorded while the guard ran in shadow mode: nothing was denied.
  const p = makeProject({ user: guard({ shadow: true }) });
  const traces = path.join(p.home, 'traces');
  const env = { ...p.env, HOOKLINE_TRACE: 'inputs', HOOKLINE_TRACE_DIR: traces };
  for (const c of ['ls', 'rm -rf build'])
    assert.equal((await runCli(['fire', 'BeforeTool', '--input', '-', '--session-id', 'r1'], { cwd: p.dir, env, input: call(c) })).code, 0);
  const same = await runCli(['replay', 'r1'], { env });
  assert.equal(same.code, 0, same.stderr);
  assert.match(same.stdout, /2 event\(s\) replayed, 0 decision\(s\) would change/);
  // The guard is now enforced: the second event would be denied.
  fs.writeFileSync(path.join(p.home, '.gemini', 'settings.json'), JSON.stringify(guard()));
  const r = await runCli(['replay', path.join(traces, 'r1.jsonl'), '--cwd', p.dir], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^ +2 +gemini BeforeTool run_shell_command: ok → deny \(rm is not allowed here\) \[new-guard: deny\]$/m);
  assert.match(r.stdout, /2 event\(s\) replayed, 1 decision\(s\) would change/);
  assert.deepEqual(fs.readdirSync(traces), ['r1.jsonl'], 'replaying writes no trace of its own');

  // A trace with digests only says so and replays nothing.
  const bare = { ...env, HOOKLINE_TRACE: '1' };
  await runCli(['fire', 'BeforeTool', '--input', '-', '--session-id', 'r2'], { cwd: p.dir, env: bare, input: call('ls') });
  const d = await runCli(['replay', 'r2'], { env });
  assert.equal(d.code, 1);
  assert.match(
    d.stderr,
    /^hookline: \S+r2\.jsonl: 1 event\(s\) have only an input digest and were not replayed — record full inputs with "trace": \{"inputs": true\}/m,
  );
});

test('replay reads an agent session recording: prompts and tool calls as BeforeAgent, BeforeTool and AfterTool', async () => {
  const p = makeProject({ user: guard() });
  const transcript = path.join(p.home, 'session.jsonl');
  const lines = [
    { type: 'session', sessionId: 'x', projectDir: p.dir, startTime: '' },
    { type: 'message', message: { role: 'user', text: 'clean up' } },
    {
      type: 'message',
      message: { role: 'model', text: '', toolCalls: [{ id: 'c1', name: 'run_shell_command', args: { command: 'rm -rf build' } }] },
    },
    { type: 'message', message: { role: 'tool', results: [{ id: 'c1', name: 'run_shell_command', output: 'done' }] } },
  ];
  fs.writeFileSync(transcript, lines.map((l) => JSON.stringify(l)).join('\n'));
  const events = recordingEvents(fs.readFileSync(transcript, 'utf8'));
  assert.deepEqual(
    events.events.map((e) => e.event),
    ['BeforeAgent', 'BeforeTool', 'AfterTool'],
  );
  assert.equal(events.cwd, p.dir);
  const r = await runCli(['replay', transcript], { env: { ...p.env, HOOKLINE_TRACE: '0' } });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^ +2 +gemini BeforeTool run_shell_command: not recorded → deny \(rm is not allowed here\)/m);
  assert.match(r.stdout, /3 event\(s\) replayed, 1 decision\(s\) would change \(a recording holds no hook decisions/);
});
