/**
 * Claude Code's matchers: none, `""` or `*` match everything; a matcher made only of letters,
 * digits, `_`, `-`, spaces, `,` and `|` is a list of exact names (`Edit|Write`, `Edit, Write`);
 * anything else is an unanchored, case-sensitive JavaScript regular expression (`Notebook.*`,
 * `mcp__.*__write`). An invalid regular expression is compared as an exact name.
 */
export interface ClaudeMatcher {
  kind: 'all' | 'names' | 'regex' | 'exact';
  /** The names of a `names` matcher, or the one text of an `exact` one. */
  names?: string[];
  /** Why the regular expression is invalid (kind `exact`). */
  error?: string;
  test(value: string): boolean;
}

const NAME_LIST = /^[A-Za-z0-9_\-\s,|]+$/;

export function compileClaudeMatcher(matcher: string | undefined): ClaudeMatcher {
  const m = matcher?.trim() ?? '';
  if (m === '' || m === '*') return { kind: 'all', test: () => true };
  if (NAME_LIST.test(m)) {
    const names = m.split(/[|,]/).map((n) => n.trim()).filter(Boolean);
    if (!names.length) return { kind: 'all', test: () => true };
    const set = new Set(names);
    return { kind: 'names', names, test: (v) => set.has(v) };
  }
  try {
    const re = new RegExp(m);
    return { kind: 'regex', test: (v) => re.test(v) };
  } catch (e) {
    const error = e instanceof Error ? e.message.replace(/^Invalid regular expression: /, '') : String(e);
    return { kind: 'exact', names: [m], error, test: (v) => v === m };
  }
}
