import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';

/**
 * Regular expressions from configuration (matchers) run on RE2, which matches in time linear in
 * the input: no pattern can make `fire` hang (`(a+)+$`, `^(((\w+)+)+)+x$`). re2js is loaded on
 * first use, so a run whose matchers are all plain names does not pay for it.
 */
let engine: typeof RE2JS | undefined;
function re2(): typeof RE2JS {
  engine ??= (createRequire(import.meta.url)('re2js') as { RE2JS: typeof RE2JS }).RE2JS;
  return engine;
}

/** A compiled pattern: `test` finds a match anywhere (unanchored), as RegExp#test does. */
export interface LinearRegex {
  test(value: string): boolean;
  /** Whether the match can start at the beginning of the value (Python's `re.match`). */
  testStart(value: string): boolean;
}

export type LinearCompile =
  | { ok: true; regex: LinearRegex }
  /** `unsupported`: valid JavaScript that RE2 cannot run (backreferences, lookaround). */
  | { ok: false; reason: 'invalid' | 'unsupported'; message: string };

/** JavaScript's `\uHHHH` in RE2's spelling; everything else is the same text. */
function toRe2Syntax(pattern: string): string {
  return pattern.replace(/(\\+)u([0-9A-Fa-f]{4})/g, (all, slashes: string, hex: string) =>
    slashes.length % 2 ? `${slashes.slice(1)}\\x{${hex}}` : all,
  );
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message.replace(/^Invalid regular expression: /, '').replace(/^error parsing regexp: /, '') : String(e);
}

/**
 * Compiles a JavaScript-syntax pattern (case-sensitive, unanchored) with RE2. `new RegExp` is
 * used only to tell an invalid pattern from one RE2 cannot express; it never matches anything.
 */
export function compileLinear(pattern: string, flags: { caseInsensitive?: boolean } = {}): LinearCompile {
  try {
    new RegExp(pattern);
  } catch (e) {
    return { ok: false, reason: 'invalid', message: errorText(e) };
  }
  return compileRe2(toRe2Syntax(pattern), flags, 'unsupported');
}

/** Compiles a pattern already in RE2 syntax (mm's Go regexps, SpatialAgent's, secret rules). */
export function compileRe2(
  pattern: string,
  flags: { caseInsensitive?: boolean } = {},
  reason: 'invalid' | 'unsupported' = 'invalid',
): LinearCompile {
  const R = re2();
  let re: RE2JS;
  try {
    re = R.compile(pattern, flags.caseInsensitive ? R.CASE_INSENSITIVE : 0);
  } catch (e) {
    return { ok: false, reason, message: errorText(e) };
  }
  return {
    ok: true,
    regex: {
      test: (v) => re.matcher(v).find(),
      testStart: (v) => re.matcher(v).lookingAt(),
    },
  };
}
