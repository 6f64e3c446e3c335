// A guard that fails is never read as a silent allow: output that looks like JSON but does not
// parse is said (hook, event, file, where it broke) in fire, the agent and the trace; a crash (exit
// 1 with a stack trace) is reported as one; `onFailure: "block"` fails closed in Gemini settings and
// SpatialAgent, the dialects without a fail-closed option of their own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parseHookText } from '../../src/decide/parse.js';
import { decideRun } from '../../src/decide/run.js';
import { crashSummary, failureOf, looksLikeCrash } from '../../src/decide/failure.js';
import { fireSpatialAgent } from '../../src/dialects/spatialagent/run.js';
import { loadTrace } from '../../src/cli/trace-file.js';
import { cmd, hook, makeProject, runCli, tmpFile } from '../helpers.js';
import { fx, saSetup } from '../dialects/util.js';

const SHELL = JSON.stringify({ tool_name: 'run_shell_command', tool_input: { command: 'rm -rf build' } });
const BAD = 'stdout is not valid JSON (line 1, column 22: unexpected "r"); read as plain text, which allows (exit 0)';

function guard(name: string, command: string, extra: Record<string, unknown> = {}) {
  const p = makeProject({ project: { hooks: { BeforeTool: [{ hooks: [cmd(command, { name, ...extra })] }] } } });
  return { ...p, file: path.join(p.dir, '.gemini', 'settings.json') };
}

test('output meant as JSON that does not parse is read as text, with a warning saying where it broke', () => {
  const bad = parseHookText('{"decision": "deny", reason: oops', '', 0);
  assert.deepEqual(bad.output, { decision: 'allow', systemMessage: '{"decision": "deny", reason: oops' });
  assert.equal(bad.warning, BAD);
  assert.match(
    parseHookText('{"decision": "deny"}\nlogged', '', 2).warning ?? '',
    /line 2, column 1: text after the JSON value\); read as plain text, which denies \(exit 2\)/,
  );
  // Text that never meant to be JSON is not warned about.
  for (const text of ['[info] starting', 'ok', '']) assert.equal(parseHookText(text, '', 0).warning, undefined, text);
});

test('a non-blocking exit with a stack trace is a crash: an error naming the exception, not an allow', () => {
  const traceback =
    'Traceback (most recent call last):\n  File "/h/guard.py", line 3, in <module>\n    import x\nModuleNotFoundError: No module named \'x\'\n';
  const node =
    "node:internal/modules/esm/resolve:854\n  throw new ERR_MODULE_NOT_FOUND(packageName, fileURLToPath(base), null);\n        ^\n\nError [ERR_MODULE_NOT_FOUND]: Cannot find package 'hookline' imported from /p/guard.mjs\n    at packageResolve (node:internal/modules/esm/resolve:854:9)\n\nNode.js v20.20.2\n";
  assert.equal(crashSummary(traceback), "ModuleNotFoundError: No module named 'x'");
  assert.equal(crashSummary(node), "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'hookline' imported from /p/guard.mjs");
  assert.equal(looksLikeCrash('denied: rm -rf'), false);
  const run = decideRun({ exitCode: 1, stdout: '', stderr: traceback, durationMs: 1 });
  assert.equal(run.error, "crashed (exit 1): ModuleNotFoundError: No module named 'x'");
  assert.equal(run.success, false);
  assert.equal(failureOf(run), 'crash');
  // Exit 1 without a stack trace stays a warning that allows, as in Gemini CLI; exit 2 is an answer.
  assert.equal(decideRun({ exitCode: 1, stdout: '', stderr: 'careful', durationMs: 1 }).error, undefined);
  assert.equal(failureOf({ exitCode: 2, stderr: 'no' }), undefined);
  assert.equal(failureOf({ exitCode: 127, stderr: 'bash: x: command not found' }), 'start');
});

test('fire: a broken JSON answer and a crash are said on stderr with hook, event and file', async () => {
  const p = makeProject({
    project: {
      hooks: {
        BeforeTool: [{ hooks: [cmd(hook('bad-json.sh'), { name: 'bad' }), cmd(`python3 ${hook('crash.py')}`, { name: 'crash' })] }],
      },
    },
  });
  const file = path.join(p.dir, '.gemini', 'settings.json');
  const r = await runCli(['fire', 'BeforeTool', '--input', '-'], { cwd: p.dir, env: p.env, input: SHELL });
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stderr.split('\n');
  assert.ok(lines.includes(`hookline: warning: BeforeTool hook "bad" (${file}): ${BAD}`), r.stderr);
  const crash = `BeforeTool hook "crash" (${file}): crashed (exit 1): ModuleNotFoundError: No module named 'hookline_no_such_module'`;
  assert.ok(lines.includes(`hookline: ${crash}`), r.stderr);
  const [bad, crashed] = r.json().runs;
  assert.equal(bad.warning, `BeforeTool hook "bad" (${file}): ${BAD}`);
  assert.equal(crashed.error, crash);
  assert.equal(r.json().output.decision, 'allow', 'as in Gemini CLI, unless the hook fails closed');
});

