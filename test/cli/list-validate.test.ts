import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers.js';
import { projectWith, mark, write } from '../config/util.js';

/** BeforeTool×2 (project, user), AfterTool×1 (system), one disabled BeforeAgent hook. */
const mixed = () =>
  projectWith((m) => ({
    project: {
      hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [mark(m, 'guard')] }], BeforeAgent: [{ hooks: [mark(m, 'off')] }] },
    },
    user: { hooksConfig: { disabled: ['off'] }, hooks: { BeforeTool: [{ hooks: [mark(m, 'audit')] }] } },
    system: { hooks: { AfterTool: [{ matcher: 'write_.*', hooks: [mark(m, 'post')] }] } },
  }));

const cells = (line: string) => line.trim().split(/\s{2,}/);

describe('hookline list', () => {
  test('from a subfolder of a project: the folder above with project settings is named, with the --cwd that lists it', async () => {
    const p = mixed();
    const sub = path.join(p.dir, 'src', 'deep');
    fs.mkdirSync(sub, { recursive: true });
    const r = await runCli(['list', '--cwd', sub], { env: p.env });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(
      r.stdout.includes(
        `note: ${p.dir} has project hook settings (.gemini/settings.json); they are read from the folder an agent starts in — run there, or add --cwd ${p.dir}\n`,
      ),
      r.stdout,
    );
    assert.doesNotMatch((await runCli(['list', '--cwd', p.dir], { env: p.env })).stdout, /^note: /m);
  });

  test('prints one row per hook with event, matcher, name, source, state and trust, then the summary', async () => {
    const p = mixed();
    const r = await runCli(['list', '--cwd', p.dir], { env: p.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const lines = r.stdout.trimEnd().split('\n');
    assert.deepEqual(cells(lines[0]), ['EVENT', 'MATCHER', 'NAME', 'SOURCE', 'STATE', 'TRUST']);
    assert.deepEqual(lines.slice(1, -1).map(cells), [
      ['BeforeTool', 'run_shell_command', 'guard', 'project', 'enabled', 'trusted'],
      ['BeforeAgent', '*', 'off', 'project', 'disabled', 'trusted'],
      ['BeforeTool', '*', 'audit', 'user', 'enabled', 'trusted'],
      ['AfterTool', 'write_.*', 'post', 'system', 'enabled', 'trusted'],
    ]);
    assert.equal(lines.at(-1), 'hooks: BeforeTool×2 AfterTool×1 — not counted: 1 disabled');
  });

  test('--json gives every field and the same summary', async () => {
    const p = mixed();
    const r = await runCli(['list', '--json', '--cwd', p.dir], { env: p.env });
    assert.equal(r.code, 0);
    const out = r.json();
    assert.equal(out.summary, 'hooks: BeforeTool×2 AfterTool×1 — not counted: 1 disabled');
    assert.deepEqual(out.hooks[0], {
      event: 'BeforeTool',
      matcher: 'run_shell_command',
      name: 'guard',
      command: mark(p.marker, 'guard').command,
      source: 'project',
      file: p.projectFile,
      enabled: true,
      trusted: true,
      details: [],
      reads: [],
    });
    assert.deepEqual(
      out.hooks.map((h: { name: string; source: string; file: string; enabled: boolean }) => [h.name, h.source, h.file, h.enabled]),
      [
        ['guard', 'project', p.projectFile, true],
        ['off', 'project', p.projectFile, false],
        ['audit', 'user', p.userFile, true],
        ['post', 'system', p.systemFile, true],
      ],
    );
  });

  test('in an untrusted folder workspace hooks are listed as untrusted and stderr says why', async () => {
    const p = projectWith((m) => ({
      trusted: false,
      project: { hooks: { BeforeTool: [{ hooks: [mark(m, 'ws')] }] } },
      user: { hooks: { AfterTool: [{ hooks: [mark(m, 'mine')] }] } },
    }));
    const r = await runCli(['list', '--json', '--cwd', p.dir], { env: p.env });
    assert.equal(r.code, 0);
    assert.deepEqual(
      r.json().hooks.map((h: { name: string; trusted: boolean }) => [h.name, h.trusted]),
      [
        ['ws', false],
        ['mine', true],
      ],
    );
    assert.match(r.stderr, /is not a trusted folder: its 1 workspace hook\(s\) do not run.*hookline trust/);
    assert.equal(r.json().summary, 'hooks: AfterTool×1 — not counted: 1 untrusted');
  });

  test('hooks listed that none of which would run: the summary says so, never "none" under a table', async () => {
    const p = projectWith((m) => ({ trusted: false, project: { hooks: { BeforeTool: [{ hooks: [mark(m, 'ws')] }] } } }));
    const r = await runCli(['list', '--cwd', p.dir], { env: p.env });
    assert.equal(r.code, 0);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 3, r.stdout);
    assert.equal(lines.at(-1), 'hooks: none would run — not counted: 1 untrusted');
  });

  test('no hooks: the summary says none', async () => {
    const p = projectWith(() => ({}));
    const r = await runCli(['list', '--cwd', p.dir], { env: p.env });
    assert.equal(r.code, 0);
    assert.equal(r.stdout, 'hooks: none\n');
  });

  test('configuration problems go to stderr and the valid hooks are still listed', async () => {
    const p = projectWith((m) => ({ project: { hooks: { BeforeTool: [{ hooks: [mark(m, 'ok'), { type: 'command' }] }] } } }));
    const r = await runCli(['list', '--cwd', p.dir], { env: p.env });
    assert.equal(r.code, 0);
    assert.equal(
      r.stderr,
      `hookline: error: ${p.projectFile}: hooks.BeforeTool[0].hooks[1].command: missing "command" for a command hook on BeforeTool\n`,
    );
    assert.match(r.stdout, /BeforeTool\s+\*\s+ok\s+project/);
    assert.match(r.stdout, /hooks: BeforeTool×1\n$/);
  });

  test("another hook system's broken configuration is said on stderr, naming the file", async () => {
    const p = projectWith(() => ({}));
    fs.mkdirSync(path.join(p.dir, '.claude'), { recursive: true });
    const file = path.join(p.dir, '.claude', 'settings.json');
    fs.writeFileSync(file, '{"hooks": {},}');
    const r = await runCli(['list', '--cwd', p.dir], { env: p.env });
    assert.equal(r.code, 0);
    assert.equal(r.stdout, 'hooks: none\n');
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.ok(r.stderr.startsWith(`hookline: claude: error: ${file}: invalid JSON`), r.stderr);
    // A folder in its place: said, never a crash.
    fs.rmSync(file);
    fs.mkdirSync(file);
    const folder = await runCli(['list', '--cwd', p.dir], { env: p.env });
    assert.equal(folder.code, 0, folder.stderr);
    assert.doesNotMatch(folder.stderr, /bug in hookline/);
  });
});

describe('hookline validate', () => {
  test('a clean configuration exits 0 and counts files and hooks', async () => {
    const p = mixed();
    const r = await runCli(['validate', '--cwd', p.dir], { env: p.env });
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '3 settings file(s), 4 hook(s), 0 error(s), 0 warning(s)\n');
  });

  test('warnings only: exit 0, each warning printed with file and path', async () => {
    const p = projectWith((m) => ({ user: { hooks: { BeforeAgent: [{ matcher: 'x', hooks: [mark(m, 'a', { descripton: 'typo' })] }] } } }));
    const r = await runCli(['validate', '--cwd', p.dir], { env: p.env });
    assert.equal(r.code, 0);
    assert.deepEqual(r.stdout.trimEnd().split('\n'), [
      `warning: ${p.userFile}: hooks.BeforeAgent[0].matcher: BeforeAgent ignores matchers; the hook runs for every BeforeAgent`,
      `warning: ${p.userFile}: hooks.BeforeAgent[0].hooks[0].descripton: unknown field "descripton" (ignored)`,
      '1 settings file(s), 1 hook(s), 0 error(s), 2 warning(s)',
    ]);
  });

  test('errors: exit 1, with file, JSON path and message', async () => {
    const p = projectWith((m) => ({
      project: { hooks: { BeforeTool: [{ hooks: [mark(m, 'ok'), mark(m, 'slow', { timeout: '10s' })] }], Stop: [] } },
      system: '{\n  "hooks": {,}\n}',
    }));
    const r = await runCli(['validate', '--cwd', p.dir], { env: p.env });
    assert.equal(r.code, 1);
    const lines = r.stdout.trimEnd().split('\n');
    assert.deepEqual(lines, [
      `error: ${p.projectFile}: hooks.BeforeTool[0].hooks[1].timeout: "timeout" must be a number, got a string`,
      `error: ${p.projectFile}: hooks.Stop: unknown event "Stop" (did you mean "AfterAgent"?); expected one of BeforeTool, AfterTool, BeforeAgent, Notification, AfterAgent, SessionStart, SessionEnd, PreCompress, BeforeModel, AfterModel, BeforeToolSelection`,
      `error: ${p.systemFile}: invalid JSON at line 2, column 13: unexpected ",", expected a double-quoted property name`,
      '2 settings file(s), 1 hook(s), 3 error(s), 0 warning(s)',
    ]);
  });

  test('--json lists the problems and the files read', async () => {
    const p = projectWith(() => ({ project: { hooks: 'none' } }));
    const r = await runCli(['validate', '--json', '--cwd', p.dir], { env: p.env });
    assert.equal(r.code, 1);
    // Every hook system configured here (only Gemini's), under its name.
    assert.deepEqual(r.json(), {
      errors: 1,
      dialects: {
        gemini: {
          problems: [{ file: p.projectFile, path: 'hooks', message: '"hooks" must be an object keyed by event name', severity: 'error' }],
          files: [p.projectFile],
        },
      },
    });
  });

  test('an extension file is validated too', async () => {
    const p = projectWith(() => ({}));
    const f = path.join(p.home, '.gemini', 'extensions', 'x', 'hooks', 'hooks.json');
    write(f, { hooks: { AfterModel: [{ hooks: [{ type: 'command', command: 'true', env: { N: null } }] }] } });
    const r = await runCli(['validate', '--cwd', p.dir], { env: p.env });
    assert.equal(r.code, 1);
    assert.equal(
      r.stdout.split('\n')[0],
      `error: ${f}: hooks.AfterModel[0].hooks[0].env.N: "env" must map names to strings; "N" must be a string, number or boolean, got null`,
    );
  });

  test('a folder that does not exist is a usage error', async () => {
    const p = projectWith(() => ({}));
    const r = await runCli(['validate', '--cwd', path.join(p.dir, 'missing')], { env: p.env });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `hookline: ${path.join(p.dir, 'missing')}: no such folder — check the path\n`);
  });
});
