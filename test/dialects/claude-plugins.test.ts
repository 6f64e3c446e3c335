// Claude Code plugins installed the way Claude Code installs them (~/.claude/plugins), their
// hooks/hooks.json with ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA}, --plugin-dir, workspace
// enablement under trust, and managed policy settings; through `hookline fire|validate`.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCli, trustDialectHooks } from '../helpers.js';
import { claudeSessionEnv, loadClaudeConfig } from '../../src/dialects/claude/index.js';
import { tmpDir } from './util.js';

const write = (file: string, v: unknown) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof v === 'string' ? v : JSON.stringify(v, null, 2));
};

/** A guard script as plugins ship them: denies `rm -rf`, records its variables in its data folder. */
const GUARD = `#!/usr/bin/env bash
input=$(cat)
printf '%s\\n%s\\n' "$CLAUDE_PLUGIN_ROOT" "$CLAUDE_PLUGIN_DATA" > "$CLAUDE_PLUGIN_DATA/seen.txt"
if printf '%s' "$input" | grep -q 'rm -rf'; then
  echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "safety plugin: rm -rf"}}'
fi
exit 0
`;

/** Writes a plugin folder: manifest, hooks/hooks.json (a PreToolUse Bash guard), the script. */
function writePlugin(root: string, name: string, hooksCommand = 'bash ${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh') {
  write(path.join(root, '.claude-plugin', 'plugin.json'), { name, version: '1.2.0', description: 'blocks destructive commands' });
  write(path.join(root, 'hooks', 'hooks.json'), {
    description: 'safety',
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hooksCommand, timeout: 10 }] }] },
  });
  write(path.join(root, 'hooks', 'guard.sh'), GUARD);
  fs.chmodSync(path.join(root, 'hooks', 'guard.sh'), 0o755);
}

/**
 * A home (with a space in its path) where Claude Code installed `safety@acme-tools` from a
 * marketplace: the cache folder, installed_plugins.json (version 2), known_marketplaces.json.
 */
function setup(opts: { user?: unknown; project?: unknown; local?: unknown; trusted?: boolean; scope?: string } = {}) {
  const base = tmpDir('hookline-cc-plugins-');
  const dir = path.join(base, 'project');
  const home = path.join(base, 'home dir');
  const plugins = path.join(home, '.claude', 'plugins');
  const root = path.join(plugins, 'cache', 'acme-tools', 'safety', '1.2.0');
  writePlugin(root, 'safety');
  write(path.join(plugins, 'known_marketplaces.json'), {
    'acme-tools': {
      source: { source: 'github', repo: 'acme/tools' },
      installLocation: path.join(plugins, 'marketplaces', 'acme-tools'),
      lastUpdated: '2026-11-01T10:00:00.000Z',
    },
  });
  const installation = {
    scope: opts.scope ?? 'user',
    installPath: root,
    version: '1.2.0',
    installedAt: '2026-11-01T10:00:00.000Z',
    lastUpdated: '2026-11-01T10:00:00.000Z',
    gitCommitSha: '0123456789abcdef0123456789abcdef01234567',
    ...(opts.scope === 'project' ? { projectPath: dir } : {}),
  };
  write(path.join(plugins, 'installed_plugins.json'), { version: 2, plugins: { 'safety@acme-tools': [installation] } });
  fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
  if (opts.user !== undefined) write(path.join(home, '.claude', 'settings.json'), opts.user);
  if (opts.project !== undefined) write(path.join(dir, '.claude', 'settings.json'), opts.project);
  if (opts.local !== undefined) write(path.join(dir, '.claude', 'settings.local.json'), opts.local);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    GEMINI_CLI_HOME: home,
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: path.join(base, 'none.json'),
    HOOKLINE_CLAUDE_MANAGED_SETTINGS: path.join(base, 'managed-settings.json'),
  };
  for (const k of ['GEMINI_CLI_TRUST_WORKSPACE', 'GITHUB_SHA', 'CLAUDE_CONFIG_DIR', 'CLAUDE_CODE_PLUGIN_CACHE_DIR']) delete env[k];
  if (opts.trusted !== false) {
    fs.writeFileSync(path.join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [dir]: 'TRUST_FOLDER' }));
    trustDialectHooks(dir, home);
  }
  return { base, dir, home, root, plugins, env, managed: env.HOOKLINE_CLAUDE_MANAGED_SETTINGS! };
}

