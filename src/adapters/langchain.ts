/**
 * hookline/langchain: Gemini CLI hooks in a LangChain JS agent, as one middleware.
 *
 *   const hooks = createLangChainHooks();
 *   const agent = createAgent({ model, tools, middleware: [hooks.middleware()] });
 *
 * beforeAgent is BeforeAgent (context added to the prompt; a deny or stop ends the run with a
 * message saying so); wrapModelCall is BeforeModel (rewrite, synthetic answer), BeforeToolSelection
 * (the tools bound) and AfterModel (the answer, which it may rewrite or redact); wrapToolCall is
 * BeforeTool and AfterTool (deny, rewrite, ask, context); afterAgent is AfterAgent (a deny sends
 * its reason back to the model, at most three times).
 */
import { AIMessage, HumanMessage, ToolMessage, createMiddleware, type BaseMessage } from 'langchain';
import type { LLMRequest, LLMResponse } from '../events/model.js';
import { MAX_AFTER_AGENT_RETRIES, responseText, withBlocks } from '../apply/index.js';
import { askWhenHooksAsk, HookStop, hookedCall, type HookPoints, type ToolHookOptions } from '../agent/ai-sdk/index.js';
import { contentText } from '../agent/history.js';
import { enginePoints, type HooksOptions } from './engine-points.js';

export { HookStop } from '../agent/ai-sdk/index.js';
export type { HooksOptions } from './engine-points.js';

/** Marks the prompts an AfterAgent hook sent back, so the next AfterAgent knows it is a retry. */
const RETRY = 'hookline_retry';
/** Marks the answer a BeforeAgent hook gave: the model never ran, so AfterAgent does not fire. */
const ENDED = 'hookline_ended';

/** The run's cancellation, when LangGraph gives one. */
const signalOf = (runtime: unknown): AbortSignal | undefined => (runtime as { signal?: AbortSignal } | undefined)?.signal;
const kind = (m: BaseMessage): string => (m as { type?: string }).type ?? m.getType();
const textOf = (m: BaseMessage): string => contentText(m.content);

/** The hooks' stable request: human and AI text messages. */
export function toStableRequest(model: string, messages: readonly BaseMessage[]): LLMRequest {
  const out = messages.flatMap((m) => {
    const k = kind(m);
    if (k !== 'human' && k !== 'ai') return [];
    const text = textOf(m);
    return text ? [{ role: k === 'ai' ? ('model' as const) : ('user' as const), content: text }] : [];
  });
  return { model, messages: out, config: {} };
}

function withMessages(messages: readonly BaseMessage[], rewritten: LLMRequest['messages']): BaseMessage[] {
  const out: BaseMessage[] = [];
  let i = 0;
  const make = (hm: { role: string; content: unknown }, from?: BaseMessage) => {
    const content = contentText(hm.content);
    if (hm.role !== 'model') return new HumanMessage({ content, ...(from?.id ? { id: from.id } : {}) });
    const calls = from && kind(from) === 'ai' ? (from as AIMessage).tool_calls : undefined;
    return new AIMessage({ content, ...(calls?.length ? { tool_calls: calls } : {}), ...(from?.id ? { id: from.id } : {}) });
  };
  for (const m of messages) {
    const k = kind(m);
    if ((k !== 'human' && k !== 'ai') || !textOf(m) || i >= rewritten.length) out.push(m);
    else out.push(make(rewritten[i++], m));
  }
  for (; i < rewritten.length; i++) out.push(make(rewritten[i]));
  return out;
}

const chunk = (text: string): LLMResponse => ({
  text,
  candidates: [{ content: { role: 'model', parts: text ? [text] : [] }, finishReason: 'STOP', index: 0 }],
});

export interface LangChainHookOptions extends Pick<ToolHookOptions, 'confirm'> {
  /** The model's name as hooks see it (`llm_request.model`). */
  modelName?: string;
  /** AfterAgent retries at most this many times (default 3). */
  maxRetries?: number;
}

export class LangChainHooks {
  constructor(
    readonly points: HookPoints,
    private readonly notice: (line: string) => void,
    private readonly defaults: { modelName?: string } = {},
  ) {}

  private show(m: string | undefined): void {
    if (m) this.notice(m);
  }

