/**
 * Claude Code hooks at the agent's points: each point's input translated to Claude's event and
 * wire format, the hooks run, and their aggregated decision translated back and applied with
 * the same appliers as Gemini's hooks (src/apply).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EventName } from '../../events/names.js';
import type { HookOutput } from '../../events/output.js';
import {
  applyAdvisory,
  applyAfterAgent,
  applyAfterTool,
  applyBeforeAgent,
  applyBeforeTool,
  applySessionStart,
  promptBlock,
} from '../../apply/index.js';
import { visible } from '../../config/display.js';
import type { Adapter, AdapterContext } from '../adapter.js';
import type { ClaudeConfig } from './config.js';
import { sourcedEnv } from './env-file.js';
import { claudeHooksFor, fireClaude } from './run.js';
import { claudeToolResponse } from './tools.js';
import { ClaudeTranscript } from './transcript.js';
import { ClaudeSession } from './background.js';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { claudeEventFor, toClaudeInput, toGeminiOutput } from './translate.js';

export interface ClaudeAdapterOptions {
  config: ClaudeConfig;
  /** The environment hooks start from (sanitised), with the settings' `env` blocks. */
  env: NodeJS.ProcessEnv;
  /** The settings' `env` blocks: they reach the agent's shell commands too. */
  sessionEnv?: Record<string, string>;
  /** Hookline's own environment with the settings' `env`: http hooks read their allowedEnvVars here. */
  hostEnv?: NodeJS.ProcessEnv;
  /** The agent's model: it judges prompt and agent hooks. */
  model?: LanguageModelV3;
}

