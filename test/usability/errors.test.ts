// Errors a newcomer meets in the first hour: each is one line with the fix and a non-zero exit,
// never a stack trace.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { makeProject, runCli, ROOT } from '../helpers.js';

const oneLine = (s: string) => {
  assert.equal(s.trimEnd().split('\n').length, 1, s);
  assert.doesNotMatch(s, /\n\s+at /, 'no stack trace');
};

describe('agent flags', () => {
  for (const [flag, value] of [
    ['--max-steps', 'abc'],
    ['--max-steps', '0'],
    ['--compress-threshold', 'lots'],
    ['--compress-threshold', '-5'],
  ]) {
    test(`${flag} ${value}: a one-line error with the fix, exit 1`, async () => {
      const p = makeProject();
      const r = await runCli(['agent', '--cwd', p.dir, flag, value, '-p', 'hi'], { env: p.env });
      assert.equal(r.code, 1);
      oneLine(r.stderr);
      assert.match(
        r.stderr,
        new RegExp(`^hookline: ${flag} "${value}": not a whole number of at least 1 — give one, e.g. ${flag} \\d+\\n$`),
      );
      assert.equal(r.stdout, '');
    });
  }

  test('--resume with no saved session, and with an unknown id: one line, exit 1', async () => {
    const p = makeProject();
    const none = await runCli(['agent', '--cwd', p.dir, '--resume', '-p', 'hi'], { env: p.env });
    assert.equal(none.code, 1);
    oneLine(none.stderr);
    assert.match(none.stderr, /^hookline: no saved session in .* to resume — start one with `hookline agent`/);
    const unknown = await runCli(['agent', '--cwd', p.dir, '--resume', 'deadbeef', '-p', 'hi'], { env: p.env });
    assert.equal(unknown.code, 1);
    oneLine(unknown.stderr);
    assert.match(unknown.stderr, /^hookline: no saved session "deadbeef" in /);
  });
});

describe('defineHook one-shot input', () => {
  const hookFile = path.join(ROOT, 'test', 'fixtures', 'hooks', 'sdk-allow.ts');
  const run = (stdin: string) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', hookFile], { cwd: ROOT });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(stdin);
    });

  for (const [what, input, re] of [
    ['empty', '', /stdin is empty/],
    ['not JSON', 'hello', /not JSON/],
    ['not an object', '[1]', /not a JSON object/],
  ] as const) {
    test(`stdin ${what}: one line saying how to send the event, exit 2 (the guard refuses)`, async () => {
      const r = await run(input);
      assert.equal(r.code, 2);
      assert.equal(r.stdout, '');
      oneLine(r.stderr);
      assert.match(r.stderr, re);
      assert.match(r.stderr, /— Hookline sends the event as one JSON object on stdin; to try the hook by hand: echo '\{/);
    });
  }

  test('a good event still runs the handler', async () => {
    const r = await run(JSON.stringify({ hook_event_name: 'BeforeTool', tool_name: 'glob', tool_input: {} }));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { decision: 'allow' });
  });
});

