// Hostile input never crashes Hookline and never fails open: output nested 200,000 levels deep
// from hooks of every dialect and from persistent hooks, deep and oversized settings files, a
// deep event given to `fire`, a YAML alias bomb. Each is a one-line error naming the file or the
// hook, never a stack trace, and the other hooks' results stay. All through the real CLI.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cmd, hook, makeProject, runCli, type CliResult } from '../helpers.js';
import { tmpDir } from '../dialects/util.js';
import { MAX_CONFIG_BYTES, MAX_JSON_DEPTH } from '../../src/config/limits.js';

const DEEP = 200_000;
const TOOL = JSON.stringify({ tool_name: 'run_shell_command', tool_input: { command: 'ls' } });
const deepArrays = (n = DEEP) => '['.repeat(n) + ']'.repeat(n);
const deepOut = (kind: string, code = 0) => `node ${hook('deep-out.mjs')} ${kind} ${code}`;
const deny = (reason: string) => `echo '{"decision":"deny","reason":"${reason}"}'`;

/** No stack trace: no "    at …" line, and every line of stderr is short. */
function assertClean(r: CliResult): void {
  assert.doesNotMatch(r.stderr, /^\s+at /m, `no stack trace in:\n${r.stderr.slice(0, 2000)}`);
  for (const line of r.stderr.split('\n')) assert.ok(line.length < 1000, `a one-line error, not a dump: ${line.slice(0, 200)}…`);
}

/** The stderr lines that mention `what`. */
const linesAbout = (r: CliResult, what: string) => r.stderr.split('\n').filter((l) => l.includes(what));

describe('deeply nested hook output (Gemini hooks)', () => {
  test('200,000 [ and other deep outputs: one-line errors on those hooks; the guard still denies', async () => {
    const hooks = [
      cmd(deny('guard says no'), { name: 'guard' }),
      cmd(deepOut('open'), { name: 'open-brackets' }),
      cmd(deepOut('balanced'), { name: 'balanced' }),
      cmd(deepOut('decision'), { name: 'deep-decision' }),
      cmd(deepOut('string'), { name: 'double-encoded' }),
      cmd(deepOut('stderr', 1), { name: 'deep-stderr' }),
    ];
    const p = makeProject({ project: { hooks: { BeforeTool: [{ hooks }] } } });
    const r = await runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--input', '-'], { env: p.env, input: TOOL });
    assertClean(r);
    assert.equal(r.code, 0, r.stderr);
    const out = r.json();
    assert.equal(out.output.decision, 'deny');
    assert.equal(out.output.reason, 'guard says no');
    for (const name of ['open-brackets', 'balanced', 'deep-decision', 'double-encoded', 'deep-stderr']) {
      const lines = linesAbout(r, `"${name}"`);
      assert.equal(lines.length, 1, `one error line for ${name}: ${r.stderr}`);
      assert.match(
        lines[0],
        new RegExp(`BeforeTool hook "${name}" \\(.*settings\\.json\\): std(out|err) is nested deeper than ${MAX_JSON_DEPTH} levels`),
      );
      const run = out.runs.find((x: { name: string }) => x.name === name);
      assert.equal(run.success, false);
      assert.equal(run.output, null, 'nothing of it is applied');
    }
  });

  test('a blocking exit code still blocks when its output is too deep to read (fails closed)', async () => {
    const p = makeProject({ project: { hooks: { BeforeTool: [{ hooks: [cmd(deepOut('open', 2), { name: 'deep-deny' })] }] } } });
    const r = await runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--input', '-'], { env: p.env, input: TOOL });
    assertClean(r);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json().output.decision, 'deny');
    assert.equal(linesAbout(r, '"deep-deny"').length, 1);
  });

  test('a persistent hook replying with a deep output or text: an error on that hook, the others kept', async () => {
    const hooks = [
      cmd(`node ${hook('pers-deep.mjs')}`, { name: 'pers-output', persistent: true }),
      cmd(`node ${hook('pers-deep.mjs')} text`, { name: 'pers-text', persistent: true }),
      cmd(`echo '{"systemMessage":"fine"}'`, { name: 'plain' }),
    ];
    const p = makeProject({ project: { hooks: { BeforeTool: [{ hooks }] } } });
    const r = await runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--input', '-'], { env: p.env, input: TOOL });
    assertClean(r);
    assert.equal(r.code, 0, r.stderr);
    const out = r.json();
    assert.match(linesAbout(r, '"pers-output"')[0], /(stdout|reply output) is nested deeper than 1000 levels/);
    assert.match(linesAbout(r, '"pers-text"')[0], /stdout is nested deeper than 1000 levels/);
    // The text reply said exit code 2: it still denies.
    assert.equal(out.output.decision, 'deny');
    assert.match(out.output.systemMessage, /fine/);
  });
});

