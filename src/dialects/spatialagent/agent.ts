/**
 * SpatialAgent hooks at the agent's points (the mapping is tabled in docs/dialects/spatialagent.md): Start with the
 * prompt, PrePlan before each model call, PostPlan / PreRoute / PreConclusion after each
 * response, PreToolUse and PreAct before a tool, PostAct and PostToolUse after it, Stop at the
 * end. A block before a tool denies it; a block at a planning point ends the turn.
 */
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { Adapter, AdapterContext } from '../adapter.js';
import type { SaConfig } from './config.js';
import type { SaEvent } from './events.js';
import { fireSpatialAgent } from './run.js';

export interface SaAdapterOptions {
  config: SaConfig;
  /** What may run now (gated again when a workspace hook's files changed); `config` when not given. */
  current?: () => SaConfig;
  /** The agent's model, for prompt hooks. */
  model?: LanguageModelV3;
  display: boolean;
  env: NodeJS.ProcessEnv;
  /** SYSTEM_PROMPT at PrePlan. */
  system: string;
}

/** How a tool call looks to SpatialAgent: code tools carry CODE and CODE_TYPE. */
function codeOf(
  name: string,
  args: Record<string, unknown>,
): { isCode: boolean; code: string; type: string; vars: Record<string, unknown> } {
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

export function spatialAgentAdapter(opts: SaAdapterOptions, ctx: AdapterContext): Adapter {
  const { config } = opts;
  /** The turn's query as Start saw it. */
  let query: string | undefined;
  const fire = async (event: SaEvent, variables: Record<string, unknown>, signal?: AbortSignal) => {
    if (!config.hooks[event].length) return undefined;
    const r = await fireSpatialAgent(opts.current?.() ?? config, event, variables, {
      cwd: ctx.cwd,
      session: ctx.session().id,
      env: opts.env,
      model: opts.model,
      counter: ctx.counter,
      signal,
    });
    if (opts.display) for (const l of r.lines) ctx.io.notice(`  ${l}`);
    for (const run of r.runs) if (run.error) ctx.io.notice(`⚠ SpatialAgent ${run.event} hook ${run.path}: ${run.error} (approved)`);
    return r;
  };
  /** The reason when the event's hooks blocked. */
  const blocks = async (event: SaEvent, variables: Record<string, unknown>, signal?: AbortSignal): Promise<string | undefined> => {
    const r = await fire(event, variables, signal);
    return r?.output.decision === 'block' ? r.output.reason || `blocked by a ${event} hook` : undefined;
  };
  return {
    name: 'spatialagent',
    async prompt({ prompt, tools, maxSteps, signal }) {
      // QUERY is the question as earlier hooks left it, without their contexts, at Start and Stop.
      query = prompt;
      const s = ctx.session();
      const blocked = await blocks('Start', { QUERY: prompt, THREAD_ID: s.id, MAX_STEP: maxSteps, TOOLS: tools }, signal);
      if (blocked) return { action: 'block', reason: blocked, notice: `Blocked by hook: ${blocked}` };
      return { action: 'proceed' };
    },
    async modelRequest({ request, step, system, signal }) {
      const blocked = await blocks('PrePlan', { STEP: step, MESSAGES: JSON.stringify(request.messages), SYSTEM_PROMPT: system }, signal);
      return blocked ? { action: 'block', reason: blocked } : { action: 'call', request };
    },
    async modelResponse({ step, text, toolCalls, signal }) {
      const acts = toolCalls > 0;
      const post = await blocks(
        'PostPlan',
        { STEP: step, RESPONSE: text, NEXT_STEP: acts ? 'act' : 'conclude', HAS_ACT: acts, HAS_CONCLUSION: !acts },
        signal,
      );
      const route = post ?? (await blocks('PreRoute', {}, signal));
      return { block: route ?? (acts ? undefined : await blocks('PreConclusion', {}, signal)) };
    },
    async beforeTool({ name, args, step, signal }) {
      const code = codeOf(name, args);
      const use = await blocks('PreToolUse', { TOOL: name, ...code.vars }, signal);
      if (use) return { action: 'deny', message: `Blocked by hook: ${use}` };
      if (code.isCode) {
        const act = await blocks('PreAct', { CODE: code.code, CODE_TYPE: code.type, RAW_CODE: code.code, ITERATION: step }, signal);
        if (act) return { action: 'deny', message: `Blocked by hook: ${act}` };
      }
      return { action: 'run', args, inputModified: false };
    },
    async afterTool({ name, args, result, llmContent, step, signal }) {
      // IS_ERROR also counts a program that exited non-zero.
      const isError = Boolean(result.error) || (result.exitCode ?? 0) !== 0;
      const code = codeOf(name, args);
      if (code.isCode) {
        const act = await blocks(
          'PostAct',
          { CODE: code.code, CODE_TYPE: code.type, RESULT: llmContent, IS_ERROR: isError, ITERATION: step },
          signal,
        );
        if (act) return { action: 'replace', llmContent: `Tool result blocked by hook: ${act}` };
      }
      const use = await blocks('PostToolUse', { TOOL: name, ...code.vars, RESULT: llmContent, SUCCESS: !isError }, signal);
      if (use) return { action: 'replace', llmContent: `Tool result blocked by hook: ${use}` };
      return { action: 'keep', llmContent };
    },
    async turnFinished({ answer, steps, state, prompt }) {
      await fire('Stop', { QUERY: query ?? prompt, ITERATION_COUNT: steps, CONCLUSION: answer, FINAL_STATE: state });
      query = undefined;
    },
  };
}
