// Trust covers everything that decides what runs, the project files a hook runs, and old
// trusted_hooks.json entries; configuration files are placed by their real path.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { stringify } from 'yaml';
import { CLI, runCli } from '../helpers.js';
import { projectWith, write, type MarkProject } from '../config/util.js';
import { geminiFingerprint, trustHooks } from '../../src/trust/fingerprints.js';
import { writeTrustedFolder } from '../../src/trust/folders.js';
import { HookEngine } from '../../src/engine/index.js';
import { loadConfig } from '../../src/config/load.js';

const TOOL = { tool_name: 'run_shell_command', tool_input: {} };
const fire = (p: MarkProject) =>
  runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--input', '-'], { env: p.env, input: JSON.stringify(TOOL) });
const trustFile = (p: MarkProject) => path.join(p.home, '.gemini', 'trusted_hooks.json');
const readJson = (f: string) => JSON.parse(fs.readFileSync(f, 'utf8'));

/** A project whose hook runs its own script, hooks/guard.sh, which appends a label to the marker. */
function scripted(
  hook: Record<string, unknown> = {},
  def: Record<string, unknown> = {},
  trustFolder = true,
): MarkProject & { script: string } {
  const p = projectWith((m) => ({
    trusted: false,
    project: {
      hooks: { BeforeTool: [{ ...def, hooks: [{ type: 'command', name: 'guard', command: `bash hooks/guard.sh '${m}'`, ...hook }] }] },
    },
  }));
  const script = path.join(p.dir, 'hooks', 'guard.sh');
  fs.mkdirSync(path.dirname(script), { recursive: true });
  fs.writeFileSync(script, '#!/usr/bin/env bash\ncat >/dev/null\nprintf "guard\\n" >> "$1"\n');
  if (trustFolder) writeTrustedFolder(p.dir, 'TRUST_FOLDER', p.env);
  return { ...p, script };
}

/** Fingerprints the project's hooks with the library's own functions, as `hookline trust`. */
function trustAllHooks(p: MarkProject): void {
  trustHooks(p.dir, loadConfig({ projectDir: p.dir, env: p.env }).entries, p.env);
}

function editHook(p: MarkProject, change: (def: Record<string, any>, hook: Record<string, any>) => void): void {
  const s = readJson(p.projectFile);
  change(s.hooks.BeforeTool[0], s.hooks.BeforeTool[0].hooks[0]);
  write(p.projectFile, s);
}

describe('a change to anything that decides what runs holds the hook back', () => {
  const changes: Array<[string, (def: Record<string, any>, hook: Record<string, any>) => void]> = [
    ['env BASH_ENV', (_d, h) => (h.env = { BASH_ENV: 'evil.sh' })],
    ['timeout', (_d, h) => (h.timeout = 123456)],
    ['persistent', (_d, h) => (h.persistent = false)],
    ['matcher', (d) => (d.matcher = 'run_shell.*')],
    ['sequential', (d) => (d.sequential = true)],
    ['name', (_d, h) => (h.name = 'guard2')],
  ];
  for (const [what, change] of changes) {
    test(what, async () => {
      const p = scripted();
      trustAllHooks(p);
      let r = await fire(p);
      assert.deepEqual(p.ran(), ['guard'], r.stderr);
      editHook(p, change);
      r = await fire(p);
      assert.deepEqual(p.ran(), ['guard'], 'the changed hook did not run again');
      assert.match(r.stderr, /held back until trusted/);
      r = await runCli(['trust', p.dir], { env: p.env });
      assert.equal(r.code, 0, r.stderr);
      r = await fire(p);
      assert.deepEqual(p.ran(), ['guard', 'guard'], r.stderr);
    });
  }

  test('moving a trusted hook to another event', async () => {
    const p = scripted();
    trustAllHooks(p);
    const s = readJson(p.projectFile);
    s.hooks = { AfterTool: s.hooks.BeforeTool };
    write(p.projectFile, s);
    const r = await runCli(['fire', 'AfterTool', '--cwd', p.dir, '--input', '-'], {
      env: p.env,
      input: JSON.stringify({ ...TOOL, tool_response: { llmContent: 'ok', returnDisplay: 'ok' } }),
    });
    assert.deepEqual(p.ran(), [], r.stderr);
    assert.match(r.stderr, /held back until trusted/);
  });
});