describe('deep and oversized settings files', () => {
  const userGuard = { hooks: { BeforeTool: [{ hooks: [cmd(deny('user guard'), { name: 'user-guard' })] }] } };

  for (const [what, content] of [
    ['nested 200,000 levels deep', () => `{"x": ${deepArrays()}}`],
    ['20 MB', () => `{"padding": "${'x'.repeat(20 * 1024 * 1024)}"}`],
  ] as const) {
    test(`a workspace settings file ${what}: one error naming it; the user's hooks still run; list and validate answer`, async () => {
      const p = makeProject({ user: userGuard, project: content() });
      const file = path.join(p.dir, '.gemini', 'settings.json');
      const r = await runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--input', '-'], { env: p.env, input: TOOL });
      assertClean(r);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.json().output.reason, 'user guard');
      const lines = linesAbout(r, file);
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0], what.startsWith('20') ? /20\.0 MiB, larger than the 5\.0 MiB limit/ : /nested deeper than 1000 levels/);
      const v = await runCli(['validate', '--cwd', p.dir], { env: p.env });
      assertClean(v);
      assert.equal(v.code, 1);
      assert.ok(v.stdout.includes(file) || v.stderr.includes(file));
      const l = await runCli(['list', '--cwd', p.dir], { env: p.env });
      assertClean(l);
      assert.match(l.stdout, /user-guard/);
      // Changing hooks in that file is refused in one line, the file is left alone.
      const before = fs.statSync(file).size;
      const d = await runCli(['disable', 'user-guard', '--cwd', p.dir], { env: p.env });
      assertClean(d);
      assert.equal(d.code, 1);
      assert.match(d.stderr, new RegExp(file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      assert.equal(fs.statSync(file).size, before);
    });
  }

  test("a workspace settings file that is a FIFO is one error, never a hang; the user's hooks still run", async () => {
    const p = makeProject({ user: userGuard });
    const file = path.join(p.dir, '.gemini', 'settings.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.rmSync(file, { force: true });
    const made = spawnSync('mkfifo', [file]);
    if (made.status !== 0) return;
    const r = await runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--input', '-'], { env: p.env, input: TOOL });
    assertClean(r);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json().output.reason, 'user guard');
    assert.equal(linesAbout(r, file).length, 1, r.stderr);
    assert.match(linesAbout(r, file)[0], /not a regular file/);
    const v = await runCli(['validate', '--cwd', p.dir], { env: p.env });
    assertClean(v);
    assert.equal(v.code, 1);
  });

  test('a user settings file over the limit is refused the same way', async () => {
    const p = makeProject({
      user: `{"pad": "${'y'.repeat(MAX_CONFIG_BYTES)}"}`,
      project: { hooks: { BeforeTool: [{ hooks: [cmd(deny('project'), { name: 'p' })] }] } },
    });
    const r = await runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--input', '-'], { env: p.env, input: TOOL });
    assertClean(r);
    assert.equal(r.code, 0);
    assert.equal(r.json().output.reason, 'project');
    assert.equal(linesAbout(r, 'larger than the 5.0 MiB limit').length, 1);
  });

  test('deep trust files: `hookline trust` refuses in one line and overwrites nothing', async () => {
    const p = makeProject({ trusted: false, project: { hooks: {} } });
    const trusted = path.join(p.home, '.gemini', 'trusted_hooks.json');
    const deep = `{"x": ${deepArrays()}}`;
    fs.writeFileSync(trusted, deep);
    const r = await runCli(['trust', p.dir], { env: p.env });
    assertClean(r);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /trusted_hooks\.json: its JSON is nested deeper than 1000 levels/);
    assert.equal(fs.readFileSync(trusted, 'utf8'), deep);
    const folders = path.join(p.home, '.gemini', 'trustedFolders.json');
    fs.rmSync(trusted);
    fs.writeFileSync(folders, deep);
    const f = await runCli(['trust', p.dir], { env: p.env });
    assertClean(f);
    assert.equal(f.code, 1);
    assert.match(f.stderr, /trustedFolders\.json: its JSON is nested deeper than 1000 levels/);
  });
});

