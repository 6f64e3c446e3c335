import {
  mmAnswerReplacedNotice,
  mmAnswerReplacedSummary,
  mmAskAnswer,
  mmAskDeniedLine,
  mmAskDeniedOutput,
  mmAskMessage,
  mmAgentFiles,
  type MmAsk,
} from '../dialects/mm/index.js';
import { mmModelOf, type DialectHooks, type Dialects } from './dialects.js';
import type { Message } from './history.js';
import type { ToolResult } from './tools/types.js';
import type { Agent, TurnResult } from './loop.js';

/** Hand-offs stop here: an agent that keeps asking agents must not recurse without end. */
export const MAX_ASK_DEPTH = 4;

export interface AskResult {
  status: 'answered' | 'denied' | 'error';
  /** What the asking agent reads (answered) or the failure (error). */
  output: string;
  /** The answer after postAsk, without its contexts (answered). */
  answer?: string;
  reason?: string;
  /** The question as sent (after preAsk). */
  message?: string;
  replaced?: boolean;
  /** postAsk hooks exist: the answer is shown only once they ran. */
  heldAnswer?: boolean;
}

/** What a hand-off needs from the asking agent. */
export interface HandOffHost {
  mm: Dialects['mm'];
  dialects: DialectHooks;
  history: readonly Message[];
  spawnAgent?: (name: string, configFile: string, depth: number, quiet: boolean) => Agent;
  notice(line: string): void;
  /** The asking turn's cancellation reaches the called agent. */
  signal?: AbortSignal;
}

/** The conversation as text, for a hand-off `withContext`. */
function conversation(history: readonly Message[]): string {
  return history
    .map((m) => (m.role === 'tool' ? m.results.map((r) => `[${r.name} result]\n${r.output}`).join('\n') : `${m.role === 'user' ? 'User' : 'Assistant'}: ${m.text}`))
    .filter(Boolean)
    .join('\n\n');
}

/**
 * A hand-off to another agent of `mmConfigs`: preAsk (deny, rewrite, context), the called agent
 * with its own configuration's hooks one level deeper, then postAsk (replace, context).
 */
export async function handOff(host: HandOffHost, agent: string, prompt: string, withContext: boolean, via: 'tool' | 'command' | 'cli'): Promise<AskResult> {
  const mm = host.mm;
  const agents = mm ? mmAgentFiles(mm.config) : {};
  const file = agents[agent];
  if (!mm || !file || !host.spawnAgent) {
    return { status: 'error', output: `no agent "${agent}" (agents: ${Object.keys(agents).join(', ') || 'none'})` };
  }
  if (mm.depth + 1 > MAX_ASK_DEPTH) return { status: 'error', output: `hand-off refused: agents may ask agents only ${MAX_ASK_DEPTH} levels deep` };
  const transcript = withContext ? conversation(host.history) : undefined;
  const ask: MmAsk = { agent, config: file, agentModel: mmModelOf(file), via, withContext, depth: mm.depth, prompt, ...(transcript ? { transcript } : {}) };
  // mm lists no hook run outside a turn: `/ask…` and `--ask` hand-offs are not displayed.
  const quiet = via !== 'tool';
  const pre = await host.dialects.mm('preAsk', { ask }, undefined, quiet);
  if (pre?.output.action === 'deny') return { status: 'denied', output: '', reason: pre.output.reason ?? pre.output.error };
  const sentPrompt = pre?.output.prompt ?? prompt;
  const sentTranscript = withContext ? (pre?.output.transcript ?? transcript) : undefined;
  const message = mmAskMessage(sentPrompt, sentTranscript || undefined, pre?.contexts ?? []);
  const started = performance.now();
  const hasPostAsk = mm.config.hooks.postAsk.length > 0;
  let r: TurnResult;
  try {
    // Inside the try: a called agent whose configuration is broken fails this hand-off only.
    // `--ask` holds the answer back until postAsk hooks ran; elsewhere it streams as it comes.
    const child = host.spawnAgent(agent, file, mm.depth + 1, via === 'cli' && hasPostAsk);
    await child.start('startup');
    r = await child.turn(message, host.signal);
    await child.end('exit');
  } catch (err) {
    r = { status: 'error', text: '', reason: err instanceof Error ? err.message : String(err) };
  }
  const error = r.status === 'error' ? (r.reason ?? 'the called agent failed') : undefined;
  let answer = r.text;
  const post = await host.dialects.mm(
    'postAsk',
    {
      ask: { ...ask, prompt: sentPrompt, ...(sentTranscript ? { transcript: sentTranscript } : {}) },
      answer,
      ...(error ? { error } : {}),
      durationMs: Math.round(performance.now() - started),
    },
    undefined,
    quiet,
  );
  const replaced = post?.output.answer !== undefined;
  if (replaced) {
    answer = post!.output.answer!;
    host.notice(mmAnswerReplacedNotice(agent));
  }
  const output = mmAskAnswer(answer, post?.contexts ?? []);
  if (error && !replaced) return { status: 'error', output: `${agent} failed: ${error}`, message: sentPrompt, heldAnswer: hasPostAsk };
  return { status: 'answered', output, answer, message: sentPrompt, replaced, heldAnswer: hasPostAsk };
}

/** A hand-off as the `ask_agent` tool's result: the model reads the answer or `[ask denied by a hook: …]`. */
export function askToolResult(agent: string, r: AskResult, notice: (line: string) => void): ToolResult {
  if (r.status === 'denied') {
    notice(mmAskDeniedLine(r.reason));
    return { llmContent: mmAskDeniedOutput(r.reason), returnDisplay: mmAskDeniedOutput(r.reason), error: { message: mmAskDeniedOutput(r.reason), type: 'policy_violation' } };
  }
  if (r.status === 'error') return { llmContent: r.output, returnDisplay: r.output, error: { message: r.output, type: 'execution_failed' } };
  // The summary counts the replacement answer, not the contexts after it.
  return { llmContent: r.output, returnDisplay: r.replaced ? mmAnswerReplacedSummary(agent, r.answer ?? r.output) : `${agent} answered` };
}