for (const [what, command, extra, because] of [
  ['broken JSON', hook('bad-json.sh'), {}, /stdout is not valid JSON/],
  ['a crash', `python3 ${hook('crash.py')}`, {}, /crashed \(exit 1\): ModuleNotFoundError/],
  ['a timeout', 'sleep 5', { timeout: 300 }, /timed out after 300/],
  ['a command that cannot start', 'hookline-no-such-guard', {}, /hookline-no-such-guard/],
] as const) {
  test(`onFailure: "block" makes ${what} deny, as exit 2 would`, async () => {
    const p = guard('guard', command, { ...extra, onFailure: 'block' });
    const r = await runCli(['fire', 'BeforeTool', '--input', '-'], { cwd: p.dir, env: p.env, input: SHELL });
    assert.equal(r.code, 0, r.stderr);
    const out = r.json().output;
    assert.equal(out.decision, 'deny', r.stdout);
    assert.match(out.reason, /^hook "guard" failed \(onFailure: block\): /);
    assert.match(out.reason, because);
  });
}

test('onFailure: "block" leaves a hook that answers alone, and validate refuses another value', async () => {
  const ok = guard('guard', `printf '{"decision":"allow"}'`, { onFailure: 'block' });
  const r = await runCli(['fire', 'BeforeTool', '--input', '-'], { cwd: ok.dir, env: ok.env, input: SHELL });
  assert.equal(r.json().output.decision, 'allow');
  const bad = guard('guard', 'true', { onFailure: 'closed' });
  const v = await runCli(['validate'], { cwd: bad.dir, env: bad.env });
  assert.equal(v.code, 1);
  assert.match(
    v.stdout + v.stderr,
    /hooks\.BeforeTool\[0\]\.hooks\[0\]\.onFailure: "onFailure" must be "block" \(fail closed\) or left out/,
  );
});

test('the trace records the warning and each run’s failure kind', async () => {
  const p = makeProject({
    project: {
      hooks: {
        BeforeTool: [{ hooks: [cmd(hook('bad-json.sh'), { name: 'bad' }), cmd(`python3 ${hook('crash.py')}`, { name: 'crash' })] }],
      },
    },
  });
  const dir = path.dirname(tmpFile('traces/x'));
  const env = { ...p.env, HOOKLINE_TRACE: '1', HOOKLINE_TRACE_DIR: dir };
  await runCli(['fire', 'BeforeTool', '--input', '-', '--session-id', 'fl-1'], { cwd: p.dir, env, input: SHELL });
  const runs = loadTrace(path.join(dir, 'fl-1.jsonl')).fires[0].runs;
  const byHook = Object.fromEntries(runs.map((r) => [r.hook, r]));
  assert.equal(byHook.bad.failure, 'output');
  assert.match(byHook.bad.warning ?? '', /stdout is not valid JSON \(line 1, column 22/);
  assert.equal(byHook.crash.failure, 'crash');
  assert.equal(byHook.crash.decision, 'error');
});

test('the agent shows the warning of a guard whose JSON is broken', async () => {
  const p = guard('bad', hook('bad-json.sh'));
  const script = tmpFile('bad-json.jsonl');
  fs.writeFileSync(
    script,
    `${JSON.stringify({ toolCalls: [{ name: 'run_shell_command', args: { command: 'echo hi' } }] })}\n{"text":"done"}\n`,
  );
  const r = await runCli(['agent', '--model', `scripted:${script}`, '--approval-mode', 'yolo', '-p', 'go'], { cwd: p.dir, env: p.env });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.stderr.includes(`⚠ BeforeTool hook "bad" (${p.file}): ${BAD}`), r.stderr);
});

