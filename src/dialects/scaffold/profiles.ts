/**
 * What `hookline init` needs to know of each hook system: where a project's configuration is,
 * the shape of one hook entry, how a hook reads the tool call it guards, and how it denies one.
 */
import { EVENT_NAMES } from '../../events/names.js';
import { AGY_EVENTS } from '../agy/config.js';
import { CLAUDE_EVENTS } from '../claude/events.js';
import { CODEX_EVENTS } from '../codex/events.js';
import { COPILOT_EVENTS } from '../copilot/events.js';
import { MM_EVENTS } from '../mm/events.js';
import { SA_EVENTS } from '../spatialagent/events.js';

export interface ScaffoldProfile {
  dialect: string;
  /** The project's configuration file, relative to the project. */
  file: string;
  format: 'json' | 'yaml';
  events: readonly string[];
  /** The event a guard is written for by default: before a tool runs. */
  toolEvent: string;
  /** Events whose input carries the tool call (the fixture gives one). */
  toolEvents: readonly string[];
  /** The project folder as a variable in a command, when the system sets one. */
  projectVar?: string;
  /** The entry appended under `hooks.<event>`. */
  entry(event: string, command: string, name: string): Record<string, unknown>;
  /** The input of a tool event for a shell command. */
  toolInput(shellCommand: string, event: string): Record<string, unknown>;
  /** Where the hook finds the shell command: a path in the JSON on stdin, or a variable. */
  reads: { stdin: string[] } | { env: string };
  /** What the hook prints to deny, and the decision `hookline test` then reads. */
  deny(reason: string): Record<string, unknown>;
  denied: string;
  /** What a configuration file init creates starts with (beside `hooks`). */
  newFile?: Record<string, unknown>;
}

const grouped = (matcher: string | undefined, hook: Record<string, unknown>) => ({ ...(matcher ? { matcher } : {}), hooks: [hook] });

export const PROFILES: readonly ScaffoldProfile[] = [
  {
    dialect: 'gemini',
    file: '.gemini/settings.json',
    format: 'json',
    events: EVENT_NAMES,
    toolEvent: 'BeforeTool',
    toolEvents: ['BeforeTool', 'AfterTool'],
    projectVar: 'GEMINI_PROJECT_DIR',
    entry: (event, command, name) =>
      grouped(['BeforeTool', 'AfterTool'].includes(event) ? 'run_shell_command' : undefined, { type: 'command', name, command }),
    toolInput: (command) => ({ tool_name: 'run_shell_command', tool_input: { command } }),
    reads: { stdin: ['tool_input', 'command'] },
    deny: (reason) => ({ decision: 'deny', reason }),
    denied: 'deny',
  },
  {
    dialect: 'claude',
    file: '.claude/settings.json',
    format: 'json',
    events: CLAUDE_EVENTS,
    toolEvent: 'PreToolUse',
    toolEvents: ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'],
    projectVar: 'CLAUDE_PROJECT_DIR',
    entry: (event, command) =>
      grouped(['PreToolUse', 'PostToolUse', 'PostToolUseFailure'].includes(event) ? 'Bash' : undefined, {
        type: 'command',
        command,
      }),
    toolInput: (command) => ({ tool_name: 'Bash', tool_input: { command } }),
    reads: { stdin: ['tool_input', 'command'] },
    deny: (reason) => ({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
    }),
    denied: 'deny',
  },
  {
    dialect: 'codex',
    file: '.codex/hooks.json',
    format: 'json',
    events: CODEX_EVENTS,
    toolEvent: 'PreToolUse',
    toolEvents: ['PreToolUse', 'PostToolUse', 'PermissionRequest'],
    entry: (event, command) =>
      grouped(['PreToolUse', 'PostToolUse', 'PermissionRequest'].includes(event) ? 'Bash' : undefined, { type: 'command', command }),
    toolInput: (command) => ({ tool_name: 'Bash', tool_input: { command } }),
    reads: { stdin: ['tool_input', 'command'] },
    deny: (reason) => ({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
    }),
    denied: 'deny',
  },
  {
    dialect: 'copilot',
    file: '.github/hooks/hooks.json',
    format: 'json',
    events: COPILOT_EVENTS,
    toolEvent: 'preToolUse',
    toolEvents: ['preToolUse', 'postToolUse', 'postToolUseFailure', 'permissionRequest'],
    projectVar: 'COPILOT_PROJECT_DIR',
    // Copilot's own entry: its matcher is the whole tool name, its command runs with bash.
    entry: (event, command) => ({
      type: 'command',
      ...(['preToolUse', 'postToolUse', 'postToolUseFailure', 'permissionRequest'].includes(event) ? { matcher: 'bash' } : {}),
      bash: command,
    }),
    toolInput: (command, event) =>
      event === 'permissionRequest' ? { toolName: 'bash', toolInput: { command } } : { toolName: 'bash', toolArgs: { command } },
    reads: { stdin: ['toolArgs', 'command'] },
    deny: (reason) => ({ permissionDecision: 'deny', permissionDecisionReason: reason }),
    denied: 'deny',
    newFile: { version: 1 },
  },
  {
    dialect: 'mm',
    file: 'agent.yaml',
    format: 'yaml',
    events: MM_EVENTS,
    toolEvent: 'preToolCall',
    toolEvents: ['preToolCall', 'postToolCall'],
    entry: (_event, command) => ({ command }),
    toolInput: (command) => ({ tool: { name: 'bash', input: { command } } }),
    reads: { stdin: ['tool', 'input', 'command'] },
    deny: (reason) => ({ action: 'deny', reason }),
    denied: 'deny',
  },
  {
    dialect: 'spatialagent',
    file: '.spatialagent/settings.json',
    format: 'json',
    events: SA_EVENTS,
    toolEvent: 'PreToolUse',
    toolEvents: ['PreToolUse', 'PostToolUse'],
    entry: (_event, command) => ({ type: 'bash', command }),
    toolInput: (command) => ({ tool: 'bash', command, code_type: 'bash' }),
    reads: { env: 'COMMAND' },
    deny: (reason) => ({ decision: 'block', reason }),
    denied: 'block',
  },
  {
    dialect: 'agy',
    file: '.agents/hooks.json',
    format: 'json',
    events: AGY_EVENTS,
    toolEvent: 'PreToolUse',
    toolEvents: ['PreToolUse', 'PostToolUse'],
    entry: (event, command) =>
      grouped(['PreToolUse', 'PostToolUse'].includes(event) ? 'run_command' : undefined, { type: 'command', command }),
    toolInput: (command) => ({ toolCall: { name: 'run_command', args: { CommandLine: command } } }),
    reads: { stdin: ['toolCall', 'args', 'CommandLine'] },
    deny: (reason) => ({ decision: 'deny', reason }),
    denied: 'deny',
  },
];

export function scaffoldProfile(dialect: string): ScaffoldProfile | undefined {
  return PROFILES.find((p) => p.dialect === dialect);
}
