/**
 * What a Claude Code hook answers, and what an event's hooks decide together.
 *
 * One run: exit 0 with stdout starting with `{` is JSON output (validated as Claude Code
 * validates it: an invalid one is a non-blocking error); other stdout on exit 0 is context for
 * UserPromptSubmit and SessionStart and transcript text elsewhere; exit 2 blocks with stderr as
 * the reason (stdout ignored); any other exit, a timeout or a crash is a non-blocking error.
 *
 * Together: see {@link ClaudeOutput} and {@link aggregateClaude}.
 */
import { z } from 'zod';
import { jsonPath } from '../../config/problems.js';
import { textNestsDeeper, tooDeep } from '../../config/limits.js';
import type { ProcessResult } from '../../run/result.js';
import { CLAUDE_CATALOG, type ClaudeEvent } from './events.js';

export const PermissionDecision = z.enum(['allow', 'deny', 'ask', 'defer']);
export type PermissionDecision = z.infer<typeof PermissionDecision>;

const context = { additionalContext: z.string().optional() };

/** `hookSpecificOutput` per event (`hookEventName` is checked separately). */
export const CLAUDE_SPECIFIC_OUTPUT = {
  PreToolUse: z
    .object({
      permissionDecision: PermissionDecision.optional(),
      permissionDecisionReason: z.string().optional(),
      updatedInput: z.record(z.string(), z.unknown()).optional(),
      ...context,
    })
    .loose(),
  PostToolUse: z.object({ ...context, updatedToolOutput: z.unknown().optional(), updatedMCPToolOutput: z.unknown().optional() }).loose(),
  PostToolUseFailure: z.object(context).loose(),
  UserPromptSubmit: z.object(context).loose(),
  Stop: z.object({}).loose(),
  SubagentStart: z.object(context).loose(),
  SubagentStop: z.object({}).loose(),
  SessionStart: z.object(context).loose(),
  SessionEnd: z.object({}).loose(),
  PreCompact: z.object({}).loose(),
  PostCompact: z.object({}).loose(),
  Notification: z.object({}).loose(),
  PermissionRequest: z
    .object({
      decision: z
        .object({
          behavior: z.enum(['allow', 'deny']),
          updatedInput: z.record(z.string(), z.unknown()).optional(),
          updatedPermissions: z.array(z.unknown()).optional(),
          message: z.string().optional(),
          interrupt: z.boolean().optional(),
        })
        .loose()
        .optional(),
    })
    .loose(),
  PermissionDenied: z.object({ retry: z.boolean().optional() }).loose(),
  PostToolBatch: z.object(context).loose(),
  StopFailure: z.object({}).loose(),
  InstructionsLoaded: z.object({}).loose(),
  ConfigChange: z.object({}).loose(),
} satisfies Record<ClaudeEvent, z.ZodObject>;

/** The fields every hook may print. Unknown fields are allowed (and ignored). */
export const ClaudeCommonOutput = z
  .object({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    systemMessage: z.string().optional(),
    decision: z.enum(['approve', 'block']).optional(),
    reason: z.string().optional(),
    hookSpecificOutput: z.object({ hookEventName: z.string() }).loose().optional(),
  })
  .loose();

/** A hook's JSON output, once valid. */
export interface ClaudeHookOutput {
  continue?: boolean;
  stopReason?: string;
  suppressOutput?: boolean;
  systemMessage?: string;
  decision?: 'approve' | 'block';
  reason?: string;
  hookSpecificOutput?: { hookEventName: string; [key: string]: unknown };
  [key: string]: unknown;
}

function buildSchema(event: ClaudeEvent) {
  return ClaudeCommonOutput.extend({ hookSpecificOutput: CLAUDE_SPECIFIC_OUTPUT[event].extend({ hookEventName: z.string() }).optional() });
}

const schemas = new Map<ClaudeEvent, ReturnType<typeof buildSchema>>();

/** The whole output schema of one event (built once). */
export function claudeOutputSchema(event: ClaudeEvent): ReturnType<typeof buildSchema> {
  let s = schemas.get(event);
  if (!s) schemas.set(event, (s = buildSchema(event)));
  return s;
}

