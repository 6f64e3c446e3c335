import type { LanguageModelV3 } from '@ai-sdk/provider';
import { z } from 'zod';
import {
  fireMm,
  loadMmConfig,
  mmDeniedLine,
  mmDeniedOutput,
  mmModelPrompt,
  mmPromptBlocked,
  mmToolOutput,
  type MmConfig,
  type MmEvent,
  type MmEventData,
  type MmFireResult,
} from '../dialects/mm/index.js';
import { fireSpatialAgent, type SaConfig, type SaEvent, type SaFireResult } from '../dialects/spatialagent/index.js';
import { defineTool, type AgentTool } from './tools/types.js';
import { claudeEventFor, fireClaude, toClaudeInput, toGeminiOutput, type ClaudeConfig } from '../dialects/claude/index.js';
import { aggregate } from '../decide/aggregate.js';
import type { EventName } from '../events/names.js';
import type { HookOutput } from '../events/output.js';
import { visible } from '../config/display.js';

/**
 * The other dialects' hooks in the reference agent. At every point Hookline fires Gemini
 * settings hooks first, then mm's, then SpatialAgent's; each sees what the previous left (a
 * rewritten prompt or tool input), and the first deny, stop or block ends that point: a deny is
 * the most restrictive decision, so nothing after it could change the outcome.
 */
export interface Dialects {
  /** Claude Code hooks: translated to and from the Gemini model and merged with its hooks' output. */
  claude?: { config: ClaudeConfig; display: boolean };
  mm?: { config: MmConfig; display: boolean; depth: number };
  spatialagent?: { config: SaConfig; model?: LanguageModelV3; display: boolean };
}

export interface DialectIO {
  notice(line: string): void;
}

export interface DialectContext {
  cwd: string;
  modelName: string;
  env: NodeJS.ProcessEnv;
  io: DialectIO;
  /** Display numbering restarts with each turn, as mm and SpatialAgent number hook runs per turn. */
  counter: { next: number };
}

/** mm's tool and agent display: its lines, plus failure lines for onError fail and warn. */
function showMm(d: Dialects['mm'], io: DialectIO, r: MmFireResult, quiet = false): void {
  if (d?.display && !quiet) for (const l of r.lines) io.notice(`  ${l}`);
  for (const f of r.failures) io.notice(f);
}

function showSa(d: Dialects['spatialagent'], io: DialectIO, r: SaFireResult): void {
  if (d?.display) for (const l of r.lines) io.notice(`  ${l}`);
  for (const run of r.runs) if (run.error) io.notice(`⚠ SpatialAgent ${run.event} hook ${run.path}: ${run.error} (approved)`);
}

export class DialectHooks {
  constructor(
    readonly d: Dialects,
    private readonly ctx: DialectContext,
  ) {}

  /** The turn's query as SpatialAgent's Start saw it. */
  private query: string | undefined;

  get active(): boolean {
    return Boolean(this.d.mm || this.d.spatialagent);
  }

  /**
   * Claude Code hooks at a Gemini point: the event and input translated, the hooks run, and their
   * decision merged into the Gemini hooks' output with the event's own aggregation, so the most
   * restrictive decision of the two wins.
   */
  async claude(event: EventName, input: Record<string, unknown>, gemini: HookOutput | undefined, opts: { permissionMode: string; toolUseId?: string }): Promise<HookOutput | undefined> {
    const c = this.d.claude;
    if (!c) return gemini;
    const claudeEvent = claudeEventFor(event, input);
    const fields = claudeEvent && toClaudeInput(event, input, { permissionMode: opts.permissionMode, toolUseId: opts.toolUseId });
    if (!claudeEvent || !fields) return gemini;
    const r = await fireClaude(c.config, claudeEvent, fields, { projectDir: this.ctx.cwd, env: this.ctx.env });
    for (const run of r.runs) {
      if (c.display) this.ctx.io.notice(`  🪝 ${this.ctx.counter.next++}. ${claudeEvent}${typeof fields.tool_name === 'string' ? ` [${visible(fields.tool_name)}]` : ''} · ${visible(run.command)} → ${run.outcome}`);
      if (run.error) this.ctx.io.notice(`⚠ Claude Code ${claudeEvent} hook \`${run.command}\` (${run.file}): ${run.error}`);
    }
    const translated = toGeminiOutput(r, { toolInput: event === 'BeforeTool' ? (input.tool_input as Record<string, unknown>) : undefined });
    if (!translated) return gemini;
    return aggregate(event, gemini ? [gemini, translated] : [translated]);
  }

