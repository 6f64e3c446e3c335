import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { HOOKS, makeProject, runCli, tmpFile } from '../helpers.js';
import { judge } from '../../src/cli/hooktest/judge.js';
import { loadFixture } from '../../src/cli/hooktest/fixture.js';
import { partialMatch, verdictOf } from '../../src/dialects/verdict.js';

const write = (file: string, text: unknown) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof text === 'string' ? text : JSON.stringify(text));
};

const shell = { tool_name: 'run_shell_command', tool_input: { command: 'rm -rf /' } };

describe('hookline test', () => {
  test('runs each fixture through the configured hooks of its dialect, untrusted folder and all, without touching the trust files', async () => {
    // Not trusted, with no trust files: the sandbox trusts it in a home of its own.
    const p = makeProject({
      trusted: false,
      project: {
        hooks: {
          BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', name: 'guard', command: `${HOOKS}/ht-guard.sh` }] }],
        },
      },
    });
    write(path.join(p.dir, '.claude', 'settings.json'), {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `${HOOKS}/cc-bash-guard.mjs` }] }] },
    });
    const t = path.join(p.dir, '.hookline', 'tests');
    write(path.join(t, 'a-deny.hooktest.json'), { event: 'BeforeTool', input: shell, expect: { decision: 'deny', reason: 'rm -rf' } });
    write(
      path.join(t, 'b-context.hooktest.yaml'),
      'name: ls gets context\nevent: BeforeTool\ninput: {tool_name: run_shell_command, tool_input: {command: ls}}\nexpect: {decision: allow, context: ht-guard, exitCode: 0}\n',
    );
    write(path.join(t, 'c-claude.hooktest.json'), {
      dialect: 'claude',
      event: 'PreToolUse',
      input: { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } },
      expect: { decision: 'deny', exitCode: 2, reason: 'Destructive' },
    });
    // A configuration named by the fixture, instead of the project's .claude/settings.json.
    write(path.join(t, 'lister.json'), {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `${HOOKS}/cc-bash-guard.mjs` }] }] },
    });
    write(path.join(t, 'c2-config.hooktest.json'), {
      dialect: 'claude',
      config: 'lister.json',
      event: 'PreToolUse',
      input: { tool_name: 'Bash', tool_input: { command: 'ls' } },
      expect: { decision: 'allow', reason: 'listing is safe', output: { updatedInput: { command: 'ls -a' } }, hooks: 1 },
    });
    write(
      path.join(t, 'd-wrong.hooktest.yml'),
      'event: BeforeTool\ninput: {tool_name: run_shell_command, tool_input: {command: "rm -rf x"}}\nexpect: {decision: allow}\n',
    );
    write(path.join(t, 'e-invalid.hooktest.json'), { input: {}, expect: {} });
    write(path.join(t, 'f-nomatch.hooktest.json'), {
      event: 'BeforeTool',
      input: { tool_name: 'read_file' },
      expect: { decision: 'allow' },
    });
    write(path.join(t, 'notes.json'), { ignored: true });
    const before = fs.readdirSync(path.join(p.home, '.gemini'));

    const r = await runCli(['test', '--cwd', p.dir], { env: p.env });
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .filter((l) => !l.startsWith('    '));
    assert.deepEqual(lines, [
      '✓ .hookline/tests/a-deny.hooktest.json',
      '✓ ls gets context',
      '✓ .hookline/tests/c-claude.hooktest.json',
      '✓ .hookline/tests/c2-config.hooktest.json',
      '✗ .hookline/tests/d-wrong.hooktest.yml — expected decision allow, got deny ("no rm -rf here")',
      '✗ .hookline/tests/e-invalid.hooktest.json — invalid fixture: event: Invalid input: expected string, received undefined',
      '✗ .hookline/tests/f-nomatch.hooktest.json — expected at least 1 hook run(s), got 0',
      '4 passed, 3 failed',
    ]);
    assert.deepEqual(fs.readdirSync(path.join(p.home, '.gemini')), before);

    // One fixture by path, judged on one named hook.
    const one = await runCli(['test', '--hook', 'guard', path.join(t, 'a-deny.hooktest.json')], { env: p.env, cwd: p.dir });
    assert.equal(one.code, 0, one.stdout + one.stderr);
    assert.equal(one.stdout.trimEnd().split('\n').at(-1), '1 passed, 0 failed');
    const other = await runCli(['test', '--hook', 'nobody', path.join(t, 'a-deny.hooktest.json')], { env: p.env, cwd: p.dir });
    assert.equal(other.code, 1);
    assert.match(other.stdout, /hook "nobody" did not run \(ran: guard\)/);
  });

  test('with no fixtures: one error line naming the folder, exit 1', async () => {
    const p = makeProject();
    const r = await runCli(['test', '--cwd', p.dir], { env: p.env });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^hookline: no hook test fixtures .* in \.hookline\/tests — create one with: hookline init\n$/);
  });
});

describe('fixture verdicts', () => {
  test("decisions are read from each system's output shape", () => {
    const v = (output: unknown, runs: unknown[] = [{ exitCode: 0 }]) => verdictOf({ output, runs });
    assert.equal(v({ decision: 'deny', reason: 'r' }).decision, 'deny');
    assert.equal(v({ continue: true, permissionDecision: 'ask', permissionDecisionReason: 'why' }).reason, 'why');
    assert.equal(v({ action: 'stop', reason: 'enough' }).decision, 'stop');
    assert.equal(v({ action: 'continue', context: 'c' }).context, 'c');
    assert.equal(v(null).decision, 'allow');
    assert.equal(v({ continue: false, stopReason: 's' }).decision, 'stop');
    assert.equal(v({ hookSpecificOutput: { additionalContext: 'x' } }).context, 'x');
    assert.equal(v({}, [{ exitCode: 0 }, { exitCode: 2 }, { exitCode: 1 }]).exitCode, 2);
    // One hook's own answer, not the aggregate.
    const one = verdictOf(
      {
        output: { decision: 'deny' },
        runs: [
          { name: 'a', output: { decision: 'allow' } },
          { name: 'b', output: { decision: 'deny' } },
        ],
      },
      'a',
    );
    assert.deepEqual([one.decision, one.hooks], ['allow', 1]);
  });

  test('judge names every difference; allow, approve and continue are one decision', () => {
    const v = verdictOf({ output: { decision: 'approve', reason: 'fine', extra: { a: 1, b: 2 } }, runs: [{ exitCode: 0 }] });
    assert.deepEqual(judge({ decision: 'allow', reason: 'fin', output: { extra: { a: 1 } } }, v), []);
    assert.deepEqual(judge({ decision: 'deny', exitCode: 2, context: 'c' }, v), [
      'expected decision deny, got approve ("fine")',
      'expected context containing "c", got nothing',
      'expected exit code 2, got 0',
    ]);
    assert.equal(partialMatch([1, { a: 1 }], [1, { a: 1, b: 2 }]), true);
    assert.equal(partialMatch([1], [1, 2]), false);
  });

  test('a fixture with an unknown field or dialect is refused with its path', () => {
    const f = tmpFile('x.hooktest.json');
    fs.writeFileSync(f, JSON.stringify({ event: 'BeforeTool', dialect: 'cursor', expect: {} }));
    const r = loadFixture(f);
    assert.equal(r.ok, false);
    assert.match((r as { problem: string }).problem, /^dialect: /);
    fs.writeFileSync(f, JSON.stringify({ event: 'BeforeTool', expect: { decison: 'deny' } }));
    assert.match((loadFixture(f) as { problem: string }).problem, /^expect: Unrecognized key: "decison"/);
  });
});
