import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { HookEngine } from '../../src/engine/index.js';
import { loadConfig } from '../../src/config/load.js';
import { projectWith, mark, write, ranFrom, expectedKeys } from './util.js';
import { cmd, makeProject } from '../helpers.js';

const TOOL = { tool_name: 'run_shell_command', tool_input: {} };

describe('sources', () => {
  test('priority is runtime > project > user > system > extensions, and each hook keeps its real source and file', async () => {
    let extFile = '';
    const p = projectWith((m) => ({
      system: { hooks: { BeforeTool: [{ hooks: [mark(m, 'sys')] }] } },
      user: { hooks: { BeforeTool: [{ hooks: [mark(m, 'usr')] }] } },
      project: { hooks: { BeforeTool: [{ sequential: true, hooks: [mark(m, 'prj')] }] } },
    }));
    extFile = path.join(p.home, '.gemini', 'extensions', 'audit', 'hooks', 'hooks.json');
    write(extFile, { hooks: { BeforeTool: [{ hooks: [mark(p.marker, 'ext')] }] } });
    const engine = p.engine();
    engine.register({ event: 'BeforeTool', name: 'rt', action: () => void fs.appendFileSync(p.marker, 'rt\n') });
    const result = await engine.fire('BeforeTool', TOOL);
    assert.equal(result.sequential, true);
    // Sequential: the hooks ran one after the other in priority order.
    assert.deepEqual(p.ran(), ['rt', 'prj', 'usr', 'sys', 'ext']);
    assert.deepEqual(
      result.runs.map((r) => [r.name, r.source, r.file]),
      [
        ['rt', 'runtime', undefined],
        ['prj', 'project', p.projectFile],
        ['usr', 'user', p.userFile],
        ['sys', 'system', p.systemFile],
        ['ext', 'extensions', extFile],
      ],
    );
    const ext = engine.hooks().find((e) => e.source === 'extensions');
    assert.equal(ext?.extension, 'audit');
  });

  test('the same name:command in two layers runs once, from the higher layer', async () => {
    const p = projectWith((m) => ({
      user: { hooks: { BeforeTool: [{ hooks: [mark(m, 'same')] }] } },
      project: { hooks: { BeforeTool: [{ hooks: [mark(m, 'same')] }] } },
    }));
    const result = await p.engine().fire('BeforeTool', TOOL);
    assert.deepEqual(
      result.runs.map((r) => r.source),
      ['project'],
    );
    assert.deepEqual(p.ran(), ['same']);
  });

  test('extensions: hooks/hooks.json loads, labelled with the extension; a manifest\'s own "hooks" does not (as in Gemini CLI)', async () => {
    const p = projectWith(() => ({}));
    const a = path.join(p.home, '.gemini', 'extensions', 'alpha', 'hooks', 'hooks.json');
    const b = path.join(p.home, '.gemini', 'extensions', 'beta', 'gemini-extension.json');
    write(a, { hooks: { AfterTool: [{ matcher: 'write_file', hooks: [mark(p.marker, 'alpha')] }] } });
    write(b, { name: 'beta', version: '1.0.0', hooks: { AfterTool: [{ hooks: [mark(p.marker, 'beta')] }] } });
    const engine = p.engine();
    assert.deepEqual(engine.problems, []);
    assert.deepEqual(
      engine.hooks().map((e) => [e.hook.name, e.source, e.extension, e.file]),
      [['alpha', 'extensions', 'alpha', a]],
    );
    await engine.fire('AfterTool', { tool_name: 'write_file', tool_input: {}, tool_response: {} });
    assert.deepEqual(p.ran(), ['alpha']);
  });

  test('an extension installed with `gemini extensions link` is read from the linked folder, ${extensionPath} too', async () => {
    const p = projectWith(() => ({}));
    const source = path.join(path.dirname(p.dir), 'ext source');
    const installed = path.join(p.home, '.gemini', 'extensions', 'linked');
    write(path.join(source, 'gemini-extension.json'), { name: 'linked', version: '1.0.0' });
    write(path.join(source, 'hooks', 'hooks.json'), {
      hooks: {
        AfterTool: [{ hooks: [{ type: 'command', name: 'where', command: `printf '%s\\n' "\${extensionPath}" >> '${p.marker}'` }] }],
      },
    });
    write(path.join(installed, '.gemini-extension-install.json'), { source, type: 'link' });
    const engine = p.engine();
    assert.deepEqual(engine.problems, []);
    assert.deepEqual(
      engine.hooks().map((e) => [e.hook.name, e.extension, e.file]),
      [['where', 'linked', path.join(source, 'hooks', 'hooks.json')]],
    );
    await engine.fire('AfterTool', { tool_name: 'write_file', tool_input: {}, tool_response: {} });
    assert.deepEqual(p.ran(), [source]);
  });

  test('an extension with a broken hooks file is reported against that file', () => {
    const p = projectWith(() => ({}));
    const f = path.join(p.home, '.gemini', 'extensions', 'broken', 'hooks', 'hooks.json');
    write(f, { hooks: { BeforeTool: [{ hooks: [{ type: 'command' }] }] } });
    const [problem] = p.engine().problems;
    assert.equal(problem.file, f);
    assert.equal(problem.path, 'hooks.BeforeTool[0].hooks[0].command');
  });

  test('a project opened at the home folder reads its settings once, as user settings', async () => {
    const p = makeProject({});
    const marker = path.join(path.dirname(p.dir), 'ran.txt');
    write(path.join(p.home, '.gemini', 'settings.json'), { hooks: { BeforeTool: [{ hooks: [mark(marker, 'home')] }] } });
    fs.rmSync(path.join(p.home, '.gemini', 'trustedFolders.json'));
    const config = loadConfig({ projectDir: p.home, env: p.env });
    assert.equal(config.files.filter((f) => f.file === path.join(p.home, '.gemini', 'settings.json')).length, 1);
    assert.ok(!config.files.some((f) => f.source === 'project'));
    assert.deepEqual(
      config.entries.map((e) => e.source),
      ['user'],
    );
    // Not held back as a workspace hook even though the home folder is not trusted.
    const engine = new HookEngine({ cwd: p.home, env: p.env, watchConfig: false });
    assert.equal(engine.hooks().length, 1);
    await engine.fire('BeforeTool', TOOL);
    assert.deepEqual(ranFrom(marker), ['home']);
  });

  test('the workspace settings are read from <cwd>/.gemini only, not from a parent folder', () => {
    const p = projectWith((m) => ({ project: { hooks: { BeforeTool: [{ hooks: [mark(m, 'parent')] }] } } }));
    const sub = path.join(p.dir, 'sub');
    fs.mkdirSync(sub);
    assert.deepEqual(loadConfig({ projectDir: sub, env: p.env }).entries, []);
  });
});

