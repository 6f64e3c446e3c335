/**
 * Claude Code's matchers: none, `""` or `*` match everything; a matcher made only of letters,
 * digits, `_`, `-`, spaces, `,` and `|` is a list of exact names (`Edit|Write`, `Edit, Write`);
 * anything else is an unanchored, case-sensitive regular expression in JavaScript syntax
 * (`Notebook.*`, `mcp__.*__write`), run by RE2 so that no pattern can hang a run. An invalid
 * regular expression, or one RE2 cannot express (backreferences, lookaround), is compared as an
 * exact name.
 */
import { compileLinear } from '../../config/regex.js';

export interface ClaudeMatcher {
  kind: 'all' | 'names' | 'regex' | 'exact';
  /** The names of a `names` matcher, or the one text of an `exact` one. */
  names?: string[];
  /** Why the regular expression is invalid (kind `exact`). */
  error?: string;
  /** `unsupported`: valid JavaScript that RE2 cannot run; `invalid`: not a regular expression. */
  reason?: 'invalid' | 'unsupported';
  test(value: string): boolean;
}

const NAME_LIST = /^[A-Za-z0-9_\-\s,|]+$/;

export function compileClaudeMatcher(matcher: string | undefined): ClaudeMatcher {
  const m = matcher?.trim() ?? '';
  if (m === '' || m === '*') return { kind: 'all', test: () => true };
  if (NAME_LIST.test(m)) {
    const names = m
      .split(/[|,]/)
      .map((n) => n.trim())
      .filter(Boolean);
    if (!names.length) return { kind: 'all', test: () => true };
    const set = new Set(names);
    return { kind: 'names', names, test: (v) => set.has(v) };
  }
  const c = compileLinear(m);
  if (c.ok) return { kind: 'regex', test: (v) => c.regex.test(v) };
  return { kind: 'exact', names: [m], error: c.message, reason: c.reason, test: (v) => v === m };
}
