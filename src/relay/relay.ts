/**
 * The relay: what Hookline's entries in another agent's configuration run. It reads the host
 * agent's event in the host's wire format, runs the hooks the user chose for Hookline (Hookline's
 * own Gemini-format settings, and other agents' hooks named with `--hooks-from`, translated)
 * through the one trust gate and process layer, and answers in the host's format. Decisions of
 * several hook systems combine by the host's own rule (Claude Code's for Claude Code and Codex,
 * and for Copilot CLI, whose events run as Claude Code's: copilot.ts; Gemini CLI's for Gemini CLI). What was held back is said in the answer's `systemMessage`, so
 * the host shows it; when Hookline itself cannot decide, a guard event is denied (hosts.ts).
 */
import type { HookOutput } from '../events/output.js';
import { aggregate } from '../decide/aggregate.js';
import { isEventName, type EventName } from '../events/names.js';
import { claudeEventFor, fromClaudeInput, toClaudeInput, toClaudeResponse, toGeminiOutput } from '../dialects/claude/translate.js';
import { aggregateClaude, type ClaudeOutput } from '../dialects/claude/output.js';
import { claudeAnswer } from '../dialects/claude/answer.js';
import { isClaudeEvent, type ClaudeEvent } from '../dialects/claude/events.js';
import type { HeldBack, SystemFire, WarmStore } from '../dialects/system.js';
import { systemNamed } from '../dialects/registry.js';
import { failedAnswer, HOSTS, RELAY_ENV, type HostName, type RelayAnswer } from './hosts.js';
import { GUARDS } from './answers.js';
import { claudeAnswerAsCopilot, copilotAsClaude, copilotRelayAnswer } from './copilot.js';

/** The host's answer: its JSON on stdout (nothing when there is nothing to say), exit 0. */
const answerOf = (json: Record<string, unknown>, warnings: string[]): RelayAnswer => ({
  stdout: Object.keys(json).length ? `${JSON.stringify(json)}\n` : '',
  exitCode: 0,
  stderr: warnings,
});

/** Whose hooks a relay runs: Hookline's own (Gemini-format settings), or another agent's, translated. */
export type Source = 'hookline' | 'claude' | 'codex';

export const SOURCES: readonly Source[] = ['hookline', 'claude', 'codex'];

export interface RelayOptions {
  /** The folder the host runs in (its `cwd`). */
  cwd: string;
  env: NodeJS.ProcessEnv;
  sources: readonly Source[];
  /** Engines kept by a long-running server. */
  warm?: WarmStore;
  signal?: AbortSignal;
  /** The event, when the host's input does not name it (Copilot CLI's entries name theirs). */
  event?: string;
  /** Configuration files the source's system leaves out (the host runs them itself). */
  leave?: ReadonlySet<string>;
}

/** The system whose hooks a source is. */
const SYSTEM_OF: Record<Source, string> = { hookline: 'gemini', claude: 'claude', codex: 'codex' };

