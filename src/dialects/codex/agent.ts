/**
 * Codex hooks at the agent's points, as Codex 0.169 runs them: each point's input in Codex's wire
 * format (`session_id`, `turn_id`, `transcript_path`, `cwd`, `hook_event_name`, `model`,
 * `permission_mode` and the event's own fields), the hooks run by the Claude Code runner (Codex
 * reads the same file shape and answers), and their answers turned into the agent's effects with
 * Codex's words: contexts are developer messages of their own, ahead of the tool's output for tool
 * events; a PreToolUse block is the tool's output; a PostToolUse block replaces it; a Stop block
 * keeps the turn going with a `<hook_prompt>` user message.
 */
import { randomUUID } from 'node:crypto';
import type { AfterAgentEffect, AfterToolEffect, BeforeToolEffect } from '../../apply/index.js';
import { visible } from '../../config/display.js';
import type { Adapter, AdapterContext } from '../adapter.js';
import type { ClaudeConfig } from '../claude/config.js';
import type { ClaudeEvent } from '../claude/events.js';
import { fireClaude, type ClaudeFireResult } from '../claude/run.js';
import { PERMISSION_MODES } from '../claude/translate.js';
import { ClaudeSession } from '../claude/background.js';
import { CODEX_RUNNER, codexHookId, type CodexHook } from './config.js';
import { CODEX_CATALOG, codexEventLabel, NO_PERMISSION_MODE, NO_TURN_EVENTS, type CodexEvent } from './events.js';
import { blocksOf, CODEX_TEXTS, contextNotes, replacedOutput, shownOf, stopOf } from './effects.js';
import { agentToolArgs, codexPatchResponse, codexPermissionInput, codexTool, codexToolInput } from './tools.js';

/** Hookline's cap on Stop blocks in a row (Codex has none). */
export const CODEX_STOP_BLOCK_CAP = 8;

export interface CodexAdapterOptions {
  /** The hooks that may run (trusted), as the runner takes them. */
  config: ClaudeConfig;
  /** Every hook found, to name a Stop hook's feedback by Codex's numbering. */
  hooks: readonly CodexHook[];
  /** The environment hooks start from (sanitised), with `CODEX_HOME`. */
  env: NodeJS.ProcessEnv;
  /** Loads the configuration again through the same gates, when a file a workspace hook runs changed. */
  reload?: () => { config: ClaudeConfig; hooks: readonly CodexHook[] };
  stale?: () => boolean;
}

