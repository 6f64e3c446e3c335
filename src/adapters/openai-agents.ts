/**
 * hookline/openai-agents: Gemini CLI hooks in an OpenAI Agents JS (`@openai/agents`) app.
 *
 *   const hooks = createAgentsHooks();
 *   const agent = new Agent({
 *     name: 'helper', model: hooks.model(model), tools: hooks.tools([weather]),
 *     inputGuardrails: [hooks.inputGuardrail], outputGuardrails: [hooks.outputGuardrail],
 *   });
 *
 * `model()` wraps any Model: BeforeModel (rewrite, synthetic answer, deny), BeforeToolSelection
 * (the tools offered), AfterModel (each line of the answer, streamed or not). `tools()` runs each
 * function tool through BeforeTool and AfterTool. The guardrails are BeforeAgent and AfterAgent in
 * the library's own shape: a deny or stop trips the wire.
 */
import {
  Usage,
  type AgentInputItem,
  type FunctionTool,
  type InputGuardrail,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type OutputGuardrail,
  type RunContext,
  type StreamEvent,
  type Tool,
} from '@openai/agents';
import type { LLMRequest, LLMResponse } from '../events/model.js';
import { responseText, type SessionStartEffect } from '../apply/index.js';
import {
  AiSdkHooks,
  HookStop,
  askWhenHooksAsk,
  hookedCall,
  type HookPoints,
  type ToolHookOptions,
  type TurnOptions,
  type TurnOutcome,
} from '../agent/ai-sdk/index.js';
import { Coalescer } from '../agent/coalesce.js';
import { contentText } from '../agent/history.js';
import { enginePoints, type HooksOptions } from './engine-points.js';

export { HookStop } from '../agent/ai-sdk/index.js';
export type { HooksOptions } from './engine-points.js';

type Item = Record<string, unknown>;

function itemText(item: Item): string | undefined {
  if (item.role !== 'user' && item.role !== 'assistant') return undefined;
  if (item.type !== undefined && item.type !== 'message') return undefined;
  const c = item.content;
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return '';
  return c.map((p) => (p && typeof p === 'object' && typeof p.text === 'string' && /text$/.test(String(p.type)) ? p.text : '')).join('');
}

const inputItems = (input: ModelRequest['input']): Item[] =>
  typeof input === 'string' ? [{ role: 'user', content: input }] : (input as unknown as Item[]);

/** The hooks' stable request for a model request: user and assistant text, and settings. */
export function toStableRequest(model: string, request: ModelRequest): LLMRequest {
  const messages = inputItems(request.input).flatMap((item) => {
    const text = itemText(item);
    return text ? [{ role: item.role === 'assistant' ? ('model' as const) : ('user' as const), content: text }] : [];
  });
  const s = request.modelSettings ?? {};
  const config = {
    ...(s.temperature !== undefined ? { temperature: s.temperature } : {}),
    ...(s.maxTokens !== undefined ? { maxOutputTokens: s.maxTokens } : {}),
    ...(s.topP !== undefined ? { topP: s.topP } : {}),
  };
  return { model, messages, config };
}

const assistant = (text: string): Item => ({
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text }],
});

/** A hook's rewritten messages back into the input: the i-th text item takes the i-th message's text. */
function withMessages(request: ModelRequest, messages: LLMRequest['messages']): AgentInputItem[] {
  const out: Item[] = [];
  let i = 0;
  const make = (m: { role: string; content: unknown }) =>
    m.role === 'model' ? assistant(contentText(m.content)) : { role: 'user', content: contentText(m.content) };
  for (const item of inputItems(request.input)) {
    if (!itemText(item) || i >= messages.length) out.push(item);
    else out.push(make(messages[i++]));
  }
  for (; i < messages.length; i++) out.push(make(messages[i]));
  return out as unknown as AgentInputItem[];
}

function outputText(output: readonly unknown[]): string {
  return (output as Item[])
    .map((o) => (o.type === 'message' || o.role === 'assistant' ? (itemText({ ...o, type: 'message' }) ?? '') : ''))
    .join('');
}

/** The output with its answer text replaced: the first message carries it, the others lose their text. */
function replaceText<T>(output: readonly T[], text: string): T[] {
  let first = true;
  const kept: T[] = [];
  for (const o of output as Item[]) {
    if (o.type !== 'message') kept.push(o as T);
    else if (first) {
      first = false;
      kept.push({ ...o, content: [{ type: 'output_text', text }] } as T);
    }
  }
  if (first && text) kept.unshift(assistant(text) as T);
  return kept;
}

function chunkResponse(chunk: string, finishReason?: string): LLMResponse {
  return {
    text: chunk,
    candidates: [{ content: { role: 'model', parts: chunk ? [chunk] : [] }, ...(finishReason ? { finishReason } : {}), index: 0 }],
  };
}

export interface AgentsModelOptions {
  /** The model's name as hooks see it (`llm_request.model`). */
  modelName?: string;
}

