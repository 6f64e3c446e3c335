/**
 * hookline/ai-sdk: Gemini CLI hooks in any AI SDK 6 app.
 *
 *   const hooks = createHooks();
 *   const model = wrapLanguageModel({ model: openai('gpt-4o'), middleware: hooks.middleware() });
 *   await streamText({ model, tools: hooks.tools({ weather }), prompt });
 *
 * The hooks are the ones configured for the folder (`.gemini/settings.json` and the user's
 * settings, trust applying), run by a HookEngine with Gemini CLI's semantics.
 */
import { AiSdkHooks } from '../agent/ai-sdk/index.js';
import { enginePoints, type HooksOptions } from './engine-points.js';

export * from '../agent/ai-sdk/index.js';
export { Points } from '../agent/points.js';
export type { HooksOptions } from './engine-points.js';

/** Hooks from a HookEngine (the folder's configured hooks by default), with Gemini CLI's semantics. */
export function createHooks(opts: HooksOptions = {}): AiSdkHooks {
  const { points, notice } = enginePoints(opts);
  return new AiSdkHooks(points, { notice, modelName: opts.modelName });
}
