import fs from 'node:fs';
import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import type * as OpenAICompatible from '@ai-sdk/openai-compatible';
import type * as Google from '@ai-sdk/google';
import type * as Anthropic from '@ai-sdk/anthropic';
import { loadOptional, MissingPackage } from '../../run/optional.js';
import { ScriptedModel } from './scripted.js';

export class ModelConfigError extends Error {}

/** The provider packages, optional peer dependencies: loaded when a model of theirs is asked for. */
export const PROVIDER_PACKAGES = {
  'openai-compatible': { name: '@ai-sdk/openai-compatible', range: '^2.0.0' },
  gemini: { name: '@ai-sdk/google', range: '^3.0.0' },
  anthropic: { name: '@ai-sdk/anthropic', range: '^3.0.0' },
} as const;

function provider<T>(kind: keyof typeof PROVIDER_PACKAGES): T {
  const { name, range } = PROVIDER_PACKAGES[kind];
  try {
    return loadOptional<T>(name, `--model ${kind}:…`, range);
  } catch (e) {
    if (e instanceof MissingPackage) throw new ModelConfigError(e.message);
    throw e;
  }
}

export interface ModelOptions {
  /** `scripted:FILE`, `openai-compatible:MODEL`, `gemini:MODEL` or `anthropic:MODEL`. */
  spec: string;
  /** Base URL for openai-compatible servers (Ollama, llama.cpp, vLLM). */
  baseUrl?: string;
  env?: NodeJS.ProcessEnv;
  /** Append each scripted call's prompt here (tests, debugging). */
  scriptLog?: string;
}

function need(env: NodeJS.ProcessEnv, names: string[], what: string): string {
  for (const n of names) if (env[n]) return env[n]!;
  throw new ModelConfigError(`--model ${what}: no API key — set ${names.join(' or ')}`);
}

/**
 * A provider's base URL as the agents read theirs (`ANTHROPIC_BASE_URL` for Claude Code,
 * `GOOGLE_GEMINI_BASE_URL` for Gemini CLI: the server's root, the API under `/v1` or `/v1beta`),
 * so one variable points both at the same server; a URL that already ends in the version is kept.
 */
export function rootWithVersion(url: string | undefined, version: string): string | undefined {
  if (!url) return undefined;
  const trimmed = url.replace(/\/+$/, '');
  return trimmed.endsWith(`/${version}`) ? trimmed : `${trimmed}/${version}`;
}

/**
 * The generation settings a provider's calls carry when nothing else sets them, as hooks read them
 * in `llm_request.config`: for Gemini models Gemini CLI's own (temperature 1, topP 0.95, topK 64,
 * also the API's defaults for its 2.5 models); none for the others.
 */
export function generationDefaults(spec: string): { temperature?: number; topP?: number; topK?: number } | undefined {
  return spec.startsWith('gemini:') ? { temperature: 1, topP: 0.95, topK: 64 } : undefined;
}

/** Builds the model named by a spec. Keys come from the environment, never from flags or files. */
export function createModel(opts: ModelOptions): LanguageModelV3 {
  const env = opts.env ?? process.env;
  const i = opts.spec.indexOf(':');
  const kind = i === -1 ? opts.spec : opts.spec.slice(0, i);
  const rest = i === -1 ? '' : opts.spec.slice(i + 1);
  switch (kind) {
    case 'scripted':
      if (!rest) throw new ModelConfigError('--model scripted: no file — give one: --model scripted:FILE');
      return ScriptedModel.fromFile(rest, opts.scriptLog);
    case 'openai-compatible': {
      const baseURL = opts.baseUrl ?? env.HOOKLINE_BASE_URL ?? env.OPENAI_BASE_URL;
      if (!baseURL)
        throw new ModelConfigError('openai-compatible needs a base URL: --base-url http://localhost:11434/v1 (or HOOKLINE_BASE_URL)');
      if (!rest) throw new ModelConfigError('--model openai-compatible: no model name — give one: --model openai-compatible:MODEL');
      const apiKey = env.HOOKLINE_API_KEY ?? env.OPENAI_API_KEY;
      const { createOpenAICompatible } = provider<typeof OpenAICompatible>('openai-compatible');
      return createOpenAICompatible({ name: 'openai-compatible', baseURL, ...(apiKey ? { apiKey } : {}) }).chatModel(rest);
    }
    case 'gemini': {
      const apiKey = need(env, ['GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'], 'gemini');
      const baseURL = rootWithVersion(opts.baseUrl ?? env.GOOGLE_GEMINI_BASE_URL, 'v1beta');
      return provider<typeof Google>('gemini').createGoogleGenerativeAI({ apiKey, ...(baseURL ? { baseURL } : {}) })(
        rest || 'gemini-2.5-flash',
      );
    }
    case 'anthropic': {
      const apiKey = need(env, ['ANTHROPIC_API_KEY'], 'anthropic');
      const baseURL = rootWithVersion(opts.baseUrl ?? env.ANTHROPIC_BASE_URL, 'v1');
      return provider<typeof Anthropic>('anthropic').createAnthropic({ apiKey, ...(baseURL ? { baseURL } : {}) })(
        rest || 'claude-sonnet-4-5',
      );
    }
    default:
      throw new ModelConfigError(
        `unknown model "${opts.spec}" — use scripted:FILE, openai-compatible:MODEL, gemini:MODEL or anthropic:MODEL`,
      );
  }
}

/** Wraps a model so every streamed answer is appended to `file` as a script line. */
export function recording(model: LanguageModelV3, file: string): LanguageModelV3 {
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: 'v3',
      wrapStream: async ({ doStream }) => {
        const result = await doStream();
        let text = '';
        const toolCalls: Array<{ name: string; args: unknown }> = [];
        const tee = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
          transform(part, controller) {
            if (part.type === 'text-delta') text += part.delta;
            else if (part.type === 'tool-call') {
              let args: unknown = {};
              try {
                args = JSON.parse(part.input || '{}');
              } catch {
                args = { raw: part.input };
              }
              toolCalls.push({ name: part.toolName, args });
            }
            controller.enqueue(part);
          },
          flush() {
            const line: Record<string, unknown> = {};
            if (text) line.text = text;
            if (toolCalls.length) line.toolCalls = toolCalls;
            fs.appendFileSync(file, JSON.stringify(line) + '\n');
          },
        });
        return { ...result, stream: result.stream.pipeThrough(tee) };
      },
    },
  }) as LanguageModelV3;
}
