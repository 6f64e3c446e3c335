// `hookline fire --dialect agy` and `hookline validate --dialect agy`, as real processes: both
// file shapes, both answer forms, fail-closed decisions, folder trust for .agents/hooks.json.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, runCli, trustDialectHooks } from '../helpers.js';
import { dialectProject, fx, q, tmpDir } from './util.js';

const handler = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, timeout: 10, ...extra });

/** A project with its own home; `.agents/hooks.json` and the user's files as given; trusted unless told. */
function setup(files: { agents?: unknown; antigravitycli?: unknown; userConfig?: unknown; userCli?: unknown }, trusted = true) {
  return dialectProject({
    prefix: 'hookline-agy-',
    project: { '.agents/hooks.json': files.agents, '.antigravitycli/hooks.json': files.antigravitycli },
    home: { '.gemini/config/hooks.json': files.userConfig, '.gemini/antigravity-cli/hooks.json': files.userCli },
    trusted,
  });
}

const fire = (event: string, input: unknown, p: { dir: string; env: NodeJS.ProcessEnv }, extra: string[] = []) =>
  runCli(['fire', event, '--dialect', 'agy', '--input', '-', ...extra], { cwd: p.dir, env: p.env, input: JSON.stringify(input) });

const shell = (command: string) => ({ toolCall: { name: 'run_command', args: { CommandLine: command, Cwd: '/tmp' } } });

