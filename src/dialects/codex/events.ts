/**
 * Codex's hook events, as Codex 0.169 fires them: the Claude Code event whose reading of a hook's
 * output each one shares (Codex reads Claude Code's file shape and answers), whether its matchers
 * count, and the snake-case label Codex uses in trust keys and hashes (`pre_tool_use`).
 *
 * Hookline runs every event below at the agent's matching point but Interrupt, whose moment (the
 * user stopping a turn) its adapters do not see, and StopFailure, which Codex 0.169 does not fire
 * when the model's API fails: `validate` warns about their hooks.
 */
import { closestName } from '../../config/suggest.js';
import type { ClaudeEvent } from '../claude/events.js';

export const CODEX_EVENTS = [
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'UserPromptSubmit',
  'Stop',
  'StopFailure',
  'SessionStart',
  'SessionEnd',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'PreModelRequest',
  'Interrupt',
] as const;
export type CodexEvent = (typeof CODEX_EVENTS)[number];

export interface CodexEventSpec {
  /** The Claude Code event whose output reading it shares (exit codes, JSON fields, plain stdout as context). */
  claude: ClaudeEvent;
  /** Codex compares the group's matcher with the tool name or source; elsewhere the matcher is ignored. */
  matcher: boolean;
  /** The agent has a moment for it. */
  fired: boolean;
}

export const CODEX_CATALOG: Readonly<Record<CodexEvent, CodexEventSpec>> = {
  PreToolUse: { claude: 'PreToolUse', matcher: true, fired: true },
  PermissionRequest: { claude: 'PermissionRequest', matcher: true, fired: true },
  PostToolUse: { claude: 'PostToolUse', matcher: true, fired: true },
  UserPromptSubmit: { claude: 'UserPromptSubmit', matcher: false, fired: true },
  Stop: { claude: 'Stop', matcher: false, fired: true },
  // Codex 0.169 fires none when the model's API fails (a 401, a 500): neither does the agent.
  StopFailure: { claude: 'StopFailure', matcher: false, fired: false },
  SessionStart: { claude: 'SessionStart', matcher: true, fired: true },
  SessionEnd: { claude: 'SessionEnd', matcher: false, fired: true },
  SubagentStart: { claude: 'SubagentStart', matcher: false, fired: true },
  SubagentStop: { claude: 'SubagentStop', matcher: false, fired: true },
  PreCompact: { claude: 'PreCompact', matcher: false, fired: true },
  PostCompact: { claude: 'PostCompact', matcher: false, fired: true },
  // Observed only: Codex reads nothing from its hooks' answers; read as a SessionEnd hook's (nothing blocks).
  PreModelRequest: { claude: 'SessionEnd', matcher: false, fired: true },
  Interrupt: { claude: 'SessionEnd', matcher: false, fired: false },
};

export function isCodexEvent(name: string): name is CodexEvent {
  return (CODEX_EVENTS as readonly string[]).includes(name);
}

/**
 * The order Codex lists (and numbers) one file's hooks in, whatever their order in the file;
 * StopFailure, which Codex 0.169 does not know, is last and takes no number.
 */
export const CODEX_LOAD_ORDER: readonly CodexEvent[] = [
  'PreModelRequest',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PreCompact',
  'PostCompact',
  'SessionStart',
  'SessionEnd',
  'UserPromptSubmit',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'Interrupt',
  'StopFailure',
];

/** `PreToolUse` → `pre_tool_use`, as Codex writes events in trust keys and hashes. */
export function codexEventLabel(event: CodexEvent): string {
  return event.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** The events whose input has no `permission_mode`. */
export const NO_PERMISSION_MODE: ReadonlySet<CodexEvent> = new Set(['PreModelRequest', 'PreCompact', 'PostCompact']);

/** The events whose input has no `turn_id` (they happen outside a turn). */
export const NO_TURN_EVENTS: ReadonlySet<CodexEvent> = new Set(['SessionStart', 'SessionEnd']);

const FOREIGN: Record<string, CodexEvent> = {
  beforetool: 'PreToolUse',
  aftertool: 'PostToolUse',
  beforeagent: 'UserPromptSubmit',
  afteragent: 'Stop',
  beforemodel: 'PreModelRequest',
  precompress: 'PreCompact',
  posttoolusefailure: 'PostToolUse',
};

export function closestCodexEvent(name: string): CodexEvent | undefined {
  return closestName(name.replace(/_/g, ''), CODEX_EVENTS, FOREIGN);
}