const enabled = (on = true) => ({ enabledPlugins: { 'safety@acme-tools': on } });
const rmInput = '{"tool_name": "Bash", "tool_input": {"command": "rm -rf build"}}';
const fireBash = (s: { dir: string; env: NodeJS.ProcessEnv }, extra: string[] = []) =>
  runCli(['fire', 'PreToolUse', '--dialect', 'claude', '--input', '-', ...extra], { cwd: s.dir, env: s.env, input: rmInput });

describe('Claude Code plugins: installed and enabled', () => {
  test('a plugin enabled in ~/.claude/settings.json runs its hooks/hooks.json with ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA}', async () => {
    const s = setup({ user: enabled() });
    const r = await fireBash(s);
    assert.equal(r.code, 0, r.stderr);
    const out = r.json();
    assert.equal(out.output.permissionDecision, 'deny');
    assert.equal(out.output.permissionDecisionReason, 'safety plugin: rm -rf');
    assert.deepEqual(
      [out.runs[0].source, out.runs[0].plugin, out.runs[0].file, out.runs[0].path],
      ['plugin', 'safety@acme-tools', path.join(s.root, 'hooks', 'hooks.json'), 'hooks.PreToolUse[0].hooks[0]'],
    );
    // The data folder is Claude Code's: <plugins>/data/<id with other characters as '-'>, made for the hook.
    const data = path.join(s.plugins, 'data', 'safety-acme-tools');
    assert.deepEqual(fs.readFileSync(path.join(data, 'seen.txt'), 'utf8').split('\n').slice(0, 2), [s.root, data]);
  });

  test('a plugin disabled (false), or enabled nowhere, is not loaded', async () => {
    for (const user of [enabled(false), {}]) {
      const s = setup({ user });
      const r = await fireBash(s);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(r.json().runs, []);
    }
    // The project's local file turns off what the project enabled…
    const s = setup({ project: enabled(), local: enabled(false), scope: 'project' });
    assert.deepEqual((await fireBash(s)).json().runs, []);
  });

  test("a repository's settings cannot turn off a plugin the user enabled, trusted folder or not", async () => {
    for (const trusted of [false, true]) {
      const s = setup({ user: enabled(), project: enabled(), local: enabled(false), trusted });
      const r = await fireBash(s);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.json().output.permissionDecision, 'deny', `trusted: ${trusted}`);
    }
  });

  test('enabled but not installed: a warning naming the plugin, no hook', () => {
    const s = setup({ user: { enabledPlugins: { 'other@acme-tools': true } } });
    const c = loadClaudeConfig({ projectDir: s.dir, env: s.env });
    assert.deepEqual(c.hooks, []);
    assert.match(c.problems.map((p) => p.message).join('\n'), /plugin other@acme-tools is enabled but not installed/);
  });

  test('a project-scoped installation serves only its project', () => {
    const s = setup({ project: enabled(), scope: 'project' });
    assert.equal(loadClaudeConfig({ projectDir: s.dir, env: s.env }).hooks.length, 1);
    const elsewhere = path.join(s.base, 'other');
    write(path.join(elsewhere, '.claude', 'settings.json'), enabled());
    assert.deepEqual(loadClaudeConfig({ projectDir: elsewhere, env: s.env }).hooks, []);
  });

  test('hooks named by .claude-plugin/plugin.json (a path, or inline) load too', () => {
    const s = setup({ user: enabled() });
    write(path.join(s.root, '.claude-plugin', 'plugin.json'), { name: 'safety', hooks: './extra/hooks.json' });
    write(path.join(s.root, 'extra', 'hooks.json'), {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo ${CLAUDE_PLUGIN_ROOT}' }] }] },
    });
    let c = loadClaudeConfig({ projectDir: s.dir, env: s.env });
    assert.deepEqual(
      c.hooks.map((h) => [h.event, path.relative(s.root, h.file)]),
      [
        ['PreToolUse', 'hooks/hooks.json'],
        ['Stop', 'extra/hooks.json'],
      ],
    );
    write(path.join(s.root, '.claude-plugin', 'plugin.json'), {
      name: 'safety',
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo hi' }] }] },
    });
    c = loadClaudeConfig({ projectDir: s.dir, env: s.env });
    assert.deepEqual(
      c.hooks.map((h) => [h.event, path.relative(s.root, h.file), h.path]),
      [
        ['PreToolUse', 'hooks/hooks.json', 'hooks.PreToolUse[0].hooks[0]'],
        ['SessionStart', '.claude-plugin/plugin.json', 'hooks.SessionStart[0].hooks[0]'],
      ],
    );
  });
});

