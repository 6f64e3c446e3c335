/**
 * Between Hookline's internal (Gemini CLI) event model and Claude Code's, so an agent built on
 * the core can fire Claude Code hooks at its points:
 *
 *   const event = claudeEventFor('BeforeTool');                       // 'PreToolUse'
 *   const fired = await fireClaude(config, event, toClaudeInput('BeforeTool', geminiInput));
 *   const effect = applyBeforeTool(toGeminiOutput(fired, { toolInput: args }), args);
 *
 * Tool names, arguments and results are translated to Claude Code's (tools.ts), and a hook's
 * `updatedInput` back to the agent's argument names.
 */
import type { EventName } from '../../events/names.js';
import type { HookOutput } from '../../events/output.js';
import type { ClaudeEvent } from './events.js';
import type { ClaudeOutput } from './output.js';
import { agentToolInput, CLAUDE_TOOL_NAMES, claudeToolInput, claudeToolName, claudeToolUseId } from './tools.js';

export { CLAUDE_TOOL_NAMES, claudeToolName } from './tools.js';

function toolFailed(input: Record<string, unknown> | undefined): boolean {
  const r = input?.tool_response;
  return (
    typeof r === 'object' &&
    r !== null &&
    (r as Record<string, unknown>).error !== undefined &&
    (r as Record<string, unknown>).error !== null
  );
}

/**
 * The Claude Code event fired at a Gemini event's point, or undefined (BeforeModel, AfterModel
 * and BeforeToolSelection have none). AfterTool is PostToolUseFailure when the input's
 * `tool_response.error` is set.
 */
export function claudeEventFor(geminiEvent: EventName, geminiInput?: Record<string, unknown>): ClaudeEvent | undefined {
  switch (geminiEvent) {
    case 'BeforeTool':
      return 'PreToolUse';
    case 'AfterTool':
      return toolFailed(geminiInput) ? 'PostToolUseFailure' : 'PostToolUse';
    case 'BeforeAgent':
      return 'UserPromptSubmit';
    case 'AfterAgent':
      return 'Stop';
    case 'SessionStart':
      return 'SessionStart';
    case 'SessionEnd':
      return 'SessionEnd';
    case 'PreCompress':
      return 'PreCompact';
    case 'Notification':
      return 'Notification';
    default:
      return undefined;
  }
}

/** The Gemini event whose appliers (src/apply) take a Claude event's translated output. */
export function geminiEventFor(claudeEvent: ClaudeEvent): EventName | undefined {
  switch (claudeEvent) {
    case 'PreToolUse':
      return 'BeforeTool';
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return 'AfterTool';
    case 'UserPromptSubmit':
      return 'BeforeAgent';
    case 'Stop':
    case 'SubagentStop':
      return 'AfterAgent';
    case 'SessionStart':
    case 'SessionEnd':
    case 'Notification':
      return claudeEvent;
    case 'PreCompact':
      return 'PreCompress';
    default:
      return undefined;
  }
}

/** The reference agent's approval modes as Claude Code's permission modes. */
export const PERMISSION_MODES: Readonly<Record<string, string>> = {
  default: 'default',
  auto_edit: 'acceptEdits',
  yolo: 'bypassPermissions',
  plan: 'plan',
};

export interface ToClaudeInputOptions {
  /** `permission_mode`: Claude's name, or the agent's approval mode (default, auto_edit, yolo). Default: `default`. */
  permissionMode?: string;
  /** `tool_use_id` when the Gemini input has none (give PreToolUse and PostToolUse the same one). */
  toolUseId?: string;
  /** PostToolUse's `tool_response` in Claude's shape (tools.ts `claudeToolResponse`); default: the Gemini one as is. */
  toolResponse?: unknown;
}

const SESSION_END_REASONS: Readonly<Record<string, string>> = { exit: 'prompt_input_exit' };

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);
}