export class AgentsHooks {
  private readonly say: (line: string) => void;
  private readonly prompts = new WeakMap<object, string>();
  private readonly defaultModelName: string;
  private readonly base: AiSdkHooks;

  constructor(
    readonly points: HookPoints,
    opts: { notice: (line: string) => void; modelName?: string },
  ) {
    this.say = opts.notice;
    this.defaultModelName = opts.modelName ?? '';
    this.base = new AiSdkHooks(points, opts);
  }

  /** One turn: BeforeAgent (may add context), `run`, AfterAgent (may run it again); see hookline/ai-sdk. */
  turn(prompt: string, run: (prompt: string) => Promise<string>, opts?: TurnOptions): Promise<TurnOutcome> {
    return this.base.turn(prompt, run, opts);
  }

  sessionStart(source?: 'startup' | 'resume' | 'clear'): Promise<SessionStartEffect> {
    return this.base.sessionStart(source);
  }

  sessionEnd(reason?: 'exit' | 'clear' | 'logout' | 'prompt_input_exit' | 'other'): Promise<void> {
    return this.base.sessionEnd(reason);
  }

  /** Stops persistent hook processes. */
  close(): void {
    this.base.close();
  }

  private show(m: string | undefined): void {
    if (m) this.say(m);
  }

  /** BeforeModel and BeforeToolSelection: the request to send, or a synthetic answer. */
  private async before(request: ModelRequest, name: string): Promise<{ request: ModelRequest; llm: LLMRequest } | { answer: string }> {
    const signal = request.signal;
    const base = toStableRequest(name, request);
    const be = await this.points.modelRequest({ request: base, step: 0, system: request.systemInstructions ?? '', signal });
    this.show(be.systemMessage);
    if (be.action === 'stop') throw new HookStop('stopped', 'BeforeModel', be.reason);
    if (be.action === 'block') {
      if (!be.response) throw new HookStop('blocked', 'BeforeModel', be.reason);
      return { answer: responseText(be.response) };
    }
    const llm = be.request;
    const cfg = (llm.config ?? {}) as Record<string, number | undefined>;
    const names = request.tools.flatMap((t) => (t.type === 'function' ? [t.name] : []));
    const sel = await this.points.toolSelection({ request: llm, tools: names, signal });
    this.show(sel.systemMessage);
    const tools = request.tools.filter((t) => t.type !== 'function' || (sel.mode !== 'NONE' && sel.allowed.includes(t.name)));
    const next: ModelRequest = {
      ...request,
      input: llm.messages === base.messages ? request.input : withMessages(request, llm.messages),
      tools,
      modelSettings: {
        ...request.modelSettings,
        ...(cfg.temperature !== undefined ? { temperature: cfg.temperature } : {}),
        ...(cfg.maxOutputTokens !== undefined ? { maxTokens: cfg.maxOutputTokens } : {}),
        ...(cfg.topP !== undefined ? { topP: cfg.topP } : {}),
        ...(sel.mode === 'ANY' && tools.length ? { toolChoice: 'required' as const } : {}),
        ...(!tools.some((t) => t.type === 'function') && names.length ? { toolChoice: 'none' as const } : {}),
      },
    };
    return { request: next, llm };
  }

  /** One AfterModel chunk: its replacement text. */
  private async after(llm: LLMRequest, chunk: string, finish: string | undefined, signal?: AbortSignal): Promise<string> {
    const e = await this.points.modelChunk({ request: llm, response: chunkResponse(chunk, finish), signal });
    this.show(e.systemMessage);
    if (e.action === 'stop') throw new HookStop('stopped', 'AfterModel', e.reason);
    if (e.action === 'deny') throw new HookStop('blocked', 'AfterModel', e.reason);
    return e.action === 'replace' ? responseText({ ...e.response, text: undefined }) : chunk;
  }

  /** Any Model with BeforeModel, BeforeToolSelection and AfterModel around each call. */
  model(inner: Model, opts: AgentsModelOptions = {}): Model {
    const name = opts.modelName ?? this.defaultModelName;
    const hooks = this;
    const synthetic = (text: string): ModelResponse => ({ usage: new Usage(), output: [assistant(text)] as ModelResponse['output'] });
    return {
      async getResponse(request) {
        const p = await hooks.before(request, name);
        if ('answer' in p) return synthetic(p.answer);
        const r = await inner.getResponse(p.request);
        const text = outputText(r.output);
        const out = await hooks.after(p.llm, text, 'STOP', request.signal);
        return out === text ? r : { ...r, output: replaceText(r.output, out) };
      },
      async *getStreamedResponse(request): AsyncIterable<StreamEvent> {
        const p = await hooks.before(request, name);
        if ('answer' in p) {
          const r = synthetic(p.answer);
          yield { type: 'output_text_delta', delta: p.answer };
          yield {
            type: 'response_done',
            response: { id: 'hookline', usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, output: r.output },
          } as StreamEvent;
          return;
        }
        // Hooks see whole lines, however the stream splits them.
        const lines = new Coalescer();
        let chunks = 0;
        let text = '';
        let changed = false;
        const emit = async (chunk: string, finish?: string) => {
          chunks++;
          const out = await hooks.after(p.llm, chunk, finish, request.signal);
          changed ||= out !== chunk;
          text += out;
          return out;
        };
        for await (const event of inner.getStreamedResponse(p.request)) {
          if (event.type === 'output_text_delta') {
            for (const chunk of lines.push(event.delta)) {
              const out = await emit(chunk);
              if (out) yield { ...event, delta: out };
            }
            continue;
          }
          if (event.type === 'response_done') {
            for (const chunk of lines.flush()) {
              const out = await emit(chunk);
              if (out) yield { type: 'output_text_delta', delta: out };
            }
            if (!chunks) {
              const out = await emit('', 'STOP');
              if (out) yield { type: 'output_text_delta', delta: out };
            }
            // The final response carries the answer too: it must say what the hooks left.
            if (changed) yield { ...event, response: { ...event.response, output: replaceText(event.response.output, text) } };
            else yield event;
            continue;
          }
          yield event;
        }
      },
    };
  }

