import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { HookEngine } from '../../src/engine/index.js';
import { alive, cmd, hook, makeProject } from '../helpers.js';

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

  test('a persistent hook that dies fails that event and is restarted on the next', async () => {
    const e = make(`node ${hook('pers-guard.mjs')}`, { persistent: true });
    const first = pidOf((await e.fire('BeforeTool', bt('ls'))).output?.systemMessage);
    const died = await e.fire('BeforeTool', bt('die'));
    assert.equal(died.runs[0].success, false);
    assert.match(String(died.runs[0].error), /persistent hook exited \(code 3\)/);
    const next = await e.fire('BeforeTool', bt('ls'));
    assert.equal(next.runs[0].success, true);
    assert.notEqual(pidOf(next.output?.systemMessage), first);
    assert.equal(alive(first), false);
  });

  test('a request past its timeout fails, the process is replaced, the next event works', async () => {
    // Long enough for a new node process to start on a loaded machine: the timeout covers start-up.
    const e = make(`node ${hook('pers-guard.mjs')}`, { persistent: true, timeout: 3000 });
    const first = pidOf((await e.fire('BeforeTool', bt('ls'))).output?.systemMessage);
    const hung = await e.fire('BeforeTool', bt('hang'));
    assert.match(String(hung.runs[0].error), /Hook timed out after 3000ms/);
    const next = await e.fire('BeforeTool', bt('ls'));
    assert.equal(next.runs[0].success, true, next.runs[0].error);
    assert.notEqual(pidOf(next.output?.systemMessage), first);
    // SIGTERM, then SIGKILL after the grace: wait for the hung process to be gone, not for time.
    for (let i = 0; i < 100 && alive(first); i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(alive(first), false, 'the hung process is gone');
  });

  test('a concurrent hook handles parallel events at once; a serial one in order', async () => {
    // Each "slow" event takes 300 ms in the hook: two of them in order take at least 600 ms.
    const took: Record<string, number> = {};
    for (const concurrent of ['1', '0']) {
      const e = make(`node ${hook('pers-guard.mjs')}`, { persistent: true }, { PERS_CONCURRENT: concurrent });
      await e.fire('BeforeTool', bt('warm up'));
      const t0 = performance.now();
      const rs = await Promise.all([e.fire('BeforeTool', bt('slow')), e.fire('BeforeTool', bt('slow'))]);
      took[concurrent] = performance.now() - t0;
      assert.ok(rs.every((r) => r.runs[0].success));
    }
    assert.ok(took['0'] >= 600, `serial: ${took['0']} ms`);
    assert.ok(took['1'] < 600, `concurrent: ${took['1']} ms (the two events overlapped)`);
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
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(alive(pid), false);
    const again = pidOf((await e.fire('BeforeTool', bt('ls'))).output?.systemMessage);
    assert.notEqual(again, pid);
  });
});
