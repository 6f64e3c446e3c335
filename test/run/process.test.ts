// The one process layer: drain(), cgroup containment, persistent hooks' processes, the shell tool.
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCommand } from '../../src/run/command.js';
import { drain, envFrom, GroupRun, groupAlive, processAlive, runCounts, shellArgs } from '../../src/run/process.js';
import { containment } from '../../src/run/cgroup.js';
import { reapCounts } from '../../src/run/reap.js';
import { PersistentProcess } from '../../src/run/persistent.js';
import { decideRun } from '../../src/decide/run.js';
import { runInGroup } from '../../src/agent/tools/exec.js';
import { HookEngine } from '../../src/engine/index.js';
import { cmd, hook, makeProject, tmpFile } from '../helpers.js';
import { pidsReady, readPids, survivors, tmpDir } from './util.js';

const contained = containment();
const noCgroup = contained.available ? false : `runs cannot be contained on this machine: ${contained.reason}`;

const ENV = { PATH: process.env.PATH! };
const bt = (command: string) => ({ tool_name: 'run_shell_command', tool_input: { command } });

describe('process layer basics', () => {
  test('bash gets --norc, other shells do not', () => {
    assert.deepEqual(shellArgs('bash', 'x'), ['--norc', '-c', 'x']);
    assert.deepEqual(shellArgs('/usr/bin/bash', 'x'), ['--norc', '-c', 'x']);
    assert.deepEqual(shellArgs('sh', 'x'), ['-c', 'x']);
  });

  test("the shell is the one the hook's PATH names first, with argv[0] as given; a PATH with a relative folder is left to the spawn", async () => {
    const dir = tmpDir('shell-on-path');
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    // A bash earlier on PATH that says it ran, then is the real one.
    const real = process.env
      .PATH!.split(path.delimiter)
      .map((d) => path.join(d, 'bash'))
      .find((f) => fs.existsSync(f))!;
    fs.writeFileSync(path.join(bin, 'bash'), `#!${real}\necho wrapper\nexec ${real} "$@"\n`, { mode: 0o755 });
    const run = (PATH: string) => runCommand({ command: 'echo "shell=$0"', cwd: dir, env: { PATH }, stdin: '{}', timeoutMs: 10_000 });
    const first = await run(`${bin}${path.delimiter}${process.env.PATH}`);
    assert.match(first.stdout, /^wrapper$/m);
    // Without it on PATH, the system's bash, started as `bash` (its $0), as a spawn by name starts it.
    const plain = await run(process.env.PATH!);
    assert.equal(plain.stdout.trim(), 'shell=bash');
    // `bin` relative to the hook's folder: only the child can resolve it, and does.
    const relative = await run(`bin${path.delimiter}${process.env.PATH}`);
    assert.match(relative.stdout, /^wrapper$/m);
  });

  test('envFrom drops unset entries', () => {
    assert.deepEqual(envFrom({ A: '1', B: undefined }), { A: '1' });
  });

  test('a zombie is not alive; a stopped group is not alive', async () => {
    const g = new GroupRun({ command: 'sleep 1000', cwd: '/tmp', env: ENV, stdio: 'ignore' });
    const pid = g.pid!;
    assert.equal(processAlive(pid), true);
    assert.equal(groupAlive(pid), true);
    const exited = new Promise((r) => g.child.on('exit', r));
    g.end();
    await exited;
    assert.equal(processAlive(pid), false);
    assert.equal(groupAlive(pid), false);
    assert.equal(g.alive(), false);
  });
});

describe('drain() stops every run and reaps what it left before resolving', () => {
  test('a hook that ignores SIGTERM, its background child and its setsid daemon are gone when drain resolves', async () => {
    const pidFile = tmpFile('pids');
    const run = runCommand({ command: `${hook('proc-stubborn.sh')} '${pidFile}'`, cwd: '/tmp', env: ENV, stdin: '{}', timeoutMs: 60_000 });
    const pids = await pidsReady(pidFile, 3);
    assert.ok(runCounts().live >= 1);
    await drain();
    // SIGKILL was delivered before drain resolved; give the kernel a moment to finish each death.
    assert.deepEqual(await survivors(pids, 1000), []);
    const r = decideRun(await run);
    assert.equal(r.success, false);
    assert.equal(runCounts().live, 0);
  });

  test('drain with nothing running resolves at once', async () => {
    await drain();
    assert.equal(runCounts().live, 0);
  });
});

