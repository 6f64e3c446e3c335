/**
 * One tool call through BeforeTool and AfterTool: a hook may deny it, rewrite its arguments, ask
 * the user first, stop the agent, replace or add to its result, or chain a tail call. `hookedCall`
 * is the shared core: the reference agent runs its tools through it, and `hookTools` wraps any
 * AI SDK tool set with it.
 */
import type { Tool, ToolExecutionOptions, ToolSet } from 'ai';
import { INPUT_MODIFIED_NOTE, withToolContext, type AfterToolEffect, type BeforeToolEffect } from '../../apply/index.js';
import { noteText, type Note } from '../../apply/note.js';
import type { ToolOutcomePoint, ToolPoint } from '../../dialects/adapter.js';
import type { ToolCall, ToolOutcome } from '../history.js';
import type { ToolFacts } from '../../events/tools.js';
import { HookStop, stderrNotice } from './model.js';

export interface ToolPoints {
  beforeTool(p: ToolPoint): Promise<BeforeToolEffect>;
  afterTool(p: ToolOutcomePoint): Promise<AfterToolEffect>;
}

/** What a tool returned, as AfterTool hooks read it (`tool_response`). */
export interface ToolRun {
  llmContent: string;
  returnDisplay: unknown;
  error?: { message: string; type?: string };
  exitCode?: number | null;
  /** What the call did, as data (the agent's own tools say). */
  facts?: ToolFacts;
  /** How long it ran. */
  durationMs?: number;
}

/** Where a hooked call runs: the host's tools, how it validates, asks and executes. */
export interface ToolHost<T> {
  find(name: string): T | undefined;
  /** The tool's own name (the model may have used an alias). */
  nameOf(tool: T): string;
  /** The model's text when the tool does not exist. */
  notFound(name: string): string;
  /** The arguments as the tool reads them, or the error the model reads; `rewritten` after a hook changed them. */
  validate(tool: T, args: Record<string, unknown>, rewritten: boolean): Checked | Promise<Checked>;
  /** Whether the host asks the user before this tool runs, whatever the hooks say. */
  needsApproval?(tool: T): boolean;
  /** Asks for approval (a permission hook or the user). `hookMessage`: a hook asked, saying this. */
  approve(tool: T, args: Record<string, unknown>, askedByHook: boolean, hookMessage?: string, refusal?: string): Promise<Approval>;
  execute(tool: T, args: Record<string, unknown>, call: ToolCall): Promise<ToolRun>;
  notice(line: string): void;
  step(): number;
  signal?: AbortSignal;
  /** Throws when the call was cancelled (checked after each hook point). */
  checkCancelled?(): void;
}

type Checked = { args: Record<string, unknown> } | { error: string };

/** An approval's answer: run (maybe with arguments a permission hook gave), refused (the model reads why), or stop the agent. */
export interface Approval {
  refused?: string;
  stop?: string;
  args?: Record<string, unknown>;
}

export interface HookedResult {
  outcome: ToolOutcome;
  /** A hook stopped the agent: why, and at which point. */
  stop?: string;
  stopAt?: 'BeforeTool' | 'AfterTool';
  /** The arguments the tool ran with, when a hook rewrote them. */
  ran?: Record<string, unknown>;
  /** What the tool returned, when it ran. */
  run?: ToolRun;
  /** The hooks' messages for the model apart from the result (before-tool ones first). */
  notes?: Note[];
  /** What the user is told of the call when it differs from what the model reads (a blocked result). */
  display?: string;
}

const STOPPED = /^Agent execution stopped by hook: /;