describe('Claude Code plugins: trust', () => {
  test('a plugin enabled only by the project is held back in an untrusted folder; the trusted folder runs it', async () => {
    const s = setup({ project: enabled(), trusted: false });
    const r = await fireBash(s);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json().runs, []);
    assert.match(r.stderr, /is not a trusted folder: the hooks in plugin safety@acme-tools do not run/);
    const t = await runCli(['trust', s.dir], { env: s.env });
    assert.equal(t.code, 0, t.stderr);
    assert.match(t.stdout + t.stderr, /plugin safety@acme-tools \(PreToolUse Bash\)/);
    const again = await fireBash(s);
    assert.equal(again.json().output.permissionDecision, 'deny', again.stderr);
  });

  test("a plugin the user enabled runs in an untrusted folder too (it is the user's)", async () => {
    const s = setup({ user: enabled(), project: enabled(), trusted: false });
    const r = await fireBash(s);
    assert.equal(r.json().output.permissionDecision, 'deny', r.stderr);
  });

  test('trust --check lists a workspace-enabled plugin hook by its plugin', async () => {
    const s = setup({ project: enabled(), trusted: false });
    const r = await runCli(['trust', s.dir, '--check'], { env: s.env });
    assert.equal(r.code, 1);
    assert.match(r.stdout + r.stderr, /plugin safety@acme-tools \(PreToolUse Bash\): bash \$\{CLAUDE_PLUGIN_ROOT\}\/hooks\/guard\.sh/);
  });
});

describe('--plugin-dir', () => {
  test('fire and validate load a plugin folder for the run; other dialects refuse the flag', async () => {
    const s = setup({});
    const dev = path.join(s.base, 'dev plugin');
    writePlugin(dev, 'devsafety');
    const r = await fireBash(s, ['--plugin-dir', dev]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json().output.permissionDecision, 'deny');
    assert.equal(r.json().runs[0].plugin, 'devsafety@inline');
    assert.equal(fs.readFileSync(path.join(s.plugins, 'data', 'devsafety-inline', 'seen.txt'), 'utf8').split('\n')[0], dev);
    const v = await runCli(['validate', '--dialect', 'claude', '--plugin-dir', dev, '--json'], { cwd: s.dir, env: s.env });
    assert.equal(v.code, 0, v.stderr);
    assert.deepEqual(v.json().hooks, { PreToolUse: 1 });
    const missing = await runCli(['validate', '--dialect', 'claude', '--plugin-dir', path.join(s.base, 'nope')], {
      cwd: s.dir,
      env: s.env,
    });
    assert.equal(missing.code, 1);
    assert.match(missing.stdout, /--plugin-dir .*nope: no such folder/);
    const g = await runCli(['validate', '--plugin-dir', dev], { cwd: s.dir, env: s.env });
    assert.equal(g.code, 1);
    assert.match(g.stderr, /--plugin-dir loads Claude Code plugins — add --dialect claude/);
  });

  test('exec form: "args" are the program\'s words, run with no shell; placeholders need no quoting', async () => {
    const s = setup({});
    const dev = path.join(s.base, 'exec plugin $HOME');
    writePlugin(dev, 'execsafety');
    const hook = { type: 'command', command: 'bash', args: ['${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh', 'a b', '$(touch pwned)'], timeout: 10 };
    write(path.join(dev, 'hooks', 'hooks.json'), { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [hook] }] } });
    const r = await fireBash(s, ['--plugin-dir', dev]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json().output.permissionDecision, 'deny', 'the guard ran: a plain `bash` reading the event as a script would allow');
    assert.equal(fs.existsSync(path.join(s.dir, 'pwned')), false, 'an argument is a word, never shell code');
    write(path.join(dev, 'hooks', 'hooks.json'), { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ ...hook, args: 'x' }] }] } });
    const bad = await runCli(['validate', '--dialect', 'claude', '--plugin-dir', dev], { cwd: s.dir, env: s.env });
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /"args" must be an array of strings/);
  });
});

