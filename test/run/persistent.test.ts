import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { HookEngine } from '../../src/engine/index.js';
import { flushTraces } from '../../src/engine/trace.js';
import { alive, cmd, hook, makeProject, trustProject, waitUntil } from '../helpers.js';

const bt = (command: string) => ({ tool_name: 'run_shell_command', tool_input: { command } });
const pidOf = (msg: unknown) => Number(/pid (\d+)/.exec(String(msg))?.[1]);

function engineWith(command: string, extra: Record<string, unknown> = {}, env: Record<string, string> = {}) {
  const p = makeProject({ project: { hooks: { BeforeTool: [{ hooks: [cmd(command, { name: 'guard', ...extra })] }] } } });
  const engine = new HookEngine({ cwd: p.dir, env: { ...p.env, ...env } });
  return engine;
}

describe('persistent hook processes', () => {
  const engines: HookEngine[] = [];
  after(() => engines.forEach((e) => e.close()));
  const make = (...a: Parameters<typeof engineWith>) => {
    const e = engineWith(...a);
    engines.push(e);
    return e;
  };

  test('the same SDK hook works one-shot: a new process per event', async () => {
    const e = make(`node ${hook('pers-guard.mjs')}`);
    const a = await e.fire('BeforeTool', bt('ls'));
    const b = await e.fire('BeforeTool', bt('ls'));
    assert.match(String(a.output?.systemMessage), /saw ls/);
    assert.notEqual(pidOf(a.output?.systemMessage), pidOf(b.output?.systemMessage));
    const d = await e.fire('BeforeTool', bt('rm -rf /'));
    assert.equal(d.output?.decision, 'deny');
  });

  test('persistent: one process answers every event', async () => {
    const e = make(`node ${hook('pers-guard.mjs')}`, { persistent: true });
    const pids = new Set<number>();
    for (let i = 0; i < 5; i++) {
      const r = await e.fire('BeforeTool', bt(`echo ${i}`));
      assert.equal(r.runs[0].success, true);
      assert.match(String(r.output?.systemMessage), new RegExp(`saw echo ${i}$`));
      pids.add(pidOf(r.output?.systemMessage));
    }
    assert.equal(pids.size, 1);
    const denied = await e.fire('BeforeTool', bt('rm -rf /'));
    assert.equal(denied.output?.decision, 'deny');
    assert.equal(denied.output?.reason, `no rm -rf (pid ${[...pids][0]})`);
  });

  test('a persistent hook reads the input as the one-shot hooks beside it do, and its trace digests that text', async () => {
    const p = makeProject();
    const lines = path.join(p.dir, 'lines.jsonl');
    const seen = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-pers-'));
    const traces = path.join(p.dir, 'traces');
    const project = {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              cmd(`python3 ${hook('pers-record.py')} '${lines}'`, { name: 'kept', persistent: true }),
              cmd(`${hook('run-capture.sh')} '${seen}'`, { name: 'once' }),
            ],
          },
        ],
      },
    };
    fs.mkdirSync(path.join(p.dir, '.gemini'));
    fs.writeFileSync(path.join(p.dir, '.gemini', 'settings.json'), JSON.stringify(project));
    trustProject(p.dir, p.home);
    const e = new HookEngine({ cwd: p.dir, env: { ...p.env, HOOKLINE_TRACE: '1', HOOKLINE_TRACE_DIR: traces }, sessionId: 'pers-trace' });
    engines.push(e);
    const r = await e.fire('BeforeTool', bt('echo "é" \\ ✓'));
    assert.deepEqual(
      r.runs.map((x) => x.success),
      [true, true],
    );
    // The host changes the input it was handed back: the trace keeps what the hooks read.
    (r.input.tool_input as Record<string, unknown>).command = 'changed';
    flushTraces();
    const line = fs.readFileSync(lines, 'utf8');
    const text = fs.readFileSync(path.join(seen, 'stdin'), 'utf8');
    assert.equal(line, `{"id":1,"input":${text}}\n`);
    const fire = fs
      .readFileSync(path.join(traces, 'pers-trace.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((l) => l.kind === 'fire');
    assert.equal(fire.input, `sha256:${createHash('sha256').update(text).digest('hex')}`);
  });

  test('a persistent hook that dies fails that event and is restarted on the next', async () => {
    const e = make(`node ${hook('pers-guard.mjs')}`, { persistent: true });
    const first = pidOf((await e.fire('BeforeTool', bt('ls'))).output?.systemMessage);
    const died = await e.fire('BeforeTool', bt('die'));
    assert.equal(died.runs[0].success, false);
    assert.match(String(died.runs[0].error), /persistent hook exited \(code 3\)/);
    const next = await e.fire('BeforeTool', bt('ls'));
    assert.equal(next.runs[0].success, true);
    assert.notEqual(pidOf(next.output?.systemMessage), first);
    assert.ok(await waitUntil(() => !alive(first)), 'the dead process is reaped');
  });

  test('a request past its timeout fails, the process is replaced, the next event works', async () => {
    // The timeout counts from the request, the process's start included: long enough for a start
    // on a loaded machine, as a hang is only ended by it.
    const e = make(`node ${hook('pers-guard.mjs')}`, { persistent: true, timeout: 3000 });
    const warm = await e.fire('BeforeTool', bt('ls'));
    assert.equal(warm.runs[0].success, true, String(warm.runs[0].error));
    const first = pidOf(warm.output?.systemMessage);
    const hung = await e.fire('BeforeTool', bt('hang'));
    assert.match(String(hung.runs[0].error), /: Hook timed out after 3000ms$/);
    const next = await e.fire('BeforeTool', bt('ls'));
    assert.equal(next.runs[0].success, true, String(next.runs[0].error));
    assert.notEqual(pidOf(next.output?.systemMessage), first);
    assert.ok(await waitUntil(() => !alive(first)), 'the hung process is gone');
  });

  test('a concurrent hook handles parallel events at once; a serial one in order', async () => {
    // Each "meet" event waits in the hook until two have started: a concurrent hook gets both at
    // once and they meet; a serial hook gets the second only once the first gave up waiting.
    const meet = async (concurrent: string, waitMs: number) => {
      const e = make(`node ${hook('pers-guard.mjs')}`, { persistent: true, timeout: 120_000 }, { PERS_CONCURRENT: concurrent });
      await e.fire('BeforeTool', bt('warm up'));
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-meet-'));
      const rs = await Promise.all([e.fire('BeforeTool', bt(`meet ${dir} ${waitMs}`)), e.fire('BeforeTool', bt(`meet ${dir} ${waitMs}`))]);
      assert.ok(
        rs.every((r) => r.runs[0].success),
        String(rs.map((r) => r.runs[0].error)),
      );
      return rs.map((r) => String(r.output?.systemMessage).replace(/^pid \d+ /, ''));
    };
    assert.deepEqual(await meet('1', 60_000), ['met', 'met']);
    // The first of the serial pair is alone whatever the wait; the second finds it started.
    assert.deepEqual(await meet('0', 300), ['alone', 'met']);
  });

  test('plain text replies get the exit-code fallback; stray lines are ignored', async () => {
    const e = make(`node ${hook('pers-text.mjs')}`, { persistent: true });
    const r = await e.fire('BeforeTool', bt('ls'));
    assert.equal(r.output?.decision, 'deny');
    assert.equal(r.output?.reason, 'refused run_shell_command');
    assert.equal(r.runs[0].exitCode, 2);
  });

  test('a Python hook works both ways', async () => {
    const oneShot = make(`python3 ${hook('pers-python.py')}`);
    const pers = make(`python3 ${hook('pers-python.py')}`, { persistent: true });
    for (const e of [oneShot, pers]) {
      assert.equal((await e.fire('BeforeTool', bt('rm -rf x'))).output?.reason, 'python says no');
      assert.match(String((await e.fire('BeforeTool', bt('ls'))).output?.systemMessage), /python pid \d+/);
    }
    const a = pidOf((await pers.fire('BeforeTool', bt('ls'))).output?.systemMessage);
    const b = pidOf((await pers.fire('BeforeTool', bt('ls'))).output?.systemMessage);
    assert.equal(a, b);
  });

  test('close() ends the process; firing again starts a new one', async () => {
    const e = make(`node ${hook('pers-guard.mjs')}`, { persistent: true });
    const pid = pidOf((await e.fire('BeforeTool', bt('ls'))).output?.systemMessage);
    e.close();
    assert.ok(await waitUntil(() => !alive(pid)), `process ${pid} survived close()`);
    const again = pidOf((await e.fire('BeforeTool', bt('ls'))).output?.systemMessage);
    assert.notEqual(again, pid);
  });

  test('runs in the project folder under bash --norc, with the sanitised environment, HOOKLINE_PERSISTENT=1 and its own env', async () => {
    const p = makeProject({
      project: {
        hooks: {
          BeforeTool: [{ hooks: [cmd(`node ${hook('pers-env.mjs')}`, { name: 'env', persistent: true, env: { FROM_HOOK: 'given' } })] }],
        },
      },
    });
    // bash started with a socket on stdin and SHLVL unset takes itself for rshd and sources
    // ~/.bashrc; this one would leave a marker, export a variable and print garbage.
    const home = path.join(path.dirname(p.dir), 'rc-home');
    const marker = path.join(home, 'bashrc-ran');
    fs.mkdirSync(home);
    fs.writeFileSync(path.join(home, '.bashrc'), `touch '${marker}'\nexport FROM_BASHRC=1\necho 'bashrc garbage'\n`);
    const env: NodeJS.ProcessEnv = { ...p.env, HOME: home, MY_SECRET_TOKEN: 'hunter2', HARMLESS_VAR: 'hello' };
    delete env.SHLVL;
    const sub = path.join(p.dir, 'sub');
    fs.mkdirSync(sub);
    const e = new HookEngine({ cwd: p.dir, env });
    engines.push(e);
    const r = await e.fire('BeforeTool', bt('ls'), { cwd: sub });
    assert.equal(r.runs[0].success, true, String(r.runs[0].error));
    const seen = JSON.parse(String(r.output?.systemMessage)) as { cwd: string; env: Record<string, string> };
    assert.equal(seen.cwd, fs.realpathSync(p.dir), 'the project folder, not the event cwd');
    assert.equal(fs.existsSync(marker), false, '~/.bashrc was sourced');
    assert.equal(seen.env.FROM_BASHRC, undefined);
    assert.equal(seen.env.HOOKLINE_PERSISTENT, '1');
    assert.equal(seen.env.FROM_HOOK, 'given');
    assert.equal(seen.env.MY_SECRET_TOKEN, undefined, 'secrets are removed');
    assert.equal(seen.env.HARMLESS_VAR, 'hello');
    assert.equal(seen.env.HOME, home);
    assert.equal(seen.env.GEMINI_PROJECT_DIR, p.dir);
  });
});
