import { CATALOG } from '../events/catalog.js';
import type { EventName } from '../events/names.js';
import { compileLinear } from '../config/regex.js';

/** A matcher compiled once: a predicate over the value the event is matched on. */
export type CompiledMatcher = (value: string | undefined) => boolean;

const ALWAYS: CompiledMatcher = () => true;

/**
 * Tool events: unanchored, case-sensitive regex on the tool name, run by RE2 (linear time); an
 * invalid regex, or one RE2 cannot express (backreferences, lookaround), falls back to exact
 * equality. Trigger events (SessionStart, SessionEnd, PreCompress): exact equality.
 * Other events ignore the matcher. No matcher, "" or "*" matches everything.
 */
export function compileMatcher(event: EventName, matcher: string | undefined): CompiledMatcher {
  if (matcher === undefined) return ALWAYS;
  const m = matcher.trim();
  if (m === '' || m === '*') return ALWAYS;
  const on = CATALOG[event].matchOn;
  if (on.kind === 'none') return ALWAYS;
  if (on.kind === 'trigger') return (v) => v === undefined || v === '' || v === m;
  // Plain names (`write_file`, `write_file|replace`) need no regex engine: a substring test.
  if (/^[\w-]+(\|[\w-]+)*$/.test(m)) {
    const names = m.split('|');
    return (v) => v === undefined || v === '' || names.some((n) => v.includes(n));
  }
  const c = compileLinear(m);
  if (!c.ok) return (v) => v === undefined || v === '' || v === m;
  const re = c.regex;
  return (v) => v === undefined || v === '' || re.test(v);
}

/**
 * The exact names a tool matcher accepts when it is an anchored list of plain names
 * (`^read_file$`, `^(write_file|replace)$`), so a planner can look hooks up by name.
 */
export function exactNames(event: EventName, matcher: string | undefined): string[] | undefined {
  if (matcher === undefined || CATALOG[event].matchOn.kind !== 'tool') return undefined;
  const m = /^\^(?:\((?:\?:)?([\w-]+(?:\|[\w-]+)*)\)|([\w-]+))\$$/.exec(matcher.trim());
  return m ? (m[1] ?? m[2]).split('|') : undefined;
}

/** The value an input is matched on, or undefined when the event has none. */
export function matchValue(event: EventName, input: Record<string, unknown>): string | undefined {
  const on = CATALOG[event].matchOn;
  if (on.kind === 'none') return undefined;
  const v = on.kind === 'tool' ? input.tool_name : input[on.field];
  return typeof v === 'string' ? v : undefined;
}
