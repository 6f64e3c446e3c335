/**
 * Copilot CLI as a relay host. Copilot's camelCase events carry no event name (the entry names
 * it: `--event`), its tools and arguments are its own (`bash`, `view` with `path`), and it reads
 * its own answers; but each of its events is one of Claude Code's, which is how Copilot CLI's
 * PascalCase format reads them. So an event is put in Claude Code's shape, runs through the
 * Claude family of the relay like any Claude Code event, and the Claude-shaped answer is put back
 * in Copilot's words: tool arguments through the agent's names both ways.
 *
 * Copilot CLI shows a user no hook's `systemMessage`; it shows the stderr of a hook that exits 2
 * on any event but preToolUse (where exit 2 denies). What Hookline has to say is shown that way
 * when the answer has nothing else; on a guard event (and beside an answer) the model is told it
 * in `additionalContext` instead.
 */
import type { ClaudeEvent } from '../dialects/claude/events.js';
import { agentToolInput, claudeToolInput, claudeToolName } from '../dialects/claude/tools.js';
import type { CopilotEvent } from '../dialects/copilot/events.js';
import { agentToolArgs, agentToolFor, copilotToolArgs } from '../dialects/copilot/tools.js';
import type { RelayAnswer } from './answers.js';
import { isObject } from '../dialects/json.js';

/** Copilot's events the relay has a Claude Code event for (an entry is installed for each). */
export const COPILOT_RELAYED: Readonly<Partial<Record<CopilotEvent, ClaudeEvent>>> = {
  sessionStart: 'SessionStart',
  userPromptSubmitted: 'UserPromptSubmit',
  preToolUse: 'PreToolUse',
  permissionRequest: 'PermissionRequest',
  postToolUse: 'PostToolUse',
  postToolUseFailure: 'PostToolUseFailure',
  notification: 'Notification',
  agentStop: 'Stop',
  sessionEnd: 'SessionEnd',
  preCompact: 'PreCompact',
};

export const COPILOT_RELAY_EVENTS = Object.keys(COPILOT_RELAYED) as CopilotEvent[];

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** A Copilot event as Claude Code's, with the agent's tool it is about (for translating a rewrite back). */
export interface AsClaude {
  event: ClaudeEvent;
  input: Record<string, unknown>;
  agentTool?: string;
}

/** Copilot's `sessionEnd` reasons as Claude Code's. */
const END_REASONS: Record<string, string> = { user_exit: 'prompt_input_exit', complete: 'other', error: 'other' };

/**
 * A tool's arguments: an object, or (as Copilot CLI's documents show them) its JSON text. Any
 * other value is refused rather than read as no arguments, which a guard would let through.
 */
function toolArgsOf(args: unknown): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  if (isObject(args)) return args;
  if (typeof args === 'string') {
    let v: unknown;
    try {
      v = args.trim() ? JSON.parse(args) : {};
    } catch {
      v = undefined;
    }
    if (isObject(v)) return v;
  }
  throw new Error("the event's toolArgs are neither an object nor the JSON text of one");
}

/** One Copilot event's input in Claude Code's shape, or undefined when Claude Code has no such event. */
export function copilotAsClaude(event: string, input: Record<string, unknown>, cwd: string): AsClaude | undefined {
  const claudeEvent = Object.hasOwn(COPILOT_RELAYED, event) ? COPILOT_RELAYED[event as CopilotEvent] : undefined;
  if (!claudeEvent) return undefined;
  const base = {
    hook_event_name: claudeEvent,
    session_id: str(input.sessionId),
    transcript_path: str(input.transcriptPath),
    cwd: str(input.cwd) || cwd,
    permission_mode: 'default',
  };
  const tool = () => {
    const copilotArgs = toolArgsOf(input.toolArgs);
    const agentTool = agentToolFor(str(input.toolName), copilotArgs);
    const args = agentToolArgs(agentTool, copilotArgs, base.cwd);
    return { agentTool, fields: { tool_name: claudeToolName(agentTool), tool_input: claudeToolInput(agentTool, args, base.cwd) } };
  };
  switch (claudeEvent) {
    case 'PreToolUse': {
      const t = tool();
      return { event: claudeEvent, input: { ...base, ...t.fields }, agentTool: t.agentTool };
    }
    case 'PostToolUse': {
      const t = tool();
      const result = isObject(input.toolResult) ? str(input.toolResult.textResultForLlm) : '';
      return { event: claudeEvent, input: { ...base, ...t.fields, tool_response: result }, agentTool: t.agentTool };
    }
    case 'PostToolUseFailure': {
      const t = tool();
      return { event: claudeEvent, input: { ...base, ...t.fields, error: str(input.error), is_interrupt: false }, agentTool: t.agentTool };
    }
    case 'PermissionRequest': {
      // Copilot asks for a program (`bash`, its command) or a file change (`edit`, its path and diff).
      const kind = str(input.toolName);
      const toolInput = isObject(input.toolInput) ? input.toolInput : {};
      return {
        event: claudeEvent,
        input: {
          ...base,
          tool_name: kind === 'bash' ? 'Bash' : kind === 'edit' ? 'Edit' : kind,
          tool_input: toolInput,
          permission_suggestions: Array.isArray(input.permissionSuggestions) ? input.permissionSuggestions : [],
        },
      };
    }
    case 'UserPromptSubmit':
      return { event: claudeEvent, input: { ...base, prompt: str(input.prompt) } };
    case 'Stop':
      return { event: claudeEvent, input: { ...base, stop_hook_active: input.stop_hook_active === true, last_assistant_message: '' } };
    case 'SessionStart':
      return { event: claudeEvent, input: { ...base, source: input.source === 'resume' ? 'resume' : 'startup' } };
    case 'SessionEnd':
      return { event: claudeEvent, input: { ...base, reason: END_REASONS[str(input.reason)] ?? 'other' } };
    case 'PreCompact':
      return {
        event: claudeEvent,
        input: { ...base, trigger: input.trigger === 'manual' ? 'manual' : 'auto', custom_instructions: str(input.customInstructions) },
      };
    case 'Notification':
      return {
        event: claudeEvent,
        input: { ...base, message: str(input.message), title: str(input.title), notification_type: str(input.notification_type) },
      };
    default:
      return undefined;
  }
}