test('SpatialAgent: a hook that errors approves, unless onFailure: "block"', async () => {
  const hooks = (extra: Record<string, unknown>) => ({
    hooks: { PreAct: [{ type: 'bash', command: `${fx('sa-slow.sh')} 5`, timeout: 0.3, ...extra }] },
  });
  const open = saSetup(hooks({}));
  assert.equal((await fireSpatialAgent(open.config, 'PreAct', { CODE: 'x' }, { cwd: open.dir })).output.decision, 'approve');
  const closed = saSetup(hooks({ onFailure: 'block' }));
  assert.deepEqual(closed.config.problems, []);
  const r = await fireSpatialAgent(closed.config, 'PreAct', { CODE: 'x' }, { cwd: closed.dir });
  assert.deepEqual(r.output, { decision: 'block', reason: 'Hook failed (onFailure: block): Hook timed out after 0.3s' });
  const wrong = saSetup(hooks({ onFailure: 'yes' }));
  assert.match(wrong.config.problems.map((x) => x.message).join('\n'), /must be "block" \(fail closed\) or left out, got "yes"/);
});

test('hookline test shows a failing hook’s exit code and an excerpt of its stderr', async () => {
  const p = guard('crash', `python3 ${hook('crash.py')}`);
  const dir = path.join(p.dir, '.hookline', 'tests');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'ls.hooktest.json'),
    JSON.stringify({ name: 'lets ls through', event: 'BeforeTool', input: JSON.parse(SHELL), expect: { decision: 'allow', exitCode: 0 } }),
  );
  const r = await runCli(['test'], { cwd: p.dir, env: p.env });
  assert.equal(r.code, 1);
  const lines = r.stdout.split('\n');
  assert.ok(lines.includes('✗ lets ls through — expected exit code 0, got 1'), r.stdout);
  assert.ok(lines.includes('    hook "crash" exited with code 1; its stderr:'), r.stdout);
  assert.ok(lines.includes("      ModuleNotFoundError: No module named 'hookline_no_such_module'"), r.stdout);
});

test('doctor says a hook’s last traced run failed, and exits 1', async () => {
  const p = guard('bad', hook('bad-json.sh'));
  const dir = path.dirname(tmpFile('doctor-traces/x'));
  const env = { ...p.env, HOOKLINE_TRACE: '1', HOOKLINE_TRACE_DIR: dir };
  const healthy = await runCli(['doctor'], { cwd: p.dir, env });
  assert.equal(healthy.code, 0, healthy.stdout);
  await runCli(['fire', 'BeforeTool', '--input', '-', '--session-id', 'doc-1'], { cwd: p.dir, env, input: SHELL });
  const r = await runCli(['doctor'], { cwd: p.dir, env });
  assert.equal(r.code, 1, r.stdout);
  assert.match(r.stdout, /^✗ gemini project BeforeTool bad \(\.gemini\/settings\.json\)$/m);
  assert.match(
    r.stdout,
    /^ {4}its last run failed \(output: stdout is not valid JSON \(line 1, column 22: unexpected "r"\); read as plain text, which allows \(exit 0\)\) — \S+, session doc-1; hookline explain doc-1$/m,
  );
});

test('replay says which held-back hooks it left out; --current replays the files as they are', async () => {
  const settings = (command: string) => ({ hooks: { BeforeTool: [{ hooks: [cmd(command, { name: 'guard' })] }] } });
  const p = makeProject({ project: settings('true') });
  const traces = path.dirname(tmpFile('replay-traces/x'));
  const env = { ...p.env, HOOKLINE_TRACE: 'inputs', HOOKLINE_TRACE_DIR: traces };
  await runCli(['fire', 'BeforeTool', '--input', '-', '--session-id', 'rh-1'], { cwd: p.dir, env, input: SHELL });
  // Edited into a guard that denies, and not trusted again.
  fs.writeFileSync(path.join(p.dir, '.gemini', 'settings.json'), JSON.stringify(settings(`printf '{"decision":"deny","reason":"no"}'`)));
  const held = await runCli(['replay', 'rh-1'], { env });
  assert.equal(held.code, 0, held.stderr);
  assert.match(held.stdout, /1 event\(s\) replayed, 0 decision\(s\) would change/);
  assert.match(
    held.stderr,
    /^hookline: 1 workspace hook\(s\) held back for trust were left out of the replay, as if absent: guard \(BeforeTool, \S+settings\.json\) — review them and run hookline trust "[^"]+", or replay against the current files with --current$/m,
  );
  const current = await runCli(['replay', 'rh-1', '--current'], { env });
  assert.equal(current.code, 0, current.stderr);
  assert.match(current.stdout, /^ +1 +gemini BeforeTool run_shell_command: ok → deny \(no\) \[guard: deny\]$/m);
  assert.doesNotMatch(current.stderr, /held back/);
});
