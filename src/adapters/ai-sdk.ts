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
import { HookEngine, type EngineOptions } from '../engine/index.js';
import { geminiAdapter } from '../dialects/gemini/agent.js';
import { Points } from '../agent/points.js';
import { AiSdkHooks } from '../agent/ai-sdk/index.js';
import { stderrNotice } from '../agent/ai-sdk/model.js';

export * from '../agent/ai-sdk/index.js';
export { Points } from '../agent/points.js';

export interface HooksOptions extends EngineOptions {
  /** An engine to use instead of one made from the other options. */
  engine?: HookEngine;
  /** The model's name as hooks see it in `llm_request.model` (default: each model's id). */
  modelName?: string;
  /** Where hooks' `systemMessage`s and warnings go (default: a line on stderr). */
  notice?: (line: string) => void;
  /** One line per hook run, through `notice`. */
  displayHooks?: boolean;
}

/** Hooks from a HookEngine (the folder's configured hooks by default), with Gemini CLI's semantics. */
export function createHooks(opts: HooksOptions = {}): AiSdkHooks {
  const engine = opts.engine ?? new HookEngine(opts);
  const notice = opts.notice ?? stderrNotice;
  for (const w of engine.pendingWarnings) notice(`hookline: ${w}`);
  engine.on('warning', (w) => notice(`hookline: ${w}`));
  const adapter = geminiAdapter(engine, {
    cwd: engine.cwd,
    modelName: opts.modelName ?? '',
    session: () => ({ id: engine.sessionId, transcriptPath: engine.transcriptPath }),
    approvalMode: () => 'default',
    io: { notice },
    displayHooks: opts.displayHooks ?? false,
    counter: { next: 1 },
    depth: 0,
  });
  return new AiSdkHooks(new Points([adapter]), { notice });
}
