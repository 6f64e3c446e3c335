/**
 * Copilot CLI hooks at the agent's points, as Copilot CLI 1.0.102 runs them in `-p`: each
 * point's input in Copilot's shapes (tools.ts, run.ts), the hooks run one after another, and
 * their answers turned into the agent's effects with Copilot's words and places:
 *
 * - sessionStart's contexts are one user message of their own before the first prompt;
 * - userPromptSubmitted's (last) context is appended to the prompt inside `<system_reminder>`;
 * - preToolUse's contexts are a user message after the tool results
 *   (`Additional context from preToolUse hook:`), a deny is the tool's error
 *   (`Denied by preToolUse hook: …`), and with nobody to ask an `ask` is refused;
 * - permissionRequest fires where Copilot checks a program's or a file change's permission;
 * - postToolUse's contexts are appended to the tool's result
 *   (`Tool "bash" succeeded. Additional guidance from postToolUse hooks:`), postToolUseFailure's
 *   follow the failed result as a user message;
 * - an agentStop block sends its reason as a new prompt, at most 8 times in a row.
 */
import { visible } from '../../config/display.js';
import type { AfterToolEffect, BeforeToolEffect, Note } from '../../apply/index.js';
import type { Adapter, AdapterContext } from '../adapter.js';
import type { CopilotConfig } from './config.js';
import type { CopilotEvent } from './events.js';
import { COPILOT_TEXTS, type CopilotOutput } from './answer.js';
import { fireCopilot, type CopilotFireResult } from './run.js';
import {
  agentToolArgs,
  copilotDiff,
  copilotToolArgs,
  copilotToolError,
  copilotToolName,
  copilotToolResult,
  PERMISSION_KINDS,
} from './tools.js';

export interface CopilotAdapterOptions {
  /** What may run now: gated again when a hooks file or a file a workspace hook runs changed. */
  current: () => CopilotConfig;
  /** The environment hooks start from (sanitised). */
  env: NodeJS.ProcessEnv;
  /** Hookline's own environment (the http hooks' loopback switch). */
  hostEnv?: NodeJS.ProcessEnv;
}

/** Copilot CLI ends a turn after this many agentStop blocks in a row. */
export const AGENT_STOP_BLOCK_CAP = 8;

/** The session's source as Copilot names it: a new session (`-p`, `/clear`) or a resumed one. */
const SOURCES: Record<string, string> = { startup: 'new', clear: 'new', resume: 'resume' };

/** `-p /compact`: a command, not a session's work; Copilot CLI runs no session hooks for it. */
const SLASH_COMMAND = /^\/(compact|compress)\b/;

