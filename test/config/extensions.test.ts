// Gemini CLI extensions installed as Gemini CLI installs them (~/.gemini/extensions/<name>/ with
// gemini-extension.json and hooks/hooks.json): `${extensionPath}`, `${workspacePath}` and `${/}`
// substituted in their commands, enablement honoured, a string "hooks" in the manifest ignored.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { makeProject, runCli, type Project } from '../helpers.js';
import { expandExtensionCommand } from '../../src/run/extension-vars.js';
import { HookEngine } from '../../src/engine/index.js';
import { extensionEnabled } from '../../src/config/extension-enablement.js';

const GUARD = `#!/usr/bin/env bash
# Denies every tool; writes the workspace it was given and the folder it lives in.
printf '%s\\n%s\\n' "$1" "$(cd "$(dirname "$0")/.." && pwd)" > "$1/ext-ran"
echo '{"decision": "deny", "reason": "audit extension says no"}'
`;

/** Installs an extension named `name` whose BeforeTool hook runs its own script through ${extensionPath}. */
function install(p: Project, name: string, manifest: Record<string, unknown> = {}): string {
  const dir = path.join(p.home, '.gemini', 'extensions', name);
  fs.mkdirSync(path.join(dir, 'hooks'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'gemini-extension.json'), JSON.stringify({ name, version: '1.0.0', ...manifest }));
  fs.writeFileSync(path.join(dir, 'hooks', 'guard.sh'), GUARD, { mode: 0o755 });
  const hooks = {
    hooks: {
      BeforeTool: [
        {
          matcher: '.*',
          hooks: [
            { type: 'command', name: 'guard', command: 'bash "${extensionPath}${/}hooks${/}guard.sh" ${workspacePath}', timeout: 10000 },
          ],
        },
      ],
    },
  };
  fs.writeFileSync(path.join(dir, 'hooks', 'hooks.json'), JSON.stringify(hooks));
  return dir;
}

function enablement(p: Project, value: unknown): void {
  fs.writeFileSync(
    path.join(p.home, '.gemini', 'extensions', 'extension-enablement.json'),
    typeof value === 'string' ? value : JSON.stringify(value),
  );
}

const fire = (p: Project) =>
  runCli(['fire', 'BeforeTool', '--input', '-'], {
    cwd: p.dir,
    env: p.env,
    input: JSON.stringify({ tool_name: 'run_shell_command', tool_input: { command: 'ls' } }),
  });

