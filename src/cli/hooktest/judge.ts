import { partialMatch, sameDecision, type Verdict } from '../../dialects/verdict.js';
import type { HookTestExpect } from './fixture.js';

const show = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v));

/** Every way the verdict differs from what the fixture expects, one phrase each (none: it passes). */
export function judge(expect: HookTestExpect, v: Verdict): string[] {
  const out: string[] = [];
  if (expect.hooks !== undefined ? v.hooks !== expect.hooks : v.hooks === 0)
    out.push(`expected ${expect.hooks ?? 'at least 1'} hook run(s), got ${v.hooks}`);
  if (expect.decision !== undefined && !sameDecision(expect.decision, v.decision))
    out.push(`expected decision ${expect.decision}, got ${v.decision}${v.reason ? ` (${JSON.stringify(v.reason)})` : ''}`);
  if (expect.reason !== undefined && !(v.reason ?? '').includes(expect.reason))
    out.push(`expected reason containing ${JSON.stringify(expect.reason)}, got ${show(v.reason)}`);
  if (expect.context !== undefined && !(v.context ?? '').includes(expect.context))
    out.push(`expected context containing ${JSON.stringify(expect.context)}, got ${show(v.context)}`);
  if (expect.exitCode !== undefined && v.exitCode !== expect.exitCode) out.push(`expected exit code ${expect.exitCode}, got ${v.exitCode}`);
  if (expect.output !== undefined && !partialMatch(expect.output, v.output))
    out.push(`expected output to include ${JSON.stringify(expect.output)}, got ${JSON.stringify(v.output)}`);
  return out;
}
