/**
 * Hook points around any AI SDK language model, as a `wrapLanguageModel` middleware: BeforeModel
 * may rewrite the request or answer in the model's place, BeforeToolSelection may restrict the
 * tools, and AfterModel reads the answer in whole lines (src/agent/coalesce.ts) and may rewrite
 * or redact each one. The reference agent's model calls go through this middleware.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3Message,
  LanguageModelV3Middleware,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import type { LLMRequest, LLMResponse } from '../../events/model.js';
import { responseText, type AfterModelEffect, type BeforeModelEffect, type ToolSelection } from '../../apply/index.js';
import type { Advisory, ModelChunkPoint, ModelRequestPoint, ToolSelectionPoint } from '../../dialects/adapter.js';
import { Coalescer } from '../coalesce.js';
import { contentText } from '../history.js';

/** The points a model call reaches (src/agent/points.ts has them all). */
export interface ModelPoints {
  modelRequest(p: ModelRequestPoint): Promise<BeforeModelEffect>;
  toolSelection(p: ToolSelectionPoint): Promise<ToolSelection & Advisory>;
  modelChunk(p: ModelChunkPoint): Promise<AfterModelEffect>;
}

/**
 * A hook ended the model call. `stopped`: the hook stopped the agent (`continue: false`);
 * `blocked`: it refused this call (BeforeModel) or this answer (AfterModel).
 */
export class HookStop extends Error {
  override readonly name = 'HookStop';
  constructor(
    readonly status: 'stopped' | 'blocked',
    readonly event: 'BeforeModel' | 'AfterModel' | 'BeforeTool' | 'AfterTool',
    readonly reason: string,
  ) {
    super(status === 'stopped' ? `Agent execution stopped by hook: ${reason}` : `Blocked by hook: ${reason}`);
  }
}

export interface ModelHookOptions {
  /** The model's name as hooks see it in `llm_request.model` (default: the model's id). */
  modelName?: string;
  /** The call's step number in the turn (default: calls counted by this middleware, from 1). */
  step?: () => number;
  /** Where hooks' `systemMessage`s go (default: a line on stderr). */
  notice?: (line: string) => void;
  /** The model a BeforeModel hook names in `llm_request.model`, when it differs (default: kept). */
  modelFor?: (name: string) => LanguageModelV3 | undefined;
  /** Told the tool selection of each call, after BeforeToolSelection. */
  onSelection?: (selection: ToolSelection) => void;
}

/** `providerMetadata.hookline.synthetic` is true on an answer a BeforeModel hook gave. */
export const SYNTHETIC_METADATA = { hookline: { synthetic: true } };

const TEXT_ID = 'hookline-text';
const GENERATION_KEYS = ['temperature', 'maxOutputTokens', 'topP', 'topK'] as const;

export const stderrNotice = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

