import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCli, makeProject } from '../helpers.js';
import { projectWith, mark, write, ranFrom, type MarkProject } from '../config/util.js';
import { parseJsonc } from '../../src/config/jsonc.js';
import { HookEngine } from '../../src/engine/index.js';

const TOOL = { tool_name: 'run_shell_command', tool_input: {} };
/** Fires in process (a fresh engine reads the settings the command wrote); fast next to a CLI run. */
const fire = (p: MarkProject) => p.engine().fire('BeforeTool', TOOL);
const hl = (p: MarkProject, ...args: string[]) => runCli([...args, '--cwd', p.dir], { env: p.env });
const disabledIn = (file: string): unknown => {
  if (!fs.existsSync(file)) return undefined;
  const r = parseJsonc(fs.readFileSync(file, 'utf8'));
  assert.ok(r.ok);
  return (r.value as { hooksConfig?: { disabled?: unknown } }).hooksConfig?.disabled;
};

/** Two workspace hooks and one user hook, all on BeforeTool. */
const threeHooks = () =>
  projectWith((m) => ({
    project: { hooks: { BeforeTool: [{ hooks: [mark(m, 'lint'), mark(m, 'scan')] }] } },
    user: { hooks: { BeforeTool: [{ hooks: [mark(m, 'audit')] }] } },
  }));

