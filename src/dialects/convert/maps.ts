/**
 * Each hook system's names for the agent's points and tools, against Gemini CLI's (the agent's
 * own), from the maps the adapters already use: Claude Code's translate.ts, agy's tools.ts; mm
 * and SpatialAgent name tools as the agent does. For `hookline convert` and `hookline doctor`.
 */
import { EVENT_NAMES, type EventName } from '../../events/names.js';
import { agyToolNames, fromAgyToolCall } from '../agy/tools.js';
import { claudeEventFor, CLAUDE_TOOL_NAMES, claudeToolName } from '../claude/translate.js';
import { compileClaudeMatcher } from '../claude/matcher.js';
import { CODEX_CATALOG, CODEX_EVENTS } from '../codex/events.js';
import { compileCodexMatcher } from '../codex/matcher.js';
import { codexTool } from '../codex/tools.js';
import { compileMatcher as copilotMatcher } from '../copilot/config.js';
import { COPILOT_EVENTS, copilotEventOf, PASCAL_NAMES, UNFIRED_EVENTS, type CopilotEvent } from '../copilot/events.js';
import { COPILOT_TOOL_NAMES, copilotClaudeName, copilotToolName } from '../copilot/tools.js';
import { SA_ALL_VARIABLES, SA_EVENTS } from '../spatialagent/events.js';
import { MM_EVENTS } from '../mm/events.js';
import { AGY_EVENTS } from '../agy/config.js';
import { compileMatcher } from '../../plan/matcher.js';
import { isEventName } from '../../events/names.js';
import { RE2JS } from 're2js';

const claudeMatches = (_e: string, m: string, tool: string) => compileClaudeMatcher(m).test(tool);

/** SpatialAgent's `{"tool": "…"}`: a regular expression from the start of the name, or the name. */
function saMatches(_e: string, matcher: string, tool: string): boolean {
  let fields: Record<string, unknown>;
  try {
    fields = JSON.parse(matcher) as Record<string, unknown>;
  } catch {
    return true;
  }
  const want = fields.tool;
  if (want === undefined) return true;
  if (typeof want !== 'string') return want === tool;
  try {
    return RE2JS.compile(want).matcher(tool).lookingAt();
  } catch {
    return want === tool;
  }
}

export interface DialectMap {
  /** Gemini event → this system's event at the same point of the agent loop. */
  events: Partial<Record<EventName, string>>;
  /** An agent (Gemini) tool name in this system's names, and back. */
  tool(agentName: string): string;
  toolBack(name: string): string;
  /** How `timeout` is written: milliseconds, seconds, or a Go duration string (`10s`). */
  timeout: 'ms' | 's' | 'duration';
  /** The system's events the reference agent (`hookline agent`) fires at some point of its loop. */
  fired: readonly string[];
  /** Variables the system sets for its hooks. */
  vars: readonly string[];
  /** Whether a tool event's matcher (as `hookline list` shows it) picks this tool, in the system's names. */
  matches(event: string, matcher: string, tool: string): boolean;
  /** The system's own event an event name as written stands for, when it has more than one name for it (Copilot's two casings). */
  canonical?(event: string): string | undefined;
}

const same = (n: string) => n;
const CLAUDE_BACK = new Map<string, string>();
for (const [agent, claude] of Object.entries(CLAUDE_TOOL_NAMES)) if (!CLAUDE_BACK.has(claude)) CLAUDE_BACK.set(claude, agent);

/** Codex's tool names (and the Claude Code names its matchers take as aliases) back to the agent's. */
const CODEX_BACK: Readonly<Record<string, string>> = {
  Bash: 'run_shell_command',
  apply_patch: 'write_file',
  Write: 'write_file',
  Edit: 'replace',
  spawn_agent: 'ask_agent',
  Agent: 'ask_agent',
};

/** Copilot's tool names, and the Claude Code names its PascalCase matchers take, back to the agent's. */
const COPILOT_BACK = new Map<string, string>();
for (const [agent, copilot] of Object.entries(COPILOT_TOOL_NAMES))
  for (const n of [copilot, copilotClaudeName(copilot)]) if (!COPILOT_BACK.has(n)) COPILOT_BACK.set(n, agent);

/** Copilot's events at the agent's points; its other events (permissionRequest, postToolUseFailure…) have none. */
const COPILOT_POINTS: Partial<Record<EventName, CopilotEvent>> = {
  SessionStart: 'sessionStart',
  SessionEnd: 'sessionEnd',
  BeforeAgent: 'userPromptSubmitted',
  AfterAgent: 'agentStop',
  BeforeTool: 'preToolUse',
  AfterTool: 'postToolUse',
  PreCompress: 'preCompact',
  Notification: 'notification',
};

const claudeEvents: Partial<Record<EventName, string>> = {};
for (const e of EVENT_NAMES) {
  const c = claudeEventFor(e);
  if (c) claudeEvents[e] = c;
}