describe('cgroup containment', () => {
  test('this machine: cgroup v2 containment is reported with a reason when missing', (t) => {
    t.diagnostic(`cgroup containment: ${contained.available ? 'available' : `not available (${contained.reason})`}`);
    assert.equal(typeof contained.available, 'boolean');
    if (!contained.available) assert.ok(contained.reason && contained.reason.length > 0);
  });

  test('a process that dropped its run id and left the group is killed with its run; the cgroup is removed', {
    skip: noCgroup,
  }, async () => {
    const pidFile = tmpFile('pids');
    const r = decideRun(
      await runCommand({ command: `${hook('proc-leave.sh')} '${pidFile}' escape`, cwd: '/tmp', env: ENV, stdin: '{}', timeoutMs: 10_000 }),
    );
    assert.equal(r.output?.decision, 'allow');
    const pids = readPids(pidFile);
    assert.equal(pids.length, 2);
    assert.deepEqual(await survivors(pids, 2000), []);
    await drain();
    const own = fs
      .readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('0::'))!
      .slice(3);
    const mount = fs
      .readFileSync('/proc/self/mounts', 'utf8')
      .split('\n')
      .map((l) => l.split(' '))
      .find((f) => f[2] === 'cgroup2')![1];
    const left = fs.readdirSync(path.join(mount, own)).filter((n) => n.startsWith('hookline-') && n.includes(`-${process.pid}-`));
    assert.deepEqual(left, []);
  });

  test('a contained run that left nothing asks for no run-id scan; one that left a daemon still loses it', {
    skip: noCgroup,
  }, async () => {
    const before = reapCounts.requested;
    const clean = decideRun(
      await runCommand({ command: `echo '{"decision":"allow"}'`, cwd: '/tmp', env: ENV, stdin: '{}', timeoutMs: 10_000 }),
    );
    assert.equal(clean.output?.decision, 'allow');
    assert.equal(reapCounts.requested, before, 'the emptied cgroup already proved nothing is left');
    const pidFile = tmpFile('pids');
    const r = decideRun(
      await runCommand({ command: `${hook('proc-leave.sh')} '${pidFile}'`, cwd: '/tmp', env: ENV, stdin: '{}', timeoutMs: 10_000 }),
    );
    assert.equal(r.output?.decision, 'allow');
    const pids = readPids(pidFile);
    assert.equal(pids.length, 1);
    assert.deepEqual(await survivors(pids, 2000), []);
  });

  test('the next run gets a cgroup made between events, empty and its own; a host that exits leaves none', { skip: noCgroup }, async () => {
    const child = `
      import { runCommand } from ${JSON.stringify(path.resolve('src/run/command.ts'))};
      const cg = 'cat /proc/$$/cgroup | grep ^0:: | sed "s|.*/||"; cat /sys/fs/cgroup/unified/"$(cat /proc/$$/cgroup | grep ^0:: | sed "s|^0::||")"/cgroup.procs | wc -l';
      const out = [];
      for (let i = 0; i < 3; i++) {
        const r = await runCommand({ command: cg, cwd: '/tmp', env: { PATH: process.env.PATH }, stdin: '{}', timeoutMs: 10_000 });
        out.push(r.stdout.trim().split('\\n'));
        await new Promise((res) => setTimeout(res, 20));
      }
      console.log(JSON.stringify(out));
    `;
    const mount = fs
      .readFileSync('/proc/self/mounts', 'utf8')
      .split('\n')
      .map((l) => l.split(' '))
      .find((f) => f[2] === 'cgroup2')![1];
    if (mount !== '/sys/fs/cgroup/unified' && mount !== '/sys/fs/cgroup') return;
    const script = child.replaceAll('/sys/fs/cgroup/unified', mount);
    const { spawnSync } = await import('node:child_process');
    const res = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(res.status, 0, res.stderr);
    const runs = JSON.parse(res.stdout) as string[][];
    const names = runs.map((r) => r[0]);
    assert.equal(new Set(names).size, 3, 'each run has a cgroup of its own');
    for (const [name, count] of runs) {
      assert.match(name, new RegExp(`^hookline-\\d+-${res.pid}-`), 'made by the host for its run');
      // The first run's cgroup is made at the run; the later ones ahead: the same processes in each.
      assert.equal(count, runs[0][1], 'nothing in it but the run itself');
    }
    const own = fs
      .readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('0::'))!
      .slice(3);
    const left = fs.readdirSync(path.join(mount, own)).filter((n) => n.includes(`-${res.pid}-`));
    assert.deepEqual(left, [], 'the cgroup made ahead for a fourth run is removed at exit');
  });

  test('a cold bash run is in its cgroup from its first command, and sees nothing of how it got there', { skip: noCgroup }, async () => {
    const command = [
      'echo "underscore=$_"',
      'grep -q hookline- /proc/$$/cgroup && echo inside',
      'env | grep -E "^(BASH_ENV|__HOOKLINE)" || echo clean-env',
      'declare -F | grep -q hookline || echo no-functions',
      'echo "parent=$(cat /proc/$PPID/comm)"',
    ].join('; ');
    const r = await runCommand({ command, cwd: '/tmp', env: { ...ENV, _: '/usr/bin/agent' }, stdin: '{}', timeoutMs: 10_000 });
    assert.deepEqual(r.stdout.trim().split('\n'), [
      'underscore=/usr/bin/agent',
      'inside',
      'clean-env',
      'no-functions',
      `parent=${path.basename(process.execPath).slice(0, 15)}`,
    ]);
  });

  test("a user's own BASH_ENV is still read by the hook's bash, which is still contained", { skip: noCgroup }, async () => {
    const rc = tmpFile('bash-env');
    fs.writeFileSync(rc, 'FROM_BASH_ENV=yes\n');
    const command = 'echo "$FROM_BASH_ENV $BASH_ENV"; grep -q hookline- /proc/$$/cgroup && echo inside';
    const r = await runCommand({ command, cwd: '/tmp', env: { ...ENV, BASH_ENV: rc }, stdin: '{}', timeoutMs: 10_000 });
    assert.deepEqual(r.stdout.trim().split('\n'), [`yes ${rc}`, 'inside']);
  });

  test('a double fork with an empty environment is killed with its run', { skip: noCgroup }, async () => {
    const pidFile = tmpFile('pids');
    const command = `S=$(command -v setsid) Z=$(command -v sleep); ( env -i "$S" "$Z" 1000 & echo $! >> '${pidFile}' ) & wait; echo '{}'`;
    await runCommand({ command, cwd: '/tmp', env: ENV, stdin: '{}', timeoutMs: 10_000 });
    const pids = readPids(pidFile);
    assert.equal(pids.length, 1);
    assert.deepEqual(await survivors(pids, 2000), []);
  });
});

