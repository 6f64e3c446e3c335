/** Line diffs for what the user sees after a write or edit, and the snippet the model gets back. */
import path from 'node:path';
import { createPatch, diffLines, structuredPatch } from 'diff';

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

/** Files whose change may change a build (Gemini CLI's list): a write or edit says so in `isBuildFile`. */
const BUILD_FILES = new Set([
  'BUILD',
  'BUILD.bazel',
  'WORKSPACE',
  'WORKSPACE.bazel',
  'MODULE.bazel',
  '.bazelrc',
  '.blazerc',
  'Makefile',
  'makefile',
  'GNUmakefile',
  'CMakeLists.txt',
  'package.json',
  'package-lock.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lockb',
  'setup.py',
  'setup.cfg',
  'pyproject.toml',
  'go.mod',
  'go.sum',
  'Cargo.toml',
  'Cargo.lock',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'settings.gradle',
  'settings.gradle.kts',
  'Dockerfile',
  'Containerfile',
]);
const BUILD_EXTENSIONS = new Set(['.bzl', '.bazel', '.bzlmod', '.mk', '.cmake']);

export function isBuildFile(file: string): boolean {
  const name = path.basename(file);
  return (
    BUILD_FILES.has(name) ||
    name.startsWith('Dockerfile.') ||
    name.startsWith('Containerfile.') ||
    BUILD_EXTENSIONS.has(path.extname(name).toLowerCase())
  );
}

/** Lines and characters a change adds and removes: the model's change, then the user's on top of it (none here). */
export interface DiffStat {
  model_added_lines: number;
  model_removed_lines: number;
  model_added_chars: number;
  model_removed_chars: number;
  user_added_lines: number;
  user_removed_lines: number;
  user_added_chars: number;
  user_removed_chars: number;
}

function counted(name: string, from: string, to: string): { added: number; removed: number; addedChars: number; removedChars: number } {
  const n = { added: 0, removed: 0, addedChars: 0, removedChars: 0 };
  for (const hunk of structuredPatch(name, name, from, to, '', '', DIFF_OPTIONS).hunks)
    for (const line of hunk.lines) {
      if (line.startsWith('+')) {
        n.added++;
        n.addedChars += line.length - 1;
      } else if (line.startsWith('-')) {
        n.removed++;
        n.removedChars += line.length - 1;
      }
    }
  return n;
}

/** A change's statistics as Gemini CLI reports them: what the model's content changed, and what the user changed of it. */
export function diffStat(name: string, original: string, proposed: string, final: string): DiffStat {
  const model = counted(name, original, proposed);
  const user = counted(name, proposed, final);
  return {
    model_added_lines: model.added,
    model_removed_lines: model.removed,
    model_added_chars: model.addedChars,
    model_removed_chars: model.removedChars,
    user_added_lines: user.added,
    user_removed_lines: user.removed,
    user_added_chars: user.addedChars,
    user_removed_chars: user.removedChars,
  };
}

/** What a write or an edit shows the user, and AfterTool hooks read as `tool_response.returnDisplay`, as Gemini CLI gives it. */
export interface FileChangeDisplay {
  fileDiff: string;
  fileName: string;
  filePath: string;
  /** The file before (`null` for a file an edit creates, `""` for one a write creates). */
  originalContent: string | null;
  newContent: string;
  diffStat: DiffStat;
  isNewFile: boolean;
  isBuildFile: boolean;
}

export function fileChange(o: {
  filePath: string;
  originalContent: string | null;
  newContent: string;
  isNewFile: boolean;
  labels: [string, string];
}): FileChangeDisplay {
  const fileName = path.basename(o.filePath);
  const before = o.originalContent ?? '';
  return {
    fileDiff: unifiedDiff(fileName, before, o.newContent, o.labels[0], o.labels[1]),
    fileName,
    filePath: o.filePath,
    originalContent: o.originalContent,
    newContent: o.newContent,
    diffStat: diffStat(fileName, before, o.newContent, o.newContent),
    isNewFile: o.isNewFile,
    isBuildFile: isBuildFile(o.filePath),
  };
}
