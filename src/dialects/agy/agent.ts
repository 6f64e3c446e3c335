/**
 * agy hooks at the agent's points. An agy "invocation" is one call of the model (PreInvocation
 * fires before each model call of a turn, not once per prompt), so PreInvocation is the model
 * request and PostInvocation the model's response; PreToolUse and PostToolUse are the tool
 * points, Stop the end of the turn and SessionStart the session's start. Tool calls reach the
 * hooks under agy's tool names and argument keys (tools.ts). Only PreToolUse decides; the other
 * events observe.
 */
import path from 'node:path';
import type { Adapter, AdapterContext } from '../adapter.js';
import type { AgyConfig, AgyEvent } from './config.js';
import { fireAgy, type AgyFireResult } from './run.js';
import { agyToolNames, toAgyToolCall } from './tools.js';

export interface AgyAdapterOptions {
  config: AgyConfig;
  /** What may run now (gated again when a workspace hook's files changed); `config` when not given. */
  current?: () => AgyConfig;
  env: NodeJS.ProcessEnv;
}

/** agy's terminationReason for how a turn ended: NO_TOOL_CALL when the model finished on its own. */
const TERMINATION: Record<string, string> = {
  done: 'NO_TOOL_CALL',
  'max-steps': 'MAX_STEPS',
  cancelled: 'CANCELLED',
  error: 'ERROR',
  stopped: 'HOOK_STOPPED',
  blocked: 'HOOK_STOPPED',
};

export function agyAdapter(opts: AgyAdapterOptions, ctx: AdapterContext): Adapter {
  const fire = async (
    event: AgyEvent,
    fields: Record<string, unknown>,
    extra: { signal?: AbortSignal; toolNames?: string[] } = {},
  ): Promise<AgyFireResult> => {
    const s = ctx.session();
    const input = {
      conversationId: s.id,
      modelName: ctx.modelName,
      stepIdx: 0,
      transcriptPath: s.transcriptPath,
      workspacePaths: [ctx.cwd],
      artifactDirectoryPath: s.transcriptPath ? path.dirname(s.transcriptPath) : '',
      ...fields,
    };
    const r = await fireAgy(opts.current?.() ?? opts.config, event, input, {
      projectDir: ctx.cwd,
      env: opts.env,
      signal: extra.signal,
      toolNames: extra.toolNames,
    });
    for (const run of r.runs) {
      const tool = extra.toolNames ? ` [${extra.toolNames[0]}]` : '';
      if (ctx.displayHooks) ctx.io.notice(`  🪝 ${ctx.counter.next++}. ${event}${tool} · ${run.command} → ${run.outcome}`);
      if (run.error) ctx.io.notice(`⚠ agy ${event} hook \`${run.command}\` (${run.file}): ${run.error}`);
    }
    return r;
  };
  return {
    name: 'agy',
    async sessionStart() {
      await fire('SessionStart', {});
      return {};
    },
    async modelRequest({ request, step, signal }) {
      await fire('PreInvocation', { stepIdx: step - 1 }, { signal });
      return { action: 'call', request };
    },
    async modelResponse({ step, signal }) {
      await fire('PostInvocation', { stepIdx: step - 1 }, { signal });
      return {};
    },
    async beforeTool({ name, args, step, signal }) {
      const toolCall = toAgyToolCall(name, args);
      const r = await fire('PreToolUse', { stepIdx: step - 1, toolCall }, { signal, toolNames: agyToolNames(name) });
      const d = r.output;
      if (d?.decision === 'deny') return { action: 'deny', message: `tool call denied by pre-tool hook: ${d.reason ?? ''}`.trimEnd() };
      if (d?.decision === 'ask' || d?.decision === 'force_ask')
        return { action: 'ask', args, inputModified: false, ...(d.reason ? { systemMessage: d.reason } : {}) };
      return { action: 'run', args, inputModified: false };
    },
    async afterTool({ name, args, result, llmContent, step, signal }) {
      const toolCall = toAgyToolCall(name, args);
      const toolResult = {
        output: llmContent,
        ...(result.error ? { error: result.error.message } : {}),
        ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
      };
      await fire('PostToolUse', { stepIdx: step - 1, toolCall, toolResult }, { signal, toolNames: agyToolNames(name) });
      return { action: 'keep', llmContent };
    },
    async turnFinished({ steps, state, error }) {
      await fire('Stop', {
        stepIdx: Math.max(0, steps - 1),
        terminationReason: TERMINATION[state] ?? state.toUpperCase(),
        fullyIdle: true,
        ...(error ? { error } : {}),
      });
    },
  };
}
