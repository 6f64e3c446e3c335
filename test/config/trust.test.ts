import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { HookEngine } from '../../src/engine/index.js';
import { isFolderTrusted } from '../../src/trust/folders.js';
import { untrustedHooks } from '../../src/trust/fingerprints.js';
import { loadConfig } from '../../src/config/load.js';
import { projectWith, mark, write, trustAll, expectedKeys, type MarkProject } from './util.js';

const TOOL = { tool_name: 'run_shell_command', tool_input: {} };

/** A project with one workspace hook writing to its own marker, and one hook in each other layer. */
function layered(trusted: boolean): MarkProject & { wsMarker: string } {
  let wsMarker = '';
  const p = projectWith((m) => {
    wsMarker = `${m}.workspace`;
    return {
      trusted,
      project: { hooks: { BeforeTool: [{ hooks: [mark(wsMarker, 'prj')] }] } },
      user: { hooks: { BeforeTool: [{ hooks: [mark(m, 'usr')] }] } },
      system: { hooks: { BeforeTool: [{ hooks: [mark(m, 'sys')] }] } },
    };
  });
  write(path.join(p.home, '.gemini', 'extensions', 'e', 'hooks', 'hooks.json'), {
    hooks: { BeforeTool: [{ hooks: [mark(p.marker, 'ext')] }] },
  });
  return { ...p, wsMarker };
}

const folders = (p: MarkProject, rules: Record<string, string>) => write(path.join(p.home, '.gemini', 'trustedFolders.json'), rules);