  /** The middleware for `createAgent({ middleware: [...] })`. */
  middleware(opts: LangChainHookOptions = {}) {
    const points = this.points;
    const show = (m: string | undefined) => this.show(m);
    const modelName = opts.modelName ?? this.defaults.modelName ?? '';
    const maxRetries = opts.maxRetries ?? MAX_AFTER_AGENT_RETRIES;
    const lastHuman = (messages: readonly BaseMessage[]) => [...messages].reverse().find((m) => kind(m) === 'human');
    return createMiddleware({
      name: 'hookline',
      beforeAgent: {
        canJumpTo: ['end'],
        hook: async (state: { messages: BaseMessage[] }, runtime) => {
          const human = lastHuman(state.messages);
          if (!human) return undefined;
          const e = await points.prompt({ prompt: textOf(human), tools: [], maxSteps: 0, signal: signalOf(runtime) });
          show(e.systemMessage);
          if (e.action === 'block') return { messages: [new AIMessage({ content: e.notice, name: ENDED })], jumpTo: 'end' as const };
          if (e.action === 'stop') {
            const content = e.answer ?? `Agent execution stopped by hook: ${e.reason}`;
            return { messages: [new AIMessage({ content, name: ENDED })], jumpTo: 'end' as const };
          }
          const prompt = withBlocks(e.prompt ?? textOf(human), [...(e.blocks ?? []), ...(e.parts ?? [])]);
          if (prompt === textOf(human)) return undefined;
          // The same id replaces the message in the agent's state.
          return { messages: [new HumanMessage({ content: prompt, id: human.id })] };
        },
      },
      afterAgent: {
        canJumpTo: ['model'],
        hook: async (state: { messages: BaseMessage[] }, runtime) => {
          const messages = state.messages;
          const answer = [...messages].reverse().find((m) => kind(m) === 'ai');
          if (answer?.name === ENDED) return undefined;
          let retries = 0;
          let first: BaseMessage | undefined;
          for (const m of [...messages].reverse()) {
            if (kind(m) !== 'human') continue;
            if (m.name === RETRY) retries++;
            else {
              first = m;
              break;
            }
          }
          const e = await points.turnEnd({
            prompt: first ? textOf(first) : '',
            response: answer ? textOf(answer) : '',
            stopHookActive: retries > 0,
            retries,
            maxRetries,
            signal: signalOf(runtime),
          });
          show(e.systemMessage);
          if (e.action !== 'retry') return undefined;
          return { messages: [new HumanMessage({ content: e.prompt, name: RETRY })], jumpTo: 'model' as const };
        },
      },
      wrapModelCall: async (request, handler) => {
        const signal = signalOf(request.runtime);
        const base = toStableRequest(modelName, request.messages);
        const be = await points.modelRequest({ request: base, step: 0, system: request.systemPrompt ?? '', signal });
        show(be.systemMessage);
        if (be.action === 'stop') throw new HookStop('stopped', 'BeforeModel', be.reason);
        if (be.action === 'block') {
          if (!be.response) throw new HookStop('blocked', 'BeforeModel', be.reason);
          return new AIMessage(responseText(be.response));
        }
        const llm = be.request;
        const names = request.tools.flatMap((t) => {
          const name = (t as { name?: unknown }).name;
          return typeof name === 'string' ? [name] : [];
        });
        const sel = await points.toolSelection({ request: llm, tools: names, signal });
        show(sel.systemMessage);
        const tools = request.tools.filter((t) => {
          const name = (t as { name?: unknown }).name;
          return typeof name !== 'string' || (sel.mode !== 'NONE' && sel.allowed.includes(name));
        });
        const response = await handler({
          ...request,
          messages: llm.messages === base.messages ? request.messages : withMessages(request.messages, llm.messages),
          tools,
          ...(sel.mode === 'ANY' && tools.length ? { toolChoice: 'required' as const } : {}),
        });
        if (!AIMessage.isInstance(response)) return response;
        const text = textOf(response);
        const e = await points.modelChunk({ request: llm, response: chunk(text), signal });
        show(e.systemMessage);
        if (e.action === 'stop') throw new HookStop('stopped', 'AfterModel', e.reason);
        if (e.action === 'deny') throw new HookStop('blocked', 'AfterModel', e.reason);
        if (e.action !== 'replace') return response;
        return new AIMessage({
          content: responseText({ ...e.response, text: undefined }),
          tool_calls: response.tool_calls,
          ...(response.id ? { id: response.id } : {}),
        });
      },
      wrapToolCall: async (request, handler) => {
        const call = request.toolCall;
        let message: ToolMessage | undefined;
        let passed: Awaited<ReturnType<typeof handler>> | undefined;
        const r = await hookedCall(
          points,
          {
            find: (name) => (name === call.name ? name : undefined),
            nameOf: (name) => name,
            notFound: (name) => `Tool "${name}" not found.`,
            validate: (_n, args) => ({ args }),
            approve: (name, args, asked, msg) => askWhenHooksAsk(opts.confirm, name, args, asked, msg),
            execute: async (_n, args) => {
              const out = await handler({ ...request, toolCall: { ...call, args } });
              if (!ToolMessage.isInstance(out)) {
                // A state update, not a message: it goes back as it is.
                passed = out;
                return { llmContent: '', returnDisplay: '' };
              }
              message = out;
              const text = textOf(out);
              return { llmContent: text, returnDisplay: text, ...(out.status === 'error' ? { error: { message: text } } : {}) };
            },
            notice: (l) => show(l),
            step: () => 0,
            signal: signalOf(request.runtime),
          },
          { id: call.id ?? '', name: call.name, args: call.args as Record<string, unknown> },
        );
        if (r.stop !== undefined) throw new HookStop('stopped', r.stopAt ?? 'BeforeTool', r.stop);
        if (passed !== undefined && !r.outcome.isError) return passed;
        if (message && r.run && r.outcome.output === r.run.llmContent) return message;
        return new ToolMessage({
          content: r.outcome.output,
          tool_call_id: call.id ?? '',
          name: call.name,
          status: r.outcome.isError ? 'error' : 'success',
        });
      },
    });
  }

  /** Stops persistent hook processes. */
  close(): void {
    this.points.close?.();
  }
}

/** LangChain hooks from a HookEngine (the folder's configured hooks by default), with Gemini CLI's semantics. */
export function createLangChainHooks(opts: HooksOptions = {}): LangChainHooks {
  const { points, notice } = enginePoints(opts);
  return new LangChainHooks(points, notice, { ...(opts.modelName ? { modelName: opts.modelName } : {}) });
}