describe('disabling', () => {
  test('hooksConfig.disabled is a union over layers, matched exactly on name or else command', async () => {
    let unnamed = '';
    const p = projectWith((m) => {
      unnamed = mark(m, 'unnamed').command as string;
      return {
        project: {
          hooksConfig: { disabled: ['a'] },
          hooks: { BeforeTool: [{ hooks: [mark(m, 'a'), mark(m, 'b'), cmd(unnamed), mark(m, 'good'), mark(m, 'named')] }] },
        },
        user: { hooksConfig: { disabled: ['b', 'goo', 'GOOD'] } },
        // By command: disables the unnamed hook; a named hook is matched by its name only.
        system: { hooksConfig: { disabled: [unnamed, mark(m, 'named').command] } },
      };
    });
    const engine = p.engine();
    assert.deepEqual(
      engine.hooks().map((e) => [e.hook.name ?? 'unnamed', e.enabled]),
      [
        ['a', false],
        ['b', false],
        ['unnamed', false],
        ['good', true],
        ['named', true],
      ],
    );
    await engine.fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran().sort(), ['good', 'named']);
  });

  test('hooksConfig.enabled: false turns every settings hook off (runtime hooks still run)', async () => {
    const p = projectWith((m) => ({
      user: { hooksConfig: { enabled: false }, hooks: { BeforeTool: [{ hooks: [mark(m, 'usr')] }] } },
      project: { hooks: { BeforeTool: [{ hooks: [mark(m, 'prj')] }] } },
      system: { hooks: { BeforeTool: [{ hooks: [mark(m, 'sys')] }] } },
    }));
    const engine = p.engine();
    assert.equal(engine.loaded.hooksEnabled, false);
    let runtimeRan = false;
    engine.register({ event: 'BeforeTool', name: 'rt', action: () => void (runtimeRan = true) });
    const result = await engine.fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran(), []);
    assert.equal(runtimeRan, true);
    assert.deepEqual(
      result.runs.map((r) => r.name),
      ['rt'],
    );
  });
});

