/**
 * The agents Hookline installs itself into, as a table: the events each one has (where an entry
 * goes), whose hooks it already runs itself, and the family of its answers (Claude Code and Codex
 * read Claude Code's hook answers; Gemini CLI its own; Copilot CLI its own, translated from
 * Claude Code's in copilot.ts). Fail-closed answers are in answers.ts.
 */
import { CLAUDE_EVENTS } from '../dialects/claude/events.js';
import { CODEX_EVENTS } from '../dialects/codex/events.js';
import { claudeFilesCopilotReads } from '../dialects/copilot/config.js';
import { EVENT_NAMES } from '../events/names.js';
import { denyAnswer, type HostName } from './answers.js';
import { COPILOT_RELAY_EVENTS } from './copilot.js';

export { failedAnswer, HOST_NAMES, RELAY_ENV, type HostName, type RelayAnswer } from './answers.js';

export interface Host {
  name: HostName;
  label: string;
  /** The family of its hook answers. */
  family: 'claude' | 'gemini' | 'copilot';
  /** Sources the host runs itself: the relay never runs them again. */
  ownSources: readonly string[];
  /** Claude Code settings files the host reads itself: a `claude` source leaves them out. */
  claudeFilesItReads?(cwd: string): string[];
  events: readonly string[];
  /** The answer that refuses a guard event, with the reason the host shows. */
  deny(event: string, reason: string): Record<string, unknown>;
}

export const HOSTS: Readonly<Record<HostName, Host>> = {
  claude: {
    name: 'claude',
    label: 'Claude Code',
    family: 'claude',
    ownSources: ['claude'],
    events: CLAUDE_EVENTS,
    deny: (event, reason) => denyAnswer('claude', event, reason),
  },
  // Codex reads Claude Code's hook answers (its own events beside them).
  codex: {
    name: 'codex',
    label: 'Codex',
    family: 'claude',
    ownSources: ['codex'],
    events: CODEX_EVENTS,
    deny: (event, reason) => denyAnswer('codex', event, reason),
  },
  // Copilot CLI runs its own hooks and the project's Claude Code settings; the user's are the relay's.
  copilot: {
    name: 'copilot',
    label: 'Copilot CLI',
    family: 'copilot',
    ownSources: [],
    claudeFilesItReads: claudeFilesCopilotReads,
    events: COPILOT_RELAY_EVENTS,
    deny: (event, reason) => denyAnswer('copilot', event, reason),
  },
  gemini: {
    name: 'gemini',
    label: 'Gemini CLI',
    family: 'gemini',
    ownSources: ['hookline'],
    events: EVENT_NAMES,
    deny: (event, reason) => denyAnswer('gemini', event, reason),
  },
};
