// The author tools for Copilot CLI hooks, as real processes: `hookline init --dialect copilot`
// and its fixtures under `hookline test` (a sandbox that never reads the user's ~/.copilot),
// `hookline convert` to and from Copilot's hooks files with what cannot be carried named,
// `validate --config`, and `doctor --event` in either casing of Copilot's event names.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers.js';
import { convertConfig, parseConfigText } from '../../src/dialects/convert/index.js';
import { dialectProject } from './util.js';

function setup(files: { user?: unknown; project?: unknown } = {}, trusted = true) {
  const p = dialectProject({
    prefix: 'hookline-copilot-cli-',
    home: { '.copilot/hooks/mine.json': files.user },
    project: { '.github/hooks/hooks.json': files.project },
    trusted,
  });
  const env = { ...p.env };
  delete env.COPILOT_HOME;
  return { ...p, env };
}

const UNCHANGED = (from: string) =>
  `the hook programs are unchanged: they still read ${from}'s input and answer in ${from}'s output format`;

describe('init and test for Copilot CLI', () => {
  for (const lang of ['bash', 'python'])
    test(`hookline init --dialect copilot --lang ${lang}: a .github/hooks/hooks.json guard in Copilot's own form whose fixtures pass; the user's Copilot hooks are not read`, async () => {
      // A user hook that would deny everything: the sandbox must not run it.
      const p = setup({
        user: { version: 1, hooks: { preToolUse: [{ type: 'command', bash: 'echo \'{"permissionDecision": "deny"}\'' }] } },
      });
      const init = await runCli(['init', '--dialect', 'copilot', '--lang', lang], { cwd: p.dir, env: p.env });
      assert.equal(init.code, 0, init.stderr);
      assert.match(init.stdout, /^\.github\/hooks\/hooks\.json: added preToolUse hook guard: /);
      const file = JSON.parse(fs.readFileSync(path.join(p.dir, '.github', 'hooks', 'hooks.json'), 'utf8'));
      const ext = lang === 'bash' ? 'sh' : 'py';
      const run = lang === 'bash' ? 'bash' : 'python3';
      assert.deepEqual(file, {
        version: 1,
        hooks: { preToolUse: [{ type: 'command', matcher: 'bash', bash: `${run} "$COPILOT_PROJECT_DIR/.hookline/hooks/guard.${ext}"` }] },
      });
      const fixture = JSON.parse(fs.readFileSync(path.join(p.dir, '.hookline', 'tests', 'guard-deny.hooktest.json'), 'utf8'));
      assert.equal(fixture.dialect, 'copilot');
      assert.deepEqual(fixture.input, { toolName: 'bash', toolArgs: { command: 'rm -rf build' } });
      const t = await runCli(['test'], { cwd: p.dir, env: p.env });
      assert.equal(t.code, 0, t.stdout + t.stderr);
      assert.match(t.stdout, /✓ guard: lets ls through/);
      assert.match(t.stdout, /✓ guard: denies rm -rf/);
      assert.match(t.stdout, /2 passed, 0 failed/);
      // The file Copilot CLI reads: validate agrees it is sound.
      const v = await runCli(['validate', '--dialect', 'copilot'], { cwd: p.dir, env: p.env });
      assert.equal(v.code, 0, v.stdout + v.stderr);
    });

  test('a fixture of a hook that denies fails when the guard lets the command through, and judges the aggregated answer without "hook"', async () => {
    const p = setup();
    assert.equal((await runCli(['init', '--dialect', 'copilot'], { cwd: p.dir, env: p.env })).code, 0);
    const fixtures = path.join(p.dir, '.hookline', 'tests');
    const deny = JSON.parse(fs.readFileSync(path.join(fixtures, 'guard-deny.hooktest.json'), 'utf8'));
    // The whole event's answer: Copilot CLI's words around the guard's reason.
    delete deny.hook;
    fs.writeFileSync(path.join(fixtures, 'guard-deny.hooktest.json'), JSON.stringify(deny));
    const ok = await runCli(['test'], { cwd: p.dir, env: p.env });
    assert.equal(ok.code, 0, ok.stdout);
    fs.writeFileSync(path.join(p.dir, '.hookline', 'hooks', 'guard.sh'), '#!/usr/bin/env bash\ncat >/dev/null\nexit 0\n');
    const bad = await runCli(['test'], { cwd: p.dir, env: p.env });
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /✗ guard: denies rm -rf/);
    assert.match(bad.stdout, /expected decision deny, got allow/);
  });

  test('init --event permissionRequest gives its fixture the permission input; an unknown event names the closest', async () => {
    const p = setup();
    const r = await runCli(['init', '--dialect', 'copilot', '--event', 'permissionRequest'], { cwd: p.dir, env: p.env });
    assert.equal(r.code, 0, r.stderr);
    const fixture = JSON.parse(fs.readFileSync(path.join(p.dir, '.hookline', 'tests', 'guard-allow.hooktest.json'), 'utf8'));
    assert.deepEqual(fixture.input, { toolName: 'bash', toolInput: { command: 'ls -la' } });
    const t = await runCli(['test'], { cwd: p.dir, env: p.env });
    assert.equal(t.code, 0, t.stdout + t.stderr);
    const bad = await runCli(['init', '--dialect', 'copilot', '--event', 'preToolUSe', '--name', 'x'], { cwd: p.dir, env: p.env });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /copilot has no event "preToolUSe" \(did you mean "preToolUse"\?\)/);
  });
});

