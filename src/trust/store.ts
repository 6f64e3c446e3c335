import { parseJsonc } from '../config/jsonc.js';
import { readLimitedText, textNestsDeeper, tooDeep } from '../config/limits.js';

/**
 * Reads a trust file as a JSON object. A missing or empty file is `{}`; an unreadable or broken
 * one throws when `strict` (before it would be overwritten and lose other projects' entries),
 * and otherwise counts as `{}`, so nothing is trusted.
 */
export function readTrustFile(file: string, strict: boolean): Record<string, unknown> {
  const broken = (why: string): Record<string, unknown> => {
    if (strict) throw new Error(`${file}: ${why}; fix or remove it, nothing was trusted`);
    unreadable.set(file, why);
    return {};
  };
  let text: string;
  try {
    text = readLimitedText(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return ok(file, {});
    if (strict) throw new Error(`cannot read ${file}: ${(err as Error).message}`);
    return broken(`cannot be read (${(err as Error).message})`);
  }
  if (!text.trim()) return ok(file, {});
  if (textNestsDeeper(text, undefined, true)) return broken(tooDeep('its JSON'));
  const parsed = parseJsonc(text);
  const value = parsed.ok ? parsed.value : undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return broken(parsed.ok ? 'must be a JSON object' : parsed.message);
  return ok(file, value as Record<string, unknown>);
}

/** Trust files whose last read failed, and why: nothing in them counted, which the user must be told. */
const unreadable = new Map<string, string>();

function ok(file: string, value: Record<string, unknown>): Record<string, unknown> {
  unreadable.delete(file);
  return value;
}

/** Why the trust file could not be read the last time it was, if it could not: nothing in it is trusted until it is fixed. */
export function trustFileProblem(file: string): string | undefined {
  const why = unreadable.get(file);
  return why && `${why}: nothing in it counts as trusted — fix or remove it`;
}
