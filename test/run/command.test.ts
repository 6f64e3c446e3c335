// The command-hook protocol: stdin, cwd, exit codes and how stdout/stderr become an output.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { cmd, makeProject } from '../helpers.js';
import { runHook as runCommand } from './util.js';
import { engineFor, fixture, q, readCapture, tmpDir } from './util.js';

const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };

function run(command: string, stdin = '{}', env: Record<string, string> = ENV) {
  return runCommand({ command, cwd: process.cwd(), env, stdin, timeoutMs: 1500 });
}

describe('stdin and cwd', () => {
  test('stdin is exactly JSON.stringify(input), unicode and newlines included', async () => {
    const out = tmpDir();
    const input = { session_id: 's', cwd: out, text: 'line1\nline2 "quoted" \u00e9\u4e2d\ud83d\ude00', n: [1, 2.5, null] };
    const stdin = JSON.stringify(input);
    const r = await runCommand({ command: fixture('run-capture.sh', q(out)), cwd: out, env: ENV, stdin, timeoutMs: 1500 });
    assert.equal(r.success, true, r.error);
    assert.equal(readCapture(out).stdin, stdin);
  });

  test('through the engine: stdin is the fired input and cwd is the input cwd', async () => {
    const out = tmpDir();
    const p = makeProject({
      project: { hooks: { BeforeAgent: [{ hooks: [cmd(fixture('run-capture.sh', q(out)), { timeout: 1500 })] }] } },
    });
    const sub = path.join(p.dir, 'sub dir');
    fs.mkdirSync(sub);
    const res = await engineFor(p).fire('BeforeAgent', { prompt: 'hi\n"there"' }, { cwd: sub });
    assert.equal(res.runs[0].success, true, res.runs[0].error);
    const got = readCapture(out);
    assert.equal(got.stdin, JSON.stringify(res.input));
    assert.equal(JSON.parse(got.stdin).cwd, sub);
    assert.equal(got.cwd, fs.realpathSync(sub));
    assert.equal(got.env.GEMINI_CWD, sub);
  });

  test('a 10 MB input reaches a hook that reads it, byte for byte', async () => {
    const out = tmpDir();
    const stdin = JSON.stringify({ tool_response: { llmContent: 'y'.repeat(10 * 1024 * 1024) } });
    const r = await runCommand({ command: fixture('run-capture.sh', q(out)), cwd: out, env: ENV, stdin, timeoutMs: 1500 });
    assert.equal(r.success, true, r.error);
    assert.equal(fs.statSync(path.join(out, 'stdin')).size, Buffer.byteLength(stdin));
  });

  test('bash does not source ~/.bashrc even without SHLVL (stdin is a socket)', async () => {
    const home = tmpDir();
    const marker = path.join(home, 'bashrc-ran');
    fs.writeFileSync(path.join(home, '.bashrc'), `touch ${q(marker)}\n`);
    const r = await run(`echo '{}'`, '{}', { PATH: ENV.PATH, HOME: home });
    assert.equal(r.success, true);
    assert.equal(fs.existsSync(marker), false, '~/.bashrc was sourced');
  });
});