function errorText(e: unknown): string {
  if (typeof e === 'string') return e;
  if (e && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string') return (e as { message: string }).message;
  return str(e);
}

function snake(s: string): string {
  return s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/**
 * A Gemini event's input in Claude Code's wire format (`hook_event_name` is the Claude event):
 * undefined when the event has no Claude equivalent. Base fields carried over: `session_id`,
 * `transcript_path`, `cwd`; `permission_mode` from the options.
 *
 * - BeforeTool / AfterTool: `tool_name` and `tool_input` in Claude's names (paths absolute against
 *   `cwd`), `tool_use_id` shaped like Claude's (`toolu_…`); `tool_response` (PostToolUse: the
 *   `toolResponse` option, else as given) or `error` + `is_interrupt: false` (PostToolUseFailure).
 * - BeforeAgent: `prompt`. AfterAgent: `stop_hook_active`, `last_assistant_message` (the answer).
 * - SessionStart: `source`. SessionEnd: `reason` (`exit` → `prompt_input_exit`).
 * - PreCompress: `trigger`, `custom_instructions: ""`.
 * - Notification: `message`, `notification_type` (`ToolPermission` → `permission_prompt`), `title` from details.
 */
export function toClaudeInput(
  geminiEvent: EventName,
  geminiInput: Record<string, unknown>,
  opts: ToClaudeInputOptions = {},
): Record<string, unknown> | undefined {
  const event = claudeEventFor(geminiEvent, geminiInput);
  if (!event) return undefined;
  const mode = opts.permissionMode ?? 'default';
  const base: Record<string, unknown> = {
    session_id: str(geminiInput.session_id),
    transcript_path: str(geminiInput.transcript_path),
    cwd: str(geminiInput.cwd),
    permission_mode: PERMISSION_MODES[mode] ?? mode,
    hook_event_name: event,
  };
  const g = geminiInput;
  switch (event) {
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      const id = typeof g.tool_use_id === 'string' ? g.tool_use_id : (opts.toolUseId ?? '');
      const tool = {
        tool_name: claudeToolName(str(g.tool_name)),
        tool_input: claudeToolInput(str(g.tool_name), (g.tool_input as Record<string, unknown> | undefined) ?? {}, str(g.cwd)),
        tool_use_id: id ? claudeToolUseId(id) : '',
      };
      if (event === 'PreToolUse') return { ...base, ...tool };
      if (event === 'PostToolUse') return { ...base, ...tool, tool_response: opts.toolResponse ?? g.tool_response };
      return { ...base, ...tool, error: errorText((g.tool_response as Record<string, unknown>).error), is_interrupt: false };
    }
    case 'UserPromptSubmit':
      return { ...base, prompt: str(g.prompt) };
    case 'Stop':
      return { ...base, stop_hook_active: g.stop_hook_active === true, last_assistant_message: str(g.prompt_response) };
    case 'SessionStart':
      return { ...base, source: str(g.source) || 'startup' };
    case 'SessionEnd': {
      const reason = str(g.reason) || 'other';
      return { ...base, reason: SESSION_END_REASONS[reason] ?? reason };
    }
    case 'PreCompact':
      return { ...base, trigger: str(g.trigger) || 'auto', custom_instructions: '' };
    case 'Notification': {
      const type = str(g.notification_type);
      const details = (g.details as Record<string, unknown> | undefined) ?? {};
      return {
        ...base,
        message: str(g.message),
        ...(typeof details.title === 'string' ? { title: details.title } : {}),
        notification_type: type === 'ToolPermission' ? 'permission_prompt' : snake(type),
      };
    }
    default:
      return undefined;
  }
}

export interface ToGeminiOutputOptions {
  /**
   * PreToolUse: the agent's arguments for the call. Claude's `updatedInput` replaces the input
   * while Gemini's `tool_input` is merged over it (`{...args, ...tool_input}`), so each key of
   * these arguments missing from the translated `updatedInput` is written as `undefined`: the
   * merge then gives exactly `updatedInput`. Without it, keys a hook dropped survive the merge.
   */
  toolInput?: Record<string, unknown>;
  /** PreToolUse: the agent's tool name, to translate `updatedInput` back to its argument names (untranslated without). */
  toolName?: string;
  /** PreToolUse: the folder relative paths were resolved against. */
  cwd?: string;
}

/**
 * A Claude event's aggregated output as a Gemini hook output that the appliers in src/apply
 * understand (undefined when there is nothing to apply):
 *
 * - every event: `continue: false` + `stopReason` (stop); the system messages and errors as one
 *   `systemMessage`.
 * - PreToolUse → BeforeTool: deny → `decision: "deny"` + `reason`; ask and defer → `"ask"` (a
 *   person decides); allow → `"allow"`; `updatedInput` → `hookSpecificOutput.tool_input` (see
 *   `toolInput`); `additionalContext` is carried in `hookSpecificOutput` (applyBeforeTool ignores it).
 * - PostToolUse(Failure) → AfterTool: the block reason and `additionalContext` → `additionalContext`
 *   (Claude keeps the tool's result and adds the reason, it does not hide the result);
 *   `updatedToolOutput` is carried in `hookSpecificOutput` (applyAfterTool does not read it).
 * - UserPromptSubmit → BeforeAgent: block → `decision: "deny"` (the prompt is discarded);
 *   `additionalContext`.
 * - Stop / SubagentStop → AfterAgent: block → `decision: "deny"` + `reason`, i.e. a retry with the
 *   reason as the prompt.
 * - SessionStart: `additionalContext`. PreCompact → PreCompress: block → `decision: "deny"`
 *   (PreCompress is advisory in Hookline: it is reported, not enforced).
 */
export function toGeminiOutput(
  result: { event: ClaudeEvent; output: ClaudeOutput },
  opts: ToGeminiOutputOptions = {},
): HookOutput | undefined {
  const { event, output: o } = result;
  const gemini = geminiEventFor(event);
  const out: HookOutput = {};
  const specific: Record<string, unknown> = {};
  if (o.continue === false) {
    out.continue = false;
    out.stopReason = o.stopReason ?? o.reason ?? o.permissionDecisionReason ?? 'Stopped by a Claude Code hook';
  }
  const messages = [...o.systemMessages, ...o.errors];
  if (messages.length) out.systemMessage = messages.join('\n');
  const blockReason = o.reason ?? 'Blocked by a Claude Code hook';
  switch (event) {
    case 'PreToolUse': {
      if (o.permissionDecision === 'deny') {
        out.decision = 'deny';
        out.reason = o.permissionDecisionReason ?? 'Denied by a Claude Code hook';
      } else if (o.permissionDecision === 'ask' || o.permissionDecision === 'defer') {
        out.decision = 'ask';
        if (o.permissionDecisionReason) out.reason = o.permissionDecisionReason;
      } else if (o.permissionDecision === 'allow') {
        out.decision = 'allow';
        if (o.permissionDecisionReason) out.reason = o.permissionDecisionReason;
      }
      if (o.updatedInput) {
        const updated = opts.toolName ? agentToolInput(opts.toolName, o.updatedInput, opts.cwd ?? '') : o.updatedInput;
        const replaced: Record<string, unknown> = {};
        for (const k of Object.keys(opts.toolInput ?? {})) if (!Object.hasOwn(updated, k)) replaced[k] = undefined;
        specific.tool_input = { ...replaced, ...updated };
      }
      if (o.additionalContext) specific.additionalContext = o.additionalContext;
      break;
    }
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      const parts = [...(o.decision === 'block' ? [blockReason] : []), ...(o.additionalContext ? [o.additionalContext] : [])];
      if (parts.length) specific.additionalContext = parts.join('\n');
      if (o.updatedToolOutput !== undefined) specific.updatedToolOutput = o.updatedToolOutput;
      break;
    }
    case 'UserPromptSubmit':
    case 'Stop':
    case 'SubagentStop':
    case 'PreCompact':
      if (o.decision === 'block') {
        out.decision = 'deny';
        out.reason = blockReason;
      }
      if (o.additionalContext) specific.additionalContext = o.additionalContext;
      break;
    default:
      if (o.additionalContext) specific.additionalContext = o.additionalContext;
  }
  if (Object.keys(specific).length) out.hookSpecificOutput = { ...(gemini ? { hookEventName: gemini } : {}), ...specific };
  return Object.keys(out).length ? out : undefined;
}

