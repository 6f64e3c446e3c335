/**
 * mm's six hook events and what each one reads: the seed's "Événements", "Réponse" and
 * "Actions" tables as data, so the chain, the display and the validation agree.
 */
export const MM_EVENTS = ['preGeneration', 'preToolCall', 'postToolCall', 'postGeneration', 'preAsk', 'postAsk'] as const;
export type MmEvent = (typeof MM_EVENTS)[number];

export function isMmEvent(name: string): name is MmEvent {
  return (MM_EVENTS as readonly string[]).includes(name);
}

/** Events whose hooks are filtered by `matcher`: on the tool name, or on the called agent's `mmConfigs` name. */
export const MATCHER_EVENTS: ReadonlySet<MmEvent> = new Set(['preToolCall', 'postToolCall', 'preAsk', 'postAsk']);
export const TOOL_EVENTS: ReadonlySet<MmEvent> = new Set(['preToolCall', 'postToolCall']);
export const ASK_EVENTS: ReadonlySet<MmEvent> = new Set(['preAsk', 'postAsk']);

/** Cancelled with the turn ("Échecs"); postGeneration and postAsk still run after a cancel. */
export const CANCELLABLE: ReadonlySet<MmEvent> = new Set(['preGeneration', 'preToolCall', 'postToolCall', 'preAsk']);

export type MmField = 'prompt' | 'transcript' | 'answer' | 'context' | 'input' | 'reason' | 'response';

/** "Lu sur": the response fields each event reads. The others are ignored. */
export const READS: Record<MmEvent, ReadonlySet<MmField>> = {
  preGeneration: new Set(['prompt', 'context', 'reason', 'response']),
  preToolCall: new Set(['input', 'reason']),
  postToolCall: new Set(['context']),
  postGeneration: new Set(),
  preAsk: new Set(['prompt', 'transcript', 'context', 'reason']),
  postAsk: new Set(['answer', 'context']),
};

/** "Permise sur": `continue` and `error` everywhere, `stop` on preGeneration, `deny` on preToolCall and preAsk. */
export function actionAllowed(event: MmEvent, action: string): boolean {
  switch (action) {
    case 'continue':
    case 'error':
      return true;
    case 'stop':
      return event === 'preGeneration';
    case 'deny':
      return event === 'preToolCall' || event === 'preAsk';
    default:
      return false;
  }
}

/** "Entrée", column "Événements": the input fields each event carries (event, cwd, model and asked: all). */
export const CARRIES: Record<MmEvent, ReadonlySet<string>> = {
  preGeneration: new Set(['prompt']),
  preToolCall: new Set(['tool']),
  postToolCall: new Set(['tool', 'output']),
  postGeneration: new Set(['prompt', 'answer', 'error']),
  preAsk: new Set(['ask']),
  postAsk: new Set(['ask', 'answer', 'error', 'durationMs']),
};
