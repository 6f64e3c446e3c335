/**
 * Hooks for an AI SDK app, over any object with the agent's points (src/agent/points.ts): a
 * model middleware, a tool wrapper, and the points around a turn (BeforeAgent, AfterAgent with
 * its capped retries, SessionStart, SessionEnd). hookline/ai-sdk builds one from a HookEngine.
 */
import type { LanguageModelV3Middleware } from '@ai-sdk/provider';
import type { StopCondition, ToolSet } from 'ai';
import { MAX_AFTER_AGENT_RETRIES, withBlocks, type AfterAgentEffect, type SessionStartEffect } from '../../apply/index.js';
import type { Advisory, PromptEffect, PromptPoint, TurnEndPoint } from '../../dialects/adapter.js';
import { HookStop, hookMiddleware, stderrNotice, type ModelHookOptions, type ModelPoints } from './model.js';
import { hookTools, type ToolHookOptions, type ToolPoints } from './tools.js';

export { HookStop, hookMiddleware, toHookRequest, fromHookMessages, SYNTHETIC_METADATA } from './model.js';
export type { ModelHookOptions, ModelPoints } from './model.js';
export { askWhenHooksAsk, hookTools, hookedCall } from './tools.js';
export type { Approval, ToolHookOptions, ToolPoints, ToolHost, ToolRun, HookedResult } from './tools.js';

export interface TurnPoints {
  prompt(p: PromptPoint): Promise<PromptEffect>;
  turnEnd(p: TurnEndPoint): Promise<AfterAgentEffect>;
  sessionStart(p: { source: 'startup' | 'resume' | 'clear' }): Promise<SessionStartEffect>;
  sessionEnd(p: { reason: 'exit' | 'clear' | 'logout' | 'prompt_input_exit' | 'other' }): Promise<Advisory>;
}

export type HookPoints = ModelPoints & ToolPoints & TurnPoints & { close?(): void };

export interface TurnOptions {
  signal?: AbortSignal;
  /** Tool names and the step limit BeforeAgent hooks are told of (SpatialAgent's Start). */
  tools?: string[];
  maxSteps?: number;
  /** AfterAgent retries at most this many times (default 3). */
  maxRetries?: number;
}

export interface TurnOutcome {
  /** `done`: the answer stands; `stopped`: a hook stopped the agent; `blocked`: a hook refused the prompt or the answer. */
  status: 'done' | 'stopped' | 'blocked';
  /** The last answer (or a BeforeAgent hook's own answer). */
  text: string;
  reason?: string;
}

/** Hooks for an AI SDK app: `middleware()` for `wrapLanguageModel`, `tools()` for the tool set, `turn()` around a call. */
export class AiSdkHooks {
  private stopReason: string | undefined;
  private readonly notice: (line: string) => void;
  private readonly modelName: string | undefined;

  constructor(
    readonly points: HookPoints,
    opts: { notice?: (line: string) => void; modelName?: string } = {},
  ) {
    this.notice = opts.notice ?? stderrNotice;
    this.modelName = opts.modelName;
  }

  /** The `wrapLanguageModel` middleware: BeforeModel, BeforeToolSelection, AfterModel. */
  middleware(opts: ModelHookOptions = {}): LanguageModelV3Middleware {
    return hookMiddleware(this.points, { notice: this.notice, ...(this.modelName ? { modelName: this.modelName } : {}), ...opts });
  }

  /** The tool set with BeforeTool and AfterTool around each tool's `execute`. */
  tools<T extends ToolSet>(tools: T, opts: ToolHookOptions = {}): T {
    return hookTools(this.points, tools, {
      notice: this.notice,
      ...opts,
      onStop: (reason) => {
        this.stopReason = reason;
        opts.onStop?.(reason);
      },
    });
  }

  /** A `stopWhen` condition: true once a tool hook stopped the agent. */
  readonly stopped: StopCondition<ToolSet> = () => this.stopReason !== undefined;

  /** SessionStart: the context to give the model (for example as the system prompt's tail). */
  async sessionStart(source: 'startup' | 'resume' | 'clear' = 'startup'): Promise<SessionStartEffect> {
    const e = await this.points.sessionStart({ source });
    if (e.systemMessage) this.notice(e.systemMessage);
    return e;
  }

  async sessionEnd(reason: 'exit' | 'clear' | 'logout' | 'prompt_input_exit' | 'other' = 'exit'): Promise<void> {
    const e = await this.points.sessionEnd({ reason });
    if (e.systemMessage) this.notice(e.systemMessage);
  }

  /**
   * One turn: BeforeAgent on the prompt (it may refuse it, answer it, or add context), `run` with
   * the prompt the model should read (call streamText or generateText there and return the
   * answer's text), then AfterAgent, which may ask for another run with a new prompt (capped).
   */
  async turn(prompt: string, run: (prompt: string) => Promise<string>, opts: TurnOptions = {}): Promise<TurnOutcome> {
    this.stopReason = undefined;
    const responses: string[] = [];
    let current = prompt;
    let stopHookActive = false;
    for (let retries = 0; ; retries++) {
      const e = await this.points.prompt({ prompt: current, tools: opts.tools ?? [], maxSteps: opts.maxSteps ?? 0, signal: opts.signal });
      if (e.systemMessage) this.notice(e.systemMessage);
      if (e.action === 'stop') return { status: 'stopped', text: e.answer ?? '', reason: e.reason };
      if (e.action === 'block') return { status: 'blocked', text: '', reason: e.reason };
      let text: string;
      try {
        text = await run(withBlocks(e.prompt ?? current, [...(e.blocks ?? []), ...(e.parts ?? [])]));
      } catch (err) {
        if (err instanceof HookStop) return { status: err.status, text: '', reason: err.reason };
        throw err;
      }
      responses.push(text);
      if (this.stopReason !== undefined) return { status: 'stopped', text, reason: this.stopReason };
      const end = await this.points.turnEnd({
        prompt,
        response: responses.filter(Boolean).join('\n') || '[no response text]',
        stopHookActive,
        retries,
        maxRetries: opts.maxRetries ?? MAX_AFTER_AGENT_RETRIES,
        signal: opts.signal,
      });
      if (end.systemMessage) this.notice(end.systemMessage);
      if (end.action === 'accept' || end.action === 'retry-limit') return { status: 'done', text };
      if (end.action === 'stop') return { status: 'stopped', text, reason: end.reason };
      current = end.prompt;
      stopHookActive = true;
    }
  }

  /** Stops persistent hook processes. */
  close(): void {
    this.points.close?.();
  }
}