describe('a deep event given to fire', () => {
  for (const dialect of ['gemini', 'claude', 'mm', 'spatialagent']) {
    test(`--dialect ${dialect}: from a file and from stdin, a one-line usage error`, async () => {
      const p = makeProject({});
      const input = path.join(p.dir, 'event.json');
      fs.writeFileSync(input, `{"tool_name": "x", "tool_input": ${deepArrays()}}`);
      const event = { gemini: 'BeforeTool', claude: 'PreToolUse', mm: 'preToolCall', spatialagent: 'PreAct' }[dialect]!;
      for (const args of [
        ['--input', input],
        ['--input', '-'],
      ]) {
        const r = await runCli(['fire', event, '--dialect', dialect, '--cwd', p.dir, ...args], {
          env: p.env,
          input: args[1] === '-' ? fs.readFileSync(input, 'utf8') : '',
        });
        assertClean(r);
        assert.equal(r.code, 1);
        assert.match(r.stderr, /^hookline: input (file .*event\.json|\(stdin\)): its JSON is nested deeper than 1000 levels\n$/);
      }
    });
  }
});

describe('an endless event given to fire', () => {
  test('/dev/zero as the input file or as stdin: a one-line usage error naming the limit, no crash, no hang', async () => {
    const p = makeProject({});
    for (const args of [
      ['--input', '/dev/zero'],
      ['--input', '-'],
    ]) {
      const r = spawnSync(
        'bash',
        [
          '-c',
          `exec "$0" "$@" < /dev/zero`,
          process.execPath,
          path.resolve('dist/cli/main.js'),
          'fire',
          'BeforeTool',
          '--cwd',
          p.dir,
          ...args,
        ],
        { env: p.env, encoding: 'utf8', timeout: 60_000 },
      );
      assert.equal(r.status, 1, r.stderr);
      assert.match(
        r.stderr,
        /^hookline: input (file \/dev\/zero|\(stdin\)) is larger than the 64\.0 MiB limit — give one event's fields\n$/,
      );
    }
  });
});

