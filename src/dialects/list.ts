/** Configured hooks as `hookline list` and the agent's `/hooks` show them. */
import { EVENT_NAMES } from '../events/names.js';

export interface ListedHook {
  event: string;
  matcher: string | null;
  name: string;
  command: string | null;
  source: string;
  file: string | null;
  enabled: boolean;
  trusted: boolean;
  /** The plugin it comes from (Claude Code plugins: `name@marketplace`). */
  plugin?: string;
  /** Not a hook but a setting trusted as one (a Claude Code project's `env` block): listed, not counted. */
  setting?: boolean;
  /** Its other fingerprinted fields (`timeout: 5000`, `headers: …`), as every review surface shows them. */
  details?: string[];
  /** The user's variables it would read (allowedEnvVars, `$NAME` in its env). */
  reads?: string[];
}

/**
 * `hooks: BeforeTool×2 AfterTool×1`, counting the hooks that would run (enabled and trusted):
 * Gemini events in catalog order, then the dialects' own event names as they come; the listed
 * hooks that would not run are said after (`— not counted: 1 disabled, 2 untrusted`).
 */
export function summary(hooks: readonly ListedHook[]): string {
  const listed = hooks.filter((h) => !h.setting);
  const events = new Set<string>([...EVENT_NAMES, ...listed.map((h) => h.event)]);
  const parts = [...events]
    .map((ev) => [ev, listed.filter((h) => h.event === ev && h.enabled && h.trusted).length] as const)
    .filter(([, n]) => n > 0)
    .map(([ev, n]) => `${ev}×${n}`);
  const disabled = listed.filter((h) => !h.enabled).length;
  const untrusted = listed.filter((h) => h.enabled && !h.trusted).length;
  const left = [disabled && `${disabled} disabled`, untrusted && `${untrusted} untrusted`].filter(Boolean).join(', ');
  const counted = parts.length ? parts.join(' ') : listed.length ? 'none would run' : 'none';
  return `hooks: ${counted}${left ? ` — not counted: ${left}` : ''}`;
}

/** What the agent's `/hooks` command can see and change. */
export interface HookControl {
  list(): ListedHook[];
  /** Enables or disables a hook by name; returns what happened, in a line. */
  setEnabled(name: string, enabled: boolean): string;
}