describe('hookline disable / enable', () => {
  test('disable adds the name to the workspace settings, says where, and the hook no longer runs', async () => {
    const p = threeHooks();
    const r = await hl(p, 'disable', 'scan');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `Hook "scan" disabled by adding it to the disabled list in workspace (${p.projectFile}) settings.\n`);
    assert.deepEqual(disabledIn(p.projectFile), ['scan']);
    assert.equal(disabledIn(p.userFile), undefined, 'the user settings are untouched');
    // The rest of the workspace settings are kept.
    assert.equal(JSON.parse(fs.readFileSync(p.projectFile, 'utf8')).hooks.BeforeTool[0].hooks.length, 2);
    // End to end once: `hookline fire` reads what `hookline disable` wrote.
    const f = await runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--input', '-'], { env: p.env, input: JSON.stringify(TOOL) });
    assert.equal(f.code, 0, f.stderr);
    assert.deepEqual(p.ran().sort(), ['audit', 'lint']);
    assert.deepEqual(
      f.json().runs.map((x: { name: string }) => x.name),
      ['lint', 'audit'],
    );
  });

  test('disabling a user hook also goes to the workspace settings', async () => {
    const p = threeHooks();
    const r = await hl(p, 'disable', 'audit');
    assert.match(r.stdout, /^Hook "audit" disabled by adding it to the disabled list in workspace/);
    assert.deepEqual(disabledIn(p.projectFile), ['audit']);
    await fire(p);
    assert.deepEqual(p.ran().sort(), ['lint', 'scan']);
  });

  test('disabling twice says it is already disabled and changes nothing', async () => {
    const p = threeHooks();
    await hl(p, 'disable', 'lint');
    const before = fs.readFileSync(p.projectFile, 'utf8');
    const r = await hl(p, 'disable', 'lint');
    assert.equal(r.code, 0);
    assert.equal(r.stdout, 'Hook "lint" is already disabled.\n');
    assert.equal(fs.readFileSync(p.projectFile, 'utf8'), before);
  });

  test('enable removes the name from every scope, and the hook runs again', async () => {
    const p = projectWith((m) => ({
      project: { hooksConfig: { disabled: ['lint', 'other'] }, hooks: { BeforeTool: [{ hooks: [mark(m, 'lint')] }] } },
      user: { hooksConfig: { disabled: ['lint'] } },
    }));
    await fire(p);
    assert.deepEqual(p.ran(), []);
    const r = await hl(p, 'enable', 'lint');
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^Hook "lint" enabled by removing it from the disabled list in workspace \(.*\) and user \(.*\) settings\.\n$/);
    assert.deepEqual(disabledIn(p.projectFile), ['other']);
    assert.deepEqual(disabledIn(p.userFile), []);
    await fire(p);
    assert.deepEqual(p.ran(), ['lint']);
  });

  test('enable names only the files it changed: a user settings file that does not exist is not said to be edited', async () => {
    const p = projectWith((m) => ({
      project: { hooksConfig: { disabled: ['lint'] }, hooks: { BeforeTool: [{ hooks: [mark(m, 'lint')] }] } },
    }));
    assert.equal(fs.existsSync(p.userFile), false);
    const r = await hl(p, 'enable', 'lint');
    assert.equal(r.code, 0);
    assert.equal(r.stdout, `Hook "lint" enabled by removing it from the disabled list in workspace (${p.projectFile}) settings.\n`);
    assert.equal(fs.existsSync(p.userFile), false);
  });

  test('enabling a hook that is not disabled says so', async () => {
    const p = threeHooks();
    const r = await hl(p, 'enable', 'lint');
    assert.equal(r.stdout, 'Hook "lint" is already enabled.\n');
    assert.equal(disabledIn(p.projectFile), undefined);
  });

  test('an unnamed hook is disabled by its command', async () => {
    let command = '';
    const p = projectWith((m) => {
      command = mark(m, 'anon').command as string;
      return { project: { hooks: { BeforeTool: [{ hooks: [{ type: 'command', command }] }] } } };
    });
    const r = await hl(p, 'disable', command);
    assert.equal(r.stderr, '');
    assert.deepEqual(disabledIn(p.projectFile), [command]);
    await fire(p);
    assert.deepEqual(p.ran(), []);
  });

  test('a name no hook has is an error with a suggestion, and nothing is written', async () => {
    const p = threeHooks();
    const before = fs.readFileSync(p.projectFile, 'utf8');
    for (const verb of ['disable', 'enable']) {
      const r = await hl(p, verb, 'lnt');
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr,
        'hookline: lnt: no configured hook has this name, nothing written — did you mean "lint"? (hooks: lint, scan, audit)\n',
      );
      assert.equal(r.stdout, '');
    }
    assert.equal(fs.readFileSync(p.projectFile, 'utf8'), before);
    const far = await hl(p, 'disable', 'zzzzzz');
    assert.equal(far.code, 1);
    assert.match(far.stderr, /give one of: lint, scan, audit/);
  });

  test("the settings file's comments and other settings survive", async () => {
    const p = projectWith((m) => ({
      project: `{\n  // team hooks, see README\n  "theme": "dark",\n  "hooks": { "BeforeTool": [ { "hooks": [ ${JSON.stringify(mark(m, 'lint'))} ] } ] } /* end */\n}\n`,
    }));
    await hl(p, 'disable', 'lint');
    const text = fs.readFileSync(p.projectFile, 'utf8');
    assert.match(text, /\/\/ team hooks, see README/);
    assert.match(text, /\/\* end \*\//);
    const r = parseJsonc(text);
    assert.ok(r.ok);
    assert.deepEqual(r.value, {
      theme: 'dark',
      hooks: { BeforeTool: [{ hooks: [mark(p.marker, 'lint')] }] },
      hooksConfig: { disabled: ['lint'] },
    });
    await hl(p, 'enable', 'lint');
    assert.match(fs.readFileSync(p.projectFile, 'utf8'), /\/\/ team hooks, see README/);
    assert.deepEqual(disabledIn(p.projectFile), []);
  });

  test('a broken settings file is a one-line error and is left as it was', async () => {
    const p = projectWith(() => ({ project: '{ "hooks": { }, }' }));
    const r = await hl(p, 'disable', 'x');
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      new RegExp(
        `hookline: ${p.projectFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: invalid JSON at line 1, column 17: .*fix it before changing hooks\\n$`,
      ),
    );
    assert.equal(fs.readFileSync(p.projectFile, 'utf8'), '{ "hooks": { }, }');
  });

  test("a broken user settings file does not stop disable and enable in the workspace's file, and is left as it was", async () => {
    const p = projectWith((m) => ({ project: { hooks: { BeforeTool: [{ hooks: [mark(m, 'lint')] }] } } }));
    const user = path.join(p.home, '.gemini', 'settings.json');
    fs.writeFileSync(user, '{"ui": {"theme": "x",},}');
    const off = await hl(p, 'disable', 'lint');
    assert.equal(off.code, 0, off.stderr);
    assert.deepEqual(disabledIn(p.projectFile), ['lint']);
    const on = await hl(p, 'enable', 'lint');
    assert.equal(on.code, 0, on.stderr);
    assert.deepEqual(disabledIn(p.projectFile), []);
    assert.equal(fs.readFileSync(user, 'utf8'), '{"ui": {"theme": "x",},}');
  });

  test('enabling a hook the system settings disable warns that it stays disabled', async () => {
    const p = projectWith((m) => ({
      project: { hooks: { BeforeTool: [{ hooks: [mark(m, 'lint')] }] } },
      system: { hooksConfig: { disabled: ['lint'] } },
    }));
    const r = await hl(p, 'enable', 'lint');
    assert.equal(r.stdout, 'Hook "lint" is already enabled.\n');
    assert.match(r.stderr, /still disabled by the system settings \(.*system-settings\.json\).*: lint\n$/);
  });

  test('a project at the home folder writes the one settings file there is, the user file', async () => {
    const p = makeProject({});
    const marker = path.join(path.dirname(p.dir), 'ran.txt');
    const userFile = path.join(p.home, '.gemini', 'settings.json');
    write(userFile, { hooks: { BeforeTool: [{ hooks: [mark(marker, 'home')] }] } });
    const r = await runCli(['disable', 'home', '--cwd', p.home], { env: p.env });
    assert.equal(r.stdout, `Hook "home" disabled by adding it to the disabled list in user (${userFile}) settings.\n`);
    assert.deepEqual(disabledIn(userFile), ['home']);
    assert.ok(!fs.existsSync(path.join(p.home, '.gemini', '.gemini')));
    await new HookEngine({ cwd: p.home, env: p.env, watchConfig: false }).fire('BeforeTool', TOOL);
    assert.deepEqual(ranFrom(marker), []);
  });
});