describe('convert to and from Copilot CLI', () => {
  test('from Claude Code: camelCase events, Copilot tool names matched whole, seconds in timeoutSec, CLAUDE_PROJECT_DIR kept (Copilot sets it)', () => {
    const claude = JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: 'Bash|Edit|Write', hooks: [{ type: 'command', command: '$CLAUDE_PROJECT_DIR/g.sh', timeout: 30 }] }],
        PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'node after.mjs' }] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'p.sh' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 's.sh' }] }],
        PermissionRequest: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'perm.sh' }] }],
      },
    });
    const r = convertConfig(claude, 'claude', 'copilot');
    assert.deepEqual(parseConfigText('copilot', r.text), {
      version: 1,
      hooks: {
        preToolUse: [{ type: 'command', matcher: 'bash|edit|create', bash: '$CLAUDE_PROJECT_DIR/g.sh', timeoutSec: 30 }],
        postToolUse: [{ type: 'command', matcher: 'view', bash: 'node after.mjs' }],
        userPromptSubmitted: [{ type: 'command', bash: 'p.sh' }],
        agentStop: [{ type: 'command', bash: 's.sh' }],
      },
    });
    assert.deepEqual(r.notes, [
      UNCHANGED('claude'),
      "hooks.PermissionRequest[0].hooks[0]: dropped: copilot has no event at the point of claude's PermissionRequest",
    ]);
  });

  test('from Copilot: both casings, bash before command, what has no counterpart named (powershell, cwd, env, http, a matcher that matches nothing), a pattern anchored as Copilot matches it', () => {
    const copilot = JSON.stringify({
      version: 1,
      hooks: {
        preToolUse: [
          { type: 'command', bash: './g.sh', powershell: 'g.ps1', cwd: 'scripts', env: { A: '1' }, timeoutSec: 10, matcher: 'bash|edit' },
          { type: 'http', url: 'https://example.com/hook' },
          { type: 'command', bash: 'never.sh', matcher: '*' },
          { type: 'command', bash: 'mcp.sh', matcher: 'mcp_.*' },
          { type: 'command', powershell: 'only.ps1' },
        ],
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '$COPILOT_PROJECT_DIR/h.sh', timeout: 5 }] }],
        sessionStart: [{ type: 'command', command: 'start.sh', matcher: 'new' }],
        errorOccurred: [{ type: 'command', bash: 'err.sh' }],
      },
    });
    const r = convertConfig(copilot, 'copilot', 'claude');
    assert.deepEqual(parseConfigText('claude', r.text), {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash|Edit', hooks: [{ type: 'command', command: './g.sh', timeout: 10 }] },
          { matcher: '^(?:mcp_.*)$', hooks: [{ type: 'command', command: 'mcp.sh' }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: '$CLAUDE_PROJECT_DIR/h.sh', timeout: 5 }] },
        ],
        SessionStart: [{ hooks: [{ type: 'command', command: 'start.sh' }] }],
      },
    });
    assert.deepEqual(r.notes, [
      'hooks.preToolUse[0].powershell: no counterpart in the other system; dropped',
      'hooks.preToolUse[0].cwd: no counterpart in the other system; dropped',
      'hooks.preToolUse[0].env: no counterpart in the other system; dropped',
      'hooks.preToolUse[1]: a http hook; dropped (only command hooks convert)',
      'hooks.preToolUse[2].matcher: "*" matches no tool in Copilot CLI, so the hook never runs there; dropped',
      'hooks.preToolUse[4]: only a "powershell" command, which Copilot CLI runs on Windows alone; dropped',
      'hooks.sessionStart[0].matcher: Copilot CLI does not match sessionStart hooks on a name (it ignores the matcher); dropped',
      UNCHANGED('copilot'),
      'hooks.preToolUse[3].matcher: the pattern "mcp_.*" is written as "^(?:mcp_.*)$" (Copilot CLI matches the whole tool name); tool names in it are not translated',
      'hooks.PreToolUse[0].hooks[0].command: $COPILOT_PROJECT_DIR is not set by claude; written as $CLAUDE_PROJECT_DIR',
      "hooks.errorOccurred[0]: dropped: claude has no event at the point of copilot's errorOccurred",
    ]);
  });

  test('a file Copilot CLI loads nothing from converts to nothing, saying why', () => {
    const off = convertConfig(
      JSON.stringify({ version: 1, disableAllHooks: true, hooks: { preToolUse: [{ bash: 'x' }] } }),
      'copilot',
      'gemini',
    );
    assert.deepEqual(JSON.parse(off.text), { hooks: {} });
    assert.deepEqual(off.notes, ["disableAllHooks: Copilot CLI runs none of this file's hooks; nothing converted"]);
    const empty = convertConfig(
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: '', hooks: [{ type: 'command', command: 'x' }] }], preToolUse: [{ bash: 'y' }] } }),
      'copilot',
      'gemini',
    );
    assert.deepEqual(JSON.parse(empty.text), { hooks: {} });
    assert.match(
      empty.notes[0],
      /^hooks\.PreToolUse\[0\]\.matcher: an empty matcher in a group makes Copilot CLI load no hook from this file; nothing converted$/,
    );
  });

  test('hookline convert --from gemini --to copilot writes the file -o names; validate --dialect copilot --config reads it', async () => {
    const p = setup();
    const src = path.join(p.base, 'gemini.json');
    p.write(src, {
      hooks: {
        BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: '$GEMINI_PROJECT_DIR/g.sh', timeout: 1500 }] }],
      },
    });
    const out = path.join(p.base, 'copilot.json');
    const r = await runCli(['convert', '--from', 'gemini', '--to', 'copilot', src, '-o', out], { cwd: p.dir, env: p.env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(fs.readFileSync(out, 'utf8')), {
      version: 1,
      hooks: { preToolUse: [{ type: 'command', matcher: 'bash', bash: '$COPILOT_PROJECT_DIR/g.sh', timeoutSec: 2 }] },
    });
    assert.match(r.stderr, /\$GEMINI_PROJECT_DIR is not set by copilot; written as \$COPILOT_PROJECT_DIR/);
    assert.match(r.stderr, /1500 ms rounded up to 2 s/);
    const v = await runCli(['validate', '--dialect', 'copilot', '--config', out], { cwd: p.dir, env: p.env });
    assert.equal(v.code, 0, v.stdout + v.stderr);
    assert.match(v.stdout, /1 hook\(s\), 0 error\(s\)/);
    const none = await runCli(['validate', '--config', out], { cwd: p.dir, env: p.env });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /give --dialect claude, codex, copilot, mm, spatialagent or agy with it/);
  });
});