/** What one source's hooks said, in the host's family: a Claude-shaped answer, or a Gemini output. */
interface Said {
  claude?: Record<string, unknown>;
  gemini?: HookOutput;
  held: HeldBack[];
  warnings: string[];
  configErrors?: string[];
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** The source's hooks on its own event; undefined when that system has no such event (nothing of it runs). */
async function fireSystem(
  source: Source,
  event: string,
  fields: Record<string, unknown>,
  opts: RelayOptions,
): Promise<SystemFire | undefined> {
  const system = await systemNamed(SYSTEM_OF[source]);
  if (!system.events.includes(event)) return undefined;
  // Hooks started by the relay see that they run inside it: a relay entry among them answers at once (no loop).
  const env = { ...opts.env, [RELAY_ENV]: '1' };
  return system.fire(event, fields, {
    cwd: opts.cwd,
    env,
    hasModel: false,
    ...(opts.warm ? { warm: opts.warm } : {}),
    ...(opts.leave ? { leave: opts.leave } : {}),
    signal: opts.signal,
  });
}

/** One source's hooks on a Claude Code (or Codex) event. */
async function onClaudeEvent(source: Source, event: string, input: Record<string, unknown>, opts: RelayOptions): Promise<Said | undefined> {
  if (source === 'hookline') {
    const g = fromClaudeInput(event, input, opts.cwd);
    if (!g) return undefined;
    const session = { session_id: str(input.session_id), transcript_path: str(input.transcript_path) };
    const r = await fireSystem(source, g.event, { ...session, ...g.fields }, opts);
    if (!r) return undefined;
    const toolName = str(input.tool_name);
    const toolInput = (input.tool_input as Record<string, unknown> | undefined) ?? {};
    const claude = toClaudeResponse(event, (r.output ?? undefined) as HookOutput | undefined, { toolName, toolInput, cwd: opts.cwd });
    return {
      ...(claude ? { claude: claude as Record<string, unknown> } : {}),
      held: r.heldBack,
      warnings: r.warnings,
      ...(r.configErrors ? { configErrors: r.configErrors } : {}),
    };
  }
  if (!isClaudeEvent(event)) return undefined;
  const r = await fireSystem(source, event, input, opts);
  if (!r) return undefined;
  const out = r.output as Omit<ClaudeOutput, 'blocks' | 'contexts'> | null;
  const claude = out ? claudeAnswer(event, out) : undefined;
  return {
    ...(claude ? { claude } : {}),
    held: r.heldBack,
    warnings: r.warnings,
    ...(r.configErrors ? { configErrors: r.configErrors } : {}),
  };
}

/** One source's hooks on a Gemini CLI event. */
async function onGeminiEvent(
  source: Source,
  event: EventName,
  input: Record<string, unknown>,
  opts: RelayOptions,
): Promise<Said | undefined> {
  if (source === 'hookline') return undefined;
  const claudeEvent = claudeEventFor(event, input);
  const claudeInput = claudeEvent && toClaudeInput(event, input, { permissionMode: str(input.permission_mode) || 'default' });
  if (!claudeEvent || !claudeInput) return undefined;
  const r = await fireSystem(source, claudeEvent, claudeInput, opts);
  if (!r) return undefined;
  // A fire's report leaves out each run's blocks and contexts (they are in its runs).
  const out = r.output as Omit<ClaudeOutput, 'blocks' | 'contexts'> | null;
  const toolInput = (input.tool_input as Record<string, unknown> | undefined) ?? {};
  const gemini = out
    ? toGeminiOutput(
        { event: claudeEvent, output: { blocks: [], contexts: [], ...out } },
        { toolInput, toolName: str(input.tool_name), cwd: opts.cwd },
      )
    : undefined;
  return {
    ...(gemini ? { gemini } : {}),
    held: r.heldBack,
    warnings: r.warnings,
    ...(r.configErrors ? { configErrors: r.configErrors } : {}),
  };
}

/** What the user is told about hooks that did not run: one line, with the command that trusts them. */
export function heldLine(held: HeldBack[], cwd: string): string | undefined {
  if (!held.length) return undefined;
  const names = [...new Set(held.map((h) => h.name))].slice(0, 3).join(', ');
  const more = held.length > 3 ? ` and ${held.length - 3} more` : '';
  return `Hookline held back ${held.length} hook(s) not trusted here (${names}${more}): review them with \`hookline trust --check ${cwd}\`, then \`hookline trust ${cwd}\``;
}

/** Runs the chosen hooks on one host event and answers in the host's format. Never throws for a hook's failure. */
export async function relay(host: HostName, input: Record<string, unknown>, opts: RelayOptions): Promise<RelayAnswer> {
  const h = HOSTS[host];
  const hostEvent = opts.event ?? str(input.hook_event_name);
  // Copilot CLI's events run as Claude Code's (copilot.ts); the answer is put back in Copilot's words.
  const asClaude = h.family === 'copilot' ? copilotAsClaude(hostEvent, input, opts.cwd) : undefined;
  if (h.family === 'copilot' && !asClaude) return answerOf({}, []);
  const event = asClaude?.event ?? hostEvent;
  const claudeInput = asClaude?.input ?? input;
  const sources = opts.sources.filter((s) => !h.ownSources.includes(s));
  const said: Said[] = [];
  for (const source of sources) {
    // The Claude Code files the host reads itself are left to it (Copilot CLI reads the project's).
    const sourceOpts = source === 'claude' && h.claudeFilesItReads ? { ...opts, leave: new Set(h.claudeFilesItReads(opts.cwd)) } : opts;
    const s =
      h.family === 'gemini'
        ? isEventName(event)
          ? await onGeminiEvent(source, event, input, sourceOpts)
          : undefined
        : await onClaudeEvent(source, event, claudeInput, sourceOpts);
    if (s) said.push(s);
  }
  // A configuration that does not read may hold the guard that was meant: a guard event is refused, naming it.
  const broken = said.flatMap((s) => s.configErrors ?? []);
  if (broken.length && GUARDS[host].has(hostEvent)) return failedAnswer(host, hostEvent, broken[0]!);
  const held = said.flatMap((s) => s.held);
  // Said where the user sees it (the host shows a hook's systemMessage, not its stderr).
  const notice = [broken[0] && `Hookline: ${broken[0]}`, heldLine(held, opts.cwd)].filter(Boolean).join('\n') || undefined;
  // The host's own extra input fields are its business, not a problem to report.
  const warnings = said.flatMap((s) => s.warnings).filter((w) => !/^input field ".*" is not part of/.test(w));
  if (h.family === 'gemini') {
    const outputs = said.flatMap((s) => (s.gemini ? [s.gemini] : []));
    const out = isEventName(event) ? aggregate(event, outputs) : undefined;
    return answerOf(withNotice(out ? { ...out } : {}, notice), warnings);
  }
  const runs = said.flatMap((s, i) => (s.claude ? [{ command: sources[i], where: sources[i], reading: { response: s.claude } }] : []));
  const answer = isClaudeEvent(event) && runs.length ? claudeAnswer(event, aggregateClaude(event as ClaudeEvent, runs).output) : {};
  if (h.family === 'copilot') {
    const { json, tell } = claudeAnswerAsCopilot(hostEvent, answer, { agentTool: asClaude?.agentTool, cwd: opts.cwd });
    return copilotRelayAnswer(hostEvent, json, [...tell, ...(notice ? [notice] : [])], warnings, GUARDS[host].has(hostEvent));
  }
  return answerOf(withNotice(answer, notice), warnings);
}

function withNotice(answer: Record<string, unknown>, notice: string | undefined): Record<string, unknown> {
  if (!notice) return answer;
  const shown = typeof answer.systemMessage === 'string' && answer.systemMessage ? `${answer.systemMessage}\n${notice}` : notice;
  return { ...answer, systemMessage: shown };
}