  private asked(): { depth: number } | undefined {
    return this.d.mm && this.d.mm.depth > 0 ? { depth: this.d.mm.depth } : undefined;
  }

  /** Fires an mm event; `quiet` hides its display lines (not its failure lines). */
  /** The current turn's cancellation; mm itself keeps postGeneration and postAsk out of it. */
  signal: AbortSignal | undefined;

  async mm(event: MmEvent, data: MmEventData, signal: AbortSignal | undefined = this.signal, quiet = false): Promise<MmFireResult | undefined> {
    const m = this.d.mm;
    if (!m || !m.config.hooks[event].length) return undefined;
    // mm names models `<provider>/<model>`; Hookline's spec is `<provider>:<model>`.
    const r = await fireMm(m.config, event, { model: this.ctx.modelName.replace(':', '/'), asked: this.asked(), ...data }, { cwd: this.ctx.cwd, env: this.ctx.env, counter: this.ctx.counter, signal });
    showMm(m, this.ctx.io, r, quiet);
    return r;
  }

  async sa(event: SaEvent, variables: Record<string, unknown>): Promise<SaFireResult | undefined> {
    const s = this.d.spatialagent;
    if (!s || !s.config.hooks[event].length) return undefined;
    const r = await fireSpatialAgent(s.config, event, variables, { cwd: this.ctx.cwd, env: this.ctx.env, model: s.model, counter: this.ctx.counter });
    showSa(s, this.ctx.io, r);
    return r;
  }

  /** A SpatialAgent event that may block; returns the reason when it did. */
  async saBlocks(event: SaEvent, variables: Record<string, unknown>): Promise<string | undefined> {
    const r = await this.sa(event, variables);
    return r?.output.decision === 'block' ? r.output.reason || `blocked by a ${event} hook` : undefined;
  }

  /**
   * Start of a turn: mm preGeneration (rewrite, add context, stop) then SpatialAgent Start.
   * Returns what the model reads, or why the turn ends.
   */
  async turnStart(prompt: string, tools: string[], maxSteps: number, threadId: string): Promise<
    | { action: 'continue'; modelText: string; promptSeen: string }
    | { action: 'stop'; history: string; response: string; reason: string }
    | { action: 'block'; reason: string }
  > {
    let modelText = prompt;
    this.query = prompt;
    const pg = await this.mm('preGeneration', { prompt });
    if (pg?.output.action === 'stop') {
      const reason = pg.output.reason ?? pg.output.error ?? '';
      return { action: 'stop', history: mmPromptBlocked(reason || undefined), response: pg.output.response ?? '', reason };
    }
    if (pg) modelText = mmModelPrompt(pg.output.prompt ?? prompt, pg.contexts);
    // SpatialAgent's QUERY is the question as mm left it (without the contexts), at Start and Stop.
    this.query = pg?.output.prompt ?? prompt;
    const blocked = await this.saBlocks('Start', { QUERY: this.query, THREAD_ID: threadId, MAX_STEP: maxSteps, TOOLS: tools });
    if (blocked) return { action: 'block', reason: blocked };
    return { action: 'continue', modelText, promptSeen: modelText };
  }

