// `node --import tsx bench/spawn-path.ts [N] [--back-to-back]`: where a trivial one-shot `bash -c`
// hook's time goes, step by step (spawn, shell start-up, detaching, the cgroup and its sh wrapper,
// Hookline's own run, a waiting shell). Wall time, Hookline's CPU and its children's CPU per run,
// medians. Each step runs after an idle gap, as events come in a session: a move into a cgroup
// then waits for a full RCU grace period, which back to back (--back-to-back) it mostly does not.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { runCommand } from '../src/run/command.js';
import { PrewarmPools } from '../src/run/prewarm.js';
import { containment } from '../src/run/cgroup.js';
const ALLOW = `cat >/dev/null; echo '{"decision":"allow"}'`;
const INPUT = JSON.stringify({ hook_event_name: 'BeforeTool', tool_input: { command: 'ls' }, cwd: '/tmp' });
const env = { ...process.env } as Record<string, string>;
const ticks = () => {
  const f = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(f[13]) + Number(f[14])) * 10;
};
const med = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
function raw(file: string, args: string[], detached = false): Promise<void> {
  return new Promise((resolve) => {
    const c = spawn(file, args, { cwd: '/tmp', env, stdio: ['pipe', 'pipe', 'pipe'], detached });
    c.stdout.on('data', () => {});
    c.stderr.on('data', () => {});
    c.on('close', () => resolve());
    c.stdin.on('error', () => {});
    c.stdin.end(INPUT);
  });
}
const base = JSON.parse(JSON.stringify(containment()));
const own = fs
  .readFileSync('/proc/self/cgroup', 'utf8')
  .trim()
  .split('\n')
  .find((l) => l.startsWith('0::'))!
  .slice(3);
// The cgroup2 mount, as src/run/cgroup.ts finds it (it is not always /sys/fs/cgroup).
const mount = fs
  .readFileSync('/proc/self/mounts', 'utf8')
  .split('\n')
  .map((l) => l.split(' '))
  .find((f) => f[2] === 'cgroup2')?.[1];
if (!mount || !base.available) throw new Error('no cgroup v2 containment here: the cgroup steps cannot be measured');
const cgBase = path.join(mount, own);
async function withCgroup(): Promise<void> {
  const dir = path.join(cgBase, `hookline-exp-${process.pid}-${randomUUID()}`);
  fs.mkdirSync(dir);
  await raw(
    '/bin/sh',
    ['-c', 'echo $$ > "$0" 2>/dev/null; exec "$@"', path.join(dir, 'cgroup.procs'), 'bash', '--norc', '-c', ALLOW],
    true,
  );
  fs.writeFileSync(path.join(dir, 'cgroup.kill'), '1');
  try {
    fs.rmdirSync(dir);
  } catch {
    leftover.push(dir);
  }
}
async function withCgroupNoWrap(): Promise<void> {
  const dir = path.join(cgBase, `hookline-exp-${process.pid}-${randomUUID()}`);
  fs.mkdirSync(dir);
  await raw('bash', ['--norc', '-c', ALLOW], true);
  fs.writeFileSync(path.join(dir, 'cgroup.kill'), '1');
  try {
    fs.rmdirSync(dir);
  } catch {
    leftover.push(dir);
  }
}
const variants: Array<[string, () => Promise<unknown>]> = [
  ['sh -c true (dash)', () => raw('/bin/sh', ['-c', 'true'])],
  ['bash -c true', () => raw('bash', ['--norc', '-c', 'true'])],
  ['bash -c ALLOW', () => raw('bash', ['--norc', '-c', ALLOW])],
  ['bash -c ALLOW detached', () => raw('bash', ['--norc', '-c', ALLOW], true)],
  ['+ cgroup mkdir/kill/rmdir, no wrapper', withCgroupNoWrap],
  ['+ sh wrapper moving into cgroup', withCgroup],
  ['runCommand', () => runCommand({ command: ALLOW, cwd: '/tmp', env, stdin: INPUT })],
  ['runCommand in a waiting shell', () => warmShell()],
];
const pools = new PrewarmPools();
/** Cgroups whose killed processes were still dying: removed at the end. */
const leftover: string[] = [];
async function warmShell(): Promise<unknown> {
  const a = pools.run({ command: ALLOW, cwd: '/tmp', env, stdin: INPUT });
  if (!('result' in a)) throw new Error(a.cold);
  return a.result;
}
pools.run({ command: ALLOW, cwd: '/tmp', env, stdin: INPUT });
console.log('containment', base);
const N = Number(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 40);
const GAP_MS = process.argv.includes('--back-to-back') ? 0 : 60;
const res: Record<string, { wall: number[]; cpu: number[]; child: number }> = {};
for (const [name] of variants) res[name] = { wall: [], cpu: [], child: 0 };
for (let i = 0; i < N; i++)
  for (const [name, fn] of variants) {
    await pools.ready(); // untimed: the waiting shells refill between events
    if (GAP_MS) await new Promise((r) => setTimeout(r, GAP_MS));
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const k0 = ticks();
    await fn();
    const c = process.cpuUsage(c0);
    res[name].wall.push(performance.now() - t0);
    res[name].cpu.push((c.user + c.system) / 1000);
    res[name].child += ticks() - k0;
  }
for (const [name, r] of Object.entries(res))
  console.log(
    `${name.padEnd(40)} wall ${med(r.wall).toFixed(2)} ms  hookline cpu ${med(r.cpu).toFixed(2)} ms  children cpu ${(r.child / N).toFixed(2)} ms`,
  );
console.log(fs.readFileSync('/proc/loadavg', 'utf8'));
pools.close();
await new Promise((r) => setTimeout(r, 500));
for (const dir of leftover) {
  try {
    fs.rmdirSync(dir);
  } catch (e) {
    console.error(`could not remove ${dir}: ${(e as Error).message}`);
  }
}
