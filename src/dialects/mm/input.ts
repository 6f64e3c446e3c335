/**
 * The JSON object an mm hook reads on stdin ("Entrée"), with the keys in mm's order and the
 * empty fields omitted, as Go's `omitempty` does.
 */
import { CARRIES, type MmEvent } from './events.js';

export interface MmTool {
  /** The call's reference; may be empty (it is still written). */
  id?: string;
  name: string;
  /** The arguments as the model sent them, or as the previous hook replaced them. */
  input?: unknown;
}

export interface MmAsk {
  /** The called agent's name: its key in `mmConfigs`. */
  agent: string;
  /** The called agent's configuration file, absolute. */
  config?: string;
  /** `<provider>/<model>` read from that file; omitted when unreadable. */
  agentModel?: string;
  via?: 'tool' | 'command' | 'cli';
  withContext?: boolean;
  /** The asking agent's depth: 0 for the one a person started. */
  depth?: number;
  prompt?: string;
  /** The conversation sent (withContext only). */
  transcript?: string;
}

/** An event's own data, in mm's wire format (the input object without `event`). */
export interface MmEventData {
  cwd?: string;
  model?: string;
  prompt?: string;
  tool?: MmTool;
  ask?: MmAsk;
  output?: string;
  answer?: string;
  error?: string;
  durationMs?: number;
  /** Only in an agent that another one called: `{depth: n}`, n ≥ 1. */
  asked?: { depth: number };
}

const put = (o: Record<string, unknown>, k: string, v: unknown) => {
  if (v === undefined || v === null || v === '' || v === 0) return;
  o[k] = v;
};

/**
 * Builds the input object of `event` from its data. Fields an event does not carry (a `prompt`
 * on preToolCall) are left out, as mm never sets them there.
 */
export function buildMmInput(event: MmEvent, data: MmEventData, cwd: string): Record<string, unknown> {
  const carries = CARRIES[event];
  const o: Record<string, unknown> = { event };
  put(o, 'cwd', data.cwd || cwd);
  put(o, 'model', data.model);
  if (carries.has('prompt')) put(o, 'prompt', data.prompt);
  if (carries.has('tool') && data.tool) {
    o.tool = { id: data.tool.id ?? '', name: data.tool.name ?? '', input: data.tool.input ?? {} };
  }
  if (carries.has('ask') && data.ask) {
    const a = data.ask;
    const ask: Record<string, unknown> = { agent: a.agent ?? '', config: a.config ?? '' };
    put(ask, 'agentModel', a.agentModel);
    ask.via = a.via ?? 'tool';
    ask.withContext = a.withContext ?? false;
    ask.depth = a.depth ?? 0;
    ask.prompt = a.prompt ?? '';
    put(ask, 'transcript', a.transcript);
    o.ask = ask;
  }
  if (carries.has('output')) put(o, 'output', data.output);
  if (carries.has('answer')) put(o, 'answer', data.answer);
  if (carries.has('error')) put(o, 'error', data.error);
  if (carries.has('durationMs')) put(o, 'durationMs', data.durationMs);
  if (data.asked && data.asked.depth > 0) o.asked = { depth: data.asked.depth };
  return o;
}

/**
 * JSON as mm writes it: `&`, `<` and `>` raw (JSON.stringify never escapes them), and U+2028 /
 * U+2029 escaped as Go's encoder always does, so a line-oriented reader never splits the object.
 */
export function encodeMmJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