export const MAPS: Readonly<Record<string, DialectMap>> = {
  gemini: {
    events: Object.fromEntries(EVENT_NAMES.map((e) => [e, e])),
    tool: same,
    toolBack: same,
    timeout: 'ms',
    fired: EVENT_NAMES,
    vars: ['GEMINI_PROJECT_DIR', 'CLAUDE_PROJECT_DIR', 'GEMINI_CWD', 'GEMINI_SESSION_ID', 'GEMINI_PLANS_DIR'],
    matches: (e, m, tool) => (isEventName(e) ? compileMatcher(e, m)(tool) : true),
  },
  claude: {
    events: claudeEvents,
    tool: claudeToolName,
    toolBack: (n) => CLAUDE_BACK.get(n) ?? n,
    timeout: 's',
    // AfterTool of a failed tool is PostToolUseFailure.
    fired: [...Object.values(claudeEvents), 'PostToolUseFailure'],
    vars: ['CLAUDE_PROJECT_DIR', 'CLAUDE_ENV_FILE', 'CLAUDE_PLUGIN_ROOT', 'CLAUDE_PLUGIN_DATA'],
    matches: claudeMatches,
  },
  codex: {
    events: {
      SessionStart: 'SessionStart',
      SessionEnd: 'SessionEnd',
      BeforeAgent: 'UserPromptSubmit',
      AfterAgent: 'Stop',
      BeforeModel: 'PreModelRequest',
      BeforeTool: 'PreToolUse',
      AfterTool: 'PostToolUse',
      PreCompress: 'PreCompact',
    },
    tool: (n) => codexTool(n).name,
    toolBack: (n) => CODEX_BACK[n] ?? n,
    timeout: 's',
    fired: CODEX_EVENTS.filter((e) => CODEX_CATALOG[e].fired),
    vars: ['CODEX_HOME', 'PLUGIN_ROOT', 'PLUGIN_DATA'],
    // apply_patch is matched as Write and Edit too.
    matches: (_e, m, tool) => {
      const c = compileCodexMatcher(m);
      const t = codexTool(CODEX_BACK[tool] ?? tool);
      return c.ok && [tool, ...(t.name === tool ? t.aliases : [])].some((n) => c.test(n));
    },
  },
  copilot: {
    events: COPILOT_POINTS,
    tool: copilotToolName,
    toolBack: (n) => COPILOT_BACK.get(n) ?? n,
    timeout: 's',
    // Both casings of every event the agent fires.
    fired: [...COPILOT_EVENTS, ...Object.keys(PASCAL_NAMES)].filter((e) => {
      const ev = copilotEventOf(e);
      return ev && !UNFIRED_EVENTS.has(ev.event);
    }),
    vars: ['COPILOT_CLI', 'COPILOT_PROJECT_DIR', 'CLAUDE_PROJECT_DIR', 'COPILOT_HOOK_DIR'],
    // The casing of the event chooses the matching: the whole Copilot name, or (PascalCase) the Claude name too.
    matches: (e, m, tool) => {
      const shape = copilotEventOf(e)?.shape ?? 'copilot';
      const back = COPILOT_BACK.get(tool);
      const copilot = back ? copilotToolName(back) : tool;
      return copilotMatcher(m, shape).test(copilot, copilotClaudeName(copilot));
    },
    canonical: (e) => copilotEventOf(e)?.event,
  },
  mm: {
    events: { BeforeAgent: 'preGeneration', AfterAgent: 'postGeneration', BeforeTool: 'preToolCall', AfterTool: 'postToolCall' },
    tool: same,
    toolBack: same,
    timeout: 'duration',
    fired: MM_EVENTS,
    vars: ['MM_BIN', 'MM_CONFIG', 'MM_CONFIG_DIR', 'MM_HOOK_EVENT'],
    matches: (_e, m, tool) => {
      try {
        return RE2JS.compile(m).matcher(tool).find();
      } catch {
        return false;
      }
    },
  },
  spatialagent: {
    events: {
      BeforeAgent: 'Start',
      AfterAgent: 'Stop',
      BeforeModel: 'PrePlan',
      AfterModel: 'PostPlan',
      BeforeTool: 'PreToolUse',
      AfterTool: 'PostToolUse',
    },
    tool: same,
    toolBack: same,
    timeout: 's',
    fired: SA_EVENTS,
    vars: SA_ALL_VARIABLES,
    matches: saMatches,
  },
  agy: {
    events: {
      SessionStart: 'SessionStart',
      BeforeModel: 'PreInvocation',
      AfterModel: 'PostInvocation',
      BeforeTool: 'PreToolUse',
      AfterTool: 'PostToolUse',
      AfterAgent: 'Stop',
    },
    tool: (n) => agyToolNames(n)[0],
    toolBack: (n) => fromAgyToolCall(n, {}).name,
    timeout: 's',
    fired: AGY_EVENTS,
    vars: [],
    matches: claudeMatches,
  },
};

/** The Gemini event at the point where a system fires `event`, if it has one. */
export function agentEventOf(dialect: string, event: string): EventName | undefined {
  const m = MAPS[dialect];
  const own = m?.canonical ? m.canonical(event) : event;
  return m && own ? (Object.entries(m.events).find(([, v]) => v === own)?.[0] as EventName | undefined) : undefined;
}

/** `event` of one system in another's names (through the agent's point), if the other has it. */
export function mapEvent(from: string, to: string, event: string): string | undefined {
  const agent = agentEventOf(from, event);
  return agent ? MAPS[to]?.events[agent] : undefined;
}

/** A tool name of one system in another's names. */
export function mapTool(from: string, to: string, name: string): string {
  return MAPS[to].tool(MAPS[from].toolBack(name));
}