/** One call through the points. A tail call (AfterTool `tailToolCallRequest`) runs under the same id. */
export async function hookedCall<T>(points: ToolPoints, host: ToolHost<T>, call: ToolCall, originalName?: string): Promise<HookedResult> {
  const name = originalName ?? call.name;
  const show = (m: string | undefined) => {
    if (m) host.notice(m);
  };
  const checkCancelled =
    host.checkCancelled ??
    (() => {
      if (host.signal?.aborted) throw new Error('cancelled');
    });
  const fail = (output: string): HookedResult => ({ outcome: { id: call.id, name, output, isError: true } });
  const t = host.find(call.name);
  if (!t) return fail(host.notFound(call.name));
  const first = await host.validate(t, call.args, false);
  if ('error' in first) return fail(first.error);
  const given = first.args;
  const point = {
    id: call.id,
    name: host.nameOf(t),
    args: given,
    ...(originalName ? { originalName } : {}),
    step: host.step(),
    signal: host.signal,
  };
  const be = await points.beforeTool(point);
  checkCancelled();
  if (be.action === 'stop') {
    show(be.systemMessage);
    return { ...fail(be.message), stop: be.message.replace(STOPPED, ''), stopAt: 'BeforeTool' };
  }
  if (be.action === 'deny') {
    show(be.systemMessage);
    return { ...fail(be.message), ...(be.notes?.length ? { notes: be.notes } : {}) };
  }
  let args = be.args;
  if (args !== given) {
    const again = await host.validate(t, args, true);
    if ('error' in again) return fail(again.error);
    args = again.args;
  }
  let approvedArgs = false;
  if (be.action === 'ask' || host.needsApproval?.(t)) {
    const asked = be.action === 'ask';
    const a = await host.approve(t, args, asked, asked ? be.systemMessage : undefined, asked ? be.refusal : undefined);
    if (a.stop !== undefined) return { ...fail(a.refused ?? a.stop), stop: a.stop, stopAt: 'BeforeTool' };
    if (a.refused) return fail(a.refused);
    if (a.args && a.args !== args) {
      const again = await host.validate(t, a.args, true);
      if ('error' in again) return fail(again.error);
      args = again.args;
      approvedArgs = true;
    }
  } else show(be.systemMessage);
  let result: ToolRun;
  const started = performance.now();
  try {
    result = { ...(await host.execute(t, args, call)) };
    result.durationMs ??= performance.now() - started;
  } catch (err) {
    // A tool that throws is a failed call the model can read, not the end of the turn.
    const message = err instanceof Error ? err.message : String(err);
    result = {
      llmContent: `Error running ${point.name}: ${message}`,
      returnDisplay: message,
      error: { message, type: 'execution_failed' },
      durationMs: performance.now() - started,
    };
  }
  const ae = await points.afterTool({ ...point, args, result, llmContent: result.llmContent });
  checkCancelled();
  show(ae.systemMessage);
  const isError = !!result.error;
  const allNotes = [...(be.notes ?? []), ...(ae.action === 'stop' ? [] : (ae.notes ?? []))];
  const notes = allNotes.length ? { notes: allNotes } : {};
  // A before-tool or permission hook's arguments, when they replaced the model's.
  const ran = be.inputModified || approvedArgs ? args : undefined;
  if (ae.action === 'stop')
    return {
      outcome: { id: call.id, name, output: ae.llmContent, isError: true },
      stop: ae.message.replace(STOPPED, ''),
      stopAt: 'AfterTool',
      ran,
      run: result,
    };
  // A before-tool context sits next to the result, whatever replaced the result itself.
  if (ae.action === 'replace') {
    const failed = isError || ae.blocked === true;
    const output = withToolContext(ae.llmContent, be.context);
    return {
      outcome: { id: call.id, name, output, isError: failed },
      ran,
      run: result,
      ...(ae.display ? { display: ae.display } : {}),
      ...notes,
    };
  }
  // The tail call's result replaces this call's result, under this call's id.
  if (ae.tail) return hookedCall(points, host, { id: call.id, name: ae.tail.name, args: ae.tail.args }, name);
  // As in Gemini CLI, a result the tool gave after a hook rewrote its arguments says so, after the after-tool hooks' words.
  const modified = be.inputModified && !isError ? INPUT_MODIFIED_NOTE : '';
  return {
    outcome: { id: call.id, name, output: withToolContext(ae.llmContent + modified, be.context), isError },
    ran,
    run: result,
    ...notes,
  };
}

