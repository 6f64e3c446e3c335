/**
 * Claude Code hooks at the agent's points, as Claude Code 2.1.328 runs them: each point's input
 * in Claude Code's wire format, the hooks run, and their aggregated decision turned into the
 * agent's effects with Claude Code's words — what hooks tell the model arrives as labelled
 * messages of its own (`PreToolUse:Bash hook additional context: …`), a deny as the tool's error
 * (`PreToolUse:Bash hook error: …`), a Stop block as feedback that keeps the turn going.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { escapeContext, promptBlock, type AfterAgentEffect, type AfterToolEffect, type BeforeToolEffect } from '../../apply/index.js';
import { visible } from '../../config/display.js';
import type { Adapter, AdapterContext, SessionStartPoint } from '../adapter.js';
import { withoutProjectHooks, type ClaudeConfig } from './config.js';
import { freshEnvFile, sourcedEnv } from './env-file.js';
import type { ClaudeEvent } from './events.js';
import { fireClaude, NO_PERMISSION_MODE, type ClaudeFireResult } from './run.js';
import {
  agentToolInput,
  claudeBashText,
  claudeToolInput,
  claudeToolName,
  claudeToolResponse,
  claudeToolUseId,
  type AgentToolResult,
} from './tools.js';
import { ClaudeTranscript, claudeTranscriptPath } from './transcript.js';
import { ClaudeSession } from './background.js';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { PERMISSION_MODES } from './translate.js';
import { blockText, CLAUDE_TEXTS, CONFIG_SOURCES, contextNotes, messagesOf, shownOf, stopOf, toolOutputText } from './effects.js';
import type { ClaudeOutput } from './output.js';

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

/** How long the session's end waits for `async` hooks still running (Claude Code leaves them running; Hookline leaves no process). */
const ASYNC_GRACE_MS = 10_000;

/** Claude Code ends a turn after this many Stop-hook blocks in a row (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP overrides). */
export const STOP_HOOK_BLOCK_CAP = 8;

function stopBlockCap(env: NodeJS.ProcessEnv): number {
  const n = Number(env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP);
  return Number.isInteger(n) && n >= 0 ? n : STOP_HOOK_BLOCK_CAP;
}

/** The events whose input carries the model's `effort` (those fired inside a turn's model loop). */
const EFFORT_EVENTS: ReadonlySet<ClaudeEvent> = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'PermissionRequest',
  'PermissionDenied',
  'Stop',
  'SubagentStop',
  'StopFailure',
]);

const EFFORT_LEVELS = new Set(['low', 'medium', 'high', 'xhigh', 'max']);

/** The effort level hooks are told: `CLAUDE_CODE_EFFORT_LEVEL`, else Claude Code's default. */
function effortLevel(env: NodeJS.ProcessEnv): string {
  const v = env.CLAUDE_CODE_EFFORT_LEVEL?.trim().toLowerCase();
  return v && EFFORT_LEVELS.has(v) ? v : 'medium';
}

/** A shell run that exited non-zero, or any tool error: Claude Code fires PostToolUseFailure. */
function failureOf(result: AgentToolResult): string | undefined {
  const f = result.facts;
  if (f?.kind === 'shell' && f.exitCode !== null && f.exitCode !== 0) return claudeBashText(f.output, f.exitCode);
  if (result.error) return result.error.message;
  return undefined;
}