describe('hookline fire --dialect agy', () => {
  for (const form of ['decision', 'legacy']) {
    test(`PreToolUse, ${form} answers: deny with its reason, allow, and the runs`, async () => {
      const p = setup({
        agents: { guard: { PreToolUse: [{ matcher: 'run_command', hooks: [handler(`${fx('agy-guard.mjs')} ${form}`)] }] } },
      });
      const denied = await fire('PreToolUse', shell('rm -rf /'), p);
      assert.equal(denied.code, 0, denied.stderr);
      const out = denied.json();
      assert.deepEqual(out.output, { decision: 'deny', reason: 'destructive command: rm -rf /' });
      const run = out.runs[0];
      assert.deepEqual(
        [run.source, run.path, run.hook, run.matcher, run.timeoutSeconds, run.exitCode, run.outcome],
        ['workspace', 'guard.PreToolUse[0].hooks[0]', 'guard', 'run_command', 10, 0, 'deny'],
      );
      assert.equal(run.file, path.join(p.dir, '.agents', 'hooks.json'));
      const allowed = (await fire('PreToolUse', shell('ls'), p)).json();
      assert.deepEqual(allowed.output, { decision: 'allow' });
    });
  }

  test('the Claude-style nested file; the hook reads the camelCase input; "" matches every tool', async () => {
    const p = setup({
      userConfig: {
        hooks: {
          PreToolUse: [{ matcher: '', hooks: [handler(`cat > seen.json; echo '{"decision": "force_ask", "reason": "look first"}'`)] }],
        },
      },
    });
    const input = {
      conversationId: 'c1',
      stepIdx: 3,
      toolCall: { name: 'view_file', args: { AbsolutePath: '/etc/hosts' } },
      transcriptPath: '/tmp/t.jsonl',
      workspacePaths: [p.dir],
      artifactDirectoryPath: '/tmp/a',
    };
    const r = await fire('PreToolUse', input, p);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json().output, { decision: 'force_ask', reason: 'look first' });
    assert.equal(r.json().runs[0].source, 'user');
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(p.dir, 'seen.json'), 'utf8')), input);
  });

  test('fails closed: {} , text, an unknown decision, a failed run and a timeout deny; empty output is no opinion', async () => {
    const cases: Array<[string, string | null]> = [
      [`echo '{}'`, 'output has no decision ("decision" or "allowTool")'],
      ['echo ok', 'output is not JSON: ok'],
      [`echo '{"decision": "maybe"}'`, 'unknown decision "maybe"; expected allow, deny, ask or force_ask'],
      ['echo broken >&2; exit 1', 'exit 1: broken'],
      ['true', null],
    ];
    for (const [command, reason] of cases) {
      const p = setup({ userCli: { h: { PreToolUse: [{ matcher: '*', hooks: [handler(command)] }] } } });
      const out = (await fire('PreToolUse', shell('ls'), p)).json();
      assert.deepEqual(out.output, reason === null ? null : { decision: 'deny', reason }, command);
    }
    const slow = setup({
      userCli: { h: { PreToolUse: [{ matcher: '*', hooks: [handler(`exec ${fx('e2e-hang.sh')}`, { timeout: 1 })] }] } },
    });
    const out = (await fire('PreToolUse', shell('ls'), slow)).json();
    assert.deepEqual(out.output, { decision: 'deny', reason: 'timed out after 1 s' });
  });

  test('any deny vetoes: deny over force_ask over ask over allow', async () => {
    const say = (o: unknown) => handler(`echo ${q(JSON.stringify(o))}`);
    const p = setup({
      userConfig: {
        hooks: { PreToolUse: [{ matcher: 'run_command', hooks: [say({ decision: 'allow' }), say({ decision: 'ask', reason: 'a' })] }] },
      },
      userCli: { b: { PreToolUse: [{ matcher: 'run_command|view_file', hooks: [say({ allowTool: false, denyReason: 'no' })] }] } },
    });
    const out = (await fire('PreToolUse', shell('ls'), p)).json();
    assert.deepEqual(out.output, { decision: 'deny', reason: 'no' });
    assert.deepEqual(
      out.runs.map((r: { outcome: string }) => r.outcome),
      ['allow', 'ask', 'deny'],
    );
    const other = (await fire('PreToolUse', { toolCall: { name: 'list_dir', args: {} } }, p)).json();
    assert.deepEqual(other, { output: null, runs: [], heldBack: [] });
  });

  for (const [event, fields] of [
    ['PostToolUse', { ...shell('ls'), toolResult: { output: 'a\nb' } }],
    ['PreInvocation', { stepIdx: 0 }],
    ['PostInvocation', { stepIdx: 1 }],
    ['Stop', { terminationReason: 'NO_TOOL_CALL' }],
  ] as const) {
    test(`${event}: bare handlers (the guide's form) read the input; the hook observes`, async () => {
      const log = path.join(tmpDir(), 'log.jsonl');
      const entry =
        event === 'PostToolUse'
          ? [{ matcher: 'run_command', hooks: [handler(`${fx('e2e-respond.sh')} ${q(log)}`)] }]
          : [handler(`${fx('e2e-respond.sh')} ${q(log)} '{"note": 1}'`)];
      const p = setup({ agents: { [`on-${event}`]: { [event]: entry } } });
      const r = await fire(event, fields, p);
      assert.equal(r.code, 0, r.stderr);
      const out = r.json();
      assert.equal(out.output, null);
      assert.equal(out.runs.length, 1);
      assert.equal(out.runs[0].outcome, 'ok');
      const seen = JSON.parse(fs.readFileSync(log, 'utf8'));
      assert.deepEqual(seen, {
        conversationId: seen.conversationId,
        stepIdx: 0,
        transcriptPath: '',
        workspacePaths: [p.dir],
        artifactDirectoryPath: '',
        ...fields,
      });
      if (event === 'Stop') assert.equal(seen.terminationReason, 'NO_TOOL_CALL');
    });
  }

  test("an untrusted folder runs nothing from .agents/hooks.json or .antigravitycli/hooks.json; the user's file still runs", async () => {
    const log = path.join(tmpDir(), 'log.jsonl');
    const deny = { h: { PreToolUse: [{ matcher: '', hooks: [handler(`${fx('e2e-respond.sh')} ${q(log)} '{"decision": "deny"}'`)] }] } };
    const p = setup({ agents: deny, antigravitycli: deny }, false);
    const r = await fire('PreToolUse', shell('ls'), p);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json().output, null);
    assert.deepEqual(r.json().runs, []);
    assert.deepEqual(
      r.json().heldBack.map((h: { file: string; reason: string }) => [path.relative(p.dir, h.file), h.reason]),
      [
        [path.join('.agents', 'hooks.json'), 'untrusted-folder'],
        [path.join('.antigravitycli', 'hooks.json'), 'untrusted-folder'],
      ],
    );
    assert.match(r.stderr, /is not a trusted folder: the hooks in .agents\/hooks.json, .antigravitycli\/hooks.json do not run/);
    assert.equal(fs.existsSync(log), false);
    p.write(path.join(p.home, '.gemini', 'config', 'hooks.json'), deny);
    const mine = (await fire('PreToolUse', shell('ls'), p)).json();
    assert.equal(mine.runs.length, 1);
    assert.equal(mine.runs[0].source, 'user');
  });

  test('a hook changed after trust is held back', async () => {
    const p = setup({ agents: { h: { PreToolUse: [{ matcher: '', hooks: [handler(`echo '{"decision": "deny"}'`)] }] } } });
    assert.equal((await fire('PreToolUse', shell('ls'), p)).json().runs.length, 1);
    p.write(path.join(p.dir, '.agents', 'hooks.json'), {
      h: { PreToolUse: [{ matcher: '', hooks: [handler(`echo '{"decision": "allow"}'`)] }] },
    });
    const r = await fire('PreToolUse', shell('ls'), p);
    assert.deepEqual(r.json().runs, []);
    assert.match(r.stderr, /hookline trust/);
  });

  test('an unknown event and a missing toolCall are one-line errors', async () => {
    const p = setup({});
    const bad = await fire('BeforeTool', {}, p);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /unknown agy event "BeforeTool" — use one of PreToolUse/);
    const missing = await fire('PreToolUse', { toolCall: {} }, p);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /"toolCall.name" is required/);
  });

  test("examples/agy fired as a project's .agents/", async () => {
    const p = setup({});
    fs.cpSync(path.join(ROOT, 'examples', 'agy'), path.join(p.dir, '.agents'), { recursive: true });
    trustDialectHooks(p.dir, p.home);
    assert.deepEqual((await fire('PreToolUse', shell('rm -rf build'), p)).json().output, {
      decision: 'deny',
      reason: 'blocked: rm -rf build',
    });
    assert.deepEqual((await fire('PreToolUse', shell('git push'), p)).json().output, { decision: 'ask', reason: 'confirm the push' });
    assert.deepEqual((await fire('PreToolUse', shell('ls'), p)).json().output, { decision: 'allow' });
    const stop = await fire('Stop', { conversationId: 'c9', terminationReason: 'NO_TOOL_CALL' }, p);
    assert.equal(stop.json().runs[0].outcome, 'ok', stop.stderr);
    assert.equal(fs.readFileSync(path.join(p.dir, '.agents', 'turns.log'), 'utf8'), 'c9 NO_TOOL_CALL\n');
  });
});

