/**
 * Claude Code hooks at the agent's points: each point's input translated to Claude's event and
 * wire format, the hooks run, and their aggregated decision translated back and applied with
 * the same appliers as Gemini's hooks (src/apply).
 */
import fs from 'node:fs';
import type { EventName } from '../../events/names.js';
import type { HookOutput } from '../../events/output.js';
import {
  applyAdvisory,
  applyAfterAgent,
  applyAfterTool,
  applyBeforeAgent,
  applyBeforeTool,
  applySessionStart,
  escapeContext,
  promptBlock,
  specific,
  withToolContext,
} from '../../apply/index.js';
import { visible } from '../../config/display.js';
import type { Adapter, AdapterContext } from '../adapter.js';
import { withoutProjectHooks, type ClaudeConfig } from './config.js';
import { freshEnvFile, sourcedEnv } from './env-file.js';
import type { ClaudeEvent } from './events.js';
import { fireClaude, type ClaudeFireResult } from './run.js';
import { agentToolInput, claudeToolInput, claudeToolResponse, claudeToolUseId } from './tools.js';
import { ClaudeTranscript, claudeTranscriptPath } from './transcript.js';
import { ClaudeSession } from './background.js';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { claudeEventFor, claudeToolName, PERMISSION_MODES, toClaudeInput, toGeminiOutput } from './translate.js';
import { CONFIG_SOURCES, messagesOf, stopOf, toolOutputText } from './effects.js';

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
  /** Loads the settings again (through the same trust gate), for a change during the session. */
  reload?: () => { config: ClaudeConfig; env: NodeJS.ProcessEnv; sessionEnv: Record<string, string>; hostEnv?: NodeJS.ProcessEnv };
  /** Whether a file the workspace hooks run changed since the last load: they are gated again first. */
  stale?: () => boolean;
}

/** Claude Code ends a turn after this many Stop-hook blocks in a row (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP overrides). */
export const STOP_HOOK_BLOCK_CAP = 8;

function stopBlockCap(env: NodeJS.ProcessEnv): number {
  const n = Number(env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP);
  return Number.isInteger(n) && n >= 0 ? n : STOP_HOOK_BLOCK_CAP;
}