describe('Gemini CLI extensions', () => {
  test('an installed extension with ${extensionPath} hooks runs its own script, in a folder with a space', async () => {
    const p = makeProject({ name: 'my project' });
    const dir = install(p, 'audit');
    const r = await fire(p);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /bad substitution/);
    const out = r.json();
    assert.equal(out.output.decision, 'deny', r.stdout);
    assert.equal(out.output.reason, 'audit extension says no');
    assert.deepEqual(fs.readFileSync(path.join(p.dir, 'ext-ran'), 'utf8').split('\n').slice(0, 2), [p.dir, fs.realpathSync(dir)]);
  });

  test('disabled for the user (gemini extensions disable audit): its hooks do not run; enabled again, they do', async () => {
    const p = makeProject();
    install(p, 'audit');
    const base = path.dirname(p.dir);
    enablement(p, { audit: { overrides: [`!${base}/*`] } });
    const off = await fire(p);
    assert.equal(off.code, 0, off.stderr);
    assert.deepEqual(off.json().runs, []);
    assert.equal(fs.existsSync(path.join(p.dir, 'ext-ran')), false);
    enablement(p, { audit: { overrides: [`!${base}/*`, `${p.dir}/`] } });
    const on = await fire(p);
    assert.equal(on.json().runs.length, 1, on.stderr);
    assert.equal(fs.existsSync(path.join(p.dir, 'ext-ran')), true);
  });

  test('disabled for one workspace only; another extension still runs', async () => {
    const p = makeProject();
    install(p, 'audit');
    install(p, 'other');
    enablement(p, { audit: { overrides: [`!${p.dir}/`] } });
    const r = await fire(p);
    assert.equal(r.json().runs.length, 1, r.stderr);
    assert.equal(path.basename(fs.readFileSync(path.join(p.dir, 'ext-ran'), 'utf8').split('\n')[1]), 'other');
  });

  test('enablement is keyed by the manifest name, not the folder', async () => {
    const p = makeProject();
    install(p, 'folder-name', { name: 'real-name' });
    enablement(p, { 'real-name': { overrides: [`!${p.dir}/`] } });
    assert.deepEqual((await fire(p)).json().runs, []);
  });

  test('an unreadable enablement file disables every extension and says so', async () => {
    const p = makeProject();
    install(p, 'audit');
    enablement(p, '{not json');
    const r = await fire(p);
    assert.deepEqual(r.json().runs, []);
    assert.match(r.stderr, /extension-enablement\.json.*every extension is treated as disabled/);
  });

  test('a string "hooks" in gemini-extension.json is no error; hooks/hooks.json still loads', async () => {
    const p = makeProject();
    install(p, 'audit', { hooks: './hooks/hooks.json' });
    const v = await runCli(['validate'], { cwd: p.dir, env: p.env });
    assert.equal(v.code, 0, v.stdout + v.stderr);
    assert.doesNotMatch(v.stdout + v.stderr, /gemini-extension\.json/);
    assert.equal((await fire(p)).json().runs.length, 1);
  });
});