/** Claude Code's tool names back to the agent's (Gemini CLI's): `Bash` → `run_shell_command`. */
const AGENT_TOOL_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(CLAUDE_TOOL_NAMES)
    .filter(([agent]) => agent !== 'grep_search')
    .map(([agent, claude]) => [claude, agent]),
);

/** The agent's name for a Claude Code tool; MCP and other tools keep theirs. */
export function agentToolName(claudeName: string): string {
  return Object.hasOwn(AGENT_TOOL_NAMES, claudeName) ? AGENT_TOOL_NAMES[claudeName] : claudeName;
}

/** A tool response as the text a Gemini hook reads in `tool_response.llmContent`. */
function responseText(r: unknown): string {
  if (typeof r === 'string') return r;
  if (r && typeof r === 'object') {
    const o = r as Record<string, unknown>;
    if (typeof o.stdout === 'string') return [o.stdout, typeof o.stderr === 'string' ? o.stderr : ''].filter(Boolean).join('\n');
    const file = o.file as Record<string, unknown> | undefined;
    if (file && typeof file.content === 'string') return file.content;
    if (typeof o.content === 'string') return o.content;
  }
  return JSON.stringify(r ?? '');
}

/**
 * A Claude Code event's input (Claude Code's or Codex's, which share its shapes) as the Gemini
 * event Hookline's own hooks read at that moment: tool names and arguments in the agent's names,
 * the tool's response as `llmContent`. Undefined for an event with no Gemini counterpart.
 */
