import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cmd, hook, HOOKS, makeProject, ROOT, runCli } from '../helpers.js';
import { HookEngine } from '../../src/engine/index.js';
import { geminiSystem } from '../../src/dialects/gemini/system.js';
import { loadTrace } from '../../src/cli/trace-file.js';

test('a Claude Code hook run from `fire --dialect claude` lands in the session trace with its own answer', async () => {
  const p = makeProject();
  // Named with --config and outside the project: the user's own, so it runs without a trust step.
  const file = path.join(path.dirname(p.dir), 'hooks.json');
  const guard = path.join(HOOKS, 'cc-bash-guard.mjs');
  fs.writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }] } }));
  const traces = path.join(p.home, 'traces');
  const r = await runCli(['fire', 'PreToolUse', '--dialect', 'claude', '--config', file, '--session-id', 'cc1', '--input', '-'], {
    cwd: p.dir,
    env: { ...p.env, HOOKLINE_TRACE: '1', HOOKLINE_TRACE_DIR: traces },
    input: JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'rm -rf /tmp/x' } }),
  });
  assert.equal(r.code, 0, r.stderr);
  const t = loadTrace(path.join(traces, 'cc1.jsonl'));
  assert.equal(t.fires.length, 1);
  const { fire, runs } = t.fires[0];
  assert.deepEqual([fire.dialect, fire.event, fire.target, fire.decision], ['claude', 'PreToolUse', 'Bash', 'deny']);
  assert.deepEqual([runs[0].hook, runs[0].decision, runs[0].exit, runs[0].file], [guard, 'deny', 2, file]);
  assert.match(runs[0].stderr ?? '', /Destructive command blocked/);
});

test('the library engine traces its runs; with shadow on, a deny is traced and shown but not enforced', async () => {
  const p = makeProject({
    user: { hooks: { BeforeTool: [{ hooks: [cmd(hook('trace-guard.sh'), { name: 'guard' })] }] } },
  });
  const traces = path.join(p.home, 'lib-traces');
  const env = { ...p.env, HOOKLINE_TRACE: '1', HOOKLINE_TRACE_DIR: traces };
  const engine = new HookEngine({ cwd: p.dir, env, sessionId: 'lib1', shadow: true });
  const r = await engine.fire('BeforeTool', { tool_name: 'run_shell_command', tool_input: { command: 'rm -rf x' } });
  engine.close();
  assert.equal(r.output, undefined, 'no enforced answer');
  assert.equal(r.runs[0].shadow, true);
  assert.equal(r.runs[0].output?.decision, 'deny');
  // A runtime hook registered in shadow mode on an engine that enforces.
  const plain = new HookEngine({ cwd: p.dir, env: { ...env, HOOKLINE_TRACE: '0' } });
  plain.register({ event: 'BeforeTool', name: 'try-me', shadow: true, action: () => ({ decision: 'deny', reason: 'later' }) });
  const tried = await plain.fire('BeforeTool', { tool_name: 'read_file', tool_input: {} });
  plain.close();
  const mine = tried.runs.find((x) => x.name === 'try-me');
  assert.deepEqual([tried.output?.decision, mine?.shadow, mine?.output?.decision], ['allow', true, 'deny']);
  const t = loadTrace(path.join(traces, 'lib1.jsonl'));
  assert.deepEqual(
    t.lines.map((l) => [l.kind, l.decision, l.kind === 'run' ? (l.shadow ?? false) : null]),
    [
      ['run', 'deny', true],
      ['fire', 'ok', null],
    ],
  );
});

