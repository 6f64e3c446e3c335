// Runs real-agent cases by hand and prints what each side did and where they differ:
//   node --import tsx test/real-agents/cli.ts claude|copilot [CASE…] [--side claude|copilot|hookline] [--keep] [--raw]
import fs from 'node:fs';
import { compare, type Aspect, type Observation } from './observe.js';
import type { Dirs } from './observe.js';
import type { Exited } from './agents.js';

interface Run {
  side: string;
  dirs: Dirs;
  exited: Exited;
  requests: unknown[];
  observation: Observation;
}

interface Driver {
  cases: Array<{ name: string; differs?: { aspects: Aspect[] }; mayNotRun?: string[] }>;
  sides: readonly string[];
  run(side: string, c: unknown): Promise<Run>;
}

async function driver(agent: string | undefined): Promise<Driver | undefined> {
  if (agent === 'claude') {
    const { runSide } = await import('./claude.js');
    const { CLAUDE_CASES } = await import('./claude-cases.js');
    return { cases: CLAUDE_CASES, sides: ['claude', 'hookline'], run: (s, c) => runSide(s as 'claude', c as never) };
  }
  if (agent === 'copilot') {
    const { runSide, prepareCopilot } = await import('./copilot.js');
    const { COPILOT_CASES } = await import('./copilot-cases.js');
    await prepareCopilot();
    return { cases: COPILOT_CASES, sides: ['copilot', 'hookline'], run: (s, c) => runSide(s as 'copilot', c as never) };
  }
  return undefined;
}

const args = process.argv.slice(2);
const agent = args.shift();
const flag = (name: string) => {
  const i = args.indexOf(name);
  if (i === -1) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const only = flag('--side');
const keep = args.includes('--keep');
const raw = args.includes('--raw');
const names = args.filter((a) => !a.startsWith('--'));
const d = await driver(agent);
if (!d) {
  process.stderr.write('usage: cli.ts claude|copilot [CASE…] [--side AGENT|hookline] [--keep] [--raw]\n');
  process.exit(2);
}
const cases = names.length ? d.cases.filter((c) => names.some((n) => c.name.includes(n))) : d.cases;
let differing = 0;
for (const c of cases) {
  const sides = only ? [only] : d.sides;
  const runs = await Promise.all(sides.map((s) => d.run(s, c)));
  console.log(`\n=== ${c.name}`);
  for (const r of runs) {
    console.log(`--- ${r.side} (exit ${r.exited.code}${r.exited.timedOut ? ', timed out' : ''}) ${r.dirs.base}`);
    console.log(JSON.stringify(r.observation, null, 1));
    if (raw) console.log(`stdout:\n${r.exited.stdout}\nstderr:\n${r.exited.stderr}`);
    if (keep) fs.writeFileSync(`${r.dirs.base}/requests.json`, JSON.stringify(r.requests, null, 1));
    else fs.rmSync(r.dirs.base, { recursive: true, force: true });
  }
  if (runs.length === 2) {
    const diff = compare(runs[0].observation, runs[1].observation, c.differs?.aspects ?? [], c.mayNotRun);
    const lines = Object.entries(diff).flatMap(([a, ls]) => ls.map((l) => `  ${a}: ${l}`));
    if (lines.length) differing++;
    console.log(lines.length ? `DIFFERENT:\n${lines.join('\n')}` : 'SAME');
  }
}
if (cases.length > 1) console.log(`\n${differing} of ${cases.length} differ`);