/** A tool's output as the text the model reads instead (`modifiedResult`). */
function resultText(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * A Claude-shaped answer (what the hooks decided together) as Copilot's answer for `event`, and
 * what is left to tell the user. `continue: false` has no place in Copilot's answers: on a guard
 * event it refuses, elsewhere it is told.
 */
export function claudeAnswerAsCopilot(
  event: string,
  answer: Record<string, unknown>,
  tool: { agentTool?: string; cwd: string },
): { json: Record<string, unknown>; tell: string[] } {
  const spec = isObject(answer.hookSpecificOutput) ? answer.hookSpecificOutput : {};
  const tell = typeof answer.systemMessage === 'string' && answer.systemMessage ? [answer.systemMessage] : [];
  const stopped = answer.continue === false ? str(answer.stopReason) || 'Stopped by a hook' : undefined;
  const blocked = answer.decision === 'block' ? str(answer.reason) || 'Blocked by a hook' : undefined;
  const context = str(spec.additionalContext);
  const json: Record<string, unknown> = {};
  switch (event) {
    case 'preToolUse': {
      const denied = spec.permissionDecision === 'deny' ? str(spec.permissionDecisionReason) || 'Denied by a hook' : (blocked ?? stopped);
      if (denied !== undefined) Object.assign(json, { permissionDecision: 'deny', permissionDecisionReason: denied });
      else if (spec.permissionDecision === 'ask' || spec.permissionDecision === 'allow')
        Object.assign(json, {
          permissionDecision: spec.permissionDecision,
          ...(str(spec.permissionDecisionReason) ? { permissionDecisionReason: spec.permissionDecisionReason } : {}),
        });
      if (denied === undefined && isObject(spec.updatedInput) && tool.agentTool) {
        const args = agentToolInput(tool.agentTool, spec.updatedInput, tool.cwd);
        json.modifiedArgs = copilotToolArgs(tool.agentTool, args, tool.cwd);
      }
      if (context) json.additionalContext = context;
      break;
    }
    case 'permissionRequest': {
      const d = isObject(spec.decision) ? spec.decision : undefined;
      if (stopped !== undefined || d?.behavior === 'deny')
        Object.assign(json, { behavior: 'deny', message: d?.behavior === 'deny' ? str(d.message) || 'Denied by a hook' : stopped });
      else if (d?.behavior === 'allow') json.behavior = 'allow';
      break;
    }
    case 'userPromptSubmitted': {
      const refused = blocked ?? stopped;
      if (refused !== undefined) Object.assign(json, { decision: 'block', reason: refused });
      else if (context) json.additionalContext = context;
      break;
    }
    case 'agentStop':
      // The reason is the prompt Copilot CLI goes on with.
      if (blocked !== undefined) Object.assign(json, { decision: 'block', reason: blocked });
      else if (stopped !== undefined) tell.push(stopped);
      break;
    case 'postToolUse':
    case 'postToolUseFailure': {
      // A block's reason goes to the model with the result, as Hookline reads a Claude Code block there.
      const parts = [...(blocked !== undefined ? [blocked] : []), ...(context ? [context] : [])];
      if (parts.length) json.additionalContext = parts.join('\n');
      if (event === 'postToolUse' && spec.updatedToolOutput !== undefined)
        json.modifiedResult = { resultType: 'success', textResultForLlm: resultText(spec.updatedToolOutput) };
      if (stopped !== undefined) tell.push(stopped);
      break;
    }
    case 'sessionStart':
      if (context) json.additionalContext = context;
      if (stopped !== undefined) tell.push(stopped);
      break;
    default:
      if (stopped !== undefined) tell.push(stopped);
  }
  return { json, tell };
}

/**
 * The relay's answer to Copilot CLI: the JSON on stdout with exit 0; what the user must be told,
 * on an event with nothing else to answer and where exit 2 does not deny, as stderr with exit 2
 * (Copilot shows it); otherwise beside the answer, for the model (`additionalContext`) where the
 * event has one.
 */
export function copilotRelayAnswer(
  event: string,
  json: Record<string, unknown>,
  tell: readonly string[],
  warnings: readonly string[],
  guard: boolean,
): RelayAnswer {
  const out = { ...json };
  if (tell.length && !guard && !Object.keys(out).length) return { stdout: '', exitCode: 2, stderr: [...tell, ...warnings] };
  if (
    tell.length &&
    (event === 'preToolUse' || event === 'userPromptSubmitted' || event === 'sessionStart' || event.startsWith('postTool'))
  )
    if (!(event === 'userPromptSubmitted' && out.decision === 'block'))
      out.additionalContext = [typeof out.additionalContext === 'string' ? out.additionalContext : '', ...tell].filter(Boolean).join('\n');
  return { stdout: Object.keys(out).length ? `${JSON.stringify(out)}\n` : '', exitCode: 0, stderr: [...tell, ...warnings] };
}