export function claudeAdapter(opts: ClaudeAdapterOptions, ctx: AdapterContext): Adapter {
  let { config, env: hookEnv, sessionEnv, hostEnv } = opts;
  // What shell commands get: the settings' env, then what SessionStart hooks export.
  let shellEnv: Record<string, string> = { ...sessionEnv };
  let envDir: string | undefined;
  /** The current prompt's id (Claude Code's `prompt_id`): set by each user prompt. */
  let promptId: string | undefined;
  // `once` hooks, background (async) runs and the asyncRewake messages for the next turn.
  const session = new ClaudeSession();
  /** What asyncRewake hooks left: their texts for the model, their summaries for the user. */
  const woken = () => {
    const wakes = session.drain();
    return { texts: wakes.map((w) => w.text), shown: wakes.length ? [...new Set(wakes.map((w) => w.summary))].join('\n') : undefined };
  };
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
      env: { ...hookEnv, CLAUDECODE: '1' },
      envFile,
      signal,
      hostEnv,
      model: opts.model,
      session,
      rewakeInBackground: ctx.interactive,
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
  /** Fires an event with Claude Code's base fields around its own. */
  const fire = (claudeEvent: ClaudeEvent, fields: Record<string, unknown>, signal?: AbortSignal, envFile?: string) =>
    run(
      claudeEvent,
      {
        ...sessionFields(),
        cwd: ctx.cwd,
        ...(promptId ? { prompt_id: promptId } : {}),
        ...(NO_PERMISSION_MODE.has(claudeEvent) ? {} : { permission_mode: PERMISSION_MODES[ctx.approvalMode()] ?? ctx.approvalMode() }),
        ...(EFFORT_EVENTS.has(claudeEvent) ? { effort: { level: effortLevel(hostEnv ?? process.env) } } : {}),
        hook_event_name: claudeEvent,
        ...fields,
      },
      signal,
      envFile,
    );
  const toolFields = (id: string, name: string, args: Record<string, unknown>) => ({
    tool_name: claudeToolName(name),
    tool_input: claudeToolInput(name, args, ctx.cwd),
    tool_use_id: claudeToolUseId(id),
  });
  /**
   * SessionStart with a fresh `$CLAUDE_ENV_FILE`; what its hooks export reaches later shell
   * commands. A resumed session says how large it is and how long since the model answered; the
   * compacted one names the model, as Claude Code's do.
   */
  const startHooks = async (source: 'startup' | 'resume' | 'clear' | 'compact', resumed?: SessionStartPoint['resumed']) => {
    const envFile = sessionEnvFile();
    const fields: Record<string, unknown> = { source };
    // The model's own name (`claude-opus-5-5`, not the agent's `anthropic:claude-opus-5-5`).
    if (source === 'compact') fields.model = ctx.modelName.replace(/^[\w-]+:/, '');
    if (resumed) {
      fields.context_tokens = resumed.contextTokens;
      if (resumed.secondsSinceLastResponse !== undefined) {
        fields.seconds_since_last_response = resumed.secondsSinceLastResponse;
        // Anthropic's prompt cache lives five minutes.
        fields.prompt_cache_likely_expired = resumed.secondsSinceLastResponse > 300;
      }
    }
    const o = (await fire('SessionStart', fields, undefined, envFile)).output;
    const sourced = await sourcedEnv(envFile, hookEnv, ctx.cwd);
    if (sourced.error) ctx.io.notice(`⚠ Claude Code SessionStart hooks' CLAUDE_ENV_FILE: ${sourced.error}`);
    // After a compaction the session goes on: what earlier hooks exported stays.
    shellEnv = { ...(source === 'compact' ? shellEnv : sessionEnv), ...sourced.env };
    const stop = stopOf(o);
    const notes = contextNotes(o, 'SessionStart', `SessionStart:${source}`);
    const systemMessage = shownOf(o, `SessionStart:${source}`);
    return { notes, ...(systemMessage ? { systemMessage } : {}), ...(stop !== undefined ? { stop } : {}) };
  };
  /** A Stop (or SubagentStop) answer: a block or a context keeps the turn going, up to the cap. */
  const turnDecision = (o: ClaudeOutput, name: string, retries: number, cap: number): AfterAgentEffect => {
    const systemMessage = shownOf(o, name);
    const stop = stopOf(o);
    if (stop !== undefined) return { action: 'stop', reason: stop, clearContext: false, systemMessage };
    const context = contextNotes(o, name);
    const blocked = o.decision === 'block';
    if (!blocked && !context.length) return { action: 'accept', clearContext: false, systemMessage };
    const reason = o.blocks.map(blockText).join('\n') || (o.reason ?? '');
    if (retries >= cap) return { action: 'retry-limit', reason: reason || (o.additionalContext ?? ''), clearContext: false, systemMessage };
    // A JSON block is named with its command beside the feedback; exit code 2's already names it.
    const named = o.blocks.filter((b) => !b.exit2).map((b) => CLAUDE_TEXTS.blocking(name, b.command, b.reason));
    return {
      action: 'retry',
      prompt: reason || (o.additionalContext ?? ''),
      clearContext: false,
      systemMessage,
      continuation: { ...(blocked ? { user: CLAUDE_TEXTS.feedback(name, reason) } : {}), notes: [...named, ...context] },
    };
  };
  const sub = ctx.handedTo;
  return {
    name: 'claude',
    async sessionStart({ source, resumed }) {
      if (sub) {
        // A called agent starts as Claude Code's subagents do: SubagentStart, its context for this agent.
        const o = (await fire('SubagentStart', {})).output;
        const notes = contextNotes(o, 'SubagentStart');
        const stop = stopOf(o);
        const systemMessage = shownOf(o, 'SubagentStart');
        return { notes, ...(systemMessage ? { systemMessage } : {}), ...(stop !== undefined ? { stop } : {}) };
      }
      return startHooks(source, resumed);
    },
    toolEnv() {
      return shellEnv;
    },
    async settle() {
      const left = await session.settleWithin(ASYNC_GRACE_MS);
      if (left)
        ctx.io.notice(
          `⚠ ${left} Claude Code async hook(s) still running after ${ASYNC_GRACE_MS / 1000}s at the session's end were stopped`,
        );
    },
    close() {
      if (envDir) fs.rmSync(envDir, { recursive: true, force: true });
      void session.close();
    },
    async sessionEnd({ reason }) {
      // A subagent's end is its SubagentStop; Claude Code fires SessionEnd for the session only.
      if (sub) return {};
      // Claude Code ends a `-p` session with "other", an interactive one left at its prompt with "prompt_input_exit".
      const claudeReason = reason === 'exit' ? (ctx.interactive ? 'prompt_input_exit' : 'other') : reason;
      const systemMessage = shownOf((await fire('SessionEnd', { reason: claudeReason })).output, 'SessionEnd');
      return systemMessage ? { systemMessage } : {};
    },
    async prompt({ prompt, signal }) {
      // A subagent's task is not a user's prompt: Claude Code runs no UserPromptSubmit for it.
      if (sub) return { action: 'proceed' };
      promptId = randomUUID();
      const o = (await fire('UserPromptSubmit', { prompt }, signal)).output;
      const shown = shownOf(o, 'UserPromptSubmit');
      const stop = stopOf(o);
      if (stop !== undefined) return { action: 'stop', reason: stop, notice: CLAUDE_TEXTS.operationStopped(stop), systemMessage: shown };
      if (o.decision === 'block') {
        const reason = o.blocks.map(blockText).join('\n');
        return { action: 'block', reason, notice: CLAUDE_TEXTS.promptBlocked(reason, prompt), systemMessage: shown };
      }
      const notes = asyncNotes();
      const wakes = woken();
      const blocks = [...wakes.texts, ...notes.blocks].map(promptBlock);
      const systemMessage = [wakes.shown, notes.systemMessage, shown].filter(Boolean).join('\n') || undefined;
      return { action: 'proceed', blocks, notes: contextNotes(o, 'UserPromptSubmit'), systemMessage };
    },
    async beforeTool({ id, name, args, signal }): Promise<BeforeToolEffect> {
      const label = `PreToolUse:${claudeToolName(name)}`;
      const o = (await fire('PreToolUse', toolFields(id, name, args), signal)).output;
      const systemMessage = shownOf(o, label);
      const stop = stopOf(o);
      // Claude Code runs the tool and then stops; Hookline does not run it (a difference kept on purpose).
      if (stop !== undefined) return { action: 'stop', message: `Agent execution stopped by hook: ${stop}`, systemMessage };
      if (o.permissionDecision === 'deny') {
        const reason = o.blocks.map(blockText).join('\n') || (o.permissionDecisionReason ?? '');
        return { action: 'deny', message: CLAUDE_TEXTS.error(label, reason), systemMessage };
      }
      const updated = o.updatedInput ? agentToolInput(name, o.updatedInput, ctx.cwd) : undefined;
      const notes = contextNotes(o, label);
      const effect = {
        args: updated ?? args,
        inputModified: updated !== undefined,
        ...(notes.length ? { notes } : {}),
        ...(systemMessage ? { systemMessage } : {}),
      };
      if (o.permissionDecision === 'ask' || o.permissionDecision === 'defer')
        return { action: 'ask', ...effect, ...(o.permissionDecisionReason ? { refusal: o.permissionDecisionReason } : {}) };
      return { action: 'run', ...effect };
    },
    async notification({ type, message, details, signal }) {
      // Claude Code notifies a permission prompt it shows; in -p none is shown.
      if (type === 'ToolPermission' && !ctx.interactive) return {};
      const title = typeof details.title === 'string' ? { title: details.title } : {};
      const notificationType = type === 'ToolPermission' ? 'permission_prompt' : type.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
      const o = (await fire('Notification', { message, ...title, notification_type: notificationType }, signal)).output;
      const systemMessage = shownOf(o, 'Notification');
      return systemMessage ? { systemMessage } : {};
    },
    async afterTool({ id, name, args, result, llmContent, signal }): Promise<AfterToolEffect> {
      const failure = failureOf(result);
      const event: ClaudeEvent = failure !== undefined ? 'PostToolUseFailure' : 'PostToolUse';
      const label = `${event}:${claudeToolName(name)}`;
      const started = result.durationMs;
      const fields = {
        ...toolFields(id, name, args),
        ...(failure !== undefined
          ? { error: failure, is_interrupt: false }
          : { tool_response: claudeToolResponse(name, args, { ...result, llmContent }) }),
        duration_ms: Math.max(0, Math.round(started ?? 0)),
      };
      const o = (await fire(event, fields, signal)).output;
      const systemMessage = shownOf(o, label);
      const stop = stopOf(o);
      if (stop !== undefined) {
        const message = `Agent execution stopped by hook: ${stop}`;
        return { action: 'stop', llmContent: message, message, systemMessage };
      }
      const notes = [...o.blocks.map((b) => CLAUDE_TEXTS.blocking(label, b.command, blockText(b))), ...contextNotes(o, label)];
      const extra = { ...(notes.length ? { notes } : {}), ...(systemMessage ? { systemMessage } : {}) };
      // updatedToolOutput: what the model reads instead of the tool's output.
      if (o.updatedToolOutput !== undefined) return { action: 'replace', llmContent: toolOutputText(o.updatedToolOutput), ...extra };
      return { action: 'keep', llmContent, ...extra };
    },
    async compress({ trigger, instructions }) {
      // The user's /compact is a prompt of its own to Claude Code.
      if (trigger === 'manual') promptId = randomUUID();
      const o = (await fire('PreCompact', { trigger, custom_instructions: instructions ?? null })).output;
      const blocked = o.decision === 'block' || o.continue === false;
      const systemMessage = shownOf(o, 'PreCompact');
      return { ...(systemMessage ? { systemMessage } : {}), ...(blocked ? { block: o.reason ?? o.stopReason ?? '' } : {}) };
    },
    async compressed({ trigger, summary }) {
      // Claude Code starts the compacted conversation with SessionStart, source "compact", then fires PostCompact.
      const start = sub ? undefined : await startHooks('compact');
      const post = shownOf((await fire('PostCompact', { trigger, compact_summary: summary })).output, 'PostCompact');
      if (!start) return { systemMessage: post };
      const systemMessage = [start.systemMessage, post].filter(Boolean).join('\n') || undefined;
      return { systemMessage, ...(start.notes.length ? { notes: start.notes } : {}) };
    },
    async turnEnd({ stopHookActive, response, retries, maxRetries, signal }) {
      const cap = maxRetries ?? stopBlockCap(hostEnv ?? process.env);
      if (sub) {
        // A called agent's answer goes through SubagentStop: a block keeps it working, with the reason as its prompt.
        const r = await fire(
          'SubagentStop',
          {
            stop_hook_active: stopHookActive,
            agent_transcript_path: transcriptFor(ctx.session()).path,
            last_assistant_message: response,
            background_tasks: [],
            session_crons: [],
          },
          signal,
        );
        return turnDecision(r.output, 'SubagentStop', retries, cap);
      }
      const r = await fire(
        'Stop',
        { stop_hook_active: stopHookActive, last_assistant_message: response, background_tasks: [], session_crons: [] },
        signal,
      );
      const effect = turnDecision(r.output, 'Stop', retries, cap);
      // An asyncRewake hook that finished during the turn wakes the agent with what it said.
      if (effect.action === 'accept' && session.pending && retries < cap) {
        const wakes = woken();
        const systemMessage = [effect.systemMessage, wakes.shown].filter(Boolean).join('\n') || undefined;
        return { action: 'retry', prompt: wakes.texts.join('\n\n'), clearContext: false, systemMessage };
      }
      return effect;
    },
    async permissionRequest({ name, args, signal }) {
      const r = await fire(
        'PermissionRequest',
        { tool_name: claudeToolName(name), tool_input: claudeToolInput(name, args, ctx.cwd), permission_suggestions: [] },
        signal,
      );
      const systemMessage = messagesOf(r.output);
      const stop = stopOf(r.output);
      if (stop !== undefined) return { action: 'stop', reason: stop, systemMessage };
      const p = r.output.permission;
      // The model reads the hook's message as it is.
      if (p?.behavior === 'deny')
        return { action: 'deny', message: p.message ?? '', refusal: p.message ?? '', interrupt: p.interrupt === true, systemMessage };
      if (p?.behavior === 'allow')
        return { action: 'allow', ...(p.updatedInput ? { args: agentToolInput(name, p.updatedInput, ctx.cwd) } : {}), systemMessage };
      return { action: 'ask', systemMessage };
    },
    async permissionDenied({ id, name, args, reason, signal }) {
      // In -p nobody refused: Claude Code fires no PermissionDenied for a call it could not ask about.
      if (!ctx.interactive) return {};
      const r = await fire('PermissionDenied', { ...toolFields(id, name, args), reason }, signal);
      return { retry: r.output.retry === true, systemMessage: messagesOf(r.output) };
    },
    async toolBatch({ calls, signal }) {
      const tool_calls = calls.map((c) => ({
        ...toolFields(c.id, c.name, c.args),
        tool_response: c.shell ? claudeBashText(c.shell.output, c.shell.exitCode) : c.output,
      }));
      const o = (await fire('PostToolBatch', { tool_calls }, signal)).output;
      const stop = stopOf(o) ?? (o.decision === 'block' ? (o.reason ?? 'Blocked by a Claude Code hook') : undefined);
      const systemMessage = shownOf(o, 'PostToolBatch');
      const notes = contextNotes(o, 'PostToolBatch');
      return {
        ...(notes.length ? { notes } : {}),
        ...(stop !== undefined ? { stop } : {}),
        ...(systemMessage ? { systemMessage } : {}),
      };
    },
    async turnFailed({ kind, message, status }) {
      // Claude Code ignores what these hooks answer.
      await fire('StopFailure', {
        error: kind,
        last_assistant_message: `API Error: ${status !== undefined ? `${status} ` : ''}${message}`,
      });
    },
    async instructionsLoaded({ file, scope, reason, parent }) {
      await fire('InstructionsLoaded', {
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
      const r = await fire('ConfigChange', { source, file_path: file });
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
