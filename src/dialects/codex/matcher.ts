/**
 * Codex's matchers: none, `""` or `*` match everything; a matcher made only of ASCII letters,
 * digits, `_` and `|` is a list of exact names (`Edit|Write`); anything else is an unanchored
 * regular expression (`^Bash` matches `BashOutput`), run here by RE2 so that no pattern can hang
 * a run. An invalid one matches nothing (Codex skips its group, and `validate` says so).
 */
import { compileLinear } from '../../config/regex.js';

export type CodexMatcher = { ok: true; test(value: string): boolean } | { ok: false; error: string };

const EXACT = /^[A-Za-z0-9_|]+$/;

export function compileCodexMatcher(matcher: string | undefined): CodexMatcher {
  if (matcher === undefined || matcher === '' || matcher === '*') return { ok: true, test: () => true };
  if (EXACT.test(matcher)) {
    const names = new Set(matcher.split('|'));
    return { ok: true, test: (v) => names.has(v) };
  }
  const c = compileLinear(matcher);
  return c.ok ? { ok: true, test: (v) => c.regex.test(v) } : { ok: false, error: c.message };
}
