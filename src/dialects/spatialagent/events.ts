/**
 * SpatialAgent's hook events and the context variables each one gets (seed 004, "Hook Events").
 *
 * Where they fire in the reference agent's loop (for the agent's integration):
 * - Start: a turn starts processing the user's query (the BeforeAgent point).
 * - Stop: the turn is over (the AfterAgent point).
 * - PrePlan / PostPlan: before / after each model call (BeforeModel / AfterModel).
 * - PreRoute: after a model response, before deciding between running tools and concluding.
 * - PreConclusion: before the final answer is returned (a response without tool calls).
 * - PreToolUse / PostToolUse: before / after every tool call (BeforeTool / AfterTool).
 * - PreAct / PostAct: around code execution only: the shell tool (CODE_TYPE `bash`) and a
 *   code-execution tool (CODE_TYPE `python`), inside PreToolUse / PostToolUse.
 */
export const SA_EVENTS = [
  'Start',
  'Stop',
  'PrePlan',
  'PostPlan',
  'PreAct',
  'PostAct',
  'PreToolUse',
  'PostToolUse',
  'PreRoute',
  'PreConclusion',
] as const;
export type SaEvent = (typeof SA_EVENTS)[number];

export function isSaEvent(name: string): name is SaEvent {
  return (SA_EVENTS as readonly string[]).includes(name);
}

/** The documented context variables of each event. PreRoute and PreConclusion document none. */
export const SA_VARIABLES: Record<SaEvent, readonly string[]> = {
  Start: ['QUERY', 'THREAD_ID', 'MAX_STEP', 'TOOLS'],
  Stop: ['QUERY', 'ITERATION_COUNT', 'CONCLUSION', 'FINAL_STATE'],
  PrePlan: ['STEP', 'MESSAGES', 'SYSTEM_PROMPT'],
  PostPlan: ['STEP', 'RESPONSE', 'NEXT_STEP', 'HAS_ACT', 'HAS_CONCLUSION'],
  PreAct: ['CODE', 'CODE_TYPE', 'RAW_CODE', 'ITERATION'],
  PostAct: ['CODE', 'CODE_TYPE', 'RESULT', 'IS_ERROR', 'ITERATION'],
  PreToolUse: ['TOOL', 'CODE', 'COMMAND', 'CODE_TYPE'],
  PostToolUse: ['TOOL', 'CODE', 'COMMAND', 'RESULT', 'SUCCESS'],
  PreRoute: [],
  PreConclusion: [],
};

/** Every documented variable, once. */
export const SA_ALL_VARIABLES: readonly string[] = [...new Set(Object.values(SA_VARIABLES).flat())];

/** The matcher fields the seed documents; each one is compared with the context variable of the same name. */
export const SA_MATCHER_FIELDS = ['tool', 'code_type', 'step'] as const;