describe('security settings come from user and system settings only', () => {
  test('a project cannot turn folder trust off for itself', async () => {
    const p = projectWith((m) => ({
      trusted: false,
      project: { security: { folderTrust: { enabled: false } }, hooks: { BeforeTool: [{ hooks: [mark(m, 'prj')] }] } },
      user: { hooks: { BeforeTool: [{ hooks: [mark(m, 'usr')] }] } },
    }));
    const engine = p.engine();
    assert.equal(engine.loaded.folderTrustEnabled, true);
    assert.equal(engine.trustedFolder, false);
    await engine.fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran(), ['usr']);
  });

  for (const layer of ['user', 'system'] as const) {
    test(`folder trust turned off in ${layer} settings lets workspace hooks run and records them`, async () => {
      const p = projectWith((m) => ({
        trusted: false,
        project: { hooks: { BeforeTool: [{ hooks: [mark(m, 'prj')] }] } },
        [layer]: { security: { folderTrust: { enabled: false } } },
      }));
      const engine = p.engine();
      assert.equal(engine.trustedFolder, true);
      await engine.fire('BeforeTool', TOOL);
      assert.deepEqual(p.ran(), ['prj']);
      const recorded = JSON.parse(fs.readFileSync(path.join(p.home, '.gemini', 'trusted_hooks.json'), 'utf8'));
      assert.deepEqual(recorded[p.dir], expectedKeys(p));
      assert.equal(recorded[p.dir][1], `prj:${mark(p.marker, 'prj').command}`);
    });
  }

  const secretHook = (m: string) => cmd(`printf '%s\\n' "\${HL_TEST_API_TOKEN:-removed}" >> '${m}'`);

  test('a project cannot turn environment redaction off or allow a secret', async () => {
    const p = projectWith((m) => ({
      project: {
        security: { environmentVariableRedaction: { enabled: false, allowed: ['HL_TEST_API_TOKEN'] } },
        hooks: { BeforeTool: [{ hooks: [secretHook(m)] }] },
      },
    }));
    const engine = p.engine({ env: { ...p.env, HL_TEST_API_TOKEN: 'shh' } });
    assert.equal(engine.loaded.redaction.enabled, true);
    await engine.fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran(), ['removed']);
  });

  test('user settings can turn redaction off', async () => {
    const p = projectWith((m) => ({
      user: { security: { environmentVariableRedaction: { enabled: false } }, hooks: { BeforeTool: [{ hooks: [secretHook(m)] }] } },
    }));
    await p.engine({ env: { ...p.env, HL_TEST_API_TOKEN: 'shh' } }).fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran(), ['shh']);
  });
});

describe('reloading', () => {
  test('an engine with the default watchConfig re-reads a settings file that changed', async () => {
    const p = projectWith((m) => ({ user: { hooks: { BeforeTool: [{ hooks: [mark(m, 'first')] }] } } }));
    const engine = new HookEngine({ cwd: p.dir, env: p.env, configCheckIntervalMs: 0 });
    await engine.fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran(), ['first']);
    write(p.userFile, { hooks: { BeforeTool: [{ hooks: [mark(p.marker, 'second-hook')] }] } });
    await engine.fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran(), ['first', 'second-hook']);
  });

  test('a settings file that appears later is picked up, and one that breaks is reported', async () => {
    const p = projectWith(() => ({}));
    const engine = new HookEngine({ cwd: p.dir, env: p.env, configCheckIntervalMs: 0 });
    await engine.fire('BeforeTool', TOOL);
    write(p.systemFile, { hooks: { BeforeTool: [{ hooks: [mark(p.marker, 'late')] }] } });
    await engine.fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran(), ['late']);
    write(p.systemFile, '{ "hooks": ');
    await engine.fire('BeforeTool', TOOL);
    assert.equal(engine.problems[0]?.file, p.systemFile);
    assert.deepEqual(p.ran(), ['late']);
  });

  test('watchConfig: false keeps the configuration it started with', async () => {
    const p = projectWith(() => ({}));
    const engine = p.engine({ watchConfig: false });
    write(p.userFile, { hooks: { BeforeTool: [{ hooks: [mark(p.marker, 'unseen')] }] } });
    await engine.fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran(), []);
  });
});
