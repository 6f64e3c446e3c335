import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configOwner } from '../../src/trust/owner.js';
import { mmConfigOwners } from '../../src/dialects/mm/system.js';

function layout() {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-owner-')));
  const project = path.join(base, 'project');
  const other = path.join(base, 'other-clone');
  const home = path.join(base, 'home');
  for (const d of [project, other, path.join(home, '.gemini'), path.join(home, '.claude')]) fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(project, 'helper.yaml'), '');
  fs.writeFileSync(path.join(other, 'x.yaml'), '');
  fs.writeFileSync(path.join(home, '.gemini', 'mine.yaml'), '');
  const env = { HOME: home, GEMINI_CLI_HOME: home };
  return { base, project, other, home, env };
}

describe('configOwner decides on real paths', () => {
  test('inside the project, however it is spelled, is workspace configuration', () => {
    const l = layout();
    const o = (file: string) => configOwner(file, { projectDir: l.project, env: l.env });
    assert.equal(o(path.join(l.project, 'helper.yaml')), 'workspace');
    assert.equal(o(path.join(l.other, '..', 'project', 'helper.yaml')), 'workspace');
    const link = path.join(l.base, 'link.yaml');
    fs.symlinkSync(path.join(l.project, 'helper.yaml'), link);
    assert.equal(o(link), 'workspace', 'a symlink into the project');
    assert.equal(
      configOwner(link, { projectDir: l.project, referrer: 'user', env: l.env }),
      'workspace',
      "even when the user's file points at it",
    );
    const inLink = path.join(l.project, 'escape.yaml');
    fs.symlinkSync(path.join(l.other, 'x.yaml'), inLink);
    assert.equal(configOwner(inLink, { projectDir: l.project, referrer: 'user', env: l.env }), 'workspace', 'a project path pointing out');
  });

  test('/proc/self/cwd resolves to the folder the process runs in', { skip: !fs.existsSync('/proc/self/cwd') }, () => {
    const l = layout();
    const cwd = process.cwd();
    process.chdir(l.project);
    try {
      assert.equal(configOwner('/proc/self/cwd/helper.yaml', { projectDir: l.project, referrer: 'user', env: l.env }), 'workspace');
    } finally {
      process.chdir(cwd);
    }
  });

  test("outside every workspace: the user's only when named, in the config home, or pointed at by the user's own file", () => {
    const l = layout();
    const x = path.join(l.other, 'x.yaml');
    assert.equal(configOwner(x, { projectDir: l.project, env: l.env }), 'workspace');
    assert.equal(configOwner(path.join(l.project, '..', 'other-clone', 'x.yaml'), { projectDir: l.project, env: l.env }), 'workspace');
    assert.equal(configOwner(x, { projectDir: l.project, named: true, env: l.env }), 'user');
    assert.equal(configOwner(x, { projectDir: l.project, referrer: 'user', env: l.env }), 'user');
    assert.equal(configOwner(path.join(l.home, '.gemini', 'mine.yaml'), { projectDir: l.project, env: l.env }), 'user');
    assert.equal(configOwner(path.join(l.home, '.gemini', 'missing', 'x.yaml'), { projectDir: l.project, env: l.env }), 'user');
  });

  test("mmConfigs: agents a workspace file points at are the workspace's, through any number of hops", () => {
    const l = layout();
    fs.writeFileSync(
      path.join(l.project, 'agent.yaml'),
      `mmConfigs:\n  a: ../other-clone/x.yaml\n  b: ${path.join(l.home, '.gemini', 'mine.yaml')}\n`,
    );
    fs.writeFileSync(path.join(l.other, 'x.yaml'), `mmConfigs:\n  c: ./y.yaml\n`);
    fs.writeFileSync(path.join(l.other, 'y.yaml'), '');
    const owners = mmConfigOwners(path.join(l.project, 'agent.yaml'), 'workspace', l.project, l.env);
    assert.deepEqual(Object.fromEntries(owners), {
      [path.join(l.project, 'agent.yaml')]: 'workspace',
      [path.join(l.other, 'x.yaml')]: 'workspace',
      [path.join(l.home, '.gemini', 'mine.yaml')]: 'user',
      [path.join(l.other, 'y.yaml')]: 'workspace',
    });
    // From the user's own (named) file, a file outside the project stays the user's; one inside does not.
    const mine = path.join(l.home, '.gemini', 'mine.yaml');
    fs.writeFileSync(mine, `mmConfigs:\n  a: ${path.join(l.other, 'x.yaml')}\n  h: ${path.join(l.project, 'helper.yaml')}\n`);
    const fromUser = mmConfigOwners(mine, 'user', l.project, l.env);
    assert.equal(fromUser.get(path.join(l.other, 'x.yaml')), 'user');
    assert.equal(fromUser.get(path.join(l.project, 'helper.yaml')), 'workspace');
  });
});