/** Validates a parsed JSON value as `event`'s output: the output, or the first problem. */
export function validateClaudeOutput(
  event: ClaudeEvent,
  value: unknown,
): { ok: true; output: ClaudeHookOutput } | { ok: false; message: string } {
  const r = claudeOutputSchema(event).safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    return { ok: false, message: `${jsonPath(issue.path as Array<string | number>) || 'output'}: ${issue.message}` };
  }
  const name = r.data.hookSpecificOutput?.hookEventName;
  if (name !== undefined && name !== event)
    return { ok: false, message: `hookSpecificOutput.hookEventName is "${name}", expected "${event}"` };
  return { ok: true, output: r.data as ClaudeHookOutput };
}

/** What one run gave, read the way Claude Code reads it. */
export interface ClaudeRunReading {
  /**
   * What the run contributes, as Claude Code JSON output: the hook's own JSON, or the equivalent
   * of exit code 2 (`permissionDecision: "deny"` on PreToolUse, `decision: "block"` where the
   * event can block, a `systemMessage` elsewhere) or of plain-text context.
   */
  response?: ClaudeHookOutput;
  /** `json`: stdout was JSON output; `text`: plain stdout; `exit2`: a block by exit code. */
  format?: 'json' | 'text' | 'exit2';
  /** Plain stdout on an event where it is not context (Claude Code shows it in the transcript only). */
  text?: string;
  /** A non-blocking error: the run's response is ignored, the user sees the message. */
  error?: string;
  /** Exit code 2: the stderr that is the block's reason. */
  stderr?: string;
}

const EXIT2_DEFAULT = 'No stderr output';

/** A run's JSON stdout read as Claude Code reads it: the output, an error, or nothing when stdout is not JSON. */
function readJson(event: ClaudeEvent, text: string): ClaudeRunReading | undefined {
  // Unreadable (a recursive walk would overflow the stack), whether it would be JSON or context.
  if ((text.startsWith('{') || text.startsWith('[')) && textNestsDeeper(text)) return { error: `${tooDeep('stdout')}; not read` };
  if (!text.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { error: `stdout starts with "{" but is not valid JSON (${(e as Error).message})` };
  }
  const v = validateClaudeOutput(event, value);
  return v.ok ? { format: 'json', response: v.output } : { error: `invalid hook output: ${v.message}` };
}

/** Whether a JSON output already blocks at this event (so an exit code 2 beside it adds nothing). */
function blocksOnItsOwn(event: ClaudeEvent, o: ClaudeHookOutput): boolean {
  if (event === 'PreToolUse') {
    const d = o.hookSpecificOutput?.permissionDecision;
    return d === 'deny' || (d === undefined && o.decision === 'block');
  }
  return o.decision === 'block';
}

/** What exit code 2 does at this event, with `reason`. */
function exit2Response(event: ClaudeEvent, reason: string): ClaudeHookOutput | undefined {
  const kind = CLAUDE_CATALOG[event].block;
  if (kind === 'ignored') return undefined;
  if (kind === 'tool')
    return { hookSpecificOutput: { hookEventName: event, permissionDecision: 'deny', permissionDecisionReason: reason } };
  if (kind === 'none') return { systemMessage: reason };
  return { decision: 'block', reason };
}

/**
 * Interprets one finished command run. `timeoutSeconds` is only used for the message. On exit
 * code 2 a JSON stdout is read first, as Claude Code reads it (its own block wins and stderr is
 * dropped); without one, stderr is the reason.
 */
export function readClaudeRun(event: ClaudeEvent, r: ProcessResult, timeoutSeconds: number): ClaudeRunReading {
  if (r.timedOut) return { error: `timed out after ${timeoutSeconds}s` };
  if (r.error && !r.error.startsWith('Hook killed by signal')) return { error: r.error };
  if (r.signal) return { error: `killed by signal ${r.signal}` };
  const text = r.stdout.trim();
  if (r.exitCode === 2) {
    const json = readJson(event, text);
    if (json?.response && blocksOnItsOwn(event, json.response)) return json;
    const reason = r.stderr.trim() || EXIT2_DEFAULT;
    const block = exit2Response(event, reason);
    if (!block) return { format: 'exit2' };
    const own = json?.response;
    const specific =
      own?.hookSpecificOutput || block.hookSpecificOutput ? { ...own?.hookSpecificOutput, ...block.hookSpecificOutput } : undefined;
    const response = own
      ? { ...own, ...block, ...(specific ? { hookSpecificOutput: specific as ClaudeHookOutput['hookSpecificOutput'] } : {}) }
      : block;
    // What the model reads keeps stderr as printed (a final newline too), as Claude Code does.
    return { format: 'exit2', response, stderr: r.stderr || EXIT2_DEFAULT };
  }
  if (r.exitCode !== 0) {
    const stderr = r.stderr.trim();
    return { error: stderr ? `exit code ${r.exitCode}: ${stderr}` : `exit code ${r.exitCode}` };
  }
  if (!text) return {};
  const json = readJson(event, text);
  if (json) return json;
  if (CLAUDE_CATALOG[event].plainTextIsContext)
    return { format: 'text', response: { hookSpecificOutput: { hookEventName: event, additionalContext: text } } };
  return { format: 'text', text };
}

