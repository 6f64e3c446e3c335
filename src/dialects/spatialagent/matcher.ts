/**
 * SpatialAgent's object matchers: every field must match its context variable (`tool` → TOOL,
 * `code_type` → CODE_TYPE, `step` → STEP). A string is a regular expression matched from the
 * start of the value, as Python's `re.match` (so `bash` matches `bash` and `bash_tool`, and
 * `^bash$` only `bash`); other values are compared for equality. A variable the event does not
 * have never matches.
 *
 * Leniency: SpatialAgent applies the regex only to string values, so `{"step": "1"}` never
 * matches the number 1; here a number or boolean is compared by its text (`"^[1-3]$"` works on
 * STEP).
 */
import type { SaMatcherField } from './config.js';
import { pyStr, type SaContext } from './variables.js';

export function saMatches(matcher: readonly SaMatcherField[] | undefined, context: SaContext): boolean {
  if (!matcher) return true;
  for (const f of matcher) {
    const actual = context[f.key.toUpperCase()];
    if (actual === undefined || actual === null) return false;
    if (f.regex) {
      if (typeof actual === 'object') return false;
      if (!f.regex.matcher(typeof actual === 'string' ? actual : pyStr(actual)).lookingAt()) return false;
    } else if (actual !== f.expected && String(actual) !== String(f.expected)) return false;
  }
  return true;
}
