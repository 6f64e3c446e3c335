import type { LanguageModelV3 } from '@ai-sdk/provider';
import { UsageError } from './io.js';

/** A model from `--model` and `--base-url`; a bad spec or script is a usage error. Loads the AI SDK. */
export async function modelFromFlags(spec: string, baseUrl: string | undefined, scriptLog?: string): Promise<LanguageModelV3> {
  const { createModel, ModelConfigError } = await import('../agent/models/providers.js');
  const { ScriptError } = await import('../agent/models/scripted.js');
  try {
    return createModel({ spec, baseUrl, scriptLog });
  } catch (e) {
    if (e instanceof ModelConfigError || e instanceof ScriptError) throw new UsageError(e.message);
    throw e;
  }
}
