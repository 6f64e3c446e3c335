/** The agent's points over one HookEngine (Gemini CLI's semantics), for the framework adapters. */
import { HookEngine, type EngineOptions } from '../engine/index.js';
import { geminiAdapter } from '../dialects/gemini/agent.js';
import { Points } from '../agent/points.js';
import { stderrNotice } from '../agent/ai-sdk/model.js';

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

/** Points firing the engine's hooks (the folder's configured hooks by default, trust applying). */
export function enginePoints(opts: HooksOptions = {}): { points: Points; notice: (line: string) => void; engine: HookEngine } {
  const notice = opts.notice ?? stderrNotice;
  const engine = opts.engine ?? new HookEngine({ onNotice: (line) => notice(`hookline: ${line}`), ...opts });
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
    interactive: false,
  });
  return { points: new Points([adapter]), notice, engine };
}