describe('trust covers the script the command runs', () => {
  test('editing the script after trust holds the hook back until trusted again', async () => {
    const p = scripted();
    trustAllHooks(p);
    let r = await fire(p);
    assert.deepEqual(p.ran(), ['guard']);
    fs.appendFileSync(p.script, 'printf "evil\\n" >> "$1"\n');
    r = await fire(p);
    assert.deepEqual(p.ran(), ['guard'], 'the edited script did not run');
    assert.match(r.stderr, /held back until trusted/);
    r = await runCli(['trust', '--check', p.dir], { env: p.env });
    assert.equal(r.code, 1);
    assert.match(r.stdout, /guard \(BeforeTool\)/);
    await runCli(['trust', p.dir], { env: p.env });
    r = await fire(p);
    assert.deepEqual(p.ran(), ['guard', 'guard', 'evil']);
  });

  test('a long-lived engine notices the edit before the next event', async () => {
    const p = scripted();
    trustAllHooks(p);
    // With 0 the engine checks for changes before every event.
    const engine = new HookEngine({ cwd: p.dir, env: p.env, configCheckIntervalMs: 0 });
    await engine.fire('BeforeTool', TOOL);
    fs.appendFileSync(p.script, 'printf "evil\\n" >> "$1"\n');
    await engine.fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran(), ['guard'], 'the edited script did not run');
    assert.equal(engine.heldBack.length, 1);
    trustAllHooks(p);
    await engine.fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran(), ['guard', 'guard', 'evil']);
  });

  test('a script given through $GEMINI_PROJECT_DIR or an interpreter is covered too', async () => {
    const p = scripted({ command: `node "$GEMINI_PROJECT_DIR/hooks/guard.mjs"` });
    fs.writeFileSync(
      path.join(p.dir, 'hooks', 'guard.mjs'),
      `import fs from 'node:fs';\nfs.appendFileSync(${JSON.stringify(p.marker)}, 'mjs\\n');\n`,
    );
    trustAllHooks(p);
    await fire(p);
    assert.deepEqual(p.ran(), ['mjs']);
    fs.appendFileSync(path.join(p.dir, 'hooks', 'guard.mjs'), `fs.appendFileSync(${JSON.stringify(p.marker)}, 'evil\\n');\n`);
    const r = await fire(p);
    assert.deepEqual(p.ran(), ['mjs']);
    assert.match(r.stderr, /held back/);
  });

  test('a missing script fails closed: not trusted, held back with a message', async () => {
    const p = scripted({ command: `bash hooks/absent.sh` });
    let r = await runCli(['trust', p.dir], { env: p.env });
    assert.equal(r.code, 1);
    assert.match(r.stdout, /guard \(BeforeTool\): bash hooks\/absent\.sh \[cannot be trusted: hooks\/absent\.sh is missing\]/);
    assert.match(r.stderr, /not trusted: a file they run is missing or unreadable/);
    fs.writeFileSync(path.join(p.dir, 'hooks', 'absent.sh'), `printf "late\\n" >> '${p.marker}'\n`);
    r = await fire(p);
    assert.deepEqual(p.ran(), [], 'created after trust, it is not trusted');
    fs.rmSync(path.join(p.dir, 'hooks', 'absent.sh'));
    r = await fire(p);
    assert.match(r.stderr, /cannot be trusted: hooks\/absent\.sh is missing/);
  });
});

