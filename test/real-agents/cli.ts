// Runs real-agent cases by hand and prints what each side did and where they differ:
//   node --import tsx test/real-agents/cli.ts claude|codex [CASE…] [--side claude|codex|hookline] [--keep] [--raw]
import fs from 'node:fs';
import { compare } from './observe.js';
import { runSide as runClaude, type ClaudeCase } from './claude.js';
import { CLAUDE_CASES } from './claude-cases.js';
import { runSide as runCodex, type CodexCase } from './codex.js';
import { CODEX_CASES } from './codex-cases.js';

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
// --strict: the documented differences are compared too (to see that each still shows).
const strict = args.includes('--strict');
const names = args.filter((a) => !a.startsWith('--'));
if (agent !== 'claude' && agent !== 'codex') {
  process.stderr.write('usage: cli.ts claude|codex [CASE…] [--side claude|codex|hookline] [--keep]\n');
  process.exit(2);
}
const all: Array<ClaudeCase | CodexCase> = agent === 'claude' ? CLAUDE_CASES : CODEX_CASES;
const cases = names.length ? all.filter((c) => names.some((n) => c.name.includes(n))) : all;
const runSide = (side: string, c: ClaudeCase | CodexCase) =>
  agent === 'claude' ? runClaude(side as 'claude' | 'hookline', c as ClaudeCase) : runCodex(side as 'codex' | 'hookline', c as CodexCase);
let differing = 0;
for (const c of cases) {
  const sides = only ? [only] : [agent, 'hookline'];
  const runs = await Promise.all(sides.map((s) => runSide(s, c)));
  console.log(`\n=== ${c.name}`);
  for (const r of runs) {
    console.log(`--- ${r.side} (exit ${r.exited.code}${r.exited.timedOut ? ', timed out' : ''}) ${r.dirs.base}`);
    console.log(JSON.stringify(r.observation, null, 1));
    if (raw) console.log(`stdout:\n${r.exited.stdout}\nstderr:\n${r.exited.stderr}`);
    if (!keep) fs.rmSync(r.dirs.base, { recursive: true, force: true });
  }
  if (runs.length === 2) {
    const d = compare(
      runs[0].observation,
      runs[1].observation,
      strict ? [] : (c.differs?.aspects ?? []),
      'mayNotRun' in c ? c.mayNotRun : undefined,
    );
    const lines = Object.entries(d).flatMap(([a, ls]) => ls.map((l) => `  ${a}: ${l}`));
    if (lines.length) differing++;
    console.log(lines.length ? `DIFFERENT:\n${lines.join('\n')}` : 'SAME');
  }
}
if (cases.length > 1) console.log(`\n${differing} of ${cases.length} differ`);