describe('workspace hooks and folder trust', () => {
  test('untrusted folder: no workspace hook runs; user, system and extension hooks still do', async () => {
    const p = layered(false);
    const engine = p.engine();
    assert.equal(engine.trustedFolder, false);
    assert.deepEqual(
      engine.heldBack.map((h) => [h.entry.hook.name, h.reason]),
      [['prj', 'untrusted-folder']],
    );
    const result = await engine.fire('BeforeTool', TOOL);
    assert.equal(fs.existsSync(p.wsMarker), false, 'the workspace hook must not have run');
    assert.deepEqual(p.ran().sort(), ['ext', 'sys', 'usr']);
    assert.ok(!result.runs.some((r) => r.source === 'project'));
  });

  test('after trusting the folder and its hooks the workspace hook runs', async () => {
    const p = layered(false);
    trustAll(p);
    const engine = p.engine();
    assert.deepEqual(engine.heldBack, []);
    await engine.fire('BeforeTool', TOOL);
    assert.equal(fs.readFileSync(p.wsMarker, 'utf8'), 'prj\n');
  });

  test('a workspace hook whose command or name changed after trusting is held back; the others run', async () => {
    const p = projectWith((m) => ({
      project: { hooks: { BeforeTool: [{ hooks: [mark(m, 'stable'), mark(m, 'changing'), mark(m, 'renamed')] }] } },
    }));
    const settings = JSON.parse(fs.readFileSync(p.projectFile, 'utf8'));
    settings.hooks.BeforeTool[0].hooks[1].command += ' --now-different';
    settings.hooks.BeforeTool[0].hooks[2].name = 'renamed-2';
    write(p.projectFile, settings);
    const engine = p.engine();
    assert.equal(engine.trustedFolder, true);
    assert.deepEqual(
      engine.heldBack.map((h) => [h.entry.hook.name, h.reason]),
      [
        ['changing', 'untrusted-hook'],
        ['renamed-2', 'untrusted-hook'],
      ],
    );
    await engine.fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran(), ['stable']);
    assert.deepEqual(
      untrustedHooks(p.dir, engine.loaded.entries, p.env).map((e) => e.hook.name),
      ['changing', 'renamed-2'],
    );
    trustAll(p);
    await p.engine().fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran().sort(), ['changing', 'renamed', 'stable', 'stable'].sort());
  });

  test('GEMINI_CLI_TRUST_WORKSPACE=true runs workspace hooks in an untrusted folder and records their fingerprints', async () => {
    const p = layered(false);
    const env = { ...p.env, GEMINI_CLI_TRUST_WORKSPACE: 'true' };
    const engine = p.engine({ env });
    assert.equal(engine.trustedFolder, true);
    // Loading writes nothing: the hooks are recorded when they are about to run.
    assert.deepEqual(engine.pendingWarnings, []);
    assert.notDeepEqual(untrustedHooks(p.dir, engine.loaded.entries, p.env), []);
    await engine.fire('BeforeTool', TOOL);
    assert.match(engine.pendingWarnings.join('\n'), /new or changed workspace hooks.*\n\s+- prj/);
    assert.equal(fs.readFileSync(p.wsMarker, 'utf8'), 'prj\n');
    assert.deepEqual(untrustedHooks(p.dir, engine.loaded.entries, p.env), [], 'fingerprints were recorded');
    // Recorded, so a second session has nothing new to warn about.
    const again = p.engine({ env });
    await again.fire('BeforeTool', TOOL);
    assert.deepEqual(again.pendingWarnings, []);
  });

  test('GEMINI_CLI_TRUST_WORKSPACE=false holds workspace hooks back even in a trusted folder', async () => {
    const p = layered(true);
    const engine = p.engine({ env: { ...p.env, GEMINI_CLI_TRUST_WORKSPACE: 'false' } });
    assert.equal(engine.trustedFolder, false);
    await engine.fire('BeforeTool', TOOL);
    assert.equal(fs.existsSync(p.wsMarker), false);
    assert.deepEqual(p.ran().sort(), ['ext', 'sys', 'usr']);
  });

  test('a running engine notices the folder being trusted, and trust being taken back', async () => {
    const p = layered(false);
    const engine = new HookEngine({ cwd: p.dir, env: p.env, configCheckIntervalMs: 0 });
    await engine.fire('BeforeTool', TOOL);
    assert.equal(fs.existsSync(p.wsMarker), false);
    trustAll(p);
    await engine.fire('BeforeTool', TOOL);
    assert.equal(fs.readFileSync(p.wsMarker, 'utf8'), 'prj\n');
    folders(p, { [fs.realpathSync(p.dir)]: 'DO_NOT_TRUST' });
    await engine.fire('BeforeTool', TOOL);
    assert.equal(fs.readFileSync(p.wsMarker, 'utf8'), 'prj\n', 'no second run after trust was withdrawn');
  });

  test('a project opened through a symlink matches the fingerprints recorded for its real path', async () => {
    let ws = '';
    const p = projectWith(
      (m) => ((ws = `${m}.ws`), { trusted: false, project: { hooks: { BeforeTool: [{ hooks: [mark(ws, 'prj')] }] } } }),
    );
    const real = fs.realpathSync(p.dir);
    trustAll({ ...p, dir: real });
    const link = path.join(path.dirname(real), 'link');
    fs.symlinkSync(real, link);
    const engine = new HookEngine({ cwd: link, env: p.env, watchConfig: false });
    assert.deepEqual(engine.heldBack, []);
    await engine.fire('BeforeTool', TOOL);
    assert.equal(fs.readFileSync(ws, 'utf8'), 'prj\n');
  });

  test('runtime hooks are never fingerprinted', async () => {
    const p = layered(false);
    trustAll(p);
    const engine = p.engine();
    engine.register({ event: 'BeforeTool', name: 'rt', action: () => undefined });
    await engine.fire('BeforeTool', TOOL);
    const recorded: Record<string, string[]> = JSON.parse(fs.readFileSync(path.join(p.home, '.gemini', 'trusted_hooks.json'), 'utf8'));
    assert.ok(
      !Object.values(recorded)
        .flat()
        .some((k) => k.startsWith('rt:')),
    );
    assert.deepEqual(recorded[p.dir], expectedKeys(p));
    assert.equal(recorded[p.dir][1], `prj:${mark(p.wsMarker, 'prj').command}`);
  });
});