describe('mm configuration: alias bomb, deep and oversized YAML', () => {
  const bomb = [
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    ...'bcdefghi'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
    'hooks:',
    '  preGeneration:',
    '    - command: echo hi',
    '',
  ].join('\n');

  for (const [what, yaml, message] of [
    ['a billion-laughs alias bomb', bomb, /too many alias expansions/],
    ['flow collections 200,000 deep', `hooks: ${'['.repeat(DEEP)}`, /nested deeper than 1000 levels/],
    ['block sequences 200,000 deep on one line', `hooks: ${'- '.repeat(DEEP)}x`, /nested deeper than 1000 levels/],
    ['6 MiB', `hooks: {}\npad: "${'z'.repeat(6 * 1024 * 1024)}"\n`, /larger than the 5\.0 MiB limit/],
  ] as const) {
    test(`${what}: a configuration error naming the file, no stack trace`, async () => {
      const dir = tmpDir('hookline-mm-hostile-');
      fs.writeFileSync(path.join(dir, 'agent.yaml'), yaml);
      const env = { ...process.env, GEMINI_CLI_HOME: dir, GEMINI_CLI_TRUST_WORKSPACE: 'true' };
      const v = await runCli(['validate', '--dialect', 'mm'], { cwd: dir, env });
      assertClean(v);
      assert.equal(v.code, 1);
      const lines = (v.stdout + v.stderr).split('\n').filter((l) => l.includes('agent.yaml'));
      assert.ok(
        lines.some((l) => message.test(l)),
        v.stdout + v.stderr,
      );
      const f = await runCli(['fire', 'preGeneration', '--dialect', 'mm', '--input', '-'], { cwd: dir, env, input: '{"prompt": "hi"}' });
      assertClean(f);
      assert.match(f.stdout + f.stderr, message);
    });
  }
});