describe('errors that say how to fix them', () => {
  test('a script that is not executable (126) or not found (127) names the file and the fix', async () => {
    const p = makeProject({ trusted: false });
    fs.writeFileSync(path.join(p.dir, 'guard.sh'), '#!/bin/sh\necho {}\n', { mode: 0o644 });
    const settings = { hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'noexec', command: './guard.sh' }] }] } };
    fs.mkdirSync(path.join(p.dir, '.gemini'));
    fs.writeFileSync(path.join(p.dir, '.gemini', 'settings.json'), JSON.stringify(settings));
    // A project hook whose script is missing is never trusted (it cannot be fingerprinted); the user's own can be wrong too.
    const user = { hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'gone', command: './missing.sh' }] }] } };
    fs.writeFileSync(path.join(p.home, '.gemini', 'settings.json'), JSON.stringify(user));
    const r = await runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--input', '-'], {
      env: { ...p.env, GEMINI_CLI_TRUST_WORKSPACE: 'true' },
      cwd: p.dir,
      input: '{"tool_name":"glob","tool_input":{}}',
    });
    assert.match(
      r.stderr,
      /"noexec" .*\.\/guard\.sh: not executable \(exit 126\) — run: chmod \+x \.\/guard\.sh, or run it as: bash \.\/guard\.sh/,
    );
    assert.match(r.stderr, /"gone" .*\.\/missing\.sh: no such file \(exit 127\) — check the path/);
  });

  test('a Gemini timeout that looks like seconds: a validate warning, and the run time error says the same', async () => {
    const p = makeProject({ trusted: false });
    const settings = { hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'slow', command: 'sleep 2', timeout: 5 }] }] } };
    fs.mkdirSync(path.join(p.dir, '.gemini'));
    fs.writeFileSync(path.join(p.dir, '.gemini', 'settings.json'), JSON.stringify(settings));
    const v = await runCli(['validate', '--cwd', p.dir], { env: p.env });
    assert.equal(v.code, 0, v.stdout);
    assert.match(
      v.stdout,
      /^warning: .*settings\.json: hooks\.BeforeTool\[0\]\.hooks\[0\]\.timeout: "timeout" is in milliseconds: 5 ms is probably meant as 5 seconds — write 5000$/m,
    );
    const r = await runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--input', '-'], {
      env: { ...p.env, GEMINI_CLI_TRUST_WORKSPACE: 'true' },
      input: '{"tool_name":"glob","tool_input":{}}',
    });
    assert.match(r.stderr, /timed out after 5 ms — "timeout" is in milliseconds: 5 ms is probably meant as 5 seconds — write 5000/);
  });

  test('a Claude Code timeout that looks like milliseconds is a validate warning', async () => {
    const p = makeProject();
    fs.mkdirSync(path.join(p.dir, '.claude'));
    fs.writeFileSync(
      path.join(p.dir, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true', timeout: 5000 }] }] } }),
    );
    const v = await runCli(['validate', '--dialect', 'claude', '--cwd', p.dir], { env: { ...p.env, HOME: p.home } });
    assert.equal(v.code, 0, v.stdout);
    assert.match(
      v.stdout,
      /timeout 5000 is in seconds \(about 1\.4 hours\); Claude Code timeouts are seconds, not milliseconds — for 5000 ms write 5$/m,
    );
  });

  test('a matcher that matches no known tool: a warning with "did you mean"; an invalid regex is a warning', async () => {
    const p = makeProject();
    const settings = {
      hooks: {
        BeforeTool: [
          { matcher: 'run_shell_comand', hooks: [{ type: 'command', command: 'true' }] },
          { matcher: 'read_file(', hooks: [{ type: 'command', command: 'true' }] },
          { matcher: 'mcp__github__.*', hooks: [{ type: 'command', command: 'true' }] },
          { matcher: 'write_file|replace', hooks: [{ type: 'command', command: 'true' }] },
        ],
      },
    };
    fs.mkdirSync(path.join(p.dir, '.gemini'));
    fs.writeFileSync(path.join(p.dir, '.gemini', 'settings.json'), JSON.stringify(settings));
    const v = await runCli(['validate', '--cwd', p.dir], { env: p.env });
    assert.equal(v.code, 0, v.stdout);
    const lines = v.stdout.trimEnd().split('\n');
    assert.match(lines[0], /^warning: .*hooks\.BeforeTool\[1\]\.matcher: invalid regular expression/);
    assert.match(
      lines[1],
      /^warning: .*hooks\.BeforeTool\[0\]\.matcher: matcher "run_shell_comand" matches no tool the agent knows — did you mean "run_shell_command"\?$/,
    );
    assert.equal(lines.length, 3, v.stdout);
  });
});

