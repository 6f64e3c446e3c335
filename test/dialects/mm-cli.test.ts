// `hookline fire --dialect mm` and `hookline validate --dialect mm`, as real processes.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers.js';
import { fx, mmYaml, q, read, tmpDir } from './util.js';

function project(yaml: string, name = 'agent.yaml'): string {
  const dir = tmpDir('hookline-mmcli-');
  fs.writeFileSync(path.join(dir, name), yaml);
  return dir;
}
// The folders are trusted for one run, as `hookline trust` would do; an own home keeps the real one untouched.
const env = (trusted = true) => {
  const e: NodeJS.ProcessEnv = {
    ...process.env,
    GEMINI_CLI_HOME: tmpDir('hookline-mmcli-home-'),
    GEMINI_CLI_TRUST_WORKSPACE: trusted ? 'true' : 'false',
  };
  delete e.MM_CONFIG;
  return e;
};

describe('hookline fire --dialect mm', () => {
  test('agent.yaml in an untrusted folder does not run, and stderr says so', async () => {
    const dir = project(mmYaml({ preGeneration: [{ command: 'touch ran-marker' }] }));
    const r = await runCli(['fire', 'preGeneration', '--dialect', 'mm', '--input', '-'], {
      cwd: dir,
      env: env(false),
      input: '{"prompt": "hi"}',
    });
    assert.equal(r.code, 0);
    assert.equal(fs.existsSync(path.join(dir, 'ran-marker')), false);
    assert.match(r.stderr, /is not a trusted folder: the hooks in .*agent\.yaml do not run/);
    assert.deepEqual(r.json().runs, []);
  });

  test('preGeneration from agent.yaml in the folder: the response object after the chain, and the runs', async () => {
    const dir = project(mmYaml({ preGeneration: [{ command: `${fx('mm-rewrite.js')} one` }, { command: `${fx('mm-rewrite.js')} two` }] }));
    const r = await runCli(['fire', 'preGeneration', '--dialect', 'mm', '--input', '-'], {
      cwd: dir,
      env: env(),
      input: '{"prompt": "hi"}',
    });
    assert.equal(r.code, 0, r.stderr);
    const out = r.json();
    assert.deepEqual(out.output, {
      action: 'continue',
      prompt: 'hi +one +two',
      context: '[context added by a hook]\none read: hi\n\n[context added by a hook]\ntwo read: hi +one',
    });
    assert.equal(out.runs.length, 2);
    const run = out.runs[0];
    for (const k of ['name', 'command', 'exitCode', 'success', 'durationMs', 'stdout', 'stderr', 'error', 'line']) assert.ok(k in run, k);
    assert.equal(run.line, `🪝 1. preGeneration · ${fx('mm-rewrite.js')} one → prompt replaced + context (12 chars)`);
    assert.equal(out.runs[1].line.startsWith('🪝 2. '), true);
  });

  test('preToolCall with {"tool": …}, --config elsewhere; failure lines on stderr; MM_CONFIG_DIR is the config folder', async () => {
    const conf = tmpDir();
    const out = tmpDir();
    fs.writeFileSync(
      path.join(conf, 'mm.yaml'),
      mmYaml({ preToolCall: [{ command: `${fx('mm-capture.sh')} ${q(out)}` }, { command: 'echo oops >&2; exit 4', onError: 'fail' }] }),
    );
    const session = tmpDir();
    const r = await runCli(
      ['fire', 'preToolCall', '--dialect', 'mm', '--config', path.join(conf, 'mm.yaml'), '--cwd', session, '--input', '-'],
      {
        env: env(),
        input: '{"tool": {"id": "c1", "name": "bash", "input": {"command": "a && b"}}}',
      },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json().output, { action: 'deny', reason: 'hook failed: exit status 4: oops', error: 'exit status 4: oops' });
    assert.equal(r.stderr, '🪝 preToolCall hook `echo oops >&2; exit 4`: exit status 4: oops\n');
    assert.equal(
      read(path.join(out, 'stdin')),
      `{"event":"preToolCall","cwd":"${session}","tool":{"id":"c1","name":"bash","input":{"command":"a && b"}}}`,
    );
    assert.equal(read(path.join(out, 'cwd')).trim(), session);
    assert.equal(read(path.join(out, 'env')).split('\n')[1], conf);
  });

  test('$MM_CONFIG names the configuration by default', async () => {
    const conf = project(mmYaml({ postAsk: [{ command: fx('mm-answer.js') }] }), 'other.yaml');
    const r = await runCli(['fire', 'postAsk', '--dialect', 'mm', '--input', '-'], {
      cwd: tmpDir(),
      env: { ...env(), MM_CONFIG: path.join(conf, 'other.yaml') },
      input: '{"ask": {"agent": "expert", "config": "/x.yaml", "prompt": "q"}, "answer": "42"}',
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json().output, {
      action: 'continue',
      answer: 'checked: 42',
      context: '[context added by a hook]\nasked expert at depth 0',
    });
  });

  test('a configuration error: [config error: …] on stderr, exit 1, nothing runs', async () => {
    const dir = project('hooks:\n  preGeneration:\n    - command: ""\n');
    const r = await runCli(['fire', 'preGeneration', '--dialect', 'mm'], { cwd: dir, env: env() });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, '[config error: agent.yaml: hooks.preGeneration[0]: command must not be empty]\n');
  });

  test('usage errors: unknown mm event, wrong input type, missing configuration, unknown dialect', async () => {
    const dir = project('hooks:\n');
    const bad = async (args: string[], re: RegExp, input?: string) => {
      const r = await runCli(args, { cwd: dir, env: env(), input });
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stderr, re);
    };
    await bad(
      ['fire', 'BeforeTool', '--dialect', 'mm'],
      /^hookline: unknown mm event "BeforeTool" — use one of preGeneration, preToolCall/,
    );
    await bad(
      ['fire', 'preGeneration', '--dialect', 'mm', '--input', '-'],
      /^hookline: input for preGeneration: prompt: /,
      '{"prompt": 5}',
    );
    await bad(['fire', 'preGeneration', '--dialect', 'mm', '--config', 'nope.yaml'], /^hookline: mm configuration nope.yaml not found/);
    await bad(
      ['fire', 'preGeneration', '--dialect', 'cursor'],
      /^hookline: unknown dialect "cursor" — use one of gemini, claude, codex, mm, spatialagent/,
    );
    await bad(['fire', 'BeforeTool', '--config', 'x.json'], /^hookline: --config names a file of another hook system — add --dialect/);
  });

  test('an input field the event does not carry is reported and ignored', async () => {
    const dir = project(mmYaml({ preToolCall: [{ command: 'cat > seen.json' }] }));
    const r = await runCli(['fire', 'preToolCall', '--dialect', 'mm', '--input', '-'], {
      cwd: dir,
      env: env(),
      input: '{"tool": {"name": "bash"}, "prompt": "x"}',
    });
    assert.equal(r.code, 0);
    assert.match(r.stderr, /input field "prompt" is not part of preToolCall's input \(ignored\)/);
    assert.equal('prompt' in JSON.parse(read(path.join(dir, 'seen.json'))), false);
  });
});