describe('extension settings', () => {
  test('the settings its manifest declares reach its hooks from its .env, as variables and as ${NAME}; other lines do not', async () => {
    const p = makeProject();
    const dir = install(p, 'settings', { settings: [{ name: 'Token', description: 'API token', envVar: 'EXT_TOKEN' }] });
    fs.writeFileSync(path.join(dir, '.env'), 'EXT_TOKEN="abc 123"\nNOT_DECLARED=secret\n');
    const out = path.join(p.dir, 'seen');
    const hook = { type: 'command', name: 'show', command: `printf '%s|%s|%s\\n' "$EXT_TOKEN" \${EXT_TOKEN} "$NOT_DECLARED" > '${out}'` };
    fs.writeFileSync(path.join(dir, 'hooks', 'hooks.json'), JSON.stringify({ hooks: { BeforeTool: [{ hooks: [hook] }] } }));
    const r = await runCli(['fire', 'BeforeTool', '--input', '-'], {
      cwd: p.dir,
      env: p.env,
      input: '{"tool_name": "x", "tool_input": {}}',
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.readFileSync(out, 'utf8'), 'abc 123|abc 123|\n');
  });
});

// A warm engine (a server, an agent) checks before each event what the settings were read from,
// by stamps alone: every change to an extension is seen on the next event.
describe('a warm engine sees every extension change on its next event', () => {
  const warm = (p: Project) => {
    const e = new HookEngine({ cwd: p.dir, env: p.env, configCheckIntervalMs: 0, onNotice: () => {} });
    const names = async () => (await e.fire('BeforeTool', { tool_name: 'x', tool_input: {} })).runs.map((r) => r.name);
    return { e, names };
  };
  /** An installed extension with its manifest and no hooks file yet. */
  const bare = (p: Project, name: string) => {
    const dir = path.join(p.home, '.gemini', 'extensions', name);
    fs.mkdirSync(path.join(dir, 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'gemini-extension.json'), JSON.stringify({ name, version: '1.0.0' }));
    return dir;
  };
  const hooksFile = (dir: string, name: string, command = 'echo {}') =>
    fs.writeFileSync(
      path.join(dir, 'hooks', 'hooks.json'),
      JSON.stringify({ hooks: { BeforeTool: [{ hooks: [{ type: 'command', name, command }] }] } }),
    );

  test('installed, edited, disabled, enabled again, removed', async () => {
    const p = makeProject();
    const { e, names } = warm(p);
    assert.deepEqual(await names(), []);
    const dir = install(p, 'audit');
    assert.deepEqual(await names(), ['guard']);
    hooksFile(dir, 'edited');
    assert.deepEqual(await names(), ['edited']);
    enablement(p, { audit: { overrides: ['!/*'] } });
    assert.deepEqual(await names(), []);
    enablement(p, {});
    assert.deepEqual(await names(), ['edited']);
    fs.rmSync(dir, { recursive: true });
    assert.deepEqual(await names(), []);
    e.close();
  });

  test('a hooks file added to an extension that had none, and a renamed manifest', async () => {
    const p = makeProject();
    const dir = bare(p, 'late');
    enablement(p, { renamed: { overrides: ['!/*'] } });
    const { e, names } = warm(p);
    assert.deepEqual(await names(), []);
    hooksFile(dir, 'late-hook');
    assert.deepEqual(await names(), ['late-hook']);
    // Enablement is keyed by the manifest's name: renaming it there disables it here.
    fs.writeFileSync(path.join(dir, 'gemini-extension.json'), JSON.stringify({ name: 'renamed', version: '1.0.0' }));
    assert.deepEqual(await names(), []);
    e.close();
  });

  test('a linked extension: its source folder is watched', async () => {
    const p = makeProject();
    const source = path.join(p.dir, '..', 'ext-source');
    fs.mkdirSync(path.join(source, 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(source, 'gemini-extension.json'), JSON.stringify({ name: 'linked', version: '1.0.0' }));
    hooksFile(source, 'from-source');
    const installed = path.join(p.home, '.gemini', 'extensions', 'linked');
    fs.mkdirSync(installed, { recursive: true });
    fs.writeFileSync(path.join(installed, '.gemini-extension-install.json'), JSON.stringify({ type: 'link', source }));
    const { e, names } = warm(p);
    assert.deepEqual(await names(), ['from-source']);
    hooksFile(source, 'edited-source');
    assert.deepEqual(await names(), ['edited-source']);
    e.close();
  });

  test('a hooks file that appears just after loading found none is read at the next event', async () => {
    const p = makeProject();
    const dir = bare(p, 'late');
    const file = path.join(dir, 'hooks', 'hooks.json');
    // Written (an install, an editor) in the instant after loading first looked for it, however it looked.
    const { statSync, existsSync } = fs;
    let written = false;
    const then = <T>(f: fs.PathLike, found: T): T => {
      if (!found && !written && String(f) === file) {
        written = true;
        hooksFile(dir, 'late-hook');
      }
      return found;
    };
    fs.statSync = ((f: fs.PathLike, o?: fs.StatSyncOptions) => then(f, statSync(f, o as fs.StatSyncOptions))) as typeof fs.statSync;
    fs.existsSync = (f: fs.PathLike) => then(f, existsSync(f));
    let engine: ReturnType<typeof warm>;
    try {
      engine = warm(p);
    } finally {
      Object.assign(fs, { statSync, existsSync });
    }
    assert.ok(written);
    assert.deepEqual(await engine.names(), ['late-hook']);
    engine.e.close();
  });

  // File times that tick by the second (FAT, HFS+, ext4 with small inodes; a jiffy on Linux
  // before 6.13): a second change in the tick of the first keeps its stamp, so what changed
  // within a tick of being stamped is compared by content until the tick is over.
  const coarse = async (steps: (p: Project, names: () => Promise<string[]>) => Promise<void>) => {
    const realStat = fs.statSync;
    const floor = (t: number) => Math.floor(t / 1000) * 1000;
    fs.statSync = ((f: fs.PathLike, o?: fs.StatSyncOptions) => {
      const st = realStat(f, o as fs.StatSyncOptions) as fs.Stats | undefined;
      if (st) {
        st.mtimeMs = floor(st.mtimeMs);
        st.ctimeMs = floor(st.ctimeMs);
      }
      return st;
    }) as typeof fs.statSync;
    try {
      // Early in a second, so the steps fall in one (a busy machine may need another try).
      for (let attempt = 0; attempt < 10; attempt++) {
        while (Date.now() % 1000 > 100) await new Promise((r) => setTimeout(r, 5));
        const second = Math.floor(Date.now() / 1000);
        const p = makeProject();
        const { e, names } = warm(p);
        try {
          await steps(p, names);
          return;
        } catch (err) {
          if (Math.floor(Date.now() / 1000) === second) throw err;
        } finally {
          e.close();
        }
      }
      assert.fail('the steps never fell within one second');
    } finally {
      fs.statSync = realStat;
    }
  };

  test('times by the second: an extension installed in the tick of the one before is still found', async () => {
    await coarse(async (p, names) => {
      const add = (name: string) => hooksFile(install(p, name), name, `echo {} # ${name}`);
      assert.deepEqual(await names(), []);
      add('first');
      assert.deepEqual(await names(), ['first']);
      add('second');
      assert.deepEqual(await names(), ['first', 'second']);
    });
  });

  test('times by the second: a settings file rewritten to the same size in one tick is read again', async () => {
    await coarse(async (p, names) => {
      const file = path.join(p.home, '.gemini', 'settings.json');
      const settings = (name: string) =>
        fs.writeFileSync(file, JSON.stringify({ hooks: { BeforeTool: [{ hooks: [{ type: 'command', name, command: 'echo {}' }] }] } }));
      settings('aaaa');
      assert.deepEqual(await names(), ['aaaa']);
      settings('bbbb');
      assert.deepEqual(await names(), ['bbbb']);
    });
  });

  test("its .env: a new value of a declared setting reaches the next event's hook", async () => {
    const p = makeProject();
    const dir = install(p, 'settings', { settings: [{ name: 'Token', description: 'API token', envVar: 'EXT_TOKEN' }] });
    fs.writeFileSync(path.join(dir, '.env'), 'EXT_TOKEN=first\n');
    const out = path.join(p.dir, 'seen');
    hooksFile(dir, 'show', `printf '%s\\n' "$EXT_TOKEN" >> '${out}'`);
    const { e, names } = warm(p);
    await names();
    fs.writeFileSync(path.join(dir, '.env'), 'EXT_TOKEN=second\n');
    await names();
    assert.deepEqual(fs.readFileSync(out, 'utf8').split('\n'), ['first', 'second', '']);
    e.close();
  });
});

describe('extension variables and rules', () => {
  test('each variable is quoted for where it stands: bash reads the values as one word each', () => {
    const v = { extensionPath: '/h/ext\'s "dir" $x', workspacePath: '/w s' };
    const words = (command: string) =>
      execFileSync('bash', ['-c', `printf '%s\\n' ${command}`], { encoding: 'utf8' })
        .split('\n')
        .slice(0, -1);
    assert.deepEqual(words(expandExtensionCommand('${extensionPath}${/}a.js ${workspacePath}', v)), [`${v.extensionPath}/a.js`, '/w s']);
    assert.deepEqual(words(expandExtensionCommand('"${extensionPath}${pathSeparator}a.js"', v)), [`${v.extensionPath}/a.js`]);
    assert.deepEqual(words(expandExtensionCommand(`'\${workspacePath}'`, v)), ['/w s']);
    assert.equal(expandExtensionCommand('echo $HOME ${other}', v), 'echo $HOME ${other}');
  });

  test('override rules: the last matching rule wins, `*` covers subfolders', () => {
    const en = (rules: string[]) => ({ ok: true as const, overrides: { x: rules } });
    assert.equal(extensionEnabled(en([]), 'x', '/a/b'), true);
    assert.equal(extensionEnabled(en(['!/a/*']), 'x', '/a/b/c'), false);
    assert.equal(extensionEnabled(en(['!/a/*']), 'x', '/ab'), true);
    assert.equal(extensionEnabled(en(['!/a/b/']), 'x', '/a/b/c'), true);
    assert.equal(extensionEnabled(en(['!/a/*', '/a/b/']), 'x', '/a/b'), true);
    assert.equal(extensionEnabled({ ok: false, problem: '' }, 'x', '/a'), false);
  });
});

describe('a warm engine and the variables folder trust reads', () => {
  test('GEMINI_CLI_TRUST_WORKSPACE=false set on its live environment holds the workspace hooks back at the next event', async () => {
    const p = makeProject({ project: { hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'ws', command: 'echo {}' }] }] } } });
    const e = new HookEngine({ cwd: p.dir, env: p.env, configCheckIntervalMs: 0, onNotice: () => {} });
    const names = async () => (await e.fire('BeforeTool', { tool_name: 'x', tool_input: {} })).runs.map((r) => r.name);
    assert.deepEqual(await names(), ['ws']);
    p.env.GEMINI_CLI_TRUST_WORKSPACE = 'false';
    assert.deepEqual(await names(), []);
    delete p.env.GEMINI_CLI_TRUST_WORKSPACE;
    assert.deepEqual(await names(), ['ws']);
    e.close();
  });

  test('a trust rule naming a link: pointed elsewhere, the workspace hooks are held back at the next event; pointed back, they run', async () => {
    const p = makeProject({ project: { hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'ws', command: 'echo {}' }] }] } } });
    const link = path.join(path.dirname(p.dir), 'current');
    const other = fs.mkdtempSync(path.join(path.dirname(p.dir), 'other-'));
    fs.symlinkSync(p.dir, link);
    fs.writeFileSync(path.join(p.home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [link]: 'TRUST_FOLDER' }));
    const e = new HookEngine({ cwd: p.dir, env: p.env, configCheckIntervalMs: 0, onNotice: () => {} });
    const names = async () => (await e.fire('BeforeTool', { tool_name: 'x', tool_input: {} })).runs.map((r) => r.name);
    const point = (to: string) => {
      fs.rmSync(link);
      fs.symlinkSync(to, link);
    };
    try {
      assert.equal(e.folderTrust, 'trusted');
      assert.deepEqual(await names(), ['ws']);
      point(other);
      assert.deepEqual(await names(), [], 'the rule no longer covers the folder');
      assert.equal(e.folderTrust, 'untrusted');
      point(p.dir);
      assert.deepEqual(await names(), ['ws']);
    } finally {
      e.close();
    }
  });

  test('a DO_NOT_TRUST rule missing at load, then made a link to the folder: the workspace hooks are held back at the next event', async () => {
    const p = makeProject({ project: { hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'ws', command: 'echo {}' }] }] } } });
    const quarantine = path.join(path.dirname(p.dir), 'quarantine');
    fs.writeFileSync(
      path.join(p.home, '.gemini', 'trustedFolders.json'),
      JSON.stringify({ [fs.realpathSync(p.dir)]: 'TRUST_FOLDER', [quarantine]: 'DO_NOT_TRUST' }),
    );
    const e = new HookEngine({ cwd: p.dir, env: p.env, configCheckIntervalMs: 0, onNotice: () => {} });
    const names = async () => (await e.fire('BeforeTool', { tool_name: 'x', tool_input: {} })).runs.map((r) => r.name);
    try {
      assert.deepEqual(await names(), ['ws']);
      fs.symlinkSync(p.dir, quarantine);
      assert.deepEqual(await names(), [], 'the folder is now the quarantined one');
    } finally {
      e.close();
    }
  });

  test('a TRUST_PARENT rule through a link, its folder moved under another parent and the link pointed there: held back at the next event', async () => {
    const p = makeProject({ project: { hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'ws', command: 'echo {}' }] }] } } });
    const root = path.dirname(p.dir);
    const sibling = path.join(root, 'sibling');
    fs.mkdirSync(sibling);
    const elsewhere = fs.mkdtempSync(path.join(root, 'elsewhere-'));
    const link = path.join(root, 'current');
    fs.symlinkSync(sibling, link);
    fs.writeFileSync(path.join(p.home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [link]: 'TRUST_PARENT' }));
    const e = new HookEngine({ cwd: p.dir, env: p.env, configCheckIntervalMs: 0, onNotice: () => {} });
    const names = async () => (await e.fire('BeforeTool', { tool_name: 'x', tool_input: {} })).runs.map((r) => r.name);
    try {
      assert.deepEqual(await names(), ['ws'], "the sibling's parent covers the folder");
      const moved = path.join(elsewhere, 'sibling');
      fs.renameSync(sibling, moved);
      fs.rmSync(link);
      fs.symlinkSync(moved, link);
      assert.deepEqual(await names(), [], 'the same folder, under another parent');
    } finally {
      e.close();
    }
  });

  for (const into of ['a DO_NOT_TRUST folder', 'a folder no rule covers'])
    test(`the folder moved into ${into}, a link left at its old path: held back at the next event, as a fresh engine holds it`, async () => {
      const p = makeProject({
        name: 'w/proj',
        project: { hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'ws', command: 'echo {}' }] }] } },
      });
      const base = fs.realpathSync(path.dirname(path.dirname(p.dir)));
      const target = path.join(base, into.startsWith('a DO') ? 'quarantine' : 'elsewhere');
      fs.mkdirSync(target);
      const rules = { [path.join(base, 'w')]: 'TRUST_FOLDER', ...(into.startsWith('a DO') ? { [target]: 'DO_NOT_TRUST' } : {}) };
      fs.writeFileSync(path.join(p.home, '.gemini', 'trustedFolders.json'), JSON.stringify(rules));
      const e = new HookEngine({ cwd: p.dir, env: p.env, configCheckIntervalMs: 0, onNotice: () => {} });
      const names = async (engine: HookEngine) =>
        (await engine.fire('BeforeTool', { tool_name: 'x', tool_input: {} })).runs.map((r) => r.name);
      try {
        assert.deepEqual(await names(e), ['ws']);
        // Moved: the folder and its files keep their device, inode and times.
        fs.renameSync(p.dir, path.join(target, 'proj'));
        fs.symlinkSync(path.join(target, 'proj'), p.dir);
        const fresh = new HookEngine({ cwd: p.dir, env: p.env, onNotice: () => {} });
        assert.equal(fresh.folderTrust, 'untrusted');
        fresh.close();
        assert.deepEqual(await names(e), []);
        assert.equal(e.folderTrust, 'untrusted');
      } finally {
        e.close();
      }
    });

  test('files written in a trusted folder do not reload a warm engine: its trust rests on what the folder is, not on what is in it', async () => {
    const p = makeProject({ project: { hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'ws', command: 'echo {}' }] }] } } });
    let reloads = 0;
    const e = new HookEngine({ cwd: p.dir, env: p.env, configCheckIntervalMs: 0, onNotice: () => {} });
    const reload = e.reload.bind(e);
    e.reload = () => {
      reloads++;
      reload();
    };
    try {
      await e.fire('BeforeTool', { tool_name: 'x', tool_input: {} });
      // The trusted folder itself is among what trust rests on: files written in it are not a change of trust.
      fs.writeFileSync(path.join(p.dir, 'notes.txt'), 'x');
      fs.mkdirSync(path.join(p.dir, 'build'));
      assert.deepEqual(
        (await e.fire('BeforeTool', { tool_name: 'x', tool_input: {} })).runs.map((r) => r.name),
        ['ws'],
      );
      assert.equal(reloads, 0);
    } finally {
      e.close();
    }
  });
});
