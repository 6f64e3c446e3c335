import { print, printJson } from './io.js';
/** `hookline explain [SESSION] [N]`: the story of one decision from a trace. */
import { CATALOG } from '../events/catalog.js';
import { isEventName } from '../events/names.js';
import { visible } from '../config/display.js';
import { UsageError } from '../config/problems.js';
import { DENYING, findTrace, loadTrace, pickFire, type LoadedTrace, type TracedFire } from './trace-file.js';

const MERGE_RULES: Record<string, string> = {
  or: 'OR: any deny or block wins, then ask; "continue": false from any hook stops the agent; reasons, messages and contexts are joined in order; with no objection the result is allow',
  replace: 'replace: later hooks override earlier ones field by field (hookSpecificOutput merged one level deep)',
  toolSelection: 'tool selection: mode NONE beats ANY beats AUTO; the allowed tool names are the union',
  simple: 'advisory: the outputs are merged field by field; nothing is blocked',
};

/** How a hook system combines the runs of one event. */
export function combinationRule(dialect: string, event: string, sequential: boolean): string {
  switch (dialect) {
    case 'gemini': {
      const merge = isEventName(event) ? CATALOG[event].merge : 'simple';
      const order = sequential ? 'in sequence (each hook read the input as the earlier ones left it)' : 'in parallel';
      return `Gemini settings hooks ran ${order}, merged by ${MERGE_RULES[merge]}; shadow runs are left out`;
    }
    case 'claude':
      return event === 'PreToolUse'
        ? 'Claude Code: every hook ran at once; the strongest decision wins (deny > defer > ask > allow); "continue": false from any hook stops'
        : 'Claude Code: every hook ran at once; any block blocks, reasons joined; "continue": false from any hook stops';
    case 'codex':
      return event === 'PreToolUse'
        ? 'Codex: every hook ran at once; the strongest decision wins (deny > ask > allow); "continue": false from any hook stops'
        : 'Codex: every hook ran at once; any block blocks, reasons joined; "continue": false from any hook stops';
    case 'copilot':
      return event === 'preToolUse' || event === 'PreToolUse'
        ? 'Copilot CLI: hooks ran one after another in file order, each reading the arguments as the earlier ones rewrote them; the first deny ends the chain, then ask beats allow'
        : 'Copilot CLI: hooks ran one after another in file order; a block from any hook blocks, with the last reason given';
    case 'agy':
      return 'agy: hooks ran one after another; any deny vetoes, then force_ask, ask, allow';
    case 'mm':
      return 'mm: hooks ran one after another; the first stop or deny ends the chain, a continue passes its changes to the next hook';
    case 'spatialagent':
      return 'SpatialAgent: hooks ran in order; the first block wins and ends the chain';
    default:
      return `${dialect}: hooks combined by that system's rules`;
  }
}

type Kind = 'tool' | 'prompt' | 'answer' | 'model' | 'other';
const KINDS: Record<string, Kind> = {
  BeforeTool: 'tool',
  PreToolUse: 'tool',
  preToolCall: 'tool',
  preAsk: 'tool',
  PreAct: 'tool',
  preToolUse: 'tool',
  permissionRequest: 'tool',
  BeforeAgent: 'prompt',
  UserPromptSubmit: 'prompt',
  preGeneration: 'prompt',
  Start: 'prompt',
  userPromptSubmitted: 'prompt',
  AfterAgent: 'answer',
  Stop: 'answer',
  SubagentStop: 'answer',
  PreConclusion: 'answer',
  agentStop: 'answer',
  BeforeModel: 'model',
  AfterModel: 'model',
  PreInvocation: 'model',
};

