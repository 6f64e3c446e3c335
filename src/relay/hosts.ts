/**
 * The agents Hookline installs itself into, as a table: the events each one has (where an entry
 * goes), whose hooks it already runs itself, and the family of its answers (Claude Code and Codex
 * read Claude Code's hook answers; Gemini CLI its own). Fail-closed answers are in answers.ts.
 */
import { CLAUDE_EVENTS } from '../dialects/claude/events.js';
import { EVENT_NAMES } from '../events/names.js';
import { denyAnswer, type HostName } from './answers.js';

export { failedAnswer, HOST_NAMES, RELAY_ENV, type HostName, type RelayAnswer } from './answers.js';

export interface Host {
  name: HostName;
  label: string;
  /** The family of its hook answers. */
  family: 'claude' | 'gemini';
  /** Sources the host runs itself: the relay never runs them again. */
  ownSources: readonly string[];
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
  gemini: {
    name: 'gemini',
    label: 'Gemini CLI',
    family: 'gemini',
    ownSources: ['hookline'],
    events: EVENT_NAMES,
    deny: (event, reason) => denyAnswer('gemini', event, reason),
  },
};
