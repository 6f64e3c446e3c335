/**
 * A plain check of an event's own fields, so firing needs no schema library for ordinary input:
 * true only when `EVENT_FIELDS[event].partial()` (src/events/input.ts) surely accepts the fields;
 * false means "ask the schema", which also words the problem.
 */
import type { EventName } from './names.js';

type Check = (v: unknown) => boolean;

const isRecord = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};
const str: Check = (v) => typeof v === 'string';
const bool: Check = (v) => typeof v === 'boolean';
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v);
const optStr: Check = (v) => v === undefined || typeof v === 'string';
const mcpContext: Check = (v) =>
  isRecord(v) &&
  str(v.server_name) &&
  str(v.tool_name) &&
  optStr(v.command) &&
  optStr(v.cwd) &&
  optStr(v.url) &&
  optStr(v.tcp) &&
  (v.args === undefined || (Array.isArray(v.args) && v.args.every(str) && v.args.length === Object.keys(v.args).length));
const toolResponse: Check = (v) => isRecord(v) && v.llmContent !== undefined && v.returnDisplay !== undefined;

const tool: Record<string, Check> = { tool_name: str, tool_input: isRecord, mcp_context: mcpContext, original_request_name: str };

/** Fields with a plain check, per event; a field not named here either is not the event's or needs the schema. */
const FIELDS: Record<EventName, Record<string, Check>> = {
  BeforeTool: tool,
  AfterTool: { ...tool, tool_response: toolResponse },
  BeforeAgent: { prompt: str },
  AfterAgent: { prompt: str, prompt_response: str, stop_hook_active: bool },
  SessionStart: { source: oneOf('startup', 'resume', 'clear') },
  SessionEnd: { reason: oneOf('exit', 'clear', 'logout', 'prompt_input_exit', 'other') },
  PreCompress: { trigger: oneOf('manual', 'auto') },
  Notification: { notification_type: str, message: str, details: isRecord },
  BeforeModel: {},
  AfterModel: {},
  BeforeToolSelection: {},
};

/** Fields whose shape is deep (model requests and responses): always left to the schema. */
const DEEP = new Set(['llm_request', 'llm_response']);

export function plainFields(event: EventName, fields: Record<string, unknown>): boolean {
  const checks = FIELDS[event];
  for (const k in fields) {
    const v = fields[k];
    if (v === undefined) continue;
    if (DEEP.has(k)) return false;
    const check = Object.hasOwn(checks, k) ? checks[k] : undefined;
    if (check && !check(v)) return false;
  }
  return true;
}