export function fromClaudeInput(
  claudeEvent: string,
  input: Record<string, unknown>,
  cwd: string,
): { event: EventName; fields: Record<string, unknown> } | undefined {
  const tool = () => {
    const name = agentToolName(str(input.tool_name));
    const args = (input.tool_input as Record<string, unknown> | undefined) ?? {};
    return { tool_name: name, tool_input: agentToolInput(name, args, cwd) };
  };
  switch (claudeEvent) {
    case 'PreToolUse':
      return { event: 'BeforeTool', fields: tool() };
    case 'PostToolUse':
      return {
        event: 'AfterTool',
        fields: { ...tool(), tool_response: { llmContent: responseText(input.tool_response), returnDisplay: input.tool_response } },
      };
    case 'PostToolUseFailure': {
      const error = str(input.error);
      return {
        event: 'AfterTool',
        fields: { ...tool(), tool_response: { llmContent: error, returnDisplay: error, error: { message: error } } },
      };
    }
    case 'UserPromptSubmit':
      return { event: 'BeforeAgent', fields: { prompt: str(input.prompt) } };
    case 'Stop':
      return {
        event: 'AfterAgent',
        fields: {
          prompt: str(input.prompt),
          prompt_response: str(input.last_assistant_message),
          stop_hook_active: input.stop_hook_active === true,
        },
      };
    case 'SessionStart': {
      const source = str(input.source);
      return { event: 'SessionStart', fields: { source: source === 'resume' || source === 'clear' ? source : 'startup' } };
    }
    case 'SessionEnd': {
      const reason = str(input.reason);
      return {
        event: 'SessionEnd',
        fields: { reason: ['exit', 'clear', 'logout', 'prompt_input_exit'].includes(reason) ? reason : 'other' },
      };
    }
    case 'PreCompact':
      return { event: 'PreCompress', fields: { trigger: input.trigger === 'manual' ? 'manual' : 'auto' } };
    case 'Notification':
      return {
        event: 'Notification',
        fields: { notification_type: str(input.notification_type), message: str(input.message), details: {} },
      };
    default:
      return undefined;
  }
}

/**
 * What Hookline's own (Gemini-format) hooks decided, as a Claude Code hook's JSON answer for
 * `claudeEvent`: a deny or block with its reason, an `ask`, a rewritten tool input (in Claude's
 * names), context, `continue: false`, a `systemMessage`. Undefined when there is nothing to say.
 */
export function toClaudeResponse(
  claudeEvent: string,
  out: HookOutput | undefined,
  opts: { toolName?: string; toolInput?: Record<string, unknown>; cwd?: string } = {},
): ClaudeHookResponse | undefined {
  if (!out) return undefined;
  const r: ClaudeHookResponse = {};
  if (out.continue === false) {
    r.continue = false;
    r.stopReason = out.stopReason ?? out.reason ?? 'Stopped by a hook';
  }
  if (out.systemMessage) r.systemMessage = out.systemMessage;
  const spec = (out.hookSpecificOutput ?? {}) as Record<string, unknown>;
  const specific: Record<string, unknown> = {};
  const blocked = out.decision === 'deny' || out.decision === 'block';
  const reason = out.reason ?? 'Blocked by a hook';
  if (claudeEvent === 'PreToolUse') {
    if (blocked) Object.assign(specific, { permissionDecision: 'deny', permissionDecisionReason: reason });
    else if (out.decision === 'ask')
      Object.assign(specific, { permissionDecision: 'ask', ...(out.reason ? { permissionDecisionReason: out.reason } : {}) });
    const rewrite = spec.tool_input;
    if (!blocked && rewrite && typeof rewrite === 'object' && opts.toolName) {
      const name = agentToolName(opts.toolName);
      const merged = { ...agentToolInput(name, opts.toolInput ?? {}, opts.cwd ?? ''), ...(rewrite as Record<string, unknown>) };
      specific.updatedInput = claudeToolInput(name, merged, opts.cwd ?? '');
    }
  } else if (blocked && claudeEvent !== 'SessionStart' && claudeEvent !== 'SessionEnd' && claudeEvent !== 'Notification') {
    r.decision = 'block';
    r.reason = reason;
  }
  if (typeof spec.additionalContext === 'string' && spec.additionalContext) specific.additionalContext = spec.additionalContext;
  if (Object.keys(specific).length) r.hookSpecificOutput = { hookEventName: claudeEvent, ...specific };
  return Object.keys(r).length ? r : undefined;
}

/** A Claude Code hook's JSON answer. */
export interface ClaudeHookResponse {
  continue?: boolean;
  stopReason?: string;
  systemMessage?: string;
  decision?: 'block';
  reason?: string;
  hookSpecificOutput?: { hookEventName: string; [key: string]: unknown };
}