describe('trustedFolders.json rules', () => {
  const setup = () => {
    const p = projectWith(() => ({ trusted: false }));
    const base = fs.realpathSync(path.dirname(p.dir));
    const inside = path.join(p.dir, 'deep', 'er');
    fs.mkdirSync(inside, { recursive: true });
    return { p, base, project: fs.realpathSync(p.dir), inside };
  };

  test('no rule: not trusted', () => {
    const { p } = setup();
    assert.equal(isFolderTrusted(p.dir, p.env), false);
  });

  test('TRUST_FOLDER trusts the folder and everything below, not a sibling sharing its prefix', () => {
    const { p, project, inside } = setup();
    fs.mkdirSync(`${project}-other`);
    folders(p, { [project]: 'TRUST_FOLDER' });
    assert.equal(isFolderTrusted(project, p.env), true);
    assert.equal(isFolderTrusted(inside, p.env), true);
    assert.equal(isFolderTrusted(`${project}-other`, p.env), false);
    assert.equal(isFolderTrusted(path.dirname(project), p.env), false);
  });

  test('TRUST_PARENT trusts the parent of the rule path (and so its siblings)', () => {
    const { p, base, project } = setup();
    const sibling = path.join(base, 'sibling');
    fs.mkdirSync(sibling);
    folders(p, { [sibling]: 'TRUST_PARENT' });
    assert.equal(isFolderTrusted(project, p.env), true);
    assert.equal(isFolderTrusted(base, p.env), true);
    assert.equal(isFolderTrusted(path.dirname(base), p.env), false);
  });

  test('DO_NOT_TRUST inside a trusted parent wins for its own tree only', () => {
    const { p, base, project, inside } = setup();
    const other = path.join(base, 'other');
    fs.mkdirSync(other);
    folders(p, { [base]: 'TRUST_FOLDER', [project]: 'DO_NOT_TRUST' });
    assert.equal(isFolderTrusted(project, p.env), false);
    assert.equal(isFolderTrusted(inside, p.env), false);
    assert.equal(isFolderTrusted(other, p.env), true);
  });

  test('the longest matching rule wins, whichever order the rules are written in', () => {
    const { p, base, project, inside } = setup();
    folders(p, { [inside]: 'TRUST_FOLDER', [base]: 'DO_NOT_TRUST', [project]: 'DO_NOT_TRUST' });
    assert.equal(isFolderTrusted(inside, p.env), true);
    assert.equal(isFolderTrusted(project, p.env), false);
    folders(p, { [base]: 'DO_NOT_TRUST', [path.join(project, 'x')]: 'TRUST_PARENT' });
    assert.equal(isFolderTrusted(project, p.env), true, 'TRUST_PARENT of project/x covers project');
    assert.equal(isFolderTrusted(base, p.env), false);
  });

  test('a DO_NOT_TRUST rule stops workspace hooks of a project under a trusted parent', async () => {
    let ws = '';
    const p = projectWith(
      (m) => ((ws = `${m}.ws`), { trusted: false, project: { hooks: { BeforeTool: [{ hooks: [mark(ws, 'prj')] }] } } }),
    );
    trustAll(p);
    const base = fs.realpathSync(path.dirname(p.dir));
    folders(p, { [base]: 'TRUST_FOLDER', [fs.realpathSync(p.dir)]: 'DO_NOT_TRUST' });
    await p.engine().fire('BeforeTool', TOOL);
    assert.equal(fs.existsSync(ws), false);
    folders(p, { [base]: 'TRUST_FOLDER' });
    await p.engine().fire('BeforeTool', TOOL);
    assert.equal(fs.existsSync(ws), true, 'trusted through the parent rule');
  });

  test('trustedFolders.json may hold comments; an unreadable one trusts nothing', () => {
    const { p, project } = setup();
    write(path.join(p.home, '.gemini', 'trustedFolders.json'), `{\n  // mine\n  ${JSON.stringify(project)}: "TRUST_FOLDER"\n}`);
    assert.equal(isFolderTrusted(project, p.env), true);
    write(path.join(p.home, '.gemini', 'trustedFolders.json'), `{ ${JSON.stringify(project)}: "TRUST_FOLDER", }`);
    assert.equal(isFolderTrusted(project, p.env), false);
    write(path.join(p.home, '.gemini', 'trustedFolders.json'), `{ ${JSON.stringify(project)}: "YES" }`);
    assert.equal(isFolderTrusted(project, p.env), false);
  });

  test('the folder check follows symlinks to the real folder', () => {
    const { p, base, project } = setup();
    const link = path.join(base, 'link');
    fs.symlinkSync(project, link);
    folders(p, { [project]: 'TRUST_FOLDER' });
    assert.equal(isFolderTrusted(link, p.env), true);
    folders(p, { [link]: 'DO_NOT_TRUST', [base]: 'TRUST_FOLDER' });
    assert.equal(isFolderTrusted(project, p.env), false);
  });

  test('loadConfig entries keep the project hooks for the trust check regardless of trust', () => {
    const p = projectWith((m) => ({ trusted: false, project: { hooks: { AfterTool: [{ hooks: [mark(m, 'x')] }] } } }));
    assert.deepEqual(
      untrustedHooks(p.dir, loadConfig({ projectDir: p.dir, env: p.env }).entries, p.env).map((e) => e.hook.name),
      ['x'],
    );
  });
});
