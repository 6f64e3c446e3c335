// hookline/sdk beyond Gemini CLI: typed Claude Code, Codex and Copilot CLI inputs (per tool) and builders,
// checked by the TypeScript compiler and run as real hooks; and hookline_hook, the Python helper.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import ts from 'typescript';
import { HookEngine } from '../src/engine/index.js';
import { FIXTURES, ROOT, cmd, makeProject, runCli } from './helpers.js';

const SDK = path.join(FIXTURES, 'sdk');
const PYTHON_HELPER = path.join(ROOT, 'sdk', 'python');
const hasPython = spawnSync('python3', ['-c', '0']).status === 0;

/** A project where `hookline` resolves to this checkout, as when a project installed it. */
function withHookline(opts: Parameters<typeof makeProject>[0] = {}) {
  const p = makeProject(opts);
  fs.mkdirSync(path.join(p.dir, 'node_modules'));
  fs.symlinkSync(ROOT, path.join(p.dir, 'node_modules', 'hookline'));
  return p;
}

const TYPED = ['copilot-types.ts', 'claude-types.ts'].map((f) => path.join(SDK, f));
/** One program for every typed fixture: the standard and Node libraries are read and checked once. */
let program: ts.Program | undefined;

/** The compiler's errors for a fixture, and how many errors it expects (its @ts-expect-error lines). */
function typeCheck(file: string): { diagnostics: string[]; expected: number } {
  program ??= ts.createProgram(TYPED, {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    types: ['node'],
  });
  const source = program.getSourceFile(file);
  assert.ok(source, `${file} is not in the program`);
  return {
    // The program's own (options, libraries) and the file's.
    diagnostics: ts.getPreEmitDiagnostics(program, source).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    expected: fs.readFileSync(file, 'utf8').match(/^\s*\/\/ @ts-expect-error/gm)?.length ?? 0,
  };
}

test('the Copilot CLI types follow the event the hook names and narrow on the tool', () => {
  const { diagnostics, expected } = typeCheck(path.join(SDK, 'copilot-types.ts'));
  assert.deepEqual(diagnostics, []);
  // An unused @ts-expect-error would be an error of its own: each expectation was an error.
  assert.equal(expected, 3);
});

test("a Copilot CLI hook on hookline/sdk/copilot denies and rewrites in Copilot's words through hookline fire --dialect copilot", async () => {
  const p = withHookline();
  fs.mkdirSync(path.join(p.dir, '.github', 'hooks'), { recursive: true });
  fs.writeFileSync(
    path.join(p.dir, '.github', 'hooks', 'guard.json'),
    JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: `node '${path.join(SDK, 'copilot-guard.mjs')}'` }] } }),
  );
  const { trustProject } = await import('./helpers.js');
  trustProject(p.dir, p.home);
  const fire = (input: unknown) =>
    runCli(['fire', 'preToolUse', '--dialect', 'copilot', '--input', '-'], { cwd: p.dir, env: p.env, input: JSON.stringify(input) });
  const denied = await fire({ toolName: 'bash', toolArgs: { command: 'rm -rf build' } });
  assert.equal(denied.code, 0, denied.stderr);
  assert.equal(denied.json().output.deny, 'Denied by preToolUse hook: no recursive deletes');
  const edited = await fire({ toolName: 'edit', toolArgs: { path: '/p/a.ts', old_str: 'x', new_str: '  y  ' } });
  assert.deepEqual(edited.json().output.modifiedArgs, { path: '/p/a.ts', old_str: 'x', new_str: 'y' });
});

test('the Claude Code and Codex types narrow on the event and the tool, and refuse what a tool does not have', () => {
  const { diagnostics, expected } = typeCheck(path.join(SDK, 'claude-types.ts'));
  assert.deepEqual(diagnostics, []);
  // Each expectation is an error the compiler found: an unused @ts-expect-error would be one of its own.
  assert.equal(expected, 3);
});