test("a large input's trace digest is the digest of the exact text each hook read", async () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-big-'));
  const seen = [path.join(out, 'a.json'), path.join(out, 'b.json')];
  const p = makeProject({ user: { hooks: { AfterTool: [{ hooks: seen.map((f) => cmd(`cat > '${f}'; echo {}`)) }] } } });
  const traces = path.join(p.home, 'big-traces');
  const engine = new HookEngine({ cwd: p.dir, env: { ...p.env, HOOKLINE_TRACE: '1', HOOKLINE_TRACE_DIR: traces }, sessionId: 'big1' });
  // Over 1 MiB, with text JSON must escape: the input reaches the hooks through a file.
  const big = `"quoted" \\ é ${'x'.repeat(1_200_000)} 😀`;
  const r = await engine.fire('AfterTool', {
    tool_name: 'read_file',
    tool_input: {},
    tool_response: { llmContent: big, returnDisplay: '' },
  });
  engine.close();
  assert.ok(r.runs.every((x) => x.success));
  const [a, b] = seen.map((f) => fs.readFileSync(f));
  assert.ok(a.equals(b), 'both hooks read the same text');
  assert.equal(JSON.parse(a.toString('utf8')).tool_response.llmContent, big);
  const fire = loadTrace(path.join(traces, 'big1.jsonl')).fires[0].fire;
  assert.equal(fire.input, `sha256:${createHash('sha256').update(a).digest('hex')}`);
});

test('the trace is written after the fire has answered, with the input as the hooks read it, and at the latest at exit', async () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-trace-later-'));
  const seen = path.join(out, 'seen.json');
  const p = makeProject({ user: { hooks: { BeforeTool: [{ hooks: [cmd(`cat > '${seen}'; echo {}`)] }] } } });
  const traces = path.join(p.home, 'later-traces');
  const env = { ...p.env, HOOKLINE_TRACE: 'inputs', HOOKLINE_TRACE_DIR: traces };
  const engine = new HookEngine({ cwd: p.dir, env, sessionId: 'later1' });
  const toolInput = { command: 'ls' };
  const r = await engine.fire('BeforeTool', { tool_name: 'run_shell_command', tool_input: toolInput });
  assert.ok(r.runs[0].success);
  assert.equal(fs.existsSync(path.join(traces, 'later1.jsonl')), false, 'nothing written before the caller has the answer');
  // The host changes the input as soon as it has the answer (a rewrite applied in place).
  toolInput.command = 'changed by the host';
  engine.close();
  const fire = loadTrace(path.join(traces, 'later1.jsonl')).fires[0].fire;
  const read = fs.readFileSync(seen);
  assert.equal(fire.input, `sha256:${createHash('sha256').update(read).digest('hex')}`);
  assert.equal((fire.inputJson as { tool_input: { command: string } }).tool_input.command, 'ls');

  // A host that exits at once after the fire still leaves its trace.
  const script = path.join(out, 'exit-now.mjs');
  fs.writeFileSync(
    script,
    `import { HookEngine } from ${JSON.stringify(path.join(ROOT, 'dist', 'index.js'))};
const e = new HookEngine({ cwd: process.cwd(), sessionId: 'later2' });
await e.fire('BeforeTool', { tool_name: 'run_shell_command', tool_input: { command: 'pwd' } });
process.exit(0);
`,
  );
  const { spawnSync } = await import('node:child_process');
  const ran = spawnSync(process.execPath, [script], { cwd: p.dir, env, encoding: 'utf8' });
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(loadTrace(path.join(traces, 'later2.jsonl')).fires.length, 1);
});

test('validate accepts "shadow" on a hook and "trace" settings, and names a wrong type', () => {
  const p = makeProject({
    user: {
      trace: { enabled: true, inputs: false },
      hooks: { BeforeTool: [{ hooks: [cmd('true', { shadow: true }), cmd('false', { shadow: 'yes' })] }] },
    },
  });
  const v = geminiSystem.validate({ cwd: p.dir, env: p.env });
  assert.equal(v.errors, 1, v.lines.join('\n'));
  assert.match(v.lines.join('\n'), /hooks\.BeforeTool\[0\]\.hooks\[1\]\.shadow.*"shadow" must be true or false/);
  assert.doesNotMatch(v.lines.join('\n'), /unknown field "(shadow|trace)"/);
});