describe('variables that cannot be expanded', () => {
  test('${CLAUDE_PLUGIN_ROOT} in a settings file is an error naming the hook, never a guard that silently stops guarding', async () => {
    const s = setup({
      user: { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/guard.sh' }] }] } },
    });
    const v = await runCli(['validate', '--dialect', 'claude'], { cwd: s.dir, env: s.env });
    assert.equal(v.code, 1);
    assert.match(
      v.stdout,
      /settings\.json: hooks\.PreToolUse\[0\]\.hooks\[0\]\.command.*\$CLAUDE_PLUGIN_ROOT is set only for a plugin's hooks/,
    );
    const f = await fireBash(s);
    assert.match(f.stderr, /\$CLAUDE_PLUGIN_ROOT is set only for a plugin's hooks/);
  });

  test("a plugin's ${user_config.*} option is an error", () => {
    const s = setup({ user: enabled() });
    write(path.join(s.root, 'hooks', 'hooks.json'), {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'notify --token ${user_config.token}' }] }] },
    });
    const c = loadClaudeConfig({ projectDir: s.dir, env: s.env });
    assert.deepEqual(c.hooks, []);
    assert.match(
      c.problems.map((p) => `${p.severity} ${p.message}`).join('\n'),
      /error plugin safety@acme-tools: \$\{user_config\.token\} \(a plugin's user option\) is not supported/,
    );
  });
});