/**
 * What an event's hooks decide together: what the agent does next, in Claude Code's terms.
 * Only the fields that apply are present.
 */
export interface ClaudeOutput {
  /** False when any hook printed `continue: false`: Claude stops after this point, whatever else was decided. */
  continue: boolean;
  /** The `stopReason`s of those hooks, joined by newlines: shown to the user, not to Claude. */
  stopReason?: string;
  /** Some hook asked to keep its stdout out of the transcript. */
  suppressOutput?: boolean;
  /** Shown to the user: each hook's `systemMessage`, and exit-2 stderr on events that cannot block. */
  systemMessages: string[];
  /** Non-blocking errors, shown to the user: `<Event> hook error: <command>: <message>`. */
  errors: string[];
  /**
   * PreToolUse: the strongest decision of any hook, deny > defer > ask > allow (exit 2 is deny,
   * legacy `decision: "block"` is deny and `"approve"` allow); absent = the normal permission flow.
   */
  permissionDecision?: PermissionDecision;
  /** PreToolUse: the reasons of the hooks that gave that decision, joined by newlines. */
  permissionDecisionReason?: string;
  /**
   * PreToolUse: the tool input to use instead of the model's (a replacement, not a merge). When
   * several hooks rewrite it, the last in configuration order wins (user, project, local), and a
   * warning says so. Absent when the decision is deny.
   */
  updatedInput?: Record<string, unknown>;
  /**
   * `block` when any hook blocked (exit 2 or `decision: "block"`), on the events that can:
   * UserPromptSubmit (the prompt is erased, the reason shown to the user), PostToolUse and
   * PostToolUseFailure (the reason goes to Claude), Stop and SubagentStop (Claude goes on, with
   * the reason as its instruction), PreCompact (no compaction).
   */
  decision?: 'block';
  /** Every blocking hook's reason, joined by newlines. */
  reason?: string;
  /**
   * Context for Claude, every hook's in configuration order, joined by newlines: PreToolUse,
   * PostToolUse(Failure), UserPromptSubmit and SessionStart (plain stdout included for these two),
   * SubagentStart.
   */
  additionalContext?: string;
  /** PostToolUse: what Claude reads instead of the tool's output (`updatedMCPToolOutput` too). Last hook wins. */
  updatedToolOutput?: unknown;
  /**
   * PermissionRequest: the answer to the approval prompt. A deny from any hook wins (its
   * `message` and `interrupt`); otherwise an allow, with the last `updatedInput` given.
   */
  permission?: { behavior: 'allow' | 'deny'; updatedInput?: Record<string, unknown>; message?: string; interrupt?: boolean };
  /** PermissionDenied: some hook told the model it may retry the call. */
  retry?: boolean;
  /**
   * Each run that blocked (PreToolUse: denied), in configuration order: its command and reason,
   * and whether by exit code 2 (then Claude Code names the command in the reason it shows).
   */
  blocks: Array<{ command: string; reason: string; exit2: boolean }>;
  /** Each run's context, in configuration order; `plain` when it was plain stdout (a "hook success" in Claude Code). */
  contexts: Array<{ text: string; plain: boolean }>;
}

/** One run, as the aggregation needs it. */
export interface AggregateInput {
  command: string;
  /** Where the hook is configured, for warnings. */
  where: string;
  reading: ClaudeRunReading;
}

const STRENGTH: Record<PermissionDecision, number> = { allow: 1, ask: 2, defer: 3, deny: 4 };

function specific(o: ClaudeHookOutput): Record<string, unknown> {
  const s = o.hookSpecificOutput;
  return s && typeof s === 'object' ? s : {};
}