describe('keys in trusted_hooks.json', () => {
  test('`hookline trust` writes the new key and, for Gemini CLI, name:command beside it', async () => {
    const p = scripted({}, {}, false);
    const r = await runCli(['trust', p.dir], { env: p.env });
    assert.equal(r.code, 0, r.stderr);
    const entry = loadConfig({ projectDir: p.dir, env: p.env }).entries[0];
    const keys: string[] = readJson(trustFile(p))[p.dir];
    assert.deepEqual(keys, [geminiFingerprint(entry, p.dir).key, `guard:${(entry.hook as { command: string }).command}`]);
    assert.match(keys[0], /^v2:gemini:[0-9a-f]{64}$/);
  });

  test('an old name:command entry still counts, is rewritten in the new form, and then no longer stands alone', async () => {
    const p = scripted({}, {}, false);
    writeTrustedFolder(p.dir, 'TRUST_FOLDER', p.env);
    const command = readJson(p.projectFile).hooks.BeforeTool[0].hooks[0].command as string;
    fs.writeFileSync(trustFile(p), JSON.stringify({ [p.dir]: [`guard:${command}`] }));
    let r = await fire(p);
    assert.deepEqual(p.ran(), ['guard'], r.stderr);
    assert.ok(
      readJson(trustFile(p))[p.dir].some((k: string) => k.startsWith('v2:gemini:')),
      'migrated',
    );
    fs.appendFileSync(p.script, 'printf "evil\\n" >> "$1"\n');
    r = await fire(p);
    assert.deepEqual(p.ran(), ['guard'], 'the old key no longer covers a changed script');
  });

  test('an ambiguous old key (more than one colon) does not count', async () => {
    const p = projectWith((m) => ({
      trusted: false,
      project: { hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'a:b', command: `printf 'x\\n' >> '${m}'` }] }] } },
    }));
    writeTrustedFolder(p.dir, 'TRUST_FOLDER', p.env);
    const command = readJson(p.projectFile).hooks.BeforeTool[0].hooks[0].command as string;
    fs.writeFileSync(trustFile(p), JSON.stringify({ [p.dir]: [`a:b:${command}`] }));
    const r = await fire(p);
    assert.deepEqual(p.ran(), []);
    assert.match(r.stderr, /held back until trusted/);
  });

  test('an old dialect key counts once, is migrated, and `hookline trust` drops it', async () => {
    const p = projectWith(() => ({ trusted: false }));
    writeTrustedFolder(p.dir, 'TRUST_FOLDER', p.env);
    const command = `printf 'claude\\n' >> '${p.marker}'`;
    write(path.join(p.dir, '.claude', 'settings.json'), {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] },
    });
    fs.writeFileSync(trustFile(p), JSON.stringify({ [p.dir]: [`claude:PreToolUse:${command}`] }));
    const env = { ...p.env, HOME: p.home };
    const fireClaude = () =>
      runCli(['fire', 'PreToolUse', '--dialect', 'claude', '--cwd', p.dir, '--input', '-'], {
        env,
        input: JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } }),
      });
    let r = await fireClaude();
    assert.deepEqual(p.ran(), ['claude'], r.stderr);
    const keys: string[] = readJson(trustFile(p))[p.dir];
    assert.ok(keys.some((k) => k.startsWith('v2:claude:')) && !keys.includes(`claude:PreToolUse:${command}`), JSON.stringify(keys));
    // A change to the matcher now holds it back, although the old key would still have matched.
    write(path.join(p.dir, '.claude', 'settings.json'), {
      hooks: { PreToolUse: [{ matcher: '.*', hooks: [{ type: 'command', command }] }] },
    });
    r = await fireClaude();
    assert.deepEqual(p.ran(), ['claude'], r.stderr);
    assert.match(r.stderr, /held back until trusted/);
    fs.writeFileSync(trustFile(p), JSON.stringify({ [p.dir]: [`claude:PreToolUse:${command}`] }));
    r = await runCli(['trust', p.dir], { env });
    assert.equal(r.code, 0, r.stderr);
    const after: string[] = readJson(trustFile(p))[p.dir];
    // The old key is gone; Copilot CLI reads Claude Code's settings too, so the hook is trusted under its key as well.
    assert.equal(after.length, 2);
    assert.deepEqual(after.map((k) => k.split(':').slice(0, 2).join(':')).sort(), ['v2:claude', 'v2:copilot']);
  });
});

/** Runs `hookline agent` as a real process in `cwd`. */
function agent(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'agent', ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
    child.stdin.end('');
  });
}

describe('configuration files are placed by their real path', () => {
  for (const [label, pointer] of [
    ['/proc/self/cwd', () => '/proc/self/cwd/helper.yaml'],
    [
      'a symlink',
      (p: MarkProject) => {
        const link = path.join(path.dirname(p.dir), 'innocent.yaml');
        fs.symlinkSync(path.join(p.dir, 'helper.yaml'), link);
        return link;
      },
    ],
    ['..', (p: MarkProject) => path.join(path.dirname(p.dir), 'elsewhere', '..', path.basename(p.dir), 'helper.yaml')],
  ] as const) {
    test(`an agent the user's own configuration names through ${label} into an untrusted workspace runs none of its hooks`, {
      skip: label === '/proc/self/cwd' && !fs.existsSync('/proc/self/cwd'),
    }, async () => {
      const p = projectWith(() => ({ trusted: false }));
      fs.writeFileSync(
        path.join(p.dir, 'helper.yaml'),
        stringify({ model: 'scripted/helper', hooks: { preGeneration: [{ command: `printf 'helper\\n' >> '${p.marker}'` }] } }),
      );
      const mine = path.join(p.home, 'mine.yaml');
      fs.writeFileSync(mine, stringify({ mmConfigs: { helper: pointer(p) } }));
      const script = path.join(path.dirname(p.dir), 'script.jsonl');
      fs.writeFileSync(script, [{ text: 'the helper says hi' }].map((l) => JSON.stringify(l) + '\n').join(''));
      const r = await agent(
        p.dir,
        ['--ask', 'helper', 'hello', '--model', `scripted:${script}`, '--mm-config', mine, '--cwd', p.dir],
        p.env,
      );
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(p.ran(), [], `the workspace's hook must not run:\n${r.stderr}`);
    });
  }

  test('`hookline trust --check` lists hooks of an mm agent file outside the project that the workspace points at', async () => {
    const p = projectWith(() => ({ trusted: false }));
    const other = path.join(path.dirname(p.dir), 'other-clone');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'x.yaml'), stringify({ hooks: { preGeneration: [{ command: 'echo from-other-clone' }] } }));
    fs.writeFileSync(path.join(p.dir, 'agent.yaml'), stringify({ mmConfigs: { x: '../other-clone/x.yaml' } }));
    const r = await runCli(['trust', '--check', p.dir], { env: { ...p.env, HOME: p.home } });
    assert.equal(r.code, 1);
    assert.match(r.stdout, /other-clone\/x\.yaml \(preGeneration\): echo from-other-clone/);
  });
});