describe('persistent hooks are processes like any other', () => {
  const procs: PersistentProcess[] = [];
  const engines: HookEngine[] = [];
  after(() => {
    procs.forEach((p) => p.close());
    engines.forEach((e) => e.close());
  });

  test('a timed-out process that ignores SIGTERM is killed, with its setsid daemon', async () => {
    const pidFile = tmpFile('pids');
    const p = new PersistentProcess({
      command: `${hook('proc-persistent.sh')} '${pidFile}'`,
      cwd: '/tmp',
      env: { ...ENV, HOOKLINE_NO_CGROUP: '1' },
    });
    procs.push(p);
    const ok = decideRun(await p.request(bt('ls'), 10_000));
    assert.match(String(ok.output?.systemMessage), /^pid \d+ tag none$/);
    const pids = readPids(pidFile);
    assert.equal(pids.length, 2);
    const hung = decideRun(await p.request(bt('hang'), 300));
    assert.equal(hung.timedOut, true);
    assert.equal(hung.success, false);
    assert.deepEqual(await survivors(pids, 3000), [], 'SIGKILL followed the ignored SIGTERM; the daemon was reaped');
  });

  test('close() reaps the setsid children of a persistent hook', async () => {
    const pidFile = tmpFile('pids');
    const p = new PersistentProcess({ command: `${hook('proc-persistent.sh')} '${pidFile}'`, cwd: '/tmp', env: ENV });
    procs.push(p);
    await p.request(bt('ls'), 10_000);
    const pids = readPids(pidFile);
    p.close();
    assert.deepEqual(await survivors(pids, 2000), []);
  });

  test('a reply comes back raw and is read by src/decide as a one-shot output would be', async () => {
    const p = new PersistentProcess({
      command: `${hook('proc-persistent.sh')} '${tmpFile('pids')}'`,
      cwd: '/tmp',
      env: { ...ENV, TAG: 'x' },
    });
    procs.push(p);
    const raw = await p.request(bt('ls'), 10_000);
    assert.equal('output' in raw, false);
    assert.match(JSON.parse(raw.stdout).systemMessage, /tag x$/);
    assert.equal(raw.exitCode, 0);
    const r = decideRun(raw);
    assert.equal(r.outputFormat, 'json');
    assert.equal(r.success, true);
  });

  test('a request already cancelled settles at once', async () => {
    const p = new PersistentProcess({ command: `${hook('proc-persistent.sh')} '${tmpFile('pids')}'`, cwd: '/tmp', env: ENV });
    procs.push(p);
    const ac = new AbortController();
    ac.abort();
    const r = await p.request(bt('ls'), 60_000, ac.signal);
    assert.equal(r.error, 'Hook cancelled');
  });

  test('two persistent hooks with the same command and a different env are two processes', async () => {
    const command = `${hook('proc-persistent.sh')} '${tmpFile('pids')}'`;
    const pr = makeProject({
      project: {
        hooks: {
          BeforeTool: [
            {
              hooks: [
                cmd(command, { name: 'a', persistent: true, env: { TAG: 'a' } }),
                cmd(command, { name: 'b', persistent: true, env: { TAG: 'b' } }),
              ],
            },
          ],
        },
      },
    });
    const e = new HookEngine({ cwd: pr.dir, env: pr.env });
    engines.push(e);
    const r = await e.fire('BeforeTool', bt('ls'));
    const said = r.runs.map((x) => String(x.output?.systemMessage));
    assert.match(said[0], /tag a$/);
    assert.match(said[1], /tag b$/);
    assert.notEqual(/pid (\d+)/.exec(said[0])![1], /pid (\d+)/.exec(said[1])![1]);
  });

  test('a persistent bash hook does not read ~/.bashrc (started with --norc)', async () => {
    const home = tmpDir('hookline-home-');
    const marker = path.join(home, 'rc-ran');
    fs.writeFileSync(path.join(home, '.bashrc'), `touch '${marker}'\n`);
    const env: Record<string, string> = { PATH: process.env.PATH!, HOME: home };
    const p = new PersistentProcess({ command: `${hook('proc-persistent.sh')} '${tmpFile('pids')}'`, cwd: home, env });
    procs.push(p);
    const r = decideRun(await p.request(bt('ls'), 10_000));
    assert.equal(r.success, true);
    assert.equal(fs.existsSync(marker), false);
  });
});

describe("the agent's shell tool runs through the same layer", () => {
  test('a double-forked setsid daemon is reaped by run id when the command is over', async () => {
    const pidFile = tmpFile('pids');
    const o = await runInGroup(
      `(setsid sleep 1000 & echo $! >> '${pidFile}') ; echo done`,
      '/tmp',
      { ...ENV, HOOKLINE_NO_CGROUP: '1' },
      new AbortController().signal,
      10_000,
    );
    assert.equal(o.output, 'done');
    const pids = readPids(pidFile);
    assert.equal(pids.length, 1);
    await drain();
    assert.deepEqual(await survivors(pids, 2000), []);
  });

  test('contained: one that dropped its run id is ended too', { skip: noCgroup }, async () => {
    const pidFile = tmpFile('pids');
    const o = await runInGroup(
      `(setsid env -u HOOKLINE_RUN_ID sleep 1000 & echo $! >> '${pidFile}') ; echo done`,
      '/tmp',
      ENV,
      new AbortController().signal,
      10_000,
    );
    assert.equal(o.output, 'done');
    const pids = readPids(pidFile);
    assert.deepEqual(await survivors(pids, 2000), []);
  });
});
