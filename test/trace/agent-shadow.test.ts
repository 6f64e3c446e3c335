import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { agentProject, fixture, on } from '../agent/e2e-util.js';
import { loadTrace, listTraces } from '../../src/cli/trace-file.js';
import { shadowAdapter } from '../../src/agent/shadow.js';
import type { Adapter } from '../../src/dialects/adapter.js';

test('agent --shadow: Gemini and mm guards run and say what they would have denied; the tool runs; the session is traced', async () => {
  const p = agentProject({ hooks: { BeforeTool: on(fixture('trace-guard.sh'), { matcher: 'run_shell_command' }) } });
  fs.writeFileSync(path.join(p.dir, 'agent.yaml'), `hooks:\n  preToolCall:\n    - command: ${fixture('mm-guard.sh')}\n`);
  fs.mkdirSync(path.join(p.dir, 'build'));
  const traces = path.join(p.base, 'traces');
  const r = await p.run({
    prompt: 'clean up',
    script: [{ toolCalls: [{ name: 'run_shell_command', args: { command: 'rm -rf build' } }] }, { text: 'cleaned.' }],
    args: ['--shadow', '--approval-mode', 'yolo'],
    env: { HOOKLINE_TRACE: '1', HOOKLINE_TRACE_DIR: traces },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(fs.existsSync(path.join(p.dir, 'build')), false, 'the shadowed guards did not stop the tool');
  assert.match(
    r.stderr,
    /shadow: BeforeTool hook ".*trace-guard\.sh.*" would have denied `run_shell_command`: rm is not allowed here \(not enforced\)/,
  );
  assert.match(r.stderr, /shadow: mm hooks would have denied `run_shell_command`.*no rm -rf here.*\(not enforced\)/);
  const [latest] = listTraces({ HOOKLINE_TRACE_DIR: traces });
  const t = loadTrace(latest.file);
  const denied = t.fires.filter((f) => f.runs.some((x) => x.decision === 'deny'));
  assert.deepEqual(
    denied.map((f) => [f.fire.dialect, f.fire.event, f.runs[0].shadow ?? false]),
    [
      ['gemini', 'BeforeTool', true],
      ['mm', 'preToolCall', true],
    ],
  );
  assert.equal(new Set(t.fires.map((f) => f.fire.session)).size, 1, 'every hook system traces under the agent session');
});

test('a shadowed adapter passes every point through unchanged', async () => {
  const notices: string[] = [];
  const inner: Adapter = {
    name: 'x',
    beforeTool: async () => ({ action: 'deny', message: 'nope' }),
    prompt: async () => ({ action: 'block', reason: 'bad prompt', notice: '' }),
    turnEnd: async () => ({ action: 'retry', prompt: 'again', clearContext: false }),
  };
  const s = shadowAdapter(inner, { notice: (l) => notices.push(l) });
  assert.deepEqual(await s.beforeTool!({ id: '1', name: 'shell', args: { a: 1 }, step: 1 }), {
    action: 'run',
    args: { a: 1 },
    inputModified: false,
  });
  assert.deepEqual(await s.prompt!({ prompt: 'p', tools: [], maxSteps: 1 }), { action: 'proceed' });
  assert.deepEqual(await s.turnEnd!({ prompt: '', response: '', stopHookActive: false, retries: 0, maxRetries: 1 }), {
    action: 'accept',
    clearContext: false,
  });
  assert.deepEqual(notices, [
    '👻 shadow: x hooks would have denied `shell`: nope (not enforced)',
    '👻 shadow: x hooks would have blocked the prompt: bad prompt (not enforced)',
    '👻 shadow: x hooks would have sent the answer back for another try: again (not enforced)',
  ]);
});
