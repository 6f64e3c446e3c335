/** Gemini CLI settings hooks at the agent's points: the engine fires, src/apply decides. */
import type { EventName } from '../../events/names.js';
import {
  applyAdvisory,
  applyAfterAgent,
  applyAfterModel,
  applyAfterTool,
  applyBeforeAgent,
  applyBeforeModel,
  applyBeforeTool,
  applySessionStart,
  applyToolSelection,
  promptBlock,
} from '../../apply/index.js';
import type { HookEngine, FireFields, FireResult } from '../../engine/index.js';
import type { Adapter, AdapterContext } from '../adapter.js';
import { hookLine } from './display.js';
import { shadowRunLine } from '../../engine/trace-gemini.js';

export function geminiAdapter(engine: HookEngine, ctx: AdapterContext): Adapter {
  // Gemini hook runs are numbered across the session.
  let count = 0;
  const fire = async <E extends EventName>(
    event: E,
    fields: FireFields<E>,
    signal?: AbortSignal,
    subject?: string,
  ): Promise<FireResult> => {
    const s = ctx.session();
    engine.sessionId = s.id;
    engine.transcriptPath = s.transcriptPath;
    const r = await engine.fire(event, fields, { signal });
    for (const run of r.runs) {
      count++;
      if (ctx.displayHooks) ctx.io.notice(hookLine(count, event, subject, run));
      else if (run.error) ctx.io.notice(`⚠ ${run.error}`);
      if (run.warning) ctx.io.notice(`⚠ ${run.warning}`);
      const shadow = run.shadow ? shadowRunLine(event, run, r.input) : undefined;
      if (shadow) ctx.io.notice(`👻 ${shadow}`);
    }
    return r;
  };
  return {
    name: 'gemini',
    async sessionStart({ source }) {
      return applySessionStart((await fire('SessionStart', { source }, undefined, source)).output);
    },
    async sessionEnd({ reason }) {
      return applyAdvisory((await fire('SessionEnd', { reason }, undefined, reason)).output);
    },
    async prompt({ prompt, signal }) {
      const e = applyBeforeAgent((await fire('BeforeAgent', { prompt }, signal)).output);
      if (e.action === 'stop') return { action: 'stop', reason: e.reason, systemMessage: e.systemMessage };
      if (e.action === 'deny')
        return { action: 'block', reason: e.reason, notice: `Prompt blocked by hook: ${e.reason}`, systemMessage: e.systemMessage };
      return { action: 'proceed', blocks: e.context ? [promptBlock(e.context)] : [], systemMessage: e.systemMessage };
    },
    async modelRequest({ request, signal }) {
      return applyBeforeModel((await fire('BeforeModel', { llm_request: request }, signal)).output, request);
    },
    async toolSelection({ request, tools, signal }) {
      return applyToolSelection((await fire('BeforeToolSelection', { llm_request: request }, signal)).output, tools);
    },
    async modelChunk({ request, response, signal }) {
      return applyAfterModel((await fire('AfterModel', { llm_request: request, llm_response: response }, signal)).output, response);
    },
    async beforeTool({ name, args, originalName, signal }) {
      const orig = originalName ? { original_request_name: originalName } : {};
      const r = await fire('BeforeTool', { tool_name: name, tool_input: { ...args }, ...orig }, signal, name);
      return applyBeforeTool(r.output, args);
    },
    async notification({ type, message, details, tool, signal }) {
      return applyAdvisory((await fire('Notification', { notification_type: type, message, details }, signal, tool)).output);
    },
    async afterTool({ name, args, originalName, result, llmContent, signal }) {
      const orig = originalName ? { original_request_name: originalName } : {};
      const tool_response = { llmContent, returnDisplay: result.returnDisplay, ...(result.error ? { error: result.error } : {}) };
      const r = await fire('AfterTool', { tool_name: name, tool_input: args, tool_response, ...orig }, signal, name);
      return applyAfterTool(r.output, llmContent);
    },
    async compress({ trigger }) {
      return applyAdvisory((await fire('PreCompress', { trigger }, undefined, trigger)).output);
    },
    async turnEnd({ prompt, response, stopHookActive, retries, maxRetries, signal }) {
      const r = await fire('AfterAgent', { prompt, prompt_response: response, stop_hook_active: stopHookActive }, signal);
      return applyAfterAgent(r.output, retries, maxRetries);
    },
    close: () => engine.close(),
  };
}