export interface ToolHookOptions {
  /** Asks the user when a hook says `ask`; without it such calls are refused (a guard fails closed). */
  confirm?: (question: { tool: string; args: Record<string, unknown>; message?: string }) => Promise<boolean>;
  /** Where hooks' `systemMessage`s go (default: a line on stderr). */
  notice?: (line: string) => void;
  /** The step number hooks' adapters are told (default: 0). */
  step?: () => number;
  /** Told when a hook stops the agent; the call's result is then a tool error with the reason. */
  onStop?: (reason: string) => void;
}

type Executable = Tool & { execute: NonNullable<Tool['execute']> };

/** A host with no approval of its own asks only when a hook says `ask`; with no way to ask it refuses (a guard fails closed). */
export async function askWhenHooksAsk(
  confirm: ToolHookOptions['confirm'],
  tool: string,
  args: Record<string, unknown>,
  askedByHook: boolean,
  message?: string,
): Promise<Approval> {
  if (!askedByHook) return {};
  if (!confirm)
    return { refused: `Tool "${tool}" needs the user's approval (a hook asked for it), and there is no way to ask; it was not run.` };
  return (await confirm({ tool, args, ...(message ? { message } : {}) })) ? {} : { refused: `The user declined to run ${tool}.` };
}

function textOf(output: unknown): string {
  if (typeof output === 'string') return output;
  return JSON.stringify(output) ?? '';
}

/**
 * An AI SDK tool set whose every tool runs through BeforeTool and AfterTool. A deny or a failed
 * call is a tool error the model reads; a result hooks left alone is returned as the tool gave
 * it, and one they changed is returned as text.
 */
export function hookTools<T extends ToolSet>(points: ToolPoints, tools: T, opts: ToolHookOptions = {}): T {
  const notice = opts.notice ?? stderrNotice;
  const wrapped: Record<string, Tool> = {};
  for (const [key, t] of Object.entries(tools)) {
    if (!t.execute) {
      wrapped[key] = t;
      continue;
    }
    wrapped[key] = {
      ...t,
      execute: async (input: unknown, options: ToolExecutionOptions) => {
        const host: ToolHost<[string, Executable]> = {
          find: (name) => {
            const found = tools[name];
            return found?.execute ? [name, found as Executable] : undefined;
          },
          nameOf: ([name]) => name,
          notFound: (name) => `Tool "${name}" not found. Available tools: ${Object.keys(tools).join(', ')}`,
          validate: async ([name, tool], args, rewritten) => {
            if (!rewritten) return { args };
            // The app's own AI SDK, loaded here only: the other adapters share this file and have none.
            const { asSchema } = await import('ai');
            const v = await asSchema(tool.inputSchema).validate?.(args);
            if (!v || v.success) return { args: (v?.value as Record<string, unknown>) ?? args };
            return { error: `Tool parameter modification by hook failed validation for ${name}: ${v.error.message}` };
          },
          approve: ([name], args, askedByHook, message) => askWhenHooksAsk(opts.confirm, name, args, askedByHook, message),
          execute: async ([, tool], args) => {
            const value: unknown = await tool.execute(args, options);
            let output = value;
            // A streaming tool's last value is its result.
            if (value && typeof value === 'object' && Symbol.asyncIterator in value)
              for await (const part of value as AsyncIterable<unknown>) output = part;
            return { llmContent: textOf(output), returnDisplay: output };
          },
          notice,
          step: opts.step ?? (() => 0),
          signal: options.abortSignal,
        };
        const args = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
        const r = await hookedCall(points, host, { id: options.toolCallId, name: key, args });
        if (r.stop !== undefined) {
          opts.onStop?.(r.stop);
          throw new HookStop('stopped', r.stopAt ?? 'BeforeTool', r.stop);
        }
        // An app's tool call has no place of its own for the hooks' notes: they follow its result.
        const output = [r.outcome.output, ...(r.notes ?? []).map(noteText)].join('\n\n');
        if (r.outcome.isError) throw new Error(output);
        // Untouched by hooks: the tool's own value, so its `toModelOutput` still applies.
        if (r.run && output === r.run.llmContent) return r.run.returnDisplay;
        return output;
      },
    } as Tool;
  }
  return wrapped as T;
}