describe('doctor --event with Copilot CLI event names', () => {
  test('a camelCase or PascalCase name stands for its point: the Copilot hook at it is found, the others are for another event', async () => {
    const p = setup({
      project: {
        version: 1,
        hooks: {
          preToolUse: [{ type: 'command', bash: 'true', matcher: 'bash' }],
          agentStop: [{ type: 'command', bash: 'true' }],
        },
      },
    });
    for (const event of ['preToolUse', 'PreToolUse', 'BeforeTool']) {
      const r = await runCli(['doctor', '--event', event, '--json'], { cwd: p.dir, env: p.env });
      const hooks = JSON.parse(r.stdout).hooks.filter((h: { dialect: string }) => h.dialect === 'copilot');
      assert.deepEqual(
        hooks.map((h: { event: string; state: string }) => [h.event, h.state]),
        [
          ['preToolUse', 'runs'],
          ['agentStop', 'elsewhere'],
        ],
        event,
      );
    }
    // The tool in any system's names: Copilot's own matcher is whole-name, so `view` is not `bash`.
    const view = await runCli(['doctor', '--event', 'preToolUse', '--tool', 'read_file', '--json'], { cwd: p.dir, env: p.env });
    const pre = JSON.parse(view.stdout).hooks.find(
      (h: { dialect: string; event: string }) => h.dialect === 'copilot' && h.event === 'preToolUse',
    );
    assert.equal(pre.state, 'elsewhere');
    assert.match(pre.why[0], /matcher "bash" does not match .*view/);
  });
});