describe('hookline validate --dialect mm', () => {
  test('every error as [config error: <path>: <message>], exit 1', async () => {
    const dir = project(
      'hooks:\n  preToolcall: []\n  preGeneration:\n    - matcher: x\n      command: a\n  preToolCall:\n    - matcher: (a\n      command: b\n    - command: c\n      timeout: -1s\n      onError: always\n',
    );
    const r = await runCli(['validate', '--dialect', 'mm'], { cwd: dir, env: env() });
    assert.equal(r.code, 1);
    assert.equal(
      r.stdout,
      [
        '[config error: agent.yaml: hooks: unknown event "preToolcall" (want one of preGeneration, preToolCall, postToolCall, postGeneration, preAsk, postAsk)]',
        '[config error: agent.yaml: hooks.preGeneration[0]: matcher is only for preToolCall, postToolCall, preAsk and postAsk]',
        '[config error: agent.yaml: hooks.preToolCall[0]: matcher: error parsing regexp: missing closing ): `(a`]',
        '[config error: agent.yaml: hooks.preToolCall[1]: timeout must be >= 0]',
        '[config error: agent.yaml: hooks.preToolCall[1]: onError must be "fail", "warn" or "ignore"]',
        '',
      ].join('\n'),
    );
  });

  test('a valid configuration: the hook count and the banner suffix, exit 0; --json', async () => {
    const dir = project(mmYaml({ preGeneration: [{ command: 'a' }, { command: 'b' }], preToolCall: [{ command: 'c' }] }));
    const r = await runCli(['validate', '--dialect', 'mm', '--config', path.join(dir, 'agent.yaml')], { env: env() });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${path.join(dir, 'agent.yaml')}: 3 hook(s) | hooks: preGeneration×2 preToolCall×1\n`);
    const j = await runCli(['validate', '--dialect', 'mm', '--json'], { cwd: dir, env: env() });
    assert.deepEqual(j.json(), {
      file: 'agent.yaml',
      errors: [],
      hooks: { preGeneration: 2, preToolCall: 1, postToolCall: 0, postGeneration: 0, preAsk: 0, postAsk: 0 },
    });
  });
});