test('a Claude Code hook on hookline/sdk/claude denies and rewrites through hookline fire --dialect claude', async () => {
  const p = withHookline();
  fs.mkdirSync(path.join(p.dir, '.claude'));
  fs.writeFileSync(
    path.join(p.dir, '.claude', 'settings.json'),
    JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `node '${path.join(SDK, 'claude-guard.mjs')}'` }] }] } }),
  );
  const { trustProject } = await import('./helpers.js');
  trustProject(p.dir, p.home);
  const fire = (input: unknown) =>
    runCli(['fire', 'PreToolUse', '--dialect', 'claude', '--input', '-'], { cwd: p.dir, env: p.env, input: JSON.stringify(input) });
  const denied = await fire({ tool_name: 'Bash', tool_input: { command: 'rm -rf build' } });
  assert.equal(denied.code, 0, denied.stderr);
  assert.equal(denied.json().output.permissionDecision, 'deny');
  assert.equal(denied.json().output.permissionDecisionReason, 'no recursive deletes');
  const edited = await fire({ tool_name: 'Edit', tool_input: { file_path: 'a.ts', old_string: 'x', new_string: '  y  ' } });
  assert.deepEqual(edited.json().output.updatedInput, { file_path: 'a.ts', old_string: 'x', new_string: 'y' });
});

test('a Codex hook on hookline/sdk/codex answers as Codex reads it', () => {
  const p = withHookline();
  const script = path.join(p.dir, 'codex-guard.mjs');
  fs.copyFileSync(path.join(SDK, 'codex-guard.mjs'), script);
  const input = {
    hook_event_name: 'PreToolUse',
    session_id: 's',
    turn_id: 't',
    transcript_path: null,
    cwd: p.dir,
    model: 'gpt-5',
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_use_id: 'u',
    tool_input: { command: 'rm -rf /' },
  };
  const r = spawnSync(process.execPath, [script], { input: JSON.stringify(input), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no recursive deletes' },
  });
});

test('hookline_hook (Python): one-shot in Gemini settings and in Claude Code, persistent across events, a bad input refused', {
  skip: !hasPython,
}, async () => {
  const guard = (dialect: string, extra: Record<string, unknown> = {}) =>
    cmd(`python3 '${path.join(SDK, 'python-guard.py')}' '${PYTHON_HELPER}' ${dialect}`, { name: `py-${dialect}`, ...extra });
  const p = makeProject({ project: { hooks: { BeforeTool: [{ hooks: [guard('gemini')] }] } } });
  const shell = (command: string) => JSON.stringify({ tool_name: 'run_shell_command', tool_input: { command } });
  const r = await runCli(['fire', 'BeforeTool', '--input', '-'], { cwd: p.dir, env: p.env, input: shell('rm -rf build') });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json().output.decision, 'deny');
  assert.match(r.json().output.reason, /^no recursive deletes \(pid \d+\)$/);
  assert.equal((await runCli(['fire', 'BeforeTool', '--input', '-'], { cwd: p.dir, env: p.env, input: shell('ls') })).json().output, null);

  const claude = spawnSync('python3', [path.join(SDK, 'python-guard.py'), PYTHON_HELPER, 'claude'], {
    input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }),
    encoding: 'utf8',
  });
  assert.deepEqual(JSON.parse(claude.stdout).hookSpecificOutput, {
    hookEventName: 'PreToolUse',
    permissionDecision: 'deny',
    permissionDecisionReason: 'no recursive deletes',
  });
  const bad = spawnSync('python3', [path.join(SDK, 'python-guard.py'), PYTHON_HELPER], { input: '{"tool_input": ', encoding: 'utf8' });
  assert.equal(bad.status, 2, 'a guard that cannot read its input blocks');
  assert.match(bad.stderr, /^hook input: not JSON/);

  // Persistent: one process answers every event.
  const q = makeProject({ project: { hooks: { BeforeTool: [{ hooks: [guard('gemini', { persistent: true, timeout: 5000 })] }] } } });
  const engine = new HookEngine({ cwd: q.dir, env: q.env });
  try {
    const reasons = [];
    for (let i = 0; i < 2; i++) reasons.push((await engine.fire('BeforeTool', JSON.parse(shell('rm -rf x')))).output?.reason);
    assert.match(String(reasons[0]), /^no recursive deletes \(pid \d+\)$/);
    assert.equal(reasons[0], reasons[1], 'the same process answered both');
  } finally {
    engine.close();
  }
});