  /** Function tools run through BeforeTool and AfterTool; other tools are kept as they are. */
  tools<T extends Tool>(tools: T[], opts: ToolHookOptions = {}): T[] {
    const fns = tools.filter((t): t is T & FunctionTool => t.type === 'function');
    const byName = new Map(fns.map((t) => [t.name, t] as const));
    const notice = opts.notice ?? this.say;
    return tools.map((tool) => {
      if (tool.type !== 'function') return tool;
      const t = tool as T & FunctionTool;
      return {
        ...t,
        invoke: async (ctx: RunContext, input: string, details?: Parameters<FunctionTool['invoke']>[2]) => {
          let args: Record<string, unknown> = {};
          try {
            const parsed = input ? JSON.parse(input) : {};
            if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed;
          } catch {
            // The tool reports bad input itself.
            return t.invoke(ctx, input, details);
          }
          const r = await hookedCall(
            this.points,
            {
              find: (name) => byName.get(name),
              nameOf: (x) => x.name,
              notFound: (name) => `Tool "${name}" not found.`,
              validate: (_x, a) => ({ args: a }),
              approve: (x, a, asked, message) => askWhenHooksAsk(opts.confirm, x.name, a, asked, message),
              execute: async (x, a) => {
                const output = await x.invoke(ctx, JSON.stringify(a), details);
                return { llmContent: typeof output === 'string' ? output : (JSON.stringify(output) ?? ''), returnDisplay: output };
              },
              notice,
              step: opts.step ?? (() => 0),
              signal: details?.signal,
            },
            { id: details?.toolCall?.callId ?? '', name: t.name, args },
          );
          if (r.stop !== undefined) {
            opts.onStop?.(r.stop);
            throw new HookStop('stopped', r.stopAt ?? 'BeforeTool', r.stop);
          }
          if (r.run && !r.outcome.isError && r.outcome.output === r.run.llmContent) return r.run.returnDisplay;
          return r.outcome.output;
        },
      } as T;
    });
  }

  /** BeforeAgent as an input guardrail: a deny or stop trips the wire (the context it adds needs `turn()`). */
  readonly inputGuardrail: InputGuardrail = {
    name: 'hookline BeforeAgent',
    execute: async ({ input, context }) => {
      const prompt =
        typeof input === 'string'
          ? input
          : ((input as unknown as Item[])
              .filter((i) => i.role === 'user')
              .map((i) => itemText(i) ?? '')
              .at(-1) ?? '');
      this.prompts.set(context, prompt);
      const e = await this.points.prompt({ prompt, tools: [], maxSteps: 0 });
      this.show(e.systemMessage);
      return { tripwireTriggered: e.action !== 'proceed', outputInfo: e.action === 'proceed' ? {} : { reason: e.reason } };
    },
  };

  /** AfterAgent as an output guardrail: a deny (a retry in Gemini CLI) or stop trips the wire. */
  readonly outputGuardrail: OutputGuardrail = {
    name: 'hookline AfterAgent',
    execute: async ({ agentOutput, context }) => {
      const response = typeof agentOutput === 'string' ? agentOutput : JSON.stringify(agentOutput);
      const e = await this.points.turnEnd({
        prompt: this.prompts.get(context) ?? '',
        response,
        stopHookActive: false,
        retries: 0,
        maxRetries: 0,
      });
      this.show(e.systemMessage);
      const reason = e.action === 'retry' ? e.prompt : e.action === 'accept' ? undefined : e.reason;
      return { tripwireTriggered: e.action !== 'accept', outputInfo: reason === undefined ? {} : { reason } };
    },
  };
}

/** OpenAI Agents hooks from a HookEngine (the folder's configured hooks by default), with Gemini CLI's semantics. */
export function createAgentsHooks(opts: HooksOptions = {}): AgentsHooks {
  const { points, notice } = enginePoints(opts);
  return new AgentsHooks(points, { notice, ...(opts.modelName ? { modelName: opts.modelName } : {}) });
}
