import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeProject, ROOT, runCli } from '../helpers.js';
import { appendToList } from '../../src/config/append.js';
import { initHook } from '../../src/cli/init.js';
import { hookScript, type Lang } from '../../src/dialects/scaffold/scripts.js';
import { scaffoldProfile } from '../../src/dialects/scaffold/profiles.js';

const hasPython = spawnSync('python3', ['-c', '0']).status === 0;

describe('hookline init', () => {
  test('scaffolds hooks in every language and dialect whose fixtures pass under hookline test at once', async () => {
    const p = makeProject({ project: { hooks: {} } });
    // Node hooks import hookline/sdk, as from a project that installed it.
    fs.mkdirSync(path.join(p.dir, 'node_modules'));
    fs.symlinkSync(ROOT, path.join(p.dir, 'node_modules', 'hookline'));
    // Each language once on a system that sends JSON on stdin; SpatialAgent's variables once.
    const made = [
      ['gemini', 'bash'],
      ['claude', 'node'],
      ['mm', 'python'],
      ['spatialagent', 'bash'],
      ['agy', 'bash'],
    ].filter(([, lang]) => lang !== 'python' || hasPython);
    // One through the command, the others in process (cheaper).
    const cli = await runCli(['init', '--name', 'gemini-bash', '--cwd', p.dir], { env: p.env });
    assert.equal(cli.code, 0, cli.stderr);
    assert.equal(cli.stderr, '');
    assert.match(
      cli.stdout,
      /^\.gemini\/settings\.json: added BeforeTool hook gemini-bash: bash "\$GEMINI_PROJECT_DIR\/\.hookline\/hooks\/gemini-bash\.sh"\n/,
    );
    for (const [dialect, lang] of made.slice(1)) {
      const r = initHook({ dialect, lang, name: `${dialect}-${lang}`, cwd: p.dir });
      assert.deepEqual(r.warnings, []);
    }
    const gemini = JSON.parse(fs.readFileSync(path.join(p.dir, '.gemini', 'settings.json'), 'utf8'));
    assert.deepEqual(
      gemini.hooks.BeforeTool.map((g: { matcher: string; hooks: Array<{ name: string }> }) => [g.matcher, g.hooks[0].name]),
      [['run_shell_command', 'gemini-bash']],
    );
    const r = await runCli(['test', '--cwd', p.dir], { env: p.env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.stdout.trimEnd().split('\n').at(-1), `${made.length * 2} passed, 0 failed`);
    assert.match(r.stdout, /✓ claude-node: denies rm -rf\n/);

    // Nothing is overwritten.
    const again = await runCli(['init', '--name', 'gemini-bash', '--cwd', p.dir], { env: p.env });
    assert.equal(again.code, 1);
    assert.equal(again.stderr, 'hookline: .hookline/hooks/gemini-bash.sh already exists; not changed — choose another --name\n');
  });

  test('a misspelt event gets a suggestion, and nothing is written', async () => {
    const p = makeProject();
    const r = await runCli(['init', '--dialect', 'claude', '--event', 'PreTooluse', '--cwd', p.dir], { env: p.env });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^hookline: --event: claude has no event "PreTooluse" \(did you mean "PreToolUse"\?\)/);
    assert.equal(fs.existsSync(path.join(p.dir, '.claude')), false);
  });
});

describe('the guard init writes', () => {
  const DENIED = [
    'rm -rf build',
    'rm -fr build',
    'rm -r -f build',
    'rm -R -f build',
    'rm --recursive --force build',
    'ls && rm -rf build',
    'cd a; rm -f -r b',
  ];
  const ALLOWED = ['ls -la', 'rm build', 'rm -r build', 'rm -f build', 'ls -rf; rm build', 'git rm -r --cached f'];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-guard-'));
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(ROOT, path.join(dir, 'node_modules', 'hookline'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const langs: Lang[] = hasPython ? ['bash', 'node', 'python'] : ['bash', 'node'];
  for (const lang of langs)
    test(`${lang}: denies a recursive forced rm however its flags are spelt, and nothing else`, () => {
      const file = path.join(dir, `guard.${lang === 'bash' ? 'sh' : lang === 'node' ? 'mjs' : 'py'}`);
      fs.writeFileSync(file, hookScript(lang, scaffoldProfile('gemini')!, 'guard', 'BeforeTool'));
      const bin = lang === 'bash' ? 'bash' : lang === 'node' ? process.execPath : 'python3';
      const decide = (command: string, extra: Record<string, unknown> = {}, env: NodeJS.ProcessEnv = process.env) => {
        const r = spawnSync(bin, [file], {
          input: JSON.stringify({ hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command, ...extra } }),
          encoding: 'utf8',
          env,
        });
        assert.equal(r.status, 0, r.stderr);
        return r.stdout.includes('"deny"') ? 'deny' : 'allow';
      };
      // Only the command is read: the rest of the event (a description, a file's text) may say anything.
      assert.equal(decide('ls -la', { description: 'List files (not rm -rf)' }), 'allow');
      if (lang === 'bash') {
        // Without jq the bash guard reads the field with node.
        const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-nojq-'));
        for (const tool of ['node', 'bash', 'cat', 'tr', 'grep'])
          fs.symlinkSync(
            spawnSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim() || process.execPath,
            path.join(bare, tool),
          );
        const noJq = { ...process.env, PATH: bare };
        assert.equal(decide('rm -rf build', {}, noJq), 'deny');
        assert.equal(decide('ls -la', { description: 'not rm -rf' }, noJq), 'allow');
      }
      assert.deepEqual(
        DENIED.map(decide),
        DENIED.map(() => 'deny'),
        DENIED.join(' | '),
      );
      assert.deepEqual(
        ALLOWED.map(decide),
        ALLOWED.map(() => 'allow'),
        ALLOWED.join(' | '),
      );
    });
});

describe('appendToList', () => {
  test('appends to a JSON list keeping comments, creates a missing one, refuses a non-list', () => {
    const text = '{\n  // mine\n  "hooks": {\n    "A": [1]\n  }\n}\n';
    assert.equal(
      appendToList(text, 'json', ['hooks', 'A'], 2),
      '{\n  // mine\n  "hooks": {\n    "A": [\n      1,\n      2\n    ]\n  }\n}\n',
    );
    assert.deepEqual(JSON.parse(appendToList('', 'json', ['hooks', 'B'], { x: 1 })), { hooks: { B: [{ x: 1 }] } });
    assert.throws(() => appendToList('{"hooks": {"A": 3}}', 'json', ['hooks', 'A'], 1), /hooks\.A is not a list/);
  });

  test('appends to a YAML list keeping comments', () => {
    const text = '# agent\nmodel: m # the model\nhooks:\n  preToolCall:\n    - command: a\n';
    assert.equal(
      appendToList(text, 'yaml', ['hooks', 'preToolCall'], { command: 'b' }),
      '# agent\nmodel: m # the model\nhooks:\n  preToolCall:\n    - command: a\n    - command: b\n',
    );
    assert.equal(appendToList('# only a comment\n', 'yaml', ['hooks', 'x'], 1), '# only a comment\nhooks:\n  x:\n    - 1\n');
  });
});