describe('hookline validate --dialect agy', () => {
  test('errors and warnings name the file and the JSON path; exit 1 on errors', async () => {
    const p = setup({});
    const file = path.join(p.dir, 'bad.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        enabled: false,
        a: {
          PreToolUse: [{ matcher: 'run_command', hooks: [{ type: 'command', command: 'x', timeout: 1.5 }, { type: 'command' }] }],
          SessionEnd: [],
        },
        b: { enabled: 'no', Stop: [] },
        c: {
          Stop: [
            { type: 'shell', command: 'y' },
            { command: 'z', env: {} },
          ],
          PreInvocation: {},
        },
        d: [],
      }),
    );
    const r = await runCli(['validate', '--dialect', 'agy', '--config', file], { cwd: p.dir, env: p.env });
    assert.equal(r.code, 1);
    for (const line of [
      `error: ${file}: enabled: every top-level key is a hook name`,
      `error: ${file}: a.PreToolUse[0].hooks[0].timeout: timeout must be a whole number of seconds, got 1.5`,
      `error: ${file}: a.PreToolUse[0].hooks[1].command: missing "command" for a command hook`,
      `warning: ${file}: a.SessionEnd: unknown event "SessionEnd"`,
      `error: ${file}: b.enabled: "enabled" must be true or false, got a string`,
      `error: ${file}: c.Stop[0].type: unknown hook type "shell"`,
      `warning: ${file}: c.Stop[1].env: unknown field "env" (ignored)`,
      `error: ${file}: c.PreInvocation: "PreInvocation" must be an array, got an object`,
      `error: ${file}: d: named hook "d" must be an object of events, got an array`,
    ])
      assert.ok(r.stdout.includes(line) || r.stderr.includes(line), `${line}\n--- got:\n${r.stdout}${r.stderr}`);
  });

  test('invalid JSON is one error for the whole file; a good file validates', async () => {
    const p = setup({ agents: '{"a": {"Stop": [}' });
    const bad = await runCli(['validate', '--dialect', 'agy'], { cwd: p.dir, env: p.env });
    assert.equal(bad.code, 1);
    assert.match(bad.stdout + bad.stderr, /hooks\.json: .*no hook from this file is loaded/);
    const good = await runCli(['validate', '--dialect', 'agy', '--config', path.join(ROOT, 'examples', 'agy', 'hooks.json')], {
      cwd: p.dir,
      env: p.env,
    });
    assert.equal(good.code, 0, good.stdout + good.stderr);
    assert.match(good.stdout, /2 hook\(s\), 0 error\(s\)/);
  });
});
