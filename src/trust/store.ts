import { parseJsonc } from '../config/jsonc.js';
import { readLimitedText, textNestsDeeper, tooDeep } from '../config/limits.js';

/**
 * Reads a trust file as a JSON object. A missing or empty file is `{}`; an unreadable or broken
 * one throws when `strict` (before it would be overwritten and lose other projects' entries),
 * and otherwise counts as `{}`, so nothing is trusted.
 */
export function readTrustFile(file: string, strict: boolean): Record<string, unknown> {
  let text: string;
  try {
    text = readLimitedText(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || !strict) return {};
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
  if (!text.trim()) return {};
  if (textNestsDeeper(text, undefined, true)) {
    if (strict) throw new Error(`${file}: ${tooDeep('its JSON')}; fix or remove it, nothing was trusted`);
    return {};
  }
  const parsed = parseJsonc(text);
  const value = parsed.ok ? parsed.value : undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    if (strict) throw new Error(`${file}: ${parsed.ok ? 'must be a JSON object' : parsed.message}; fix or remove it, nothing was trusted`);
    return {};
  }
  return value as Record<string, unknown>;
}