/** What the agent does with a decision at this point. */
export function consequence(event: string, decision: string, target?: string): string {
  const kind = KINDS[event] ?? 'other';
  const what = target ? `\`${target}\`` : 'the tool';
  if (decision === 'stop') return 'the agent stopped: the turn ended and the stop reason was shown';
  if (decision === 'error') return 'a hook failed; the run was reported and (for this system) the event went on as if allowed';
  const blocked = decision === 'deny' || decision === 'block';
  const asked = decision === 'ask' || decision === 'force_ask' || decision === 'defer';
  switch (kind) {
    case 'tool':
      if (blocked) return `${what} did not run; the model was told the reason`;
      if (asked) return `the user was asked whether ${what} may run`;
      return `${what} ran${decision === 'allow' ? ' (allowed by the hooks)' : ''}`;
    case 'prompt':
      if (blocked) return 'the prompt was refused; the model was not called';
      return 'the prompt went to the model';
    case 'answer':
      if (blocked) return 'the answer was not accepted: the agent went on with the reason as its next instruction';
      return 'the answer stood and the turn ended';
    case 'model':
      if (blocked) return 'the model call was blocked';
      return 'the model call went on (with any rewrite the hooks made)';
    default:
      return blocked ? 'the hooks objected; this event cannot block, so the agent went on' : 'the agent went on';
  }
}

export function explainText(trace: LoadedTrace, index: number, f: TracedFire): string {
  const { fire, runs } = f;
  const out: string[] = [];
  out.push(
    `Event ${index} of ${trace.fires.length} in session ${trace.session}: ${fire.dialect} ${fire.event}${fire.target ? ` for ${visible(fire.target)}` : ''} at ${fire.t}`,
  );
  out.push(
    `  input ${fire.input}${fire.inputJson !== undefined ? ' (full input recorded)' : ' (digest only)'}${fire.cwd ? `, in ${fire.cwd}` : ''}`,
  );
  out.push(`${runs.length} hook(s) answered:`);
  runs.forEach((r, i) => {
    const where = [r.source, r.file].filter(Boolean).join(', ');
    const answer = r.shadow ? `would have answered ${r.decision} (shadow mode: not enforced)` : r.decision;
    out.push(
      `  ${i + 1}. ${visible(r.hook)}${where ? ` (${visible(where)})` : ''}: ${answer}${r.reason ? ` — "${visible(r.reason)}"` : ''}`,
    );
    const detail = [
      `${r.ms} ms`,
      `exit ${r.exit ?? 'none'}`,
      ...(r.effect ? [`also: ${r.effect}`] : []),
      ...(r.error ? [`error: ${visible(r.error)}`] : []),
    ];
    out.push(`     ${detail.join(', ')}`);
    if (r.stderr) out.push(`     stderr: ${visible(r.stderr.trim().split('\n').slice(0, 3).join(' | '))}`);
    if (r.input !== fire.input) out.push(`     read input ${r.input} (as earlier hooks left it)`);
  });
  out.push(`How they were combined: ${combinationRule(fire.dialect, fire.event, !!fire.sequential)}.`);
  out.push(`Result: ${fire.decision}${fire.reason ? ` — "${visible(fire.reason)}"` : ''}${fire.effect ? ` (also: ${fire.effect})` : ''}`);
  out.push(`What the agent did: ${consequence(fire.event, fire.decision, fire.target)}.`);
  // Only what is stronger than the result: a shadow deny under an enforced deny changes nothing.
  const shadowed = runs.filter((r) => r.shadow && DENYING.has(r.decision) && !DENYING.has(fire.decision));
  if (shadowed.length)
    out.push(`Shadow hooks would have changed this: ${shadowed.map((r) => `${visible(r.hook)} (${r.decision})`).join(', ')}.`);
  return `${out.join('\n')}\n`;
}

export function explain(sessionArg: string | undefined, nArg: string | undefined, opts: { json?: boolean }): void {
  // `hookline explain 3`: the third event of the latest session.
  const numberOnly = nArg === undefined && sessionArg !== undefined && /^\d{1,6}$/.test(sessionArg);
  const session = numberOnly ? undefined : sessionArg;
  const n = numberOnly ? sessionArg : nArg;
  let index: number | undefined;
  if (n !== undefined) {
    index = Number(n);
    if (!/^\d+$/.test(n)) throw new UsageError(`event number "${n}" must be a whole number (1 is the session's first event)`);
  }
  const trace = loadTrace(findTrace(session));
  const picked = pickFire(trace, index);
  if (opts.json) {
    const { fire, runs } = picked.fire;
    printJson({
      index: picked.index,
      fire,
      runs,
      rule: combinationRule(fire.dialect, fire.event, !!fire.sequential),
      consequence: consequence(fire.event, fire.decision, fire.target),
    });
    return;
  }
  print(explainText(trace, picked.index, picked.fire).replace(/\n$/, ''));
}