describe('exit codes and parsing', () => {
  test('exit 0 with plain text: allow, text as systemMessage', async () => {
    const r = await run(`echo '  all good  '`);
    assert.equal(r.success, true);
    assert.equal(r.outputFormat, 'text');
    assert.deepEqual(r.output, { decision: 'allow', systemMessage: 'all good' });
  });

  test('exit 1 with plain text: allow with a "Warning: " message, not successful', async () => {
    const r = await run(`echo careful; exit 1`);
    assert.equal(r.success, false);
    assert.equal(r.exitCode, 1);
    assert.equal(r.error, undefined, 'a non-zero exit is not an error');
    assert.deepEqual(r.output, { decision: 'allow', systemMessage: 'Warning: careful' });
  });

  test('exit 2 with empty stdout: deny with stderr as the reason', async () => {
    const r = await run(`echo 'rm -rf is not allowed' >&2; exit 2`);
    assert.equal(r.exitCode, 2);
    assert.equal(r.success, false);
    assert.deepEqual(r.output, { decision: 'deny', reason: 'rm -rf is not allowed' });
  });

  test('other non-zero codes with text also deny', async () => {
    const r = await run(`echo nope; exit 7`);
    assert.deepEqual(r.output, { decision: 'deny', reason: 'nope' });
  });

  test('stderr is ignored when stdout has text', async () => {
    const r = await run(`echo out; echo err >&2; exit 2`);
    assert.deepEqual(r.output, { decision: 'deny', reason: 'out' });
    assert.equal(r.stderr, 'err\n');
  });

  test('JSON is honoured whatever the exit code', async () => {
    const r = await run(`echo '{"decision":"allow","systemMessage":"fine"}'; exit 2`);
    assert.equal(r.success, false);
    assert.equal(r.outputFormat, 'json');
    assert.deepEqual(r.output, { decision: 'allow', systemMessage: 'fine' });
    const r1 = await run(`echo '{"decision":"deny","reason":"r"}'; exit 1`);
    assert.deepEqual(r1.output, { decision: 'deny', reason: 'r' });
  });

  test('JSON on stderr counts when stdout is empty', async () => {
    const r = await run(`echo '{"decision":"deny","reason":"from stderr"}' >&2`);
    assert.equal(r.success, true);
    assert.deepEqual(r.output, { decision: 'deny', reason: 'from stderr' });
  });

  test('double-encoded JSON is decoded', async () => {
    const r = await run(`printf '%s' '"{\\"decision\\":\\"deny\\",\\"reason\\":\\"twice\\"}"'`);
    assert.equal(r.outputFormat, 'json');
    assert.deepEqual(r.output, { decision: 'deny', reason: 'twice' });
  });

  test('text before the JSON makes the whole stdout plain text (as Gemini: trim, then JSON.parse)', async () => {
    const r = await run(`echo 'debug: starting'; echo '{"decision":"deny","reason":"x"}'`);
    assert.equal(r.outputFormat, 'text');
    assert.deepEqual(r.output, { decision: 'allow', systemMessage: 'debug: starting\n{"decision":"deny","reason":"x"}' });
  });

  test('surrounding whitespace around JSON is fine', async () => {
    const r = await run(`printf '\\n\\n  {"decision":"deny","reason":"ws"}  \\n\\n'`);
    assert.deepEqual(r.output, { decision: 'deny', reason: 'ws' });
  });

  test('JSON scalars give no output; arrays are objects, as in the reference', async () => {
    for (const scalar of ['42', 'true', 'null']) {
      const r = await run(`echo ${scalar}`);
      assert.equal(r.output, undefined, scalar);
      assert.equal(r.success, true);
    }
    const a = await run(`echo '[1,2]'`);
    assert.deepEqual(a.output, [1, 2]);
  });

  test('no output at all: success without output', async () => {
    const r = await run('true');
    assert.equal(r.success, true);
    assert.equal(r.output, undefined);
    assert.equal(r.exitCode, 0);
  });

  test('stdout and stderr are both kept on the result', async () => {
    const r = await run(`echo '{"x":1}'; echo diag >&2`);
    assert.equal(r.stdout, '{"x":1}\n');
    assert.equal(r.stderr, 'diag\n');
  });

  test('exactly 1 MiB of stdout is accepted; one byte more is not', async () => {
    const ok = await run(`head -c 1048576 /dev/zero | tr '\\0' a`);
    assert.equal(ok.error, undefined);
    assert.equal(ok.stdout.length, 1048576);
    const over = await run(`head -c 1048577 /dev/zero | tr '\\0' a`);
    assert.equal(over.error, 'stdout larger than 1048576 bytes');
  });
});

