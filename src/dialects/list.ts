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
 * Gemini events in catalog order, then the dialects' own event names as they come.
 */
export function summary(hooks: readonly ListedHook[]): string {
  const events = new Set<string>([...EVENT_NAMES, ...hooks.map((h) => h.event)]);
  const parts = [...events]
    .map((ev) => [ev, hooks.filter((h) => h.event === ev && h.enabled && h.trusted && !h.setting).length] as const)
    .filter(([, n]) => n > 0)
    .map(([ev, n]) => `${ev}×${n}`);
  return `hooks: ${parts.length ? parts.join(' ') : 'none'}`;
}

/** What the agent's `/hooks` command can see and change. */
export interface HookControl {
  list(): ListedHook[];
  /** Enables or disables a hook by name; returns what happened, in a line. */
  setEnabled(name: string, enabled: boolean): string;
}
