// Runs real-agent cases by hand and prints what each side did and where they differ:
//   node --import tsx test/real-agents/cli.ts claude|codex|copilot|gemini [CASE…] [--side AGENT|hookline] [--keep] [--raw] [--strict]
// --strict: the documented differences are compared too (to see that each still shows).
import fs from 'node:fs';
import path from 'node:path';
import { compare, type Aspect, type Observation } from './observe.js';
import * as claude from './claude.js';
import { CLAUDE_CASES } from './claude-cases.js';
import * as codex from './codex.js';
import { CODEX_CASES } from './codex-cases.js';
import * as copilot from './copilot.js';
import { COPILOT_CASES } from './copilot-cases.js';
import * as gemini from './gemini.js';
import { GEMINI_CASES } from './gemini-cases.js';
import type { SideRun } from './harness.js';

interface Case {
  name: string;
  differs?: { aspects: Aspect[] };
  mayNotRun?: string[];
}
interface Driver {
  cases: Case[];
  run(side: string, c: Case): Promise<SideRun & { observation: Observation }>;
}
const DRIVERS: Record<string, Driver> = {
  claude: { cases: CLAUDE_CASES, run: (s, c) => claude.runSide(s as 'claude', c as claude.ClaudeCase) },
  codex: { cases: CODEX_CASES, run: (s, c) => codex.runSide(s as 'codex', c as codex.CodexCase) },
  copilot: { cases: COPILOT_CASES, run: (s, c) => copilot.runSide(s as 'copilot', c as never) },
  gemini: { cases: GEMINI_CASES, run: (s, c) => gemini.runSide(s as 'gemini', c as gemini.GeminiCase) },
};

const args = process.argv.slice(2);
const agent = args.shift() ?? '';
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
const strict = args.includes('--strict');
const names = args.filter((a) => !a.startsWith('--'));
const driver = DRIVERS[agent];
if (!driver) {
  process.stderr.write('usage: cli.ts claude|codex|copilot|gemini [CASE…] [--side AGENT|hookline] [--keep] [--raw] [--strict]\n');
  process.exit(2);
}
if (agent === 'copilot') await copilot.prepareCopilot();
const cases = names.length ? driver.cases.filter((c) => names.some((n) => c.name.includes(n))) : driver.cases;
let differing = 0;
for (const c of cases) {
  const sides = only ? [only] : [agent, 'hookline'];
  const runs = await Promise.all(sides.map((s) => driver.run(s, c)));
  console.log(`\n=== ${c.name}`);
  for (const r of runs) {
    console.log(`--- ${r.side} (exit ${r.exited.code}${r.exited.timedOut ? ', timed out' : ''}) ${r.dirs.base}`);
    console.log(JSON.stringify(r.observation, null, 1));
    if (raw) console.log(`stdout:\n${r.exited.stdout}\nstderr:\n${r.exited.stderr}`);
    if (keep) fs.writeFileSync(path.join(r.dirs.base, 'requests.json'), JSON.stringify(r.requests, null, 1));
    else fs.rmSync(r.dirs.base, { recursive: true, force: true });
  }
  if (runs.length === 2) {
    const d = compare(runs[0].observation, runs[1].observation, strict ? [] : (c.differs?.aspects ?? []), c.mayNotRun);
    const lines = Object.entries(d).flatMap(([a, ls]) => ls.map((l) => `  ${a}: ${l}`));
    if (lines.length) differing++;
    console.log(lines.length ? `DIFFERENT:\n${lines.join('\n')}` : 'SAME');
  }
}
if (cases.length > 1) console.log(`\n${differing} of ${cases.length} differ`);