describe('engine: exit codes and aggregation', () => {
  test('exit-2 deny and an allow are merged; the run is not an error', async () => {
    const p = makeProject({
      project: {
        hooks: {
          BeforeTool: [
            {
              hooks: [
                cmd(`echo 'blocked by policy' >&2; exit 2`, { name: 'policy', timeout: 1500 }),
                cmd(`echo '{"decision":"allow","systemMessage":"ok"}'`, { name: 'ok', timeout: 1500 }),
              ],
            },
          ],
        },
      },
    });
    const res = await engineFor(p).fire('BeforeTool', { tool_name: 'run_shell_command', tool_input: {} });
    assert.equal(res.runs[0].exitCode, 2);
    assert.equal(res.runs[0].error, undefined);
    assert.equal(res.output?.decision, 'deny');
    assert.equal(res.output?.reason, 'blocked by policy');
    assert.equal(res.output?.systemMessage, 'ok');
    assert.equal(res.success, true, 'a non-zero exit is not an error of the aggregate');
  });
});

describe('output written before the exit is never lost', () => {
  test('when the loop was busy past the drain time after the exit (other hooks starting), what is in the pipe is still read', async () => {
    const { superviseRun } = await import('../../src/run/command.js');
    const { EventEmitter } = await import('node:events');
    const { PassThrough } = await import('node:stream');
    // A process that exited with its answer still in the pipe, not yet read by the loop.
    const child = Object.assign(new EventEmitter(), {
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      stdin: null,
      exitCode: null,
      signalCode: null,
    });
    const group = { child, stop() {}, shellExited() {}, end() {} };
    const done = superviseRun(
      group as unknown as Parameters<typeof superviseRun>[0],
      { command: 'guard', cwd: process.cwd(), env: {}, stdin: '', timeoutMs: 5000 },
      { started: performance.now() },
    );
    child.emit('exit', 0, null);
    // The loop is busy well past the drain time; the pipe becomes readable in the turn the timer fires in.
    setImmediate(() => {
      child.stdout.end('{"decision":"deny","reason":"guard"}\n');
      child.stderr.end();
    });
    const until = Date.now() + 300;
    while (Date.now() < until) {
      // busy
    }
    const r = await done;
    assert.equal(r.stdout, '{"decision":"deny","reason":"guard"}\n');
  });

  test('64 hooks at once, more than the run slots: every deny arrives', async () => {
    const hooks = Array.from({ length: 64 }, (_, i) =>
      cmd(`cat >/dev/null; printf '{"decision":"deny","reason":"r${i}"}'`, { name: `g${i}` }),
    );
    const p = makeProject({ user: { hooks: { BeforeTool: [{ hooks }] } } });
    const e = engineFor(p);
    const r = await e.fire('BeforeTool', { tool_name: 'run_shell_command', tool_input: { command: 'ls' } });
    assert.equal(r.runs.length, 64);
    assert.deepEqual(
      r.runs.filter((x) => !x.stdout).map((x) => x.name),
      [],
    );
    assert.equal(r.output?.decision, 'deny');
    e.close();
  });
});

describe('what was read but is not what the hook wrote is said', () => {
  test('stderr with invalid UTF-8, and stderr past its limit, each give a warning (the reason read from it is kept)', async () => {
    const bad = await run(`printf 'deny \\xff\\xfe reason' >&2; exit 2`);
    assert.equal(bad.exitCode, 2);
    assert.match(bad.stderr, /^deny \ufffd\ufffd reason$/);
    assert.match(bad.warning ?? '', /stderr is not valid UTF-8/);
    const long = await run(`head -c 1100000 /dev/zero | tr '\\0' b >&2; exit 2`);
    assert.equal(long.stderr.length, 1024 * 1024);
    assert.match(long.warning ?? '', /stderr larger than 1048576 bytes; only its first 1048576 bytes were read/);
    assert.equal((await run(`echo fine >&2; exit 2`)).warning, undefined);
  });
});