export function claudeAdapter(opts: ClaudeAdapterOptions, ctx: AdapterContext): Adapter {
  let { config, env: hookEnv, sessionEnv, hostEnv } = opts;
  // What shell commands get: the settings' env, then what SessionStart hooks export.
  let shellEnv: Record<string, string> = { ...sessionEnv };
  let envDir: string | undefined;
  // `once` hooks, background (async) runs and the asyncRewake messages for the next turn.
  const session = new ClaudeSession();
  const woken = () => session.drain().map((m) => `An asynchronous hook reported:\n${m}`);
  /** What finished `async` hooks said: their context and messages for the model, their messages for the user. */
  const asyncNotes = () => {
    const notes = session.drainNotes();
    const blocks = notes.flatMap((n) => {
      const said = [n.systemMessage, n.context].filter(Boolean).join('\n');
      return said ? [escapeContext(`Async hook ${n.event} (${n.command}) reported:\n${said}`)] : [];
    });
    const shown = notes.flatMap((n) => (n.systemMessage ? [n.systemMessage] : []));
    return { blocks, systemMessage: shown.length ? shown.join('\n') : undefined };
  };
  /** A fresh `$CLAUDE_ENV_FILE` for this session's SessionStart. */
  const sessionEnvFile = () => {
    const fresh = freshEnvFile(`${ctx.session().id.replace(/[^A-Za-z0-9_-]/g, '-')}-sessionstart.sh`, envDir);
    envDir = fresh.dir;
    return fresh.file;
  };
  /**
   * Inside a called agent (a hand-off), hooks see the asking session's id and transcript, and
   * `agent_id` (this agent's session) and `agent_type` (its name), as in Claude Code's subagents.
   */
  const sessionFields = (): Record<string, unknown> => {
    const s = ctx.session();
    const sub = ctx.handedTo;
    if (!sub) return { session_id: s.id, transcript_path: transcriptFor(s).path };
    const parent = claudeTranscriptPath(sub.parent.transcriptPath, sub.parent.id);
    return { session_id: sub.parent.id, transcript_path: parent, agent_id: s.id, agent_type: sub.name };
  };
  // The session as a Claude Code transcript, for the hooks' `transcript_path`.
  let transcript: ClaudeTranscript | undefined;
  const transcriptFor = (s: { id: string; transcriptPath: string }) => {
    if (transcript?.sessionId !== s.id || transcript.agentTranscript !== s.transcriptPath)
      transcript = new ClaudeTranscript(s.transcriptPath, { sessionId: s.id, cwd: ctx.cwd, model: ctx.modelName });
    return transcript;
  };
  /** Runs one Claude event's hooks with its full input; each run's line (and stdout, unless suppressed) is displayed. */
  const run = async (
    claudeEvent: ClaudeEvent,
    claudeInput: Record<string, unknown>,
    signal?: AbortSignal,
    envFile?: string,
  ): Promise<ClaudeFireResult> => {
    if (opts.reload && opts.stale?.()) {
      try {
        ({ config, env: hookEnv, sessionEnv, hostEnv } = opts.reload());
      } catch (e) {
        // Settings that cannot be read now: the workspace's hooks stop (they cannot be gated again), the user's keep running.
        config = withoutProjectHooks(config);
        ctx.io.notice(`⚠ Claude Code settings: ${(e as Error).message}; the project's hooks are held back`);
      }
    }
    const r = await fireClaude(config, claudeEvent, claudeInput, {
      beforeRun: (input) => {
        // Hooks that read transcript_path find the session up to now.
        const claudeTranscript = transcriptFor(ctx.session());
        claudeTranscript.sync();
        // Claude's is the last answer's text, not every answer of the turn (Gemini's prompt_response).
        const last = claudeTranscript.lastAssistantText;
        if (claudeEvent === 'Stop' && last !== undefined) input.last_assistant_message = last;
      },
      projectDir: ctx.cwd,
      env: hookEnv,
      envFile,
      signal,
      hostEnv,
      model: opts.model,
      session,
      onStart: (h) => h.statusMessage && ctx.io.notice(`  ⏳ ${visible(h.statusMessage)}`),
    });
    for (const one of r.runs) {
      const tool = typeof claudeInput.tool_name === 'string' ? ` [${visible(claudeInput.tool_name)}]` : '';
      if (ctx.displayHooks) {
        ctx.io.notice(`  🪝 ${ctx.counter.next++}. ${claudeEvent}${tool} · ${visible(one.command)} → ${one.outcome}`);
        // What the hook printed shows beneath its line, as in Claude Code's transcript, unless it asked not to.
        const out = one.stdout.trim();
        if (out && one.response?.suppressOutput !== true) for (const l of out.split('\n')) ctx.io.notice(`     ${visible(l)}`);
      }
      if (one.error) ctx.io.notice(`⚠ Claude Code ${claudeEvent} hook \`${one.command}\` (${one.file}): ${one.error}`);
    }
    return r;
  };
  /** An event with no Gemini counterpart, its input built here. */
  const fireNative = (claudeEvent: ClaudeEvent, fields: Record<string, unknown>, signal?: AbortSignal) =>
    run(
      claudeEvent,
      {
        ...sessionFields(),
        cwd: ctx.cwd,
        permission_mode: PERMISSION_MODES[ctx.approvalMode()] ?? ctx.approvalMode(),
        hook_event_name: claudeEvent,
        ...fields,
      },
      signal,
    );
  const fire = async (
    event: EventName,
    fields: Record<string, unknown>,
    signal?: AbortSignal,
    toolUseId?: string,
    envFile?: string,
    toolResponse?: unknown,
  ): Promise<HookOutput | undefined> => {
    const s = ctx.session();
    const input = { session_id: s.id, transcript_path: s.transcriptPath, cwd: ctx.cwd, hook_event_name: event, ...fields };
    const claudeEvent = claudeEventFor(event, input);
    const claudeInput = claudeEvent && toClaudeInput(event, input, { permissionMode: ctx.approvalMode(), toolUseId, toolResponse });
    if (!claudeEvent || !claudeInput) return undefined;
    const r = await run(claudeEvent, { ...claudeInput, ...sessionFields() }, signal, envFile);
    const tool =
      event === 'BeforeTool' ? { toolInput: fields.tool_input as Record<string, unknown>, toolName: String(fields.tool_name) } : {};
    return toGeminiOutput(r, { ...tool, cwd: ctx.cwd });
  };
  /** SessionStart with a fresh `$CLAUDE_ENV_FILE`; what its hooks export reaches later shell commands. */
  const startHooks = async (source: 'startup' | 'resume' | 'clear' | 'compact') => {
    const envFile = sessionEnvFile();
    const out = await fire('SessionStart', { source }, undefined, undefined, envFile);
    const effect = applySessionStart(out);
    if (out?.continue === false) effect.stop = out.stopReason ?? 'Stopped by a Claude Code hook';
    const sourced = await sourcedEnv(envFile, hookEnv, ctx.cwd);
    if (sourced.error) ctx.io.notice(`⚠ Claude Code SessionStart hooks' CLAUDE_ENV_FILE: ${sourced.error}`);
    // After a compaction the session goes on: what earlier hooks exported stays.
    shellEnv = { ...(source === 'compact' ? shellEnv : sessionEnv), ...sourced.env };
    return effect;
  };
  const sub = ctx.handedTo;
  return {
    name: 'claude',
    async sessionStart({ source }) {
      if (sub) {
        // A called agent starts as Claude Code's subagents do: SubagentStart, its context for this agent.
        const r = await fireNative('SubagentStart', {});
        const context = r.output.additionalContext;
        const stop = stopOf(r.output);
        const systemMessage = messagesOf(r.output);
        return {
          ...(context ? { context: escapeContext(context) } : {}),
          ...(systemMessage ? { systemMessage } : {}),
          ...(stop !== undefined ? { stop } : {}),
        };
      }
      return startHooks(source);
    },
    toolEnv() {
      return shellEnv;
    },
    close() {
      if (envDir) fs.rmSync(envDir, { recursive: true, force: true });
      void session.close();
    },
    async sessionEnd({ reason }) {
      // A subagent's end is its SubagentStop; Claude Code fires SessionEnd for the session only.
      if (sub) return {};
      return applyAdvisory(await fire('SessionEnd', { reason }));
    },
    async prompt({ prompt, signal }) {
      // A subagent's task is not a user's prompt: Claude Code runs no UserPromptSubmit for it.
      if (sub) return { action: 'proceed' };
      const e = applyBeforeAgent(await fire('BeforeAgent', { prompt }, signal));
      if (e.action === 'stop') return { action: 'stop', reason: e.reason, systemMessage: e.systemMessage };
      if (e.action === 'deny')
        return { action: 'block', reason: e.reason, notice: `Prompt blocked by hook: ${e.reason}`, systemMessage: e.systemMessage };
      const notes = asyncNotes();
      const blocks = [...woken(), ...notes.blocks, ...(e.context ? [e.context] : [])].map(promptBlock);
      const systemMessage = [notes.systemMessage, e.systemMessage].filter(Boolean).join('\n') || undefined;
      return { action: 'proceed', blocks, systemMessage };
    },
    async beforeTool({ id, name, args, signal }) {
      const out = await fire('BeforeTool', { tool_name: name, tool_input: { ...args } }, signal, id);
      const effect = applyBeforeTool(out, args);
      // PreToolUse's additionalContext reaches the model next to the tool's result.
      const context = specific(out).additionalContext;
      if ((effect.action === 'run' || effect.action === 'ask') && typeof context === 'string' && context)
        effect.context = escapeContext(context);
      return effect;
    },
    async notification({ type, message, details, signal }) {
      return applyAdvisory(await fire('Notification', { notification_type: type, message, details }, signal));
    },
    async afterTool({ id, name, args, result, llmContent, signal }) {
      const tool_response = { llmContent, returnDisplay: result.returnDisplay, ...(result.error ? { error: result.error } : {}) };
      const claudeResponse = claudeToolResponse(name, args, { ...result, llmContent });
      const out = await fire('AfterTool', { tool_name: name, tool_input: args, tool_response }, signal, id, undefined, claudeResponse);
      const effect = applyAfterTool(out, llmContent);
      // updatedToolOutput: what the model reads instead of the tool's output (the hook's context still after it).
      const replaced = specific(out).updatedToolOutput;
      if (replaced === undefined || effect.action !== 'keep' || effect.tail) return effect;
      const context = specific(out).additionalContext;
      const text = withToolContext(toolOutputText(replaced), typeof context === 'string' ? escapeContext(context) : undefined);
      return { action: 'replace', llmContent: text, ...(effect.systemMessage ? { systemMessage: effect.systemMessage } : {}) };
    },
    async compress({ trigger }) {
      const out = await fire('PreCompress', { trigger });
      const blocked = out?.decision === 'deny' || out?.continue === false;
      return { ...applyAdvisory(out), ...(blocked ? { block: out?.reason ?? out?.stopReason ?? '' } : {}) };
    },
    async compressed({ trigger, summary }) {
      const post = messagesOf((await fireNative('PostCompact', { trigger, compact_summary: summary })).output);
      if (sub) return { systemMessage: post };
      // Claude Code starts the compacted conversation with SessionStart, source "compact".
      const start = await startHooks('compact');
      const systemMessage = [post, start.systemMessage].filter(Boolean).join('\n') || undefined;
      return { systemMessage, ...(start.context ? { context: start.context } : {}) };
    },
    async turnEnd({ prompt, response, stopHookActive, retries, maxRetries, signal }) {
      const cap = maxRetries ?? stopBlockCap(hostEnv ?? process.env);
      /** A block, or (Claude Code 2.1.163) additionalContext: feedback that keeps the turn going, up to the cap. */
      const decide = (out: HookOutput | undefined) => {
        const effect = applyAfterAgent(out, retries, cap);
        const feedback = specific(out).additionalContext;
        if (effect.action === 'accept' && typeof feedback === 'string' && feedback.trim() && retries < cap)
          return { action: 'retry' as const, prompt: feedback, clearContext: effect.clearContext, systemMessage: effect.systemMessage };
        return effect;
      };
      if (sub) {
        // A called agent's answer goes through SubagentStop: a block keeps it working, with the reason as its prompt.
        const r = await fireNative(
          'SubagentStop',
          {
            stop_hook_active: stopHookActive,
            agent_transcript_path: transcriptFor(ctx.session()).path,
            last_assistant_message: response,
          },
          signal,
        );
        return decide(toGeminiOutput(r));
      }
      const out = await fire('AfterAgent', { prompt, prompt_response: response, stop_hook_active: stopHookActive }, signal);
      const effect = decide(out);
      // An asyncRewake hook that finished during the turn wakes the agent with what it said.
      if (effect.action === 'accept' && session.pending && retries < cap)
        return { action: 'retry', prompt: woken().join('\n\n'), clearContext: effect.clearContext, systemMessage: effect.systemMessage };
      return effect;
    },
    async permissionRequest({ name, args, signal }) {
      const r = await fireNative(
        'PermissionRequest',
        { tool_name: claudeToolName(name), tool_input: claudeToolInput(name, args, ctx.cwd), permission_suggestions: [] },
        signal,
      );
      const systemMessage = messagesOf(r.output);
      const stop = stopOf(r.output);
      if (stop !== undefined) return { action: 'stop', reason: stop, systemMessage };
      const p = r.output.permission;
      if (p?.behavior === 'deny') return { action: 'deny', message: p.message ?? '', interrupt: p.interrupt === true, systemMessage };
      if (p?.behavior === 'allow')
        return { action: 'allow', ...(p.updatedInput ? { args: agentToolInput(name, p.updatedInput, ctx.cwd) } : {}), systemMessage };
      return { action: 'ask', systemMessage };
    },
    async permissionDenied({ id, name, args, reason, signal }) {
      const r = await fireNative(
        'PermissionDenied',
        { tool_name: claudeToolName(name), tool_input: claudeToolInput(name, args, ctx.cwd), tool_use_id: claudeToolUseId(id), reason },
        signal,
      );
      return { retry: r.output.retry === true, systemMessage: messagesOf(r.output) };
    },
    async toolBatch({ calls, signal }) {
      const tool_calls = calls.map((c) => ({
        tool_name: claudeToolName(c.name),
        tool_input: claudeToolInput(c.name, c.args, ctx.cwd),
        tool_use_id: claudeToolUseId(c.id),
        tool_response: c.output,
      }));
      const r = await fireNative('PostToolBatch', { tool_calls }, signal);
      const o = r.output;
      const stop = stopOf(o) ?? (o.decision === 'block' ? (o.reason ?? 'Blocked by a Claude Code hook') : undefined);
      const systemMessage = messagesOf(o);
      return {
        ...(o.additionalContext ? { context: o.additionalContext } : {}),
        ...(stop !== undefined ? { stop } : {}),
        ...(systemMessage ? { systemMessage } : {}),
      };
    },
    async turnFailed({ kind, message }) {
      // Claude Code ignores what these hooks answer.
      await fireNative('StopFailure', { error: kind, error_details: message, last_assistant_message: `API Error: ${message}` });
    },
    async instructionsLoaded({ file, scope, reason, parent }) {
      await fireNative('InstructionsLoaded', {
        file_path: file,
        memory_type: scope,
        load_reason: reason,
        ...(parent ? { parent_file_path: parent } : {}),
      });
    },
    configFiles() {
      return config.files
        .filter((f) => f.exists && CONFIG_SOURCES[f.source])
        .map((f) => ({ file: f.file, source: CONFIG_SOURCES[f.source]! }));
    },
    async configChange({ file, source }) {
      const r = await fireNative('ConfigChange', { source, file_path: file });
      // Managed policy always applies, as in Claude Code.
      const block = r.output.decision === 'block' && source !== 'policy_settings';
      if (block || !opts.reload) return { block };
      try {
        ({ config, env: hookEnv, sessionEnv, hostEnv } = opts.reload());
        return { block: false };
      } catch (e) {
        return { block: true, systemMessage: `⚠ Claude Code settings ${file}: ${(e as Error).message}; the earlier settings stay` };
      }
    },
  };
}