describe('hookline enable-all / disable-all', () => {
  test('disable-all writes every hook name to the workspace settings; nothing runs', async () => {
    const p = threeHooks();
    const r = await hl(p, 'disable-all');
    assert.equal(r.code, 0);
    assert.equal(r.stdout, 'Disabled 3 hook(s) successfully.\n');
    assert.deepEqual(disabledIn(p.projectFile), ['lint', 'scan', 'audit']);
    assert.equal(disabledIn(p.userFile), undefined);
    const f = await fire(p);
    assert.deepEqual(f.runs, []);
    assert.deepEqual(p.ran(), []);
    assert.equal((await hl(p, 'disable-all')).stdout, 'All hooks are already disabled.\n');
  });

  test('disable-all counts only the hooks not yet disabled', async () => {
    const p = projectWith((m) => ({
      project: { hooks: { BeforeTool: [{ hooks: [mark(m, 'lint'), mark(m, 'scan')] }] } },
      user: { hooksConfig: { disabled: ['scan'] } },
    }));
    assert.equal((await hl(p, 'disable-all')).stdout, 'Disabled 1 hook(s) successfully.\n');
  });

  test('enable-all writes an empty list to both the workspace and the user settings; everything runs', async () => {
    const p = projectWith((m) => ({
      project: { hooksConfig: { disabled: ['lint'] }, hooks: { BeforeTool: [{ hooks: [mark(m, 'lint'), mark(m, 'scan')] }] } },
      user: { hooksConfig: { disabled: ['audit', 'scan'] }, hooks: { BeforeTool: [{ hooks: [mark(m, 'audit')] }] } },
    }));
    const r = await hl(p, 'enable-all');
    assert.equal(r.stdout, 'Enabled 3 hook(s) successfully.\n');
    assert.deepEqual(disabledIn(p.projectFile), []);
    assert.deepEqual(disabledIn(p.userFile), []);
    await fire(p);
    assert.deepEqual(p.ran().sort(), ['audit', 'lint', 'scan']);
    assert.equal((await hl(p, 'enable-all')).stdout, 'All hooks are already enabled.\n');
  });

  test('enable-all writes both scopes even when only one had a list', async () => {
    const p = projectWith((m) => ({ user: { hooksConfig: { disabled: ['u'] }, hooks: { BeforeTool: [{ hooks: [mark(m, 'u')] }] } } }));
    assert.equal((await hl(p, 'enable-all')).stdout, 'Enabled 1 hook(s) successfully.\n');
    assert.deepEqual(disabledIn(p.projectFile), []);
    assert.deepEqual(disabledIn(p.userFile), []);
  });

  test('no hooks configured', async () => {
    const p = projectWith(() => ({}));
    assert.equal((await hl(p, 'enable-all')).stdout, 'No hooks configured.\n');
    assert.equal((await hl(p, 'disable-all')).stdout, 'No hooks configured.\n');
    assert.equal(fs.existsSync(p.projectFile), false);
  });
});
