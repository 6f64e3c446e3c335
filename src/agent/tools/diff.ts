/** Line diffs for what the user sees after a write or edit, and the snippet the model gets back. */
import { createPatch, diffLines } from 'diff';

/** Gemini CLI's options for every patch it shows or sends (its DEFAULT_DIFF_OPTIONS). */
export const DIFF_OPTIONS = { context: 3, ignoreWhitespace: false } as const;

/**
 * A unified diff of `oldText` to `newText`, the text Gemini CLI builds with
 * `Diff.createPatch(name, old, new, 'Current', 'Proposed', DEFAULT_DIFF_OPTIONS)`, so a
 * Notification's `fileDiff` is byte for byte what Gemini sends.
 */
export function unifiedDiff(name: string, oldText: string, newText: string, oldLabel = 'Original', newLabel = 'Written'): string {
  return createPatch(name, oldText, newText, oldLabel, newLabel, DIFF_OPTIONS);
}

/**
 * The changed parts of `newText` with `context` lines around them, `...` between
 * distant parts; the whole text for a new file. Saves the model a re-read.
 */
export function changedSnippet(oldText: string, newText: string, context = 5): string {
  if (!oldText) return newText;
  const newLines = newText.split(/\r?\n/);
  const ranges: Array<[number, number]> = [];
  let n = 0;
  for (const change of diffLines(oldText, newText)) {
    const count = change.count ?? 0;
    if (change.added) ranges.push([n, (n += count)]);
    else if (change.removed) ranges.push([n, n]);
    else n += count;
  }
  if (ranges.length === 0) return newText;
  const merged: Array<[number, number]> = [];
  for (const [s, e] of ranges) {
    const lo = Math.max(0, s - context);
    const hi = Math.min(newLines.length, e + context);
    const last = merged[merged.length - 1];
    if (last && lo <= last[1]) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  const parts: string[] = [];
  let prevEnd = 0;
  for (const [lo, hi] of merged) {
    if (lo > prevEnd) parts.push('...');
    parts.push(newLines.slice(lo, hi).join('\n'));
    prevEnd = hi;
  }
  if (prevEnd < newLines.length) parts.push('...');
  return parts.join('\n');
}