describe('managed policy settings', () => {
  const userHook = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo user' }] }] } };

  test('managed hooks run; allowManagedHooksOnly keeps only them and the plugins managed settings enable', () => {
    const s = setup({ user: { ...userHook, ...enabled() } });
    write(s.managed, { allowManagedHooksOnly: true, hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo managed' }] }] } });
    let c = loadClaudeConfig({ projectDir: s.dir, env: s.env });
    assert.deepEqual(
      c.hooks.map((h) => [h.source, h.command]),
      [['managed', 'echo managed']],
    );
    write(s.managed, { allowManagedHooksOnly: true, ...enabled() });
    c = loadClaudeConfig({ projectDir: s.dir, env: s.env });
    assert.deepEqual(
      c.hooks.map((h) => [h.source, h.plugin?.id]),
      [['plugin', 'safety@acme-tools']],
    );
  });

  test('managed disableAllHooks turns every hook off; a user file cannot turn off managed hooks, nor set allowManagedHooksOnly', () => {
    const s = setup({ user: { ...userHook, ...enabled() } });
    write(s.managed, { disableAllHooks: true, hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo managed' }] }] } });
    assert.deepEqual(loadClaudeConfig({ projectDir: s.dir, env: s.env }).hooks, []);
    write(s.managed, { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo managed' }] }] } });
    write(path.join(s.home, '.claude', 'settings.json'), { ...userHook, disableAllHooks: true, allowManagedHooksOnly: true });
    const c = loadClaudeConfig({ projectDir: s.dir, env: s.env });
    assert.deepEqual(
      c.hooks.map((h) => h.command),
      ['echo managed'],
    );
    assert.match(c.problems.map((p) => p.message).join('\n'), /allowManagedHooksOnly counts only in managed settings/);
  });
});

describe('settings env blocks', () => {
  test('merged user, project, local, then managed over all; bad names and values are problems', () => {
    const s = setup({
      user: { env: { A: 'user', B: 'user', N: 3 } },
      project: { env: { B: 'project', C: 'project', 'BAD-NAME': 'x', D: { no: 1 } } },
      local: { env: { C: 'local' } },
    });
    write(s.managed, { env: { A: 'managed' } });
    const c = loadClaudeConfig({ projectDir: s.dir, env: s.env });
    assert.deepEqual(claudeSessionEnv(c, 'trusted'), { A: 'managed', B: 'project', C: 'local', N: '3' });
    assert.deepEqual(claudeSessionEnv(c, 'untrusted'), { A: 'managed', B: 'user', N: '3' });
    assert.deepEqual(
      c.problems.map((p) => `${p.severity} ${p.path}`),
      ['error env["BAD-NAME"]', 'error env.D'],
    );
  });

  test('hookline fire: the env block reaches the hook', async () => {
    const s = setup({
      user: {
        env: { SAFETY_LEVEL: 'strict' },
        hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo "level $SAFETY_LEVEL"' }] }] },
      },
    });
    const r = await runCli(['fire', 'SessionStart', '--dialect', 'claude', '--input', '-'], {
      cwd: s.dir,
      env: s.env,
      input: '{"source": "startup"}',
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json().output.additionalContext, 'level strict');
  });

  test("a change to the project's env block asks for trust again", async () => {
    const hooks = { hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo "level $SAFETY_LEVEL"' }] }] } };
    const s = setup({ project: { env: { SAFETY_LEVEL: 'strict' }, ...hooks } });
    const fireStart = () =>
      runCli(['fire', 'SessionStart', '--dialect', 'claude', '--input', '-'], { cwd: s.dir, env: s.env, input: '{"source": "startup"}' });
    assert.equal((await fireStart()).json().output.additionalContext, 'level strict');
    write(path.join(s.dir, '.claude', 'settings.json'), { env: { SAFETY_LEVEL: 'off' }, ...hooks });
    const r = await fireStart();
    assert.deepEqual(r.json().runs, []);
    assert.match(r.stderr, /held back until trusted/);
  });
});

describe('hookline list', () => {
  test("lists the user's Claude hooks with their file, plugin hooks with their plugin, and the project's with their trust", async () => {
    const s = setup({
      user: { ...enabled(), hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo user-stop' }] }] } },
      trusted: false,
    });
    const other = path.join(s.plugins, 'cache', 'acme-tools', 'lint', '0.1.0');
    writePlugin(other, 'lint');
    const installed = JSON.parse(fs.readFileSync(path.join(s.plugins, 'installed_plugins.json'), 'utf8'));
    installed.plugins['lint@acme-tools'] = [
      {
        scope: 'user',
        installPath: other,
        version: '0.1.0',
        installedAt: '2026-11-02T10:00:00.000Z',
        lastUpdated: '2026-11-02T10:00:00.000Z',
      },
    ];
    write(path.join(s.plugins, 'installed_plugins.json'), installed);
    write(path.join(s.dir, '.claude', 'settings.json'), { enabledPlugins: { 'lint@acme-tools': true } });
    const r = await runCli(['list', '--json'], { cwd: s.dir, env: s.env });
    assert.equal(r.code, 0, r.stderr);
    const claude = r.json().hooks.filter((h: { source: string }) => h.source === 'claude');
    assert.deepEqual(
      claude.map((h: Record<string, unknown>) => [h.event, h.name, h.plugin ?? null, h.file, h.trusted]),
      [
        ['Stop', 'echo user-stop', null, path.join(s.home, '.claude', 'settings.json'), true],
        ['PreToolUse', 'bash ${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh', 'safety@acme-tools', path.join(s.root, 'hooks', 'hooks.json'), true],
        ['PreToolUse', 'bash ${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh', 'lint@acme-tools', path.join(other, 'hooks', 'hooks.json'), false],
      ],
    );
    const text = await runCli(['list'], { cwd: s.dir, env: s.env });
    assert.match(
      text.stdout,
      /PreToolUse\s+Bash\s+bash \$\{CLAUDE_PLUGIN_ROOT\}\/hooks\/guard\.sh\s+claude plugin safety@acme-tools\s+enabled\s+trusted/,
    );
    assert.match(text.stdout, /claude plugin lint@acme-tools\s+enabled\s+untrusted/);
  });
});