export function copilotAdapter(opts: CopilotAdapterOptions, ctx: AdapterContext): Adapter {
  /** The `shellId` Copilot's next shell command gets (one per command of the session). */
  let shellIds = 0;
  /** How the last turn ended: a session whose turn failed ends with `error`. */
  let lastState = 'done';
  /** The session is a command (`-p /compact`): no session hooks. */
  let command = false;

  const fire = async (event: CopilotEvent, fields: Record<string, unknown>, signal?: AbortSignal): Promise<CopilotOutput> => {
    const r: CopilotFireResult = await fireCopilot(
      opts.current(),
      event,
      { sessionId: ctx.session().id, cwd: ctx.cwd, ...fields },
      { projectDir: ctx.cwd, env: opts.env, hostEnv: opts.hostEnv, signal },
    );
    const tool = typeof fields.toolName === 'string' ? ` [${visible(fields.toolName)}]` : '';
    for (const run of r.runs) {
      if (ctx.displayHooks) ctx.io.notice(`  🪝 ${ctx.counter.next++}. ${run.event}${tool} · ${visible(run.command)} → ${run.outcome}`);
      const where = `Copilot CLI ${run.event} hook \`${visible(run.command)}\` (${run.file})`;
      if (run.error) ctx.io.notice(`⚠ ${where}: ${visible(run.error)}${run.outcome === 'deny' ? ': the call is denied' : ''}`);
    }
    for (const w of r.output.warnings) ctx.io.notice(`⚠ Copilot CLI ${event} hook: ${visible(w)}`);
    // Exit code 2 off preToolUse: Copilot shows the hook's stderr to the user.
    for (const s of r.output.shown) ctx.io.notice(`⚠ Copilot CLI ${event} hook exited 2: ${visible(s)}`);
    return r.output;
  };

  const toolFields = (name: string, args: Record<string, unknown>) => ({
    toolName: copilotToolName(name),
    toolArgs: copilotToolArgs(name, args, ctx.cwd),
  });

  /** Whether the agent itself will ask before this call (then its permission point fires permissionRequest). */
  const agentAsks = (kind: 'bash' | 'edit') => {
    const mode = ctx.approvalMode();
    return mode === 'default' || (mode === 'auto_edit' && kind === 'bash');
  };

  /** permissionRequest's input: a program's command, or a file change's diff. */
  const permissionFields = async (name: string, args: Record<string, unknown>, kind: 'bash' | 'edit') => {
    if (kind === 'bash') return { toolName: 'bash', toolInput: { command: args.command ?? args.code }, permissionSuggestions: [] };
    const file = String(copilotToolArgs(name, args, ctx.cwd).path ?? '');
    let original: string | null = null;
    try {
      original = (await import('node:fs')).readFileSync(file, 'utf8');
    } catch {
      // A new file.
    }
    const next =
      name === 'write_file'
        ? String(args.content ?? '')
        : original === null
          ? String(args.new_string ?? '')
          : args.allow_multiple === true
            ? original.split(String(args.old_string ?? '')).join(String(args.new_string ?? ''))
            : original.replace(String(args.old_string ?? ''), () => String(args.new_string ?? ''));
    return { toolName: 'edit', toolInput: { diff: copilotDiff(file, original, next), file_path: file }, permissionSuggestions: [] };
  };

  return {
    name: 'copilot',
    async sessionStart({ source, prompt }) {
      command = prompt !== undefined && SLASH_COMMAND.test(prompt);
      if (command) return {};
      const o = await fire('sessionStart', {
        source: SOURCES[source] ?? 'new',
        ...(prompt !== undefined ? { initialPrompt: prompt } : {}),
      });
      // Every hook's context together, as one user message before the first prompt.
      return o.contexts.length ? { lead: [o.contexts.join('\n\n')] } : {};
    },
    async prompt({ prompt, signal }) {
      const o = await fire('userPromptSubmitted', { prompt }, signal);
      if (o.decision === 'block') {
        const reason = o.reason ?? 'Blocked by a userPromptSubmitted hook';
        return { action: 'block', reason, notice: `Prompt blocked by a Copilot CLI userPromptSubmitted hook: ${visible(reason)}` };
      }
      return {
        action: 'proceed',
        ...(o.modifiedPrompt !== undefined ? { prompt: o.modifiedPrompt } : {}),
        ...(o.additionalContext ? { blocks: [COPILOT_TEXTS.reminder(o.additionalContext)] } : {}),
      };
    },
    async beforeTool({ name, args, signal }): Promise<BeforeToolEffect> {
      const o = await fire('preToolUse', toolFields(name, args), signal);
      // The context of hooks before a deny still follows the denied call, as in Copilot CLI.
      const notes: Note[] = o.contexts.length ? [{ user: COPILOT_TEXTS.preContext(o.contexts) }] : [];
      const withNotes = notes.length ? { notes } : {};
      if (o.deny !== undefined) return { action: 'deny', message: o.deny, ...withNotes };
      const updated = o.modifiedArgs ? agentToolArgs(name, o.modifiedArgs, ctx.cwd) : undefined;
      const next = updated ?? args;
      const common = { args: next, inputModified: updated !== undefined, ...withNotes };
      if (o.permissionDecision === 'ask') return { action: 'ask', ...common, refusal: COPILOT_TEXTS.noAsk(o.reason) };
      // Copilot checks a program's or a file change's permission even when every tool is allowed.
      const kind = PERMISSION_KINDS[name];
      if (kind && !agentAsks(kind) && o.permissionDecision !== 'allow') {
        const p = await fire('permissionRequest', await permissionFields(name, next, kind), signal);
        if (p.deny !== undefined) return { action: 'deny', message: p.deny, ...withNotes };
      }
      return { action: 'run', ...common };
    },
    async permissionRequest({ name, args, signal }) {
      const kind = PERMISSION_KINDS[name];
      if (!kind) return { action: 'ask' };
      const o = await fire('permissionRequest', await permissionFields(name, args, kind), signal);
      if (o.deny !== undefined) return { action: 'deny', message: o.deny, refusal: o.deny, interrupt: false };
      if (o.behavior === 'allow') return { action: 'allow' };
      return { action: 'ask' };
    },
    async notification({ type, details, signal }) {
      if (type !== 'ToolPermission') return {};
      const message =
        details.type === 'exec'
          ? `Run command: ${String(details.command ?? '')}`
          : `Edit file: ${String(details.fileName ?? details.filePath ?? '')}`;
      await fire('notification', { message, title: 'Permission needed', notification_type: 'permission_prompt' }, signal);
      return {};
    },
    async afterTool({ name, args, result, llmContent, signal }): Promise<AfterToolEffect> {
      const tool = copilotToolName(name);
      const shellId = result.facts?.kind === 'shell' ? shellIds++ : 0;
      if (result.error) {
        const o = await fire(
          'postToolUseFailure',
          { ...toolFields(name, args), error: copilotToolError(name, result.error.message) },
          signal,
        );
        const notes: Note[] = o.contexts.length ? [{ user: COPILOT_TEXTS.failureContext(tool, o.contexts) }] : [];
        return { action: 'keep', llmContent, ...(notes.length ? { notes } : {}) };
      }
      const textResultForLlm = copilotToolResult(name, result, ctx.cwd, shellId);
      const o = await fire('postToolUse', { ...toolFields(name, args), toolResult: { resultType: 'success', textResultForLlm } }, signal);
      const base = o.modifiedResult ? o.modifiedResult.textResultForLlm : llmContent;
      const content = o.contexts.length ? `${base}\n\n${COPILOT_TEXTS.postContext(tool, o.contexts)}` : base;
      return o.modifiedResult ? { action: 'replace', llmContent: content } : { action: 'keep', llmContent: content };
    },
    async compress({ trigger, instructions }) {
      await fire('preCompact', { transcriptPath: ctx.session().transcriptPath, trigger, customInstructions: instructions ?? '' });
      return {};
    },
    async turnEnd({ stopHookActive, retries, maxRetries, signal }) {
      const o = await fire(
        'agentStop',
        { transcriptPath: ctx.session().transcriptPath, stopReason: 'end_turn', stop_hook_active: stopHookActive },
        signal,
      );
      if (o.decision !== 'block' || !o.reason) return { action: 'accept', clearContext: false };
      if (retries >= (maxRetries ?? AGENT_STOP_BLOCK_CAP)) return { action: 'retry-limit', reason: o.reason, clearContext: false };
      // The reason is the next prompt (userPromptSubmitted reads it).
      return { action: 'retry', prompt: o.reason, clearContext: false };
    },
    async turnFinished({ state }) {
      lastState = state;
    },
    async turnFailed({ message }) {
      await fire('errorOccurred', {
        error: { message, name: 'Error', stack: `Error: ${message}` },
        errorContext: 'model_call',
        recoverable: false,
      });
    },
    async sessionEnd({ reason }) {
      if (command) return {};
      // `-p` ends with the turn (`complete`, or `error` when it failed); a session left at the prompt with `user_exit`.
      const copilotReason = lastState === 'error' ? 'error' : reason === 'exit' && !ctx.interactive ? 'complete' : 'user_exit';
      await fire('sessionEnd', { reason: copilotReason });
      return {};
    },
  };
}
