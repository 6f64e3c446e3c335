/** Gemini CLI settings hooks at the agent's points: the engine fires, src/apply decides. */
import type { EventName } from '../../events/names.js';
import {
  applyAdvisory,
  applyAdvisory as advisory,
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
import type { Adapter, AdapterContext, PromptEffect } from '../adapter.js';
import { hookLine } from './display.js';
import { shadowRunLine } from '../../engine/trace-gemini.js';

/**
 * Gemini CLI's own lines for what hooks did, as `gemini -p` prints them: a hook's `systemMessage`
 * as `Hook system message: …` (at a prompt it is shown as it is), a turn a hook blocked or stopped
 * by the hook's `systemMessage`, or else its reason.
 */
export const GEMINI_TEXTS = {
  systemMessage: (m: string) => `Hook system message: ${m}`,
  blocked: (why: string) => `Agent execution blocked: ${why}`,
  stopped: (why: string) => `Agent execution stopped: ${why}`,
};

export function geminiAdapter(engine: HookEngine, ctx: AdapterContext): Adapter {
  /** An effect's `systemMessage` as the user is shown it. */
  const shown = <T extends { systemMessage?: string }>(e: T): T =>
    e.systemMessage && !ctx.interactive ? { ...e, systemMessage: GEMINI_TEXTS.systemMessage(e.systemMessage) } : e;
  /** What an agent hook that blocked or stopped the turn says: its message, or else its reason. */
  const why = (e: { reason: string; systemMessage?: string }) => e.systemMessage?.trim() || e.reason;
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
    approvedToolsOnly: true,
    async sessionStart({ source }) {
      return shown(applySessionStart((await fire('SessionStart', { source }, undefined, source)).output));
    },
    async sessionEnd({ reason }) {
      return shown(applyAdvisory((await fire('SessionEnd', { reason }, undefined, reason)).output));
    },
    async prompt({ prompt, signal }): Promise<PromptEffect> {
      const e = applyBeforeAgent((await fire('BeforeAgent', { prompt }, signal)).output);
      if (e.action === 'stop')
        return shown<PromptEffect>({
          action: 'stop',
          reason: e.reason,
          notice: GEMINI_TEXTS.stopped(why(e)),
          systemMessage: e.systemMessage,
        });
      if (e.action === 'deny')
        return shown<PromptEffect>({
          action: 'block',
          reason: e.reason,
          notice: GEMINI_TEXTS.blocked(why(e)),
          systemMessage: e.systemMessage,
        });
      // The context follows the prompt as a text part of its own, as Gemini CLI sends it.
      return shown<PromptEffect>({ action: 'proceed', parts: e.context ? [promptBlock(e.context)] : [], systemMessage: e.systemMessage });
    },
    async modelRequest({ request, signal }) {
      return shown(applyBeforeModel((await fire('BeforeModel', { llm_request: request }, signal)).output, request));
    },
    async toolSelection({ request, tools, signal }) {
      const r = await fire('BeforeToolSelection', { llm_request: request }, signal);
      return shown({ ...applyToolSelection(r.output, tools), ...advisory(r.output) });
    },
    async modelChunk({ request, response, signal }) {
      return shown(applyAfterModel((await fire('AfterModel', { llm_request: request, llm_response: response }, signal)).output, response));
    },
    async beforeTool({ name, args, originalName, signal }) {
      const orig = originalName ? { original_request_name: originalName } : {};
      const r = await fire('BeforeTool', { tool_name: name, tool_input: { ...args }, ...orig }, signal, name);
      return shown(applyBeforeTool(r.output, args));
    },
    async notification({ type, message, details, tool, signal }) {
      return shown(applyAdvisory((await fire('Notification', { notification_type: type, message, details }, signal, tool)).output));
    },
    async afterTool({ name, args, originalName, result, llmContent, signal }) {
      const orig = originalName ? { original_request_name: originalName } : {};
      const tool_response = { llmContent, returnDisplay: result.returnDisplay, ...(result.error ? { error: result.error } : {}) };
      const r = await fire('AfterTool', { tool_name: name, tool_input: args, tool_response, ...orig }, signal, name);
      return shown(applyAfterTool(r.output, llmContent));
    },
    async compress({ trigger }) {
      return shown(applyAdvisory((await fire('PreCompress', { trigger }, undefined, trigger)).output));
    },
    async turnEnd({ prompt, response, stopHookActive, retries, maxRetries, signal }) {
      const r = await fire('AfterAgent', { prompt, prompt_response: response, stop_hook_active: stopHookActive }, signal);
      const e = applyAfterAgent(r.output, retries, maxRetries);
      if (e.action === 'stop') return shown({ ...e, notice: GEMINI_TEXTS.stopped(why(e)) });
      if (e.action === 'retry')
        return shown({ ...e, notice: GEMINI_TEXTS.blocked(why({ reason: e.prompt, systemMessage: e.systemMessage })) });
      return shown(e);
    },
    close: () => engine.close(),
  };
}