/** Merges the runs of one event, in configuration order. Pure; `warnings` says where hooks disagreed. */
export function aggregateClaude(event: ClaudeEvent, runs: AggregateInput[]): { output: ClaudeOutput; warnings: string[] } {
  const spec = CLAUDE_CATALOG[event];
  const out: ClaudeOutput = { continue: true, systemMessages: [], errors: [], blocks: [], contexts: [] };
  const warnings: string[] = [];
  const stops: string[] = [];
  const blocks: string[] = [];
  const contexts: string[] = [];
  const permissions: Array<{ decision: PermissionDecision; reason?: string }> = [];
  const rewrites: Array<{ input: Record<string, unknown>; where: string }> = [];
  let blocked = false;
  for (const run of runs) {
    const { reading } = run;
    if (reading.error) {
      out.errors.push(`${event} hook error: ${run.command}: ${reading.error}`);
      continue;
    }
    const r = reading.response;
    if (!r) continue;
    if (r.continue === false) {
      out.continue = false;
      if (r.stopReason) stops.push(r.stopReason);
    }
    if (r.suppressOutput === true) out.suppressOutput = true;
    if (r.systemMessage) out.systemMessages.push(r.systemMessage);
    const s = specific(r);
    const exit2 = reading.format === 'exit2';
    const exit2Reason = (fallback: string | undefined) => (exit2 && reading.stderr !== undefined ? reading.stderr : (fallback ?? ''));
    if (event === 'PreToolUse') {
      const legacy = r.decision === 'approve' ? 'allow' : r.decision === 'block' ? 'deny' : undefined;
      const decision = (s.permissionDecision as PermissionDecision | undefined) ?? legacy;
      if (decision) {
        const reason = (s.permissionDecisionReason as string | undefined) ?? r.reason;
        permissions.push({ decision, ...(reason ? { reason } : {}) });
        if (decision === 'deny') out.blocks.push({ command: run.command, reason: exit2Reason(reason), exit2 });
      }
      if (s.updatedInput) rewrites.push({ input: s.updatedInput as Record<string, unknown>, where: run.where });
    } else if (spec.block !== 'none' && spec.block !== 'ignored' && r.decision === 'block') {
      blocked = true;
      if (r.reason) blocks.push(r.reason);
      out.blocks.push({ command: run.command, reason: exit2Reason(r.reason), exit2 });
    }
    if (spec.context && typeof s.additionalContext === 'string' && s.additionalContext) {
      contexts.push(s.additionalContext);
      out.contexts.push({ text: s.additionalContext, plain: reading.format === 'text' });
    }
    if (event === 'PostToolUse') {
      if (s.updatedToolOutput !== undefined) out.updatedToolOutput = s.updatedToolOutput;
      else if (s.updatedMCPToolOutput !== undefined) out.updatedToolOutput = s.updatedMCPToolOutput;
    }
    if (event === 'PermissionRequest' && s.decision && typeof s.decision === 'object') {
      const d = s.decision as NonNullable<ClaudeOutput['permission']>;
      if (out.permission?.behavior !== 'deny') {
        const input = d.behavior === 'allow' ? (d.updatedInput ?? out.permission?.updatedInput) : undefined;
        out.permission = {
          behavior: d.behavior,
          ...(input ? { updatedInput: input } : {}),
          ...(d.behavior === 'deny' && d.message ? { message: d.message } : {}),
          ...(d.behavior === 'deny' && d.interrupt === true ? { interrupt: true } : {}),
        };
      }
    }
    if (event === 'PermissionDenied' && s.retry === true) out.retry = true;
  }
  if (stops.length) out.stopReason = stops.join('\n');
  if (permissions.length) {
    const winner = permissions.reduce((a, b) => (STRENGTH[b.decision] > STRENGTH[a.decision] ? b : a)).decision;
    out.permissionDecision = winner;
    const reasons = permissions.filter((p) => p.decision === winner && p.reason).map((p) => p.reason!);
    if (reasons.length) out.permissionDecisionReason = reasons.join('\n');
  }
  if (rewrites.length && out.permissionDecision !== 'deny') {
    out.updatedInput = rewrites[rewrites.length - 1].input;
    const distinct = new Set(rewrites.map((w) => JSON.stringify(w.input)));
    if (distinct.size > 1) {
      warnings.push(
        `${rewrites.length} ${event} hooks rewrote the tool input differently; the last in configuration order wins (${rewrites[rewrites.length - 1].where})`,
      );
    }
  }
  if (blocked) {
    out.decision = 'block';
    if (blocks.length) out.reason = blocks.join('\n');
  }
  if (contexts.length) out.additionalContext = contexts.join('\n');
  return { output: out, warnings };
}
