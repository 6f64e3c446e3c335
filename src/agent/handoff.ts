/**
 * Hand-offs to another agent (mm's `mmConfigs`, reached by `ask_agent`, `/ask…` and `--ask`):
 * the hand-off point (mm's preAsk: deny, rewrite, context), the called agent with its own
 * configuration's hooks one level deeper, then the done point (postAsk: replace, context).
 * The texts are those of mm's hand-offs (seed 002).
 */
import {
  mmAnswerReplacedNotice,
  mmAnswerReplacedSummary,
  mmAskAnswer,
  mmAskDeniedLine,
  mmAskDeniedOutput,
  mmAskMessage,
} from '../dialects/mm/effects.js';
import type { Message } from './history.js';
import type { Points } from './points.js';
import type { ToolResult } from './tools/types.js';

/** Hand-offs stop here: an agent that keeps asking agents must not recurse without end. */
export const MAX_ASK_DEPTH = 4;

export interface AskResult {
  status: 'answered' | 'denied' | 'error';
  /** What the asking agent reads (answered) or the failure (error). */
  output: string;
  /** The answer after the done point, without its contexts (answered). */
  answer?: string;
  reason?: string;
  /** The question as sent (after the hand-off point). */
  message?: string;
  replaced?: boolean;
  /** Done-point hooks exist: the answer is shown only once they ran. */
  heldAnswer?: boolean;
}

/** What a hand-off needs of the called agent. */
export interface CalledAgent {
  start(source: 'startup'): Promise<void>;
  turn(message: string, signal?: AbortSignal): Promise<{ status: string; text: string; reason?: string }>;
  end(reason: 'exit'): Promise<void>;
  /** Its hook systems, closed when the hand-off is over. */
  points: Pick<Points, 'close'>;
}

/** Starts the called agent `name` (its configuration `file`) at `depth`; `quiet` holds its text back. */
export type SpawnAgent = (name: string, file: string, depth: number, quiet: boolean) => CalledAgent;

/** What a hand-off needs from the asking agent. */
export interface HandOffHost {
  points: Points;
  /** How deep the asking agent is (0 for the user's own). */
  depth: number;
  history: readonly Message[];
  spawnAgent?: SpawnAgent;
  notice(line: string): void;
  /** The asking turn's cancellation reaches the called agent. */
  signal?: AbortSignal;
}

/** The conversation as text, for a hand-off `withContext`. */
function conversation(history: readonly Message[]): string {
  return history
    .map((m) =>
      m.role === 'tool'
        ? m.results.map((r) => `[${r.name} result]\n${r.output}`).join('\n')
        : `${m.role === 'user' ? 'User' : m.role === 'note' ? 'Note' : 'Assistant'}: ${m.text}`,
    )
    .filter(Boolean)
    .join('\n\n');
}

export async function handOff(
  host: HandOffHost,
  agent: string,
  prompt: string,
  withContext: boolean,
  via: 'tool' | 'command' | 'cli',
): Promise<AskResult> {
  const agents = host.points.agents();
  const target = agents[agent];
  if (!target || !host.spawnAgent)
    return { status: 'error', output: `no agent "${agent}" (agents: ${Object.keys(agents).join(', ') || 'none'})` };
  if (host.depth + 1 > MAX_ASK_DEPTH)
    return { status: 'error', output: `hand-off refused: agents may ask agents only ${MAX_ASK_DEPTH} levels deep` };
  const transcript = withContext ? conversation(host.history) : undefined;
  const ask = {
    agent,
    config: target.file,
    agentModel: target.model,
    via,
    withContext,
    depth: host.depth,
    prompt,
    ...(transcript ? { transcript } : {}),
  };
  // mm lists no hook run outside a turn: `/ask…` and `--ask` hand-offs are not displayed.
  const quiet = via !== 'tool';
  const pre = await host.points.handOff({ ask, quiet });
  if (pre?.action === 'deny') return { status: 'denied', output: '', reason: pre.reason };
  const sentPrompt = pre?.prompt ?? prompt;
  const sentTranscript = withContext ? (pre?.transcript ?? transcript) : undefined;
  const message = mmAskMessage(sentPrompt, sentTranscript || undefined, pre?.contexts ?? []);
  const started = performance.now();
  const heldAnswer = host.points.adapters.some((a) => a.handOffDone);
  let r: { status: string; text: string; reason?: string };
  try {
    // Inside the try: a called agent whose configuration is broken fails this hand-off only.
    // `--ask` holds the answer back until the done point ran; elsewhere it streams as it comes.
    const child = host.spawnAgent(agent, target.file, host.depth + 1, via === 'cli' && heldAnswer);
    try {
      await child.start('startup');
      r = await child.turn(message, host.signal);
      await child.end('exit');
    } finally {
      // Its hook systems end with it: their persistent hooks and waiting processes too.
      child.points.close();
    }
  } catch (err) {
    r = { status: 'error', text: '', reason: err instanceof Error ? err.message : String(err) };
  }
  const error = r.status === 'error' ? (r.reason ?? 'the called agent failed') : undefined;
  let answer = r.text;
  const sentAsk = { ...ask, prompt: sentPrompt, ...(sentTranscript ? { transcript: sentTranscript } : {}) };
  const post = await host.points.handOffDone({
    ask: sentAsk,
    quiet,
    answer,
    ...(error ? { error } : {}),
    durationMs: Math.round(performance.now() - started),
  });
  const replaced = post?.answer !== undefined;
  if (replaced) {
    answer = post!.answer!;
    host.notice(mmAnswerReplacedNotice(agent));
  }
  const output = mmAskAnswer(answer, post?.contexts ?? []);
  if (error && !replaced) return { status: 'error', output: `${agent} failed: ${error}`, message: sentPrompt, heldAnswer };
  return { status: 'answered', output, answer, message: sentPrompt, replaced, heldAnswer };
}

/** A hand-off as the `ask_agent` tool's result: the model reads the answer or `[ask denied by a hook: …]`. */
export function askToolResult(agent: string, r: AskResult, notice: (line: string) => void): ToolResult {
  if (r.status === 'denied') {
    notice(mmAskDeniedLine(r.reason));
    return {
      llmContent: mmAskDeniedOutput(r.reason),
      returnDisplay: mmAskDeniedOutput(r.reason),
      error: { message: mmAskDeniedOutput(r.reason), type: 'policy_violation' },
    };
  }
  if (r.status === 'error')
    return { llmContent: r.output, returnDisplay: r.output, error: { message: r.output, type: 'execution_failed' } };
  // The summary counts the replacement answer, not the contexts after it.
  return { llmContent: r.output, returnDisplay: r.replaced ? mmAnswerReplacedSummary(agent, r.answer ?? r.output) : `${agent} answered` };
}