describe('validate checks every configuration it finds', () => {
  test('Gemini settings, .claude/, agent.yaml and .spatialagent/ each checked; --dialect checks only one', async () => {
    const p = makeProject();
    fs.mkdirSync(path.join(p.dir, '.claude'));
    fs.writeFileSync(path.join(p.dir, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: 'no' } }));
    fs.writeFileSync(path.join(p.dir, 'agent.yaml'), 'hooks:\n  preGeneration:\n    - command: "true"\n');
    fs.mkdirSync(path.join(p.dir, '.spatialagent'));
    fs.writeFileSync(
      path.join(p.dir, '.spatialagent', 'settings.json'),
      JSON.stringify({ hooks: { Start: [{ type: 'bash', command: 'true' }] } }),
    );
    const env = { ...p.env, HOME: p.home };
    const all = await runCli(['validate', '--cwd', p.dir], { env });
    assert.equal(all.code, 1, 'the Claude settings have an error');
    for (const name of ['gemini', 'claude', 'mm', 'spatialagent']) assert.match(all.stdout, new RegExp(`^${name} \\(`, 'm'));
    assert.match(all.stdout, /\.claude\/settings\.json: hooks\.PreToolUse/);
    const json = await runCli(['validate', '--json', '--cwd', p.dir], { env });
    const j = json.json();
    assert.deepEqual(Object.keys(j.dialects), ['gemini', 'claude', 'mm', 'spatialagent']);
    assert.ok(j.errors >= 1);
    const one = await runCli(['validate', '--dialect', 'mm', '--cwd', p.dir], { env });
    assert.equal(one.code, 0, one.stdout);
    assert.doesNotMatch(one.stdout, /claude/);
  });

  test('a folder with only Gemini settings prints as before', async () => {
    const p = makeProject();
    const r = await runCli(['validate', '--cwd', p.dir], { env: { ...p.env, HOME: p.home } });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^\d+ settings file\(s\), 0 hook\(s\), 0 error\(s\), 0 warning\(s\)\n$/);
  });
});

describe('error lines', () => {
  test('one prefix; colour only when forced, never with NO_COLOR', async () => {
    const p = makeProject();
    const plain = await runCli(['enable', 'nope', '--cwd', p.dir], { env: p.env });
    assert.match(plain.stderr, /^hookline: nope: no configured hook has this name, nothing written — /);
    const colour = await runCli(['enable', 'nope', '--cwd', p.dir], { env: { ...p.env, FORCE_COLOR: '1' } });
    assert.match(colour.stderr, /^\x1b\[1m\x1b\[31mhookline:\x1b\[39m\x1b\[22m nope:/);
    const off = await runCli(['enable', 'nope', '--cwd', p.dir], { env: { ...p.env, FORCE_COLOR: '1', NO_COLOR: '1' } });
    assert.equal(off.stderr, plain.stderr);
  });
});

test('node scripts/test.mjs with a filter that matches no file says so and exits 1', async () => {
  const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['scripts/test.mjs', 'no-such-test-file-xyz'], { cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr }));
  });
  assert.equal(r.code, 1);
  assert.equal(r.stderr, 'no test file under test/ matches "no-such-test-file-xyz"\n');
});

test('a persistent hook that never sends its ready line: the error says so', async () => {
  const p = makeProject({ trusted: false });
  const settings = {
    hooks: {
      BeforeAgent: [
        {
          hooks: [
            {
              type: 'command',
              name: 'mute',
              command: `sh '${path.join(ROOT, 'test', 'fixtures', 'hooks', 'pers-never-ready.sh')}'`,
              persistent: true,
              timeout: 500,
            },
          ],
        },
      ],
    },
  };
  fs.mkdirSync(path.join(p.dir, '.gemini'));
  fs.writeFileSync(path.join(p.dir, '.gemini', 'settings.json'), JSON.stringify(settings));
  const r = await runCli(['fire', 'BeforeAgent', '--cwd', p.dir, '--input', '-'], {
    env: { ...p.env, GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    input: '{"prompt":"hi"}',
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /"mute" .*timed out after 500ms — it never printed its ready line \{"hookline":"ready"\}, so it was never sent the event/,
  );
});

test("commander's own usage errors are one line in Hookline's shape, with the way to help", async () => {
  for (const [args, what] of [
    [['bogus'], "unknown command 'bogus'"],
    [['fire'], "missing required argument 'event'"],
    [['list', '--frob'], "unknown option '--frob'"],
  ] as const) {
    const r = await runCli([...args]);
    assert.equal(r.code, 1, r.stderr);
    oneLine(r.stderr);
    assert.equal(r.stderr, `hookline: ${what} — see hookline --help\n`);
  }
});
