/** Small helpers for translating a tool's arguments between hook systems. */
import path from 'node:path';

export type Args = Record<string, unknown>;

export const has = (o: Args, k: string) => o[k] !== undefined;

/** A path argument made absolute against `cwd` (other values unchanged). */
export const abs = (cwd: string, p: unknown) => (typeof p === 'string' && p !== '' ? path.resolve(cwd, p) : p);

/** `o` without the keys a translation consumed. */
export function rest(o: Args, consumed: readonly string[]): Args {
  const out: Args = {};
  for (const [k, v] of Object.entries(o)) if (!consumed.includes(k) && v !== undefined) out[k] = v;
  return out;
}

/** grep_search's context and limit arguments, by the name Claude Code's Grep (and Copilot CLI's grep) gives each. */
export const GREP_CONTEXT_ARGS = [
  ['-A', 'after'],
  ['-B', 'before'],
  ['-C', 'context'],
  ['head_limit', 'total_max_matches'],
] as const;

/** Every grep_search argument a Grep translation consumes: the rest are passed on as they are. */
export const GREP_SEARCH_ARGS = [
  'pattern',
  'dir_path',
  'include_pattern',
  'names_only',
  'case_sensitive',
  'after',
  'before',
  'context',
  'total_max_matches',
] as const;

/** Copies the defined values: `to[k] = from[j]` for each `[k, j]`. */
export function pick(from: Args, pairs: ReadonlyArray<readonly [string, string]>): Args {
  const out: Args = {};
  for (const [to, key] of pairs) if (has(from, key)) out[to] = from[key];
  return out;
}