  /** Before a tool runs (and before its approval): mm preToolCall, SpatialAgent PreToolUse and PreAct. */
  async beforeTool(id: string, name: string, args: Record<string, unknown>, iteration: number): Promise<{ deny?: string; args: Record<string, unknown> }> {
    let current = args;
    const pre = await this.mm('preToolCall', { tool: { id, name, input: args } });
    if (pre?.output.action === 'deny') {
      const reason = pre.output.reason ?? pre.output.error;
      this.ctx.io.notice(mmDeniedLine(name, reason));
      return { deny: mmDeniedOutput(reason), args };
    }
    if (pre && pre.output.input !== undefined && typeof pre.output.input === 'object' && pre.output.input !== null && !Array.isArray(pre.output.input)) {
      current = pre.output.input as Record<string, unknown>;
    }
    const code = codeOf(name, current);
    const use = await this.saBlocks('PreToolUse', { TOOL: name, ...code.vars });
    if (use) return { deny: `Blocked by hook: ${use}`, args: current };
    if (code.isCode) {
      const act = await this.saBlocks('PreAct', { CODE: code.code, CODE_TYPE: code.type, RAW_CODE: code.code, ITERATION: iteration });
      if (act) return { deny: `Blocked by hook: ${act}`, args: current };
    }
    return { args: current };
  }

  /** After a tool ran: mm postToolCall (contexts appended), SpatialAgent PostAct and PostToolUse. */
  async afterTool(id: string, name: string, args: Record<string, unknown>, output: string, isError: boolean, iteration: number): Promise<string> {
    let out = output;
    const post = await this.mm('postToolCall', { tool: { id, name, input: args }, output });
    if (post) out = mmToolOutput(out, post.contexts);
    const code = codeOf(name, args);
    if (code.isCode) {
      const act = await this.saBlocks('PostAct', { CODE: code.code, CODE_TYPE: code.type, RESULT: output, IS_ERROR: isError, ITERATION: iteration });
      if (act) return `Tool result blocked by hook: ${act}`;
    }
    const use = await this.saBlocks('PostToolUse', { TOOL: name, ...code.vars, RESULT: output, SUCCESS: !isError });
    if (use) return `Tool result blocked by hook: ${use}`;
    return out;
  }

  /** End of a turn, whatever its outcome: mm postGeneration and SpatialAgent Stop (observers). */
  async turnEnd(prompt: string, answer: string, error: string | undefined, iterations: number, state: string): Promise<void> {
    await this.mm('postGeneration', { prompt, answer, ...(error ? { error } : {}) });
    await this.sa('Stop', { QUERY: this.query ?? prompt, ITERATION_COUNT: iterations, CONCLUSION: answer, FINAL_STATE: state });
    this.query = undefined;
  }
}

/** How a tool call looks to SpatialAgent: code tools carry CODE and CODE_TYPE. */
function codeOf(name: string, args: Record<string, unknown>): { isCode: boolean; code: string; type: string; vars: Record<string, unknown> } {
  if (name === 'run_shell_command') {
    const command = String(args.command ?? '');
    return { isCode: true, code: command, type: 'bash', vars: { CODE: command, COMMAND: command, CODE_TYPE: 'bash' } };
  }
  if (name === 'run_code') {
    const code = String(args.code ?? '');
    const type = String(args.language ?? 'python');
    return { isCode: true, code, type, vars: { CODE: code, CODE_TYPE: type } };
  }
  return { isCode: false, code: '', type: '', vars: { CODE: JSON.stringify(args) } };
}

/** `<provider>/<model>` of an mm configuration, when it names one. */
export function mmModelOf(file: string): string | undefined {
  try {
    const m = loadMmConfig(file).raw.model;
    return typeof m === 'string' && m ? m : undefined;
  } catch {
    return undefined;
  }
}

/** The hand-off tool: ask another configured agent a question. */
export function askAgentTool(agents: Record<string, string>): AgentTool {
  const names = Object.keys(agents);
  return defineTool({
    name: 'ask_agent',
    description: `Asks another agent a question and returns its answer. Agents: ${names.join(', ')}. Set withContext to send this conversation along.`,
    parameters: z.object({
      agent: z.string().describe(`One of: ${names.join(', ')}`),
      prompt: z.string().describe('The question for the other agent.'),
      withContext: z.boolean().optional().describe('Send the conversation so far with the question.'),
    }),
    kind: 'execute',
    title: (a) => `AskAgent ${a.agent}`,
    // The loop runs hand-offs itself (it needs the agent); reaching this means no agent could.
    run: async (a) => ({ llmContent: `ask_agent: no agent "${a.agent}"`, returnDisplay: 'no such agent', error: { message: `no agent "${a.agent}"`, type: 'invalid_tool_params' } }),
  });
}