function textOf(m: LanguageModelV3Message): string {
  if (m.role !== 'user' && m.role !== 'assistant') return '';
  return m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

/** The hooks' stable request for a call: its user and model text messages, and its generation settings. */
export function toHookRequest(modelName: string, params: LanguageModelV3CallOptions): LLMRequest {
  const messages = params.prompt
    .map((m) => ({ role: m.role === 'assistant' ? ('model' as const) : ('user' as const), content: textOf(m) }))
    .filter((m) => m.content.length > 0);
  const config: Record<string, number> = {};
  for (const k of GENERATION_KEYS) if (params[k] !== undefined) config[k] = params[k];
  return { model: modelName, messages, config };
}

/**
 * A hook's rewritten messages back into the prompt: the i-th text message takes the i-th hook
 * message's text (tool calls and files kept), extra hook messages are appended, as Gemini CLI
 * merges them.
 */
export function fromHookMessages(
  prompt: LanguageModelV3Prompt,
  messages: ReadonlyArray<{ role: string; content: unknown }>,
): LanguageModelV3Prompt {
  const out: LanguageModelV3Prompt = [];
  const add = (role: string, text: string, from?: LanguageModelV3Message) => {
    const extra = { ...(from?.providerOptions ? { providerOptions: from.providerOptions } : {}) };
    if (role === 'model') {
      const kept = from?.role === 'assistant' ? from.content.filter((p) => p.type !== 'text') : [];
      const content = [...(text ? [{ type: 'text' as const, text }] : []), ...kept];
      if (content.length) out.push({ role: 'assistant', content, ...extra });
    } else {
      const kept = from?.role === 'user' ? from.content.filter((p) => p.type !== 'text') : [];
      out.push({ role: 'user', content: [{ type: 'text', text }, ...kept], ...extra });
    }
  };
  let i = 0;
  for (const m of prompt) {
    if (!textOf(m) || i >= messages.length) {
      out.push(m);
      continue;
    }
    const hm = messages[i++];
    add(hm.role, contentText(hm.content), m);
  }
  for (; i < messages.length; i++) add(messages[i].role, contentText(messages[i].content));
  return out;
}

const NO_USAGE: LanguageModelV3Usage = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

const STOP: LanguageModelV3FinishReason = { unified: 'stop', raw: 'STOP' };

/** Gemini's finish reason names, as AfterModel hooks read them. */
function finishName(r: LanguageModelV3FinishReason): string {
  switch (r.unified) {
    case 'length':
      return 'MAX_TOKENS';
    case 'content-filter':
      return 'SAFETY';
    case 'stop':
    case 'tool-calls':
      return 'STOP';
    default:
      return 'OTHER';
  }
}

/** How the response ended, as the last chunk tells AfterModel hooks: Gemini's finish reason and token counts. */
interface ChunkEnd {
  finishReason: string;
  usage?: LLMResponse['usageMetadata'];
}

/**
 * A call's token counts in the stable format: the provider's own when it is Gemini's
 * (`usageMetadata`), else from the AI SDK's totals; none when the provider gave none.
 */
function usageMetadata(usage: LanguageModelV3Usage | undefined): LLMResponse['usageMetadata'] {
  if (!usage) return undefined;
  const raw = usage.raw as Record<string, unknown> | undefined;
  const count = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const prompt = count(raw?.promptTokenCount) ?? usage.inputTokens.total;
  const candidates = count(raw?.candidatesTokenCount) ?? usage.outputTokens.total;
  const total = count(raw?.totalTokenCount) ?? (prompt !== undefined && candidates !== undefined ? prompt + candidates : undefined);
  if (prompt === undefined && candidates === undefined && total === undefined) return undefined;
  return {
    ...(prompt !== undefined ? { promptTokenCount: prompt } : {}),
    ...(candidates !== undefined ? { candidatesTokenCount: candidates } : {}),
    ...(total !== undefined ? { totalTokenCount: total } : {}),
  };
}

function chunkResponse(chunk: string, end: ChunkEnd | undefined): LLMResponse {
  return {
    text: chunk,
    candidates: [{ content: { role: 'model', parts: chunk ? [chunk] : [] }, ...(end ? { finishReason: end.finishReason } : {}), index: 0 }],
    ...(end?.usage ? { usageMetadata: end.usage } : {}),
  };
}

type Prepared =
  | { kind: 'synthetic'; text: string }
  | { kind: 'call'; params: LanguageModelV3CallOptions; request: LLMRequest; target: LanguageModelV3 };

/**
 * The middleware. `points` is any object with the three model points: the fold over hook
 * systems the reference agent uses, or one made from a HookEngine (hookline/ai-sdk).
 */
export function hookMiddleware(points: ModelPoints, opts: ModelHookOptions = {}): LanguageModelV3Middleware {
  const notice = opts.notice ?? stderrNotice;
  const show = (m: string | undefined) => {
    if (m) notice(m);
  };
  let calls = 0;
  const checkAborted = (signal: AbortSignal | undefined) => {
    if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('cancelled');
  };

  const prepare = async (params: LanguageModelV3CallOptions, model: LanguageModelV3): Promise<Prepared> => {
    const signal = params.abortSignal;
    const name = opts.modelName ?? model.modelId;
    const base = toHookRequest(name, params);
    const system = params.prompt.flatMap((m) => (m.role === 'system' ? [m.content] : [])).join('\n');
    const step = opts.step ? opts.step() : ++calls;
    const be = await points.modelRequest({ request: base, step, system, signal });
    checkAborted(signal);
    show(be.systemMessage);
    if (be.action === 'stop') throw new HookStop('stopped', 'BeforeModel', be.reason);
    if (be.action === 'block') {
      if (!be.response) throw new HookStop('blocked', 'BeforeModel', be.reason);
      // The hook's answer stands in for the model's; the block is still said, as Gemini CLI says it.
      notice(`Agent execution blocked: ${be.reason}`);
      return { kind: 'synthetic', text: responseText(be.response) };
    }
    const request = be.request;
    const prompt = request.messages === base.messages ? params.prompt : fromHookMessages(params.prompt, request.messages);
    const all = params.tools ?? [];
    const names = all.flatMap((t) => (t.type === 'function' ? [t.name] : []));
    const selection = await points.toolSelection({ request, tools: names, signal });
    checkAborted(signal);
    show(selection.systemMessage);
    opts.onSelection?.({ mode: selection.mode, allowed: selection.allowed });
    const kept = selection.mode === 'NONE' ? [] : all.filter((t) => t.type !== 'function' || selection.allowed.includes(t.name));
    let toolChoice = params.toolChoice;
    if (!kept.length) toolChoice = selection.mode === 'NONE' || names.length ? { type: 'none' } : params.toolChoice;
    else if (selection.mode === 'ANY') toolChoice = { type: 'required' };
    else if (toolChoice?.type === 'tool') {
      const only = toolChoice.toolName;
      if (!kept.some((t) => t.name === only)) toolChoice = { type: 'auto' };
    }
    const cfg = (request.config ?? {}) as Record<string, unknown>;
    // The request's settings as the hooks left them: one a hook's `config` left out is not sent.
    const settings: Partial<LanguageModelV3CallOptions> = {};
    for (const k of GENERATION_KEYS) settings[k] = typeof cfg[k] === 'number' ? (cfg[k] as number) : undefined;
    const next: LanguageModelV3CallOptions = {
      ...params,
      ...settings,
      prompt,
      tools: kept.length ? kept : undefined,
      toolChoice,
    };
    const target = request.model === name ? model : (opts.modelFor?.(request.model) ?? model);
    return { kind: 'call', params: next, request, target };
  };

  /** One AfterModel chunk: the text that replaces it (the chunk itself when kept). */
  const afterChunk = async (request: LLMRequest, chunk: string, end: ChunkEnd | undefined, signal?: AbortSignal) => {
    const response = chunkResponse(chunk, end);
    const e = await points.modelChunk({ request, response, signal });
    checkAborted(signal);
    show(e.systemMessage);
    if (e.action === 'stop') throw new HookStop('stopped', 'AfterModel', e.reason);
    if (e.action === 'deny') throw new HookStop('blocked', 'AfterModel', e.reason);
    return e.action === 'replace' ? responseText({ ...e.response, text: undefined }) : chunk;
  };

  return {
    specificationVersion: 'v3',

    async wrapStream({ params, model }) {
      const p = await prepare(params, model);
      if (p.kind === 'synthetic') {
        const parts: LanguageModelV3StreamPart[] = [
          { type: 'stream-start', warnings: [] },
          ...(p.text
            ? ([
                { type: 'text-start', id: TEXT_ID },
                { type: 'text-delta', id: TEXT_ID, delta: p.text },
                { type: 'text-end', id: TEXT_ID },
              ] as const)
            : []),
          { type: 'finish', finishReason: STOP, usage: NO_USAGE, providerMetadata: SYNTHETIC_METADATA },
        ];
        const stream = new ReadableStream<LanguageModelV3StreamPart>({
          start(c) {
            for (const x of parts) c.enqueue(x);
            c.close();
          },
        });
        return { stream };
      }
      const result = await p.target.doStream(p.params);
      const signal = params.abortSignal;
      // Hooks see whole lines, however the stream splits them, so a redaction cannot be split past.
      const lines = new Coalescer();
      let chunks = 0;
      let open = false;
      let done = false;
      const emit = async (c: TransformStreamDefaultController<LanguageModelV3StreamPart>, chunk: string, finish?: ChunkEnd) => {
        chunks++;
        const out = await afterChunk(p.request, chunk, finish, signal);
        if (!out) return;
        if (!open) c.enqueue({ type: 'text-start', id: TEXT_ID });
        open = true;
        c.enqueue({ type: 'text-delta', id: TEXT_ID, delta: out });
      };
      const end = async (c: TransformStreamDefaultController<LanguageModelV3StreamPart>, finish?: LanguageModelV3StreamPart) => {
        // The last chunk says how the response ended, as Gemini's last streamed chunk does.
        const ending: ChunkEnd =
          finish?.type === 'finish'
            ? { finishReason: finishName(finish.finishReason), usage: usageMetadata(finish.usage) }
            : { finishReason: 'STOP' };
        const rest = lines.flush();
        for (const [i, chunk] of rest.entries()) await emit(c, chunk, i === rest.length - 1 ? ending : undefined);
        // A response with only tool calls is still one chunk the hooks see.
        if (!chunks) await emit(c, '', ending);
        if (open) c.enqueue({ type: 'text-end', id: TEXT_ID });
        open = false;
      };
      const fail = (c: TransformStreamDefaultController<LanguageModelV3StreamPart>, error: unknown) => {
        done = true;
        c.enqueue({ type: 'error', error });
        c.terminate();
      };
      const hooked = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
        async transform(part, c) {
          if (done) return;
          try {
            if (part.type === 'text-start' || part.type === 'text-end') return;
            if (part.type === 'text-delta') {
              for (const chunk of lines.push(part.delta)) await emit(c, chunk);
              return;
            }
            if (part.type === 'error') {
              // The call failed: what follows is not an answer hooks should read.
              done = true;
              c.enqueue(part);
              return;
            }
            if (part.type === 'finish') {
              await end(c, part);
              done = true;
            }
            c.enqueue(part);
          } catch (err) {
            fail(c, err);
          }
        },
        async flush(c) {
          if (done) return;
          try {
            await end(c);
          } catch (err) {
            fail(c, err);
          }
        },
      });
      return { ...result, stream: result.stream.pipeThrough(hooked) };
    },

    async wrapGenerate({ params, model }) {
      const p = await prepare(params, model);
      if (p.kind === 'synthetic')
        return {
          content: p.text ? [{ type: 'text', text: p.text }] : [],
          finishReason: STOP,
          usage: NO_USAGE,
          providerMetadata: SYNTHETIC_METADATA,
          warnings: [],
        } satisfies LanguageModelV3GenerateResult;
      const result = await p.target.doGenerate(p.params);
      // Without a stream, the whole answer is one chunk.
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      const out = await afterChunk(
        p.request,
        text,
        { finishReason: finishName(result.finishReason), usage: usageMetadata(result.usage) },
        params.abortSignal,
      );
      if (out === text) return result;
      const rest = result.content.filter((c) => c.type !== 'text');
      const content: LanguageModelV3Content[] = [...(out ? [{ type: 'text' as const, text: out }] : []), ...rest];
      return { ...result, content };
    },
  };
}
