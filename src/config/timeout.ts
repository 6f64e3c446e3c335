/**
 * Node's timers hold at most 2^31−1 ms (about 24.8 days); a longer delay overflows and fires after
 * 1 ms, which would kill a hook at once. Every timeout is bounded by this limit: configuration
 * above it is clamped with a warning (mm: refused, as mm refuses any bad configuration), and the
 * runners clamp again so that no path can overflow.
 */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** The limit as people read it, for messages. */
export const MAX_TIMEOUT_TEXT = `${MAX_TIMEOUT_MS} ms (2^31-1, about 24.8 days)`;

/** A delay a timer can hold: at least 1 ms and at most MAX_TIMEOUT_MS; a non-number gives `fallback`. */
export function boundedTimeoutMs(ms: number | undefined, fallback: number): number {
  const v = typeof ms === 'number' && !Number.isNaN(ms) ? ms : fallback;
  return Math.min(Math.max(v, 1), MAX_TIMEOUT_MS);
}

/** A number written as text (`"5000"`), as Gemini CLI's settings schema reads it; undefined for anything else. */
export function numberFromText(v: unknown): number | undefined {
  return typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined;
}