export function claudeAdapter(opts: ClaudeAdapterOptions, ctx: AdapterContext): Adapter {
  // What shell commands get: the settings' env, then what SessionStart hooks export.
  let shellEnv: Record<string, string> = { ...opts.sessionEnv };
  let envDir: string | undefined;
  // `once` hooks, background (async) runs and the asyncRewake messages for the next turn.
  const session = new ClaudeSession();
  const woken = () => session.drain().map((m) => `An asynchronous hook reported:\n${m}`);
  /** A fresh `$CLAUDE_ENV_FILE` for this session's SessionStart. */
  const freshEnvFile = () => {
    envDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-claude-env-'));
    const file = path.join(envDir, `${ctx.session().id.replace(/[^A-Za-z0-9_-]/g, '-')}-sessionstart.sh`);
    fs.writeFileSync(file, '', { mode: 0o600 });
    return file;
  };
  // The session as a Claude Code transcript, for the hooks' `transcript_path`.
  let transcript: ClaudeTranscript | undefined;
  const transcriptFor = (s: { id: string; transcriptPath: string }) => {
    if (transcript?.sessionId !== s.id || transcript.agentTranscript !== s.transcriptPath)
      transcript = new ClaudeTranscript(s.transcriptPath, { sessionId: s.id, cwd: ctx.cwd, model: ctx.modelName });
    return transcript;
  };
  const fire = async (
    event: EventName,
    fields: Record<string, unknown>,
    signal?: AbortSignal,
    toolUseId?: string,
    envFile?: string,
    toolResponse?: unknown,
  ): Promise<HookOutput | undefined> => {
    const s = ctx.session();
    const claudeTranscript = transcriptFor(s);
    const input = { session_id: s.id, transcript_path: claudeTranscript.path, cwd: ctx.cwd, hook_event_name: event, ...fields };
    const claudeEvent = claudeEventFor(event, input);
    const claudeInput = claudeEvent && toClaudeInput(event, input, { permissionMode: ctx.approvalMode(), toolUseId, toolResponse });
    if (!claudeEvent || !claudeInput) return undefined;
    if (claudeHooksFor(opts.config, claudeEvent, claudeInput).length) {
      claudeTranscript.sync();
      // Claude's is the last answer's text, not every answer of the turn (Gemini's prompt_response).
      const last = claudeTranscript.lastAssistantText;
      if (claudeEvent === 'Stop' && last !== undefined) claudeInput.last_assistant_message = last;
    }
    const r = await fireClaude(opts.config, claudeEvent, claudeInput, {
      projectDir: ctx.cwd,
      env: opts.env,
      envFile,
      signal,
      hostEnv: opts.hostEnv,
      model: opts.model,
      session,
      onStart: (h) => h.statusMessage && ctx.io.notice(`  ⏳ ${visible(h.statusMessage)}`),
    });
    for (const run of r.runs) {
      const tool = typeof claudeInput.tool_name === 'string' ? ` [${visible(claudeInput.tool_name)}]` : '';
      if (ctx.displayHooks) ctx.io.notice(`  🪝 ${ctx.counter.next++}. ${claudeEvent}${tool} · ${visible(run.command)} → ${run.outcome}`);
      if (run.error) ctx.io.notice(`⚠ Claude Code ${claudeEvent} hook \`${run.command}\` (${run.file}): ${run.error}`);
    }
    const tool =
      event === 'BeforeTool' ? { toolInput: fields.tool_input as Record<string, unknown>, toolName: String(fields.tool_name) } : {};
    return toGeminiOutput(r, { ...tool, cwd: ctx.cwd });
  };
  return {
    name: 'claude',
    async sessionStart({ source }) {
      const envFile = freshEnvFile();
      const effect = applySessionStart(await fire('SessionStart', { source }, undefined, undefined, envFile));
      const base: Record<string, string> = {};
      for (const [k, v] of Object.entries(opts.env)) if (v !== undefined) base[k] = v;
      const sourced = await sourcedEnv(envFile, base, ctx.cwd);
      if (sourced.error) ctx.io.notice(`⚠ Claude Code SessionStart hooks' CLAUDE_ENV_FILE: ${sourced.error}`);
      shellEnv = { ...opts.sessionEnv, ...sourced.env };
      return effect;
    },
    toolEnv() {
      return shellEnv;
    },
    close() {
      if (envDir) fs.rmSync(envDir, { recursive: true, force: true });
      void session.close();
    },
    async sessionEnd({ reason }) {
      return applyAdvisory(await fire('SessionEnd', { reason }));
    },
    async prompt({ prompt, signal }) {
      const e = applyBeforeAgent(await fire('BeforeAgent', { prompt }, signal));
      if (e.action === 'stop') return { action: 'stop', reason: e.reason, systemMessage: e.systemMessage };
      if (e.action === 'deny')
        return { action: 'block', reason: e.reason, notice: `Prompt blocked by hook: ${e.reason}`, systemMessage: e.systemMessage };
      const blocks = [...woken(), ...(e.context ? [e.context] : [])].map(promptBlock);
      return { action: 'proceed', blocks, systemMessage: e.systemMessage };
    },
    async beforeTool({ id, name, args, signal }) {
      return applyBeforeTool(await fire('BeforeTool', { tool_name: name, tool_input: { ...args } }, signal, id), args);
    },
    async notification({ type, message, details, signal }) {
      return applyAdvisory(await fire('Notification', { notification_type: type, message, details }, signal));
    },
    async afterTool({ id, name, args, result, llmContent, signal }) {
      const tool_response = { llmContent, returnDisplay: result.returnDisplay, ...(result.error ? { error: result.error } : {}) };
      const claudeResponse = claudeToolResponse(name, args, { ...result, llmContent });
      return applyAfterTool(
        await fire('AfterTool', { tool_name: name, tool_input: args, tool_response }, signal, id, undefined, claudeResponse),
        llmContent,
      );
    },
    async compress({ trigger }) {
      return applyAdvisory(await fire('PreCompress', { trigger }));
    },
    async turnEnd({ prompt, response, stopHookActive, retries, maxRetries, signal }) {
      const out = await fire('AfterAgent', { prompt, prompt_response: response, stop_hook_active: stopHookActive }, signal);
      const effect = applyAfterAgent(out, retries, maxRetries);
      // An asyncRewake hook that finished during the turn wakes the agent with what it said.
      if (effect.action === 'accept' && session.pending && retries < maxRetries)
        return { action: 'retry', prompt: woken().join('\n\n'), clearContext: effect.clearContext, systemMessage: effect.systemMessage };
      return effect;
    },
  };
}