describe('deep output and oversized configuration in the other dialects', () => {
  test('Claude Code: deep stdout is a non-blocking error on that hook; the other hook still denies', async () => {
    const dir = tmpDir('hookline-cc-hostile-');
    const settings = {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: deepOut('open') },
              { type: 'command', command: deepOut('decision') },
              {
                type: 'command',
                command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}'`,
              },
            ],
          },
        ],
      },
    };
    fs.mkdirSync(path.join(dir, '.claude'));
    fs.writeFileSync(path.join(dir, '.claude', 'settings.json'), JSON.stringify(settings));
    const env = { ...process.env, HOME: dir, GEMINI_CLI_HOME: dir, GEMINI_CLI_TRUST_WORKSPACE: 'true' };
    const r = await runCli(['fire', 'PreToolUse', '--dialect', 'claude', '--input', '-'], {
      cwd: dir,
      env,
      input: '{"tool_name": "Bash", "tool_input": {"command": "ls"}}',
    });
    assertClean(r);
    assert.equal(r.code, 0, r.stderr);
    const out = r.json();
    assert.equal(out.output.permissionDecision, 'deny');
    assert.equal(out.output.errors.filter((e: string) => /stdout is nested deeper than 1000 levels/.test(e)).length, 2);
  });

  test('Claude Code: an exit-2 block is kept whatever its stdout', async () => {
    const dir = tmpDir('hookline-cc-hostile-');
    fs.mkdirSync(path.join(dir, '.claude'));
    fs.writeFileSync(
      path.join(dir, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: deepOut('open', 2) }] }] } }),
    );
    const env = { ...process.env, HOME: dir, GEMINI_CLI_HOME: dir, GEMINI_CLI_TRUST_WORKSPACE: 'true' };
    const r = await runCli(['fire', 'PreToolUse', '--dialect', 'claude', '--input', '-'], {
      cwd: dir,
      env,
      input: '{"tool_name": "Bash", "tool_input": {}}',
    });
    assertClean(r);
    assert.equal(r.json().output.permissionDecision, 'deny');
  });

  test('Claude Code: deep and oversized settings files leave their hooks out, the others run', async () => {
    const dir = tmpDir('hookline-cc-hostile-');
    fs.mkdirSync(path.join(dir, '.claude'));
    fs.writeFileSync(path.join(dir, '.claude', 'settings.json'), `{"hooks": ${deepArrays()}}`);
    fs.writeFileSync(path.join(dir, '.claude', 'settings.local.json'), `{"pad": "${'x'.repeat(MAX_CONFIG_BYTES + 1)}"}`);
    const home = path.join(dir, 'home');
    fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
    fs.writeFileSync(
      path.join(home, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'exit 2' }] }] } }),
    );
    const env = { ...process.env, HOME: home, GEMINI_CLI_HOME: home, GEMINI_CLI_TRUST_WORKSPACE: 'true' };
    const r = await runCli(['fire', 'PreToolUse', '--dialect', 'claude', '--input', '-'], {
      cwd: dir,
      env,
      input: '{"tool_name": "Bash", "tool_input": {}}',
    });
    assertClean(r);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json().output.permissionDecision, 'deny', "the user's hook ran");
    assert.match(r.stderr, /settings\.json.*nested deeper than 1000 levels/);
    assert.match(r.stderr, /settings\.local\.json.*larger than the 5\.0 MiB limit/);
  });

  test('SpatialAgent: deep output is an error, and the exit code still decides', async () => {
    const dir = tmpDir('hookline-sa-hostile-');
    fs.mkdirSync(path.join(dir, '.spatialagent'));
    const settings = {
      hooks: { PreAct: [{ type: 'bash', command: deepOut('open', 1) }], Start: [{ type: 'bash', command: deepOut('balanced', 0) }] },
    };
    fs.writeFileSync(path.join(dir, '.spatialagent', 'settings.json'), JSON.stringify(settings));
    const env = { ...process.env, GEMINI_CLI_HOME: dir, GEMINI_CLI_TRUST_WORKSPACE: 'true' };
    const block = await runCli(['fire', 'PreAct', '--dialect', 'spatialagent', '--input', '-'], {
      cwd: dir,
      env,
      input: '{"CODE": "ls", "CODE_TYPE": "bash"}',
    });
    assertClean(block);
    assert.equal(block.code, 0, block.stderr);
    assert.equal(block.json().output.decision, 'block');
    assert.match(block.json().runs[0].error, /output is nested deeper than 1000 levels/);
    const start = await runCli(['fire', 'Start', '--dialect', 'spatialagent', '--input', '-'], { cwd: dir, env, input: '{"QUERY": "q"}' });
    assertClean(start);
    assert.equal(start.json().output.decision, 'approve');
    assert.match(start.json().runs[0].error, /nested deeper than 1000 levels/);
  });

  test('SpatialAgent: deep and oversized settings load no hook, with one error naming the file', async () => {
    for (const content of [`{"hooks": ${deepArrays()}}`, `{"pad": "${'x'.repeat(MAX_CONFIG_BYTES + 1)}"}`]) {
      const dir = tmpDir('hookline-sa-hostile-');
      fs.mkdirSync(path.join(dir, '.spatialagent'));
      fs.writeFileSync(path.join(dir, '.spatialagent', 'settings.json'), content);
      const env = { ...process.env, GEMINI_CLI_HOME: dir, GEMINI_CLI_TRUST_WORKSPACE: 'true' };
      const v = await runCli(['validate', '--dialect', 'spatialagent'], { cwd: dir, env });
      assertClean(v);
      assert.equal(v.code, 1);
      assert.match(v.stdout + v.stderr, /settings\.json.*(nested deeper than 1000 levels|larger than the 5\.0 MiB limit)/);
    }
  });

  test('mm: a hook printing deep JSON fails as an invalid response; the chain goes on', async () => {
    const dir = tmpDir('hookline-mm-hostile-');
    fs.writeFileSync(
      path.join(dir, 'agent.yaml'),
      `hooks:\n  preGeneration:\n    - command: ${JSON.stringify(deepOut('balanced'))}\n      onError: warn\n    - command: "echo '{\\"action\\":\\"continue\\",\\"context\\":\\"kept\\"}'"\n`,
    );
    const env = { ...process.env, GEMINI_CLI_HOME: dir, GEMINI_CLI_TRUST_WORKSPACE: 'true' };
    const r = await runCli(['fire', 'preGeneration', '--dialect', 'mm', '--input', '-'], { cwd: dir, env, input: '{"prompt": "hi"}' });
    assertClean(r);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout + r.stderr, /the response is nested deeper than 1000 levels/);
    assert.match(r.stdout, /kept/);
  });
});
