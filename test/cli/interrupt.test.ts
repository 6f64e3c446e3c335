// No hook process outlives `hookline fire`: interrupted, killed from above, or ending normally.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { CLI, alive, cmd, hook, makeProject, tmpFile, type Project } from '../helpers.js';
import { pidsReady, readPids, survivors } from '../run/util.js';
import { containment } from '../../src/run/cgroup.js';

const contained = containment();
const noCgroup = contained.available ? false : `runs cannot be contained on this machine: ${contained.reason}`;

function project(command: string, extra: Record<string, unknown> = {}): Project {
  return makeProject({ project: { hooks: { BeforeTool: [{ hooks: [cmd(command, { name: 'h', ...extra })] }] } } });
}

function startFire(
  p: Project,
  env: NodeJS.ProcessEnv = {},
): { child: ChildProcess; done: Promise<{ code: number | null; stderr: string }> } {
  const child = spawn(process.execPath, [CLI, 'fire', 'BeforeTool'], {
    cwd: p.dir,
    env: { ...p.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdout!.resume();
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  return { child, done };
}

describe('interrupting hookline fire ends its hooks and everything they started', () => {
  for (const [sig, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    test(`${sig}: a hook that ignores SIGTERM, its setsid daemon and its background child are all gone`, async () => {
      const pidFile = tmpFile('pids');
      const p = project(`${hook('proc-stubborn.sh')} '${pidFile}'`);
      const { child, done } = startFire(p);
      const pids = await pidsReady(pidFile, 3);
      child.kill(sig);
      const r = await done;
      assert.equal(r.code, code, r.stderr);
      assert.match(r.stderr, new RegExp(`${sig}: stopping hooks`));
      assert.deepEqual(await survivors(pids, 2000), []);
    });
  }

  for (const [sig, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    test(`hookline agent on ${sig}: the hook running for its tool call and everything it started are gone`, async () => {
      const pidFile = tmpFile('pids');
      const p = project(`${hook('proc-stubborn.sh')} '${pidFile}'`);
      const script = tmpFile('script.jsonl');
      fs.writeFileSync(
        script,
        `${JSON.stringify({ toolCalls: [{ name: 'run_shell_command', args: { command: 'true' } }] })}\n${JSON.stringify({ text: 'ok' })}\n`,
      );
      const child = spawn(process.execPath, [CLI, 'agent', '-p', 'go', '--model', `scripted:${script}`, '--approval-mode', 'yolo'], {
        cwd: p.dir,
        env: p.env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      const done = new Promise<number | null>((resolve) => child.on('close', resolve));
      const pids = await pidsReady(pidFile, 3);
      child.kill(sig);
      assert.equal(await done, code, stderr);
      assert.deepEqual(await survivors(pids, 2000), []);
    });
  }

  test('the parent SIGKILLed: fire notices it was orphaned and ends its hooks', async () => {
    const pidFile = tmpFile('pids');
    const firePid = tmpFile('fire-pid');
    const p = project(`${hook('proc-stubborn.sh')} '${pidFile}'`);
    const parent = spawn(
      'bash',
      ['-c', '"$0" "$1" fire BeforeTool >/dev/null 2>&1 & echo $! > "$2"; wait', process.execPath, CLI, firePid],
      {
        cwd: p.dir,
        env: p.env,
        stdio: 'ignore',
      },
    );
    const parentGone = new Promise((resolve) => parent.on('exit', resolve));
    const pids = await pidsReady(pidFile, 3);
    const fire = readPids(firePid)[0];
    assert.ok(alive(fire));
    parent.kill('SIGKILL');
    await parentGone;
    assert.deepEqual(await survivors([...pids, fire], 3000), [], 'the hooks and fire itself are gone');
  });

  test('contained: processes that dropped the run id and double-forked are ended too', { skip: noCgroup }, async () => {
    const pidFile = tmpFile('pids');
    const p = project(`${hook('proc-stubborn.sh')} '${pidFile}' escape`);
    const { child, done } = startFire(p);
    const pids = await pidsReady(pidFile, 5);
    child.kill('SIGINT');
    const r = await done;
    assert.equal(r.code, 130, r.stderr);
    assert.deepEqual(await survivors(pids, 2000), []);
  });
});

describe('a hook that exits leaves nothing behind once fire has exited', () => {
  test('its setsid daemon is reaped by run id before fire exits (no cgroup)', async () => {
    const pidFile = tmpFile('pids');
    const p = project(`${hook('proc-leave.sh')} '${pidFile}'`);
    const { done } = startFire(p, { HOOKLINE_NO_CGROUP: '1' });
    const r = await done;
    assert.equal(r.code, 0, r.stderr);
    const pids = readPids(pidFile);
    assert.equal(pids.length, 1);
    assert.deepEqual(await survivors(pids, 2000), []);
    // Where runs cannot be contained, fire says so, once.
    const said = r.stderr.split('\n').filter((l) => l.includes('cannot be contained here'));
    assert.equal(said.length, 1, r.stderr);
    assert.match(said[0], /HOOKLINE_NO_CGROUP=1/);
  });

  test('contained: one that dropped its run id is ended too, and nothing is said', { skip: noCgroup }, async () => {
    const pidFile = tmpFile('pids');
    const p = project(`${hook('proc-leave.sh')} '${pidFile}' escape`);
    const { done } = startFire(p);
    const r = await done;
    assert.equal(r.code, 0, r.stderr);
    const pids = readPids(pidFile);
    assert.equal(pids.length, 2);
    assert.deepEqual(await survivors(pids, 2000), []);
    assert.doesNotMatch(r.stderr, /cannot be contained/);
  });

  test('a persistent hook that timed out and ignores SIGTERM is killed before fire exits, with its daemon', async () => {
    const pidFile = tmpFile('pids');
    const p = project(`${hook('proc-persistent.sh')} '${pidFile}'`, { persistent: true, timeout: 300 });
    const child = spawn(process.execPath, [CLI, 'fire', 'BeforeTool', '--input', '-'], {
      cwd: p.dir,
      env: { ...p.env, HOOKLINE_NO_CGROUP: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.resume();
    child.stdin!.end(JSON.stringify({ tool_name: 'run_shell_command', tool_input: { command: 'hang' } }));
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(code, 0);
    assert.match(JSON.parse(out).runs[0].error, /timed out after 300ms/);
    const pids = readPids(pidFile);
    assert.equal(pids.length, 2);
    assert.deepEqual(await survivors(pids, 2000), []);
  });
});
