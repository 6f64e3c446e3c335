/**
 * mm hooks at the agent's points: preGeneration (rewrite, context, stop with a response),
 * preToolCall (deny, input replaced), postToolCall (contexts), postGeneration (observer), and
 * preAsk / postAsk around hand-offs to the agents of `mmConfigs`.
 */
import type { Adapter, AdapterContext, HandOffEffect } from '../adapter.js';
import { fireMm, type MmFireResult } from './chain.js';
import { loadMmConfig, mmAgentFiles, mmBannerSuffix, type MmConfig } from './config.js';
import { contextBlock, mmDeniedLine, mmDeniedOutput, mmPromptBlocked, mmToolOutput } from './effects.js';
import type { MmEvent } from './events.js';
import type { MmEventData } from './input.js';

export interface MmAdapterOptions {
  config: MmConfig;
  /** What may run now (gated again when a workspace hook's files changed); `config` when not given. */
  current?: () => MmConfig;
  /** Show display lines (`--display-hooks` or `displayHooks: true`). */
  display: boolean;
  env: NodeJS.ProcessEnv;
}

export function mmAdapter(opts: MmAdapterOptions, ctx: AdapterContext): Adapter {
  const { config } = opts;
  const has = (e: MmEvent) => config.hooks[e].length > 0;
  const fire = async (event: MmEvent, data: MmEventData, signal?: AbortSignal, quiet = false): Promise<MmFireResult> => {
    // mm names models `<provider>/<model>`; Hookline's spec is `<provider>:<model>`.
    const asked = ctx.depth > 0 ? { asked: { depth: ctx.depth } } : {};
    const r = await fireMm(
      opts.current?.() ?? config,
      event,
      { model: ctx.modelName.replace(':', '/'), ...asked, ...data },
      { cwd: ctx.cwd, env: opts.env, counter: ctx.counter, signal, session: ctx.session().id },
    );
    if (opts.display && !quiet) for (const l of r.lines) ctx.io.notice(`  ${l}`);
    for (const f of r.failures) ctx.io.notice(f);
    return r;
  };
  const adapter: Adapter = {
    name: 'mm',
    agents: () => Object.fromEntries(Object.entries(mmAgentFiles(config)).map(([name, file]) => [name, { file, model: mmModelOf(file) }])),
    banner: () => mmBannerSuffix(config),
  };
  if (has('preGeneration')) {
    adapter.prompt = async ({ prompt, signal }) => {
      const r = await fire('preGeneration', { prompt }, signal);
      const o = r.output;
      if (o.action === 'stop') {
        const reason = o.reason ?? o.error ?? '';
        // The model is not called; the history keeps the marker and the response as the answer.
        return { action: 'stop', reason, answer: o.response ?? '', history: mmPromptBlocked(reason || undefined) };
      }
      return { action: 'proceed', ...(o.prompt !== undefined ? { prompt: o.prompt } : {}), blocks: r.contexts.map(contextBlock) };
    };
  }
  if (has('preToolCall')) {
    adapter.beforeTool = async ({ id, name, args, signal }) => {
      const r = await fire('preToolCall', { tool: { id, name, input: args } }, signal);
      if (r.output.action === 'deny') {
        const reason = r.output.reason ?? r.output.error;
        ctx.io.notice(mmDeniedLine(name, reason));
        return { action: 'deny', message: mmDeniedOutput(reason) };
      }
      const input = r.output.input;
      const replaced = input !== undefined && typeof input === 'object' && input !== null && !Array.isArray(input);
      return { action: 'run', args: replaced ? (input as Record<string, unknown>) : args, inputModified: false };
    };
  }
  if (has('postToolCall')) {
    adapter.afterTool = async ({ id, name, args, llmContent, signal }) => {
      const r = await fire('postToolCall', { tool: { id, name, input: args }, output: llmContent }, signal);
      return { action: 'keep', llmContent: mmToolOutput(llmContent, r.contexts) };
    };
  }
  if (has('postGeneration')) {
    // postGeneration still runs after a cancel (mm does not cancel it with the turn).
    adapter.turnFinished = async ({ prompt, answer, error }) => {
      await fire('postGeneration', { prompt, answer, ...(error ? { error } : {}) });
    };
  }
  if (has('preAsk')) {
    adapter.handOff = async ({ ask, quiet }): Promise<HandOffEffect> => {
      const r = await fire('preAsk', { ask: ask as MmEventData['ask'] }, undefined, quiet);
      if (r.output.action === 'deny') return { action: 'deny', reason: r.output.reason ?? r.output.error };
      return {
        action: 'send',
        prompt: r.output.prompt ?? ask.prompt,
        ...(ask.transcript !== undefined ? { transcript: r.output.transcript ?? ask.transcript } : {}),
        contexts: r.contexts,
      };
    };
  }
  if (has('postAsk')) {
    adapter.handOffDone = async ({ ask, answer, error, durationMs, quiet }) => {
      const r = await fire(
        'postAsk',
        { ask: ask as MmEventData['ask'], answer, ...(error ? { error } : {}), durationMs },
        undefined,
        quiet,
      );
      return { ...(r.output.answer !== undefined ? { answer: r.output.answer } : {}), contexts: r.contexts };
    };
  }
  return adapter;
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