export function codexAdapter(opts: CodexAdapterOptions, ctx: AdapterContext): Adapter {
  let { config, hooks } = opts;
  let turnId: string | undefined;
  const session = new ClaudeSession();
  const hookOf = (file: string, at: string) => hooks.find((h) => codexHookId(h) === `${file}#${at}`);
  /** The model's own name (`gpt-5`, not the agent's `openai-compatible:gpt-5`). */
  const model = ctx.modelName.replace(/^[\w-]+:/, '');
  const run = async (event: CodexEvent, fields: Record<string, unknown>, signal?: AbortSignal, aliases?: readonly string[]) => {
    if (opts.reload && opts.stale?.()) ({ config, hooks } = opts.reload());
    const s = ctx.session();
    const sub = ctx.handedTo;
    const input: Record<string, unknown> = {
      session_id: sub ? sub.parent.id : s.id,
      ...(NO_TURN_EVENTS.has(event) || turnId === undefined ? {} : { turn_id: turnId }),
      transcript_path: sub ? sub.parent.transcriptPath : s.transcriptPath,
      cwd: ctx.cwd,
      hook_event_name: event,
      model,
      ...(NO_PERMISSION_MODE.has(event) ? {} : { permission_mode: PERMISSION_MODES[ctx.approvalMode()] ?? ctx.approvalMode() }),
      ...(sub ? { agent_id: s.id, agent_type: sub.name } : {}),
      ...fields,
    };
    const claude: ClaudeEvent = CODEX_CATALOG[event].claude;
    // Codex events that share a Claude Code reading (PreModelRequest, SessionEnd) keep their own hooks.
    const own = { ...config, hooks: config.hooks.filter((h) => (h as CodexHook).codex?.event === event) };
    const r = await fireClaude(own, claude, input, {
      projectDir: ctx.cwd,
      env: opts.env,
      signal,
      session,
      ...CODEX_RUNNER,
      ...(aliases?.length ? { aliases } : {}),
      wireEvent: event,
      onStart: (h) => h.statusMessage && ctx.io.notice(`  ⏳ ${visible(h.statusMessage)}`),
    });
    for (const one of r.runs) {
      const tool = typeof input.tool_name === 'string' ? ` [${visible(input.tool_name)}]` : '';
      if (ctx.displayHooks) ctx.io.notice(`  🪝 ${ctx.counter.next++}. ${event}${tool} · ${visible(one.command)} → ${one.outcome}`);
      if (one.error) ctx.io.notice(`⚠ Codex ${event} hook \`${visible(one.command)}\` (${one.file}): ${one.error}`);
    }
    return r;
  };
  const toolFields = (id: string, name: string, args: Record<string, unknown>) => ({
    tool_name: codexTool(name).name,
    tool_input: codexToolInput(name, args),
    tool_use_id: id,
  });
  /** A Stop (or SubagentStop) answer: a block keeps the turn going with each blocking hook's `<hook_prompt>`, up to Hookline's cap. */
  const turnDecision = (r: ClaudeFireResult, event: CodexEvent, retries: number, cap: number): AfterAgentEffect => {
    const o = r.output;
    const systemMessage = shownOf(o);
    const stop = stopOf(o);
    if (stop !== undefined) return { action: 'stop', reason: stop, clearContext: false, systemMessage };
    const blocks = blocksOf(r);
    if (!blocks.length) return { action: 'accept', clearContext: false, systemMessage };
    const reason = blocks.map((b) => b.reason).join('\n');
    if (retries >= cap) return { action: 'retry-limit', reason, clearContext: false, systemMessage };
    const user = blocks
      .map((b) => {
        const h = hookOf(b.run.file, b.run.path);
        return CODEX_TEXTS.hookPrompt(`${codexEventLabel(event)}:${h?.codex.order ?? 0}:${b.run.file}`, b.reason);
      })
      .join('\n');
    return { action: 'retry', prompt: reason, clearContext: false, systemMessage, continuation: { user, notes: [] } };
  };
  const sub = ctx.handedTo;
  return {
    name: 'codex',
    async sessionStart({ source }) {
      if (sub) {
        // A subagent's events carry its own turn's id, from its start to its stop.
        turnId = randomUUID();
        const o = (await run('SubagentStart', {})).output;
        const stop = stopOf(o);
        const systemMessage = shownOf(o);
        return { notes: contextNotes(o), ...(systemMessage ? { systemMessage } : {}), ...(stop !== undefined ? { stop } : {}) };
      }
      const o = (await run('SessionStart', { source })).output;
      const stop = stopOf(o);
      const systemMessage = shownOf(o);
      return { notes: contextNotes(o), ...(systemMessage ? { systemMessage } : {}), ...(stop !== undefined ? { stop } : {}) };
    },
    async sessionEnd({ reason }) {
      if (sub) return {};
      const codexReason = reason === 'exit' ? (ctx.interactive ? 'prompt_input_exit' : 'other') : reason;
      const systemMessage = shownOf((await run('SessionEnd', { reason: codexReason })).output);
      return systemMessage ? { systemMessage } : {};
    },
    async prompt({ prompt, signal }) {
      if (sub) return { action: 'proceed' };
      turnId = randomUUID();
      const r = await run('UserPromptSubmit', { prompt }, signal);
      const o = r.output;
      const systemMessage = shownOf(o);
      const stop = stopOf(o);
      if (stop !== undefined) return { action: 'stop', reason: stop, notice: CODEX_TEXTS.stopped(stop), systemMessage };
      const blocks = blocksOf(r);
      if (blocks.length) {
        const reason = blocks.map((b) => b.reason).join('\n');
        return { action: 'block', reason, notice: CODEX_TEXTS.promptBlocked(reason), systemMessage };
      }
      return { action: 'proceed', notes: contextNotes(o), systemMessage };
    },
    async modelRequest({ request, signal }) {
      // Codex reads nothing from these hooks' answers: the request goes as it was.
      const systemMessage = shownOf((await run('PreModelRequest', {}, signal)).output);
      return { action: 'call', request, ...(systemMessage ? { systemMessage } : {}) };
    },
    async beforeTool({ id, name, args, signal }): Promise<BeforeToolEffect> {
      const fields = toolFields(id, name, args);
      const o = (await run('PreToolUse', fields, signal, codexTool(name).aliases)).output;
      const systemMessage = shownOf(o);
      const stop = stopOf(o);
      // Codex runs the tool and goes on; Hookline does not run it (a difference kept on purpose).
      if (stop !== undefined) return { action: 'stop', message: `Agent execution stopped by hook: ${stop}`, systemMessage };
      if (o.permissionDecision === 'deny') {
        const input = fields.tool_input as Record<string, unknown>;
        const command = typeof input.command === 'string' ? input.command : JSON.stringify(input);
        const reason = (o.permissionDecisionReason ?? '').trim();
        return { action: 'deny', message: CODEX_TEXTS.blocked(reason, command), systemMessage };
      }
      const updated = o.updatedInput ? agentToolArgs(name, o.updatedInput, args) : undefined;
      const notes = contextNotes(o);
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
    async afterTool({ id, name, args, result, llmContent, signal }): Promise<AfterToolEffect> {
      const f = result.facts;
      // Codex gives the shell's output as printed, and a patch's summary.
      const patched = f?.kind === 'write' && codexTool(name).name === 'apply_patch' && !result.error;
      const response = f?.kind === 'shell' ? (f.printed ?? f.output) : patched ? codexPatchResponse(f, ctx.cwd) : llmContent;
      const r = await run('PostToolUse', { ...toolFields(id, name, args), tool_response: response }, signal, codexTool(name).aliases);
      const o = r.output;
      const notes = contextNotes(o);
      const reasons = blocksOf(r).map((b) => b.reason);
      // Codex gives the model the stop reason in place of the output, and goes on.
      const stop = stopOf(o);
      if (stop !== undefined) reasons.push(stop);
      const replaced = reasons.length ? replacedOutput(reasons) : undefined;
      // Codex reports the replaced output as the tool call's error; the user sees it here too.
      const said = [shownOf(o), replaced !== undefined ? CODEX_TEXTS.replaced(codexTool(name).name, replaced) : undefined].filter(Boolean);
      const extra = { ...(notes.length ? { notes } : {}), ...(said.length ? { systemMessage: said.join('\n') } : {}) };
      if (replaced !== undefined) return { action: 'replace', llmContent: replaced, ...extra };
      return { action: 'keep', llmContent, ...extra };
    },
    async permissionRequest({ name, args, signal }) {
      const r = await run('PermissionRequest', { tool_name: codexTool(name).name, tool_input: codexPermissionInput(name, args) }, signal);
      const p = r.output.permission;
      if (p?.behavior === 'deny') {
        // The shell's refusal reaches the model in Codex's words, and the user sees them too.
        const refusal = codexTool(name).name === 'Bash' ? CODEX_TEXTS.shellDenied(p.message ?? '') : (p.message ?? '');
        const systemMessage =
          [shownOf(r.output), codexTool(name).name === 'Bash' ? refusal : undefined].filter(Boolean).join('\n') || undefined;
        return { action: 'deny', message: p.message ?? '', refusal, interrupt: p.interrupt === true, systemMessage };
      }
      const systemMessage = shownOf(r.output);
      if (p?.behavior === 'allow')
        return {
          action: 'allow',
          ...(p.updatedInput ? { args: agentToolArgs(name, p.updatedInput, args) ?? args } : {}),
          systemMessage,
        };
      return { action: 'ask', systemMessage };
    },
    async compress({ trigger }) {
      // Codex gives no instructions nor summary to its compaction hooks: the trigger alone.
      const o = (await run('PreCompact', { trigger })).output;
      const systemMessage = shownOf(o);
      const blocked = o.decision === 'block' || o.continue === false;
      return { ...(systemMessage ? { systemMessage } : {}), ...(blocked ? { block: o.reason ?? o.stopReason ?? '' } : {}) };
    },
    async compressed({ trigger }) {
      const systemMessage = shownOf((await run('PostCompact', { trigger })).output);
      return systemMessage ? { systemMessage } : {};
    },
    async turnEnd({ stopHookActive, response, lastResponse, retries, maxRetries, signal }) {
      const cap = maxRetries ?? CODEX_STOP_BLOCK_CAP;
      const last = lastResponse ?? response;
      if (sub) {
        const r = await run(
          'SubagentStop',
          { stop_hook_active: stopHookActive, agent_transcript_path: ctx.session().transcriptPath, last_assistant_message: last },
          signal,
        );
        return turnDecision(r, 'SubagentStop', retries, cap);
      }
      const r = await run('Stop', { stop_hook_active: stopHookActive, last_assistant_message: last }, signal);
      return turnDecision(r, 'Stop', retries, cap);
    },
    async settle() {
      await session.settleWithin(10_000);
    },
    close() {
      void session.close();
    },
  };
}
