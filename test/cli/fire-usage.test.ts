import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers.js';
import { projectWith, mark } from '../config/util.js';

const oneLine = (stderr: string) => {
  assert.ok(stderr.endsWith('\n'), stderr);
  assert.equal(stderr.trimEnd().split('\n').length, 1, `expected one line on stderr, got:\n${stderr}`);
  assert.ok(stderr.startsWith('hookline: '));
};

describe('hookline fire: usage errors exit 1 with one clear line on stderr', () => {
  const p = projectWith((m) => ({ user: { hooks: { BeforeTool: [{ hooks: [mark(m, 'never')] }] } } }));
  const file = (name: string, text: string) => {
    const f = path.join(path.dirname(p.dir), name);
    fs.writeFileSync(f, text);
    return f;
  };
  const usage = async (args: string[], expected: RegExp, input?: string) => {
    const r = await runCli(['fire', ...args], { env: p.env, cwd: p.dir, input });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    oneLine(r.stderr);
    assert.match(r.stderr, expected);
    assert.deepEqual(p.ran(), [], 'no hook runs after a usage error');
  };

  test('an event named like an object property gets no made-up suggestion', async () => {
    for (const name of ['constructor', '__proto__', 'toString']) {
      const r = await runCli(['fire', name], { env: p.env, cwd: p.dir });
      assert.equal(r.code, 1);
      oneLine(r.stderr);
      assert.match(r.stderr, new RegExp(`^hookline: unknown event "${name}"`));
      assert.doesNotMatch(r.stderr, /native code|object Object/);
    }
  });

  test('unknown event', () =>
    usage(['BeforeTools'], /^hookline: unknown event "BeforeTools" \(did you mean "BeforeTool"\?\) — use one of BeforeTool, /));

  test('input that is not JSON: where and what', () => {
    const f = file('bad.json', '{\n  "tool_name": "x",\n  "tool_input": {,}\n}\nnot json\n');
    return usage(['BeforeTool', '--input', f], new RegExp(`^hookline: input file ${f}: invalid JSON at line 3, column 18: unexpected ","`));
  });

  test('input on stdin that is not JSON', () =>
    usage(
      ['BeforeTool', '--input', '-'],
      /^hookline: input \(stdin\): invalid JSON at line 1, column 1: unexpected "n".* — give the event's fields as one JSON object$/m,
      'nope\nmore\n',
    ));

  test('input that is not an object', async () => {
    await usage(
      ['BeforeTool', '--input', file('arr.json', '[{"tool_name": "x"}]')],
      / is an array — give a JSON object with the event's fields/m,
    );
    await usage(['BeforeTool', '--input', '-'], /input \(stdin\) is a number — give a JSON object with the event's fields/m, '42');
  });

  test('missing --input file', () =>
    usage(
      ['BeforeTool', '--input', 'nowhere.json'],
      new RegExp(`^hookline: input file nowhere.json not found \\(${path.join(fs.realpathSync(p.dir), 'nowhere.json')}\\)`),
    ));

  test('--input naming a folder', () =>
    usage(['BeforeTool', '--input', p.dir], /^hookline: input file .* is a folder — name a JSON file$/m));

  test('--cwd that does not exist', () =>
    usage(
      ['BeforeTool', '--cwd', path.join(p.dir, 'gone')],
      new RegExp(`^hookline: ${path.join(p.dir, 'gone')}: no such folder — check the path$`, 'm'),
    ));

  test('--cwd that is a file', () =>
    usage(['BeforeTool', '--cwd', file('plain.txt', 'x')], /^hookline: .*plain\.txt: not a folder — name the project folder$/m));

  test('a field of the wrong type', () =>
    usage(['BeforeTool', '--input', '-'], /^hookline: input for BeforeTool: tool_name: /, '{"tool_name": 5}'));
});

describe('hookline fire: configuration problems and trust', () => {
  test('configuration problems are reported on stderr, the valid hooks still run and the exit is 0', async () => {
    const p = projectWith((m) => ({
      project: { hooks: { BeforeTool: [{ hooks: [mark(m, 'ws'), { type: 'command', command: 'true', timeout: 0 }] }], BeforeTol: [] } },
      user: '{ "hooks": { "BeforeTool": [ { "hooks": [ ] } ] }, }',
      system: { hooks: { BeforeTool: [{ hooks: [mark(m, 'sys')] }] } },
    }));
    const r = await runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--input', '-'], {
      env: p.env,
      input: '{"tool_name":"run_shell_command","tool_input":{}}',
    });
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stderr.trimEnd().split('\n');
    assert.deepEqual(lines, [
      `hookline: error: ${p.projectFile}: hooks.BeforeTool[0].hooks[1].timeout: timeout must be a positive number of milliseconds`,
      `hookline: error: ${p.projectFile}: hooks.BeforeTol: unknown event "BeforeTol" (did you mean "BeforeTool"?); expected one of BeforeTool, AfterTool, BeforeAgent, Notification, AfterAgent, SessionStart, SessionEnd, PreCompress, BeforeModel, AfterModel, BeforeToolSelection`,
      `hookline: error: ${p.userFile}: invalid JSON at line 1, column 52: unexpected "}", expected a double-quoted property name (trailing commas are not allowed)`,
    ]);
    const out = r.json();
    assert.deepEqual(
      out.runs.map((x: { name: string; source: string }) => [x.name, x.source]),
      [
        ['ws', 'project'],
        ['sys', 'system'],
      ],
    );
    assert.equal(out.output.systemMessage, 'ran ws\nran sys');
    assert.deepEqual(p.ran().sort(), ['sys', 'ws']);
  });

  test('in an untrusted folder stderr says so, no workspace hook runs, a user hook does', async () => {
    let ws = '';
    const p = projectWith(
      (m) => (
        (ws = `${m}.ws`),
        {
          trusted: false,
          project: { hooks: { BeforeTool: [{ hooks: [mark(ws, 'ws1'), mark(ws, 'ws2')] }] } },
          user: { hooks: { BeforeTool: [{ hooks: [mark(m, 'mine')] }] } },
        }
      ),
    );
    const r = await runCli(['fire', 'BeforeTool', '--cwd', p.dir], { env: p.env, input: '' });
    assert.equal(r.code, 0);
    assert.equal(
      r.stderr,
      `hookline: ${p.dir} is not a trusted folder: its 2 workspace hook(s) do not run. Review .gemini/settings.json, then run: hookline trust ${JSON.stringify(p.dir)}\n`,
    );
    assert.equal(fs.existsSync(ws), false);
    assert.deepEqual(p.ran(), ['mine']);
    assert.deepEqual(
      r.json().runs.map((x: { name: string }) => x.name),
      ['mine'],
    );
  });
});
