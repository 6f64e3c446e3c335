import { PrewarmPools } from '../src/run/prewarm.js';
import { runCommand } from '../src/run/command.js';
import { containment } from '../src/run/cgroup.js';
console.log(containment());
const pools = new PrewarmPools();
const env = { PATH: process.env.PATH!, HOME: process.env.HOME! };
const cwd = '/tmp/pw-exp';
const med = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)].toFixed(2); };
for (const cmd of process.argv.slice(2)) {
  const run = { command: cmd, cwd, env, stdin: '{"a":1}' };
  pools.run(run); await pools.ready();
  const w: number[] = [], c: number[] = [];
  for (let i = 0; i < 15; i++) {
    let t = process.cpuUsage();
    const a = pools.run(run);
    if (!('result' in a)) throw new Error(a.cold);
    await a.result;
    let d = process.cpuUsage(t); w.push((d.user + d.system) / 1000);
    await new Promise(r => setTimeout(r, 300)); // let deferred refill + reap happen outside
    t = process.cpuUsage();
    await runCommand(run);
    d = process.cpuUsage(t); c.push((d.user + d.system) / 1000);
    await pools.ready();
    await new Promise(r => setTimeout(r, 300));
  }
  console.log(cmd, 'hookline cpu: warm', med(w), 'cold', med(c), 'ms');
}
pools.close();
