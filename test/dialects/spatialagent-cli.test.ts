import os from 'node:os';
// `hookline fire --dialect spatialagent` and `hookline validate --dialect spatialagent`, as real processes.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers.js';
import { findNamed, fx, saSetup, tmpDir } from './util.js';

const trustedEnv = () => ({
  ...process.env,
  GEMINI_CLI_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-sa-home-')),
  GEMINI_CLI_TRUST_WORKSPACE: 'true',
});

describe('hookline fire --dialect spatialagent', () => {
  test('PreAct from .spatialagent/settings.json with the context variables: {"output": {decision, reason}, "runs"}', async () => {
    const { dir } = saSetup({ hooks: { PreAct: [{ matcher: { code_type: 'bash' }, type: 'bash', command: fx('sa-guard.sh') }] } });
    const r = await runCli(['fire', 'PreAct', '--dialect', 'spatialagent', '--input', '-'], {
      cwd: dir,
      env: trustedEnv(),
      input: '{"CODE": "sudo rm -rf /", "CODE_TYPE": "bash"}',
    });
    assert.equal(r.code, 0, r.stderr);
    const out = r.json();
    assert.deepEqual(out.output, { decision: 'block', reason: 'Dangerous command' });
    const run = out.runs[0];
    for (const k of ['name', 'command', 'exitCode', 'success', 'durationMs', 'stdout', 'stderr', 'error', 'line']) assert.ok(k in run, k);
    assert.equal(run.exitCode, 1);
    assert.equal(run.line, `🪝 1. PreAct · ${fx('sa-guard.sh')} → block: Dangerous command`);
    const ok = await runCli(['fire', 'PreAct', '--dialect', 'spatialagent', '--input', '-'], {
      cwd: dir,
      env: trustedEnv(),
      input: '{"CODE": "ls", "CODE_TYPE": "bash"}',
    });
    assert.deepEqual(ok.json().output, { decision: 'approve', reason: '' });
  });

  test('an injection attempt through $QUERY never executes', async () => {
    const { dir } = saSetup({ hooks: { Start: [{ type: 'bash', command: `echo "Starting: $QUERY" > started.txt; echo $QUERY` }] } });
    const query = '"; touch PWNED; echo " $(touch PWNED) `touch PWNED`';
    const r = await runCli(['fire', 'Start', '--dialect', 'spatialagent', '--input', '-'], {
      cwd: dir,
      env: trustedEnv(),
      input: JSON.stringify({ QUERY: query }),
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(findNamed(dir, 'PWNED'), []);
    assert.equal(fs.readFileSync(path.join(dir, 'started.txt'), 'utf8'), `Starting: ${query}\n`);
    assert.equal(r.json().runs[0].stdout, `${query}\n`);
  });

  test('prompt hooks with --model scripted:FILE', async () => {
    const { dir } = saSetup({ hooks: { PreToolUse: [{ type: 'prompt', prompt: 'Is $TOOL running `$COMMAND` safe? JSON please.' }] } });
    const script = path.join(dir, 'model.jsonl');
    fs.writeFileSync(script, JSON.stringify({ text: '```json\n{"decision": "block", "reason": "pipes curl into sh"}\n```' }) + '\n');
    const r = await runCli(['fire', 'PreToolUse', '--dialect', 'spatialagent', '--model', `scripted:${script}`, '--input', '-'], {
      cwd: dir,
      env: trustedEnv(),
      input: '{"TOOL": "execute_bash", "COMMAND": "curl x | sh"}',
    });
    assert.equal(r.code, 0, r.stderr);
    const out = r.json();
    assert.deepEqual(out.output, { decision: 'block', reason: 'pipes curl into sh' });
    assert.equal(out.runs[0].expanded, 'Is execute_bash running `curl x | sh` safe? JSON please.');
    assert.equal(out.runs[0].type, 'prompt');
  });

  test('a prompt hook without --model approves, with a warning', async () => {
    const { dir } = saSetup({ hooks: { PreAct: [{ type: 'prompt', prompt: 'x' }] } });
    const r = await runCli(['fire', 'PreAct', '--dialect', 'spatialagent'], { cwd: dir, env: trustedEnv() });
    assert.equal(r.code, 0);
    assert.deepEqual(r.json().output, { decision: 'approve', reason: '' });
    assert.match(r.stderr, /PreAct has prompt hooks and no --model/);
  });

  test('--config names another settings file; no settings file = approve with no runs', async () => {
    const { file } = saSetup({ hooks: { Stop: [{ type: 'bash', command: 'exit 5' }] } });
    const elsewhere = tmpDir();
    const r = await runCli(['fire', 'Stop', '--dialect', 'spatialagent', '--config', file, '--cwd', elsewhere]);
    assert.deepEqual(r.json().output, { decision: 'block', reason: 'Command exited with code 5' });
    const none = await runCli(['fire', 'Stop', '--dialect', 'spatialagent'], { cwd: elsewhere });
    assert.deepEqual(none.json(), { output: { decision: 'approve', reason: '' }, runs: [], heldBack: [] });
  });

  test('usage errors: unknown event, missing --config file, bad --model', async () => {
    const { dir } = saSetup({ hooks: {} });
    const bad = async (args: string[], re: RegExp) => {
      const r = await runCli(args, { cwd: dir });
      assert.equal(r.code, 1);
      assert.match(r.stderr, re);
    };
    await bad(
      ['fire', 'PreTool', '--dialect', 'spatialagent'],
      /^hookline: unknown SpatialAgent event "PreTool" — use one of Start, Stop, PrePlan/,
    );
    await bad(
      ['fire', 'Start', '--dialect', 'spatialagent', '--config', 'nope.json'],
      /^hookline: SpatialAgent settings nope.json not found/,
    );
    await bad(['fire', 'Start', '--dialect', 'spatialagent', '--model', 'nope:x'], /^hookline: unknown model "nope:x"/);
  });
});

describe('hookline validate --dialect spatialagent', () => {
  test('problems with file, JSON path and message; exit 1 on errors', async () => {
    const { dir, file } = saSetup({
      hooks: { PreAct: [{ type: 'bash' }, { type: 'bash', command: 'ok', matcher: { tool: '(' } }], Begin: [] },
    });
    const r = await runCli(['validate', '--dialect', 'spatialagent'], { cwd: dir, env: trustedEnv() });
    assert.equal(r.code, 1);
    assert.equal(
      r.stdout,
      [
        `error: ${file}: hooks.PreAct[0].command: a bash hook needs a command`,
        `error: ${file}: hooks.PreAct[1].matcher.tool: invalid regular expression: error parsing regexp: missing closing ): \`(\``,
        `warning: ${file}: hooks.Begin: unknown event "Begin" (ignored); expected one of Start, Stop, PrePlan, PostPlan, PreAct, PostAct, PreToolUse, PostToolUse, PreRoute, PreConclusion`,
        `${path.join('.spatialagent', 'settings.json')}: 0 hook(s), 2 error(s), 1 warning(s)`,
        '',
      ].join('\n'),
    );
  });

  test('a valid file: exit 0; --json', async () => {
    const { dir } = saSetup({ hooks: { Start: [{ type: 'bash', command: 'true' }] } });
    const r = await runCli(['validate', '--dialect', 'spatialagent', '--json'], { cwd: dir, env: trustedEnv() });
    assert.equal(r.code, 0);
    assert.equal(r.json().hooks.Start, 1);
    assert.deepEqual(r.json().problems, []);
  });
});
