/** The eleven Gemini CLI hook events, the core's internal event model. */
export const EVENT_NAMES = [
  'BeforeTool',
  'AfterTool',
  'BeforeAgent',
  'Notification',
  'AfterAgent',
  'SessionStart',
  'SessionEnd',
  'PreCompress',
  'BeforeModel',
  'AfterModel',
  'BeforeToolSelection',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

const NAME_SET: ReadonlySet<string> = new Set(EVENT_NAMES);

export function isEventName(value: string): value is EventName {
  return NAME_SET.has(value);
}
