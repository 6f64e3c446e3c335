import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers.js';
import { projectWith, mark, write, expectedKeys, type MarkProject } from '../config/util.js';
import { parseJsonc } from '../../src/config/jsonc.js';

/** An untrusted project with two workspace hooks writing to a marker of their own. */
function workspace(): MarkProject & { ws: string; ran: () => string[] } {
  let ws = '';
  const p = projectWith((m) => {
    ws = `${m}.ws`;
    return { trusted: false, project: { hooks: { BeforeTool: [{ matcher: 'run_shell', hooks: [mark(ws, 'guard'), mark(ws, 'lint')] }] } } };
  });
  return { ...p, ws, ran: () => (fs.existsSync(ws) ? fs.readFileSync(ws, 'utf8').split('\n').filter(Boolean) : []) };
}

const TOOL = { tool_name: 'run_shell_command', tool_input: {} };
const fire = (p: MarkProject) =>
  runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--input', '-'], { env: p.env, input: JSON.stringify(TOOL) });
/** In process: a fresh engine sees what the trust command wrote (fast next to a CLI run). */
const fireHere = (p: MarkProject) => p.engine().fire('BeforeTool', TOOL);
const readJson = (f: string) => JSON.parse(fs.readFileSync(f, 'utf8'));

describe('hookline trust', () => {
  test('untrusted: hooks do not run; `trust DIR` records the folder and the hooks; then they run', async () => {
    const p = workspace();
    let r = await fire(p);
    assert.equal(r.code, 0);
    assert.equal(fs.existsSync(p.ws), false);
    assert.match(r.stderr, /is not a trusted folder/);

    r = await runCli(['trust', p.dir], { env: p.env });
    assert.equal(r.code, 0, r.stderr);
    const guard = mark(p.ws, 'guard').command;
    assert.equal(
      r.stdout,
      `trusted folder ${p.dir}\ntrusted 2 new or changed hook(s):\n  - guard (BeforeTool run_shell): ${guard}\n  - lint (BeforeTool run_shell): ${mark(p.ws, 'lint').command}\n`,
    );
    assert.deepEqual(readJson(path.join(p.home, '.gemini', 'trustedFolders.json')), { [fs.realpathSync(p.dir)]: 'TRUST_FOLDER' });
    const recorded = readJson(path.join(p.home, '.gemini', 'trusted_hooks.json'))[p.dir];
    assert.deepEqual(recorded, expectedKeys(p));
    assert.deepEqual([recorded[1], recorded[3]], [`guard:${guard}`, `lint:${mark(p.ws, 'lint').command}`]);

    r = await fire(p);
    assert.equal(r.code, 0);
    assert.equal(r.stderr, '');
    assert.deepEqual(p.ran().sort(), ['guard', 'lint']);
  });

  test('a command changed after trusting is held back, listed by `trust --check` (exit 1), and runs once trusted again', async () => {
    const p = workspace();
    await runCli(['trust', p.dir], { env: p.env });
    const settings = readJson(p.projectFile);
    settings.hooks.BeforeTool[0].hooks[1].command = `${mark(p.ws, 'lint2').command}`;
    write(p.projectFile, settings);

    let r = await fire(p);
    assert.equal(r.code, 0);
    assert.deepEqual(p.ran(), ['guard'], 'the changed hook did not run');
    assert.match(
      r.stderr,
      /held back until trusted \(run: hookline trust "[^"]+"\):\n\s+- lint \(BeforeTool, hooks\.BeforeTool\[0\]\.hooks\[1\]\)/,
    );

    r = await runCli(['trust', '--check', p.dir], { env: p.env });
    assert.equal(r.code, 1);
    assert.equal(
      r.stdout,
      `${p.dir}: folder trusted\nuntrusted or changed hooks:\n  - lint (BeforeTool run_shell): ${mark(p.ws, 'lint2').command}: command was ${JSON.stringify(mark(p.ws, 'lint').command)}\n`,
    );

    r = await runCli(['trust'], { env: p.env, cwd: p.dir });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /trusted 1 new or changed hook\(s\):\n\s+- lint /);
    assert.equal((await runCli(['trust', '--check', p.dir], { env: p.env })).code, 0);
    await fireHere(p);
    assert.deepEqual(p.ran().sort(), ['guard', 'guard', 'lint2']);
  });

  test('`trust --check` on a trusted folder with nothing new exits 0 and changes nothing', async () => {
    const p = workspace();
    await runCli(['trust', p.dir], { env: p.env });
    const before = fs.readFileSync(path.join(p.home, '.gemini', 'trusted_hooks.json'), 'utf8');
    const r = await runCli(['trust', '--check', p.dir], { env: p.env });
    assert.equal(r.code, 0);
    assert.equal(r.stdout, `${p.dir}: folder trusted\nevery workspace hook is trusted\n`);
    assert.equal(fs.readFileSync(path.join(p.home, '.gemini', 'trusted_hooks.json'), 'utf8'), before);
  });

  test('`trust --check` on an untrusted folder exits 1 and writes nothing', async () => {
    const p = workspace();
    const r = await runCli(['trust', '--check', p.dir], { env: p.env });
    assert.equal(r.code, 1);
    assert.match(r.stdout, /folder not trusted\nuntrusted or changed hooks:\n\s+- guard/);
    assert.equal(fs.existsSync(path.join(p.home, '.gemini', 'trustedFolders.json')), false);
    assert.equal(fs.existsSync(path.join(p.home, '.gemini', 'trusted_hooks.json')), false);
    await fireHere(p);
    assert.equal(fs.existsSync(p.ws), false);
  });

  test('trust keeps the other rules and the comments in trustedFolders.json', async () => {
    const p = workspace();
    const other = path.join(path.dirname(p.dir), 'elsewhere');
    const file = path.join(p.home, '.gemini', 'trustedFolders.json');
    write(file, `{\n  // never this one\n  ${JSON.stringify(other)}: "DO_NOT_TRUST"\n}\n`);
    assert.equal((await runCli(['trust', p.dir], { env: p.env })).code, 0);
    const text = fs.readFileSync(file, 'utf8');
    assert.match(text, /\/\/ never this one/);
    assert.deepEqual(parseJsonc(text), { ok: true, value: { [other]: 'DO_NOT_TRUST', [fs.realpathSync(p.dir)]: 'TRUST_FOLDER' } });
  });

  test('an unreadable trusted_hooks.json is reported in one line and not overwritten', async () => {
    const p = workspace();
    const file = path.join(p.home, '.gemini', 'trusted_hooks.json');
    write(file, '{ "/elsewhere": ["a:b"], ');
    const r = await runCli(['trust', p.dir], { env: p.env });
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `hookline: ${file}: invalid JSON at line 1, column 26: unexpected end of input, expected a double-quoted property name; fix or remove it, nothing was trusted\n`,
    );
    assert.equal(fs.readFileSync(file, 'utf8'), '{ "/elsewhere": ["a:b"], ');
  });

  test('an unreadable trustedFolders.json is reported and not overwritten; the folder stays untrusted', async () => {
    const p = workspace();
    const file = path.join(p.home, '.gemini', 'trustedFolders.json');
    write(file, '["/x"]');
    const r = await runCli(['trust', p.dir], { env: p.env });
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `hookline: ${file}: must be a JSON object; fix or remove it, nothing was trusted\n`);
    assert.equal(fs.readFileSync(file, 'utf8'), '["/x"]');
    await fireHere(p);
    assert.equal(fs.existsSync(p.ws), false);
  });

  test('a broken trust file is named when hooks are fired or listed, not only by hookline trust', async () => {
    const p = workspace();
    assert.equal((await runCli(['trust', p.dir], { env: p.env })).code, 0);
    const file = path.join(p.home, '.gemini', 'trustedFolders.json');
    write(file, `{ ${JSON.stringify(p.dir)}: "TRUST_FOLDER", }`);
    for (const args of [
      ['fire', 'BeforeTool', '--cwd', p.dir],
      ['list', '--cwd', p.dir],
    ]) {
      const r = await runCli(args, { env: p.env });
      assert.ok(
        r.stderr.includes(`hookline: error: ${file}: invalid JSON`) &&
          r.stderr.includes('nothing in it counts as trusted — fix or remove it'),
        r.stderr,
      );
    }
  });

  test('a folder that does not exist is a usage error', async () => {
    const p = workspace();
    const r = await runCli(['trust', path.join(p.dir, 'nope')], { env: p.env });
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `hookline: ${path.join(p.dir, 'nope')}: no such folder — check the path\n`);
    assert.equal(fs.existsSync(path.join(p.home, '.gemini', 'trustedFolders.json')), false);
  });

  test('GEMINI_CLI_TRUST_WORKSPACE=true: the hooks run in an untrusted folder and are recorded', async () => {
    const p = workspace();
    const env = { ...p.env, GEMINI_CLI_TRUST_WORKSPACE: 'true' };
    const r = await runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--input', '-'], {
      env,
      input: '{"tool_name":"run_shell_command","tool_input":{}}',
    });
    assert.equal(r.code, 0);
    assert.deepEqual(p.ran().sort(), ['guard', 'lint']);
    assert.match(r.stderr, /new or changed workspace hooks in .* \(they will run\)/);
    assert.equal(readJson(path.join(p.home, '.gemini', 'trusted_hooks.json'))[p.dir].length, 4);
  });
});
