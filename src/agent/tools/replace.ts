import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { errCode, ErrorType, errMsg, fail, lineEnding, omissionPlaceholders, oneLine, readTextFile } from './common.js';
import { changedSnippet, fileChange } from './diff.js';
import { isFailure, resolveInWorkspace } from './paths.js';
import { defineTool } from './types.js';
import { writeError } from './write-file.js';

const parameters = z.object({
  file_path: z.string().describe('The path to the file to modify.'),
  instruction: z
    .string()
    .optional()
    .describe('A clear, self-contained description of the change: why it is needed, where it goes, what changes and the desired outcome.'),
  old_string: z
    .string()
    .describe(
      'The exact literal text to replace, unescaped, including whitespace and indentation. For a single replacement include at least 3 lines of context before and after the target so it matches exactly one place. Empty to create a new file.',
    ),
  new_string: z
    .string()
    .describe(
      "The exact literal text to put in place of `old_string`, unescaped. No omission placeholders such as '(rest of methods ...)'.",
    ),
  allow_multiple: z
    .boolean()
    .optional()
    .describe(
      'If true, replace every occurrence of `old_string`. If false or omitted, the edit only succeeds when exactly one occurrence is found.',
    ),
  expected_replacements: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      'Optional (older Gemini CLI argument): the exact number of occurrences to replace; the edit fails if a different number is found.',
    ),
});

type Args = z.infer<typeof parameters>;

/** Replaces every literal occurrence (no `$&` surprises from String.replace). */
function replaceAllLiteral(text: string, search: string, replacement: string): string {
  return text.split(search).join(replacement);
}

function restoreTrailingNewline(original: string, modified: string): string {
  if (original.endsWith('\n') && !modified.endsWith('\n')) return modified + '\n';
  if (!original.endsWith('\n') && modified.endsWith('\n')) return modified.slice(0, -1);
  return modified;
}

/** Re-indents `lines` so the first one starts with `indent`, keeping relative indentation. */
function reindent(lines: string[], indent: string): string[] {
  const ref = /^[ \t]*/.exec(lines[0] ?? '')![0];
  return lines.map((l) => (l.trim() === '' ? '' : l.startsWith(ref) ? indent + l.slice(ref.length) : indent + l.trimStart()));
}

/** Matches whole lines ignoring leading and trailing whitespace, as Gemini CLI does when the exact text is not found. */
function flexibleReplace(content: string, search: string, replacement: string): { text: string; count: number } {
  const source = content.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const want = search.split('\n').map((l) => l.trim());
  const repl = replacement.split('\n');
  let count = 0;
  for (let i = 0; i + want.length <= source.length; i++) {
    const window = source.slice(i, i + want.length);
    if (!window.every((l, j) => l.trim() === want[j])) continue;
    count++;
    const indent = /^[ \t]*/.exec(window[0])![0];
    let text = reindent(repl, indent).join('\n');
    if (replacement !== '' && window[window.length - 1].endsWith('\n') && !text.endsWith('\n')) text += '\n';
    source.splice(i, want.length, text);
  }
  return { text: restoreTrailingNewline(content, source.join('')), count };
}

interface Planned {
  text: string;
  count: number;
}

function plan(content: string, a: Args): Planned {
  const search = a.old_string.replace(/\r\n/g, '\n');
  const replacement = a.new_string.replace(/\r\n/g, '\n');
  const exact = content.split(search).length - 1;
  if (exact > 0) return { text: restoreTrailingNewline(content, replaceAllLiteral(content, search, replacement)), count: exact };
  return flexibleReplace(content, search, replacement);
}

export const replace = defineTool({
  name: 'replace',
  description:
    'Replaces text in a file. By default exactly ONE occurrence of `old_string` must be found and is replaced; set `allow_multiple` to true to replace every occurrence. ' +
    '`old_string` and `new_string` are exact literal text (whitespace and indentation included, never escaped); give enough surrounding context that `old_string` is unique. ' +
    'Read the file with read_file first. An empty `old_string` creates a new file containing `new_string`.',
  parameters,
  kind: 'edit',
  title: (a) => {
    const snip = (s: string) => s.split('\n')[0].slice(0, 30) + (s.length > 30 ? '...' : '');
    if (a.old_string === '') return oneLine(`Edit ${a.file_path} (new file)`);
    return oneLine(`Edit ${a.file_path}: ${snip(a.old_string)} => ${snip(a.new_string)}`);
  },
  async preview(a, ctx) {
    const r = resolveInWorkspace(ctx.cwd, a.file_path);
    if (isFailure(r)) return undefined;
    const raw = await readTextFile(r.path).catch(() => null);
    if (raw === null) return a.old_string === '' ? { filePath: r.path, originalContent: null, newContent: a.new_string } : undefined;
    const { text, count } = plan(raw.replace(/\r\n/g, '\n'), a);
    return count ? { filePath: r.path, originalContent: raw, newContent: text } : undefined;
  },
  async run(a, ctx) {
    if (!a.file_path) return fail(ErrorType.invalidParams, "The 'file_path' parameter must be non-empty.");
    const r = resolveInWorkspace(ctx.cwd, a.file_path);
    if (isFailure(r)) return { ...r, returnDisplay: 'Error: Path not in workspace.' };
    const file = r.path;
    const added = omissionPlaceholders(a.new_string);
    if (added.length > 0) {
      const before = new Set(omissionPlaceholders(a.old_string));
      if (added.some((p) => !before.has(p))) {
        return fail(
          ErrorType.invalidParams,
          "`new_string` contains an omission placeholder (for example 'rest of methods ...'). Provide exact literal replacement text.",
        );
      }
    }
    let raw: string | null = null;
    try {
      if ((await fs.stat(file)).isDirectory()) return fail(ErrorType.targetIsDirectory, `Path is a directory, not a file: ${file}`);
      raw = await readTextFile(file);
    } catch (err) {
      if (errCode(err) !== 'ENOENT') return fail(ErrorType.readContentFailure, `Error preparing edit: ${errMsg(err)}`);
    }

    const bad = (type: string, raw: string, display: string) => fail(type, raw, `Error: ${display}`, raw);
    if (raw === null) {
      if (a.old_string !== '') {
        return bad(
          ErrorType.fileNotFound,
          `File not found: ${file}`,
          'File not found. Cannot apply edit. Use an empty old_string to create a new file.',
        );
      }
      const text = os.EOL === '\r\n' ? a.new_string.replace(/\r?\n/g, '\r\n') : a.new_string;
      try {
        await fs.mkdir(path.dirname(file), { recursive: true });
        await fs.writeFile(file, text, 'utf8');
      } catch (err) {
        return writeError(file, err);
      }
      return {
        llmContent: `Created new file: ${file} with provided content. Here is the updated code:\n${text}`,
        returnDisplay: fileChange({
          filePath: file,
          originalContent: null,
          newContent: text,
          isNewFile: true,
          labels: ['Current', 'Proposed'],
        }),
        facts: { kind: 'write', filePath: file, originalContent: null, newContent: text, replacements: 1 },
      };
    }
    if (a.old_string === '') {
      return bad(
        ErrorType.createExisting,
        `File already exists, cannot create: ${file}`,
        'Failed to edit. Attempted to create a file that already exists.',
      );
    }

    const eol = lineEnding(raw);
    const content = raw.replace(/\r\n/g, '\n');
    const { text, count } = plan(content, a);
    if (count === 0) {
      return bad(
        ErrorType.editNoOccurrence,
        `Could not find an exact match for 'old_string' in '${a.file_path}'. The file may differ from what you expect: read the target lines with read_file, then retry with the exact text as 'old_string'.`,
        `Could not find an exact match for old_string in '${a.file_path}'.`,
      );
    }
    if (a.expected_replacements !== undefined && count !== a.expected_replacements) {
      const term = a.expected_replacements === 1 ? 'occurrence' : 'occurrences';
      return bad(
        ErrorType.editOccurrenceMismatch,
        `Failed to edit, Expected ${a.expected_replacements} ${term} but found ${count} for old_string in file: ${a.file_path}`,
        `Failed to edit, expected ${a.expected_replacements} ${term} but found ${count}.`,
      );
    }
    if (a.expected_replacements === undefined && !a.allow_multiple && count !== 1) {
      return bad(
        ErrorType.editOccurrenceMismatch,
        `Failed to edit, Expected 1 occurrence but found ${count} for old_string in file: ${a.file_path}. If you intended to replace multiple occurrences, set 'allow_multiple' to true.`,
        `Failed to edit, expected 1 occurrence but found ${count}.`,
      );
    }
    if (a.old_string.replace(/\r\n/g, '\n') === a.new_string.replace(/\r\n/g, '\n')) {
      return bad(
        ErrorType.editNoChange,
        `No changes to apply. The old_string and new_string are identical in file: ${a.file_path}`,
        'No changes to apply. The old_string and new_string are identical.',
      );
    }
    const final = eol === '\r\n' ? text.replace(/\n/g, '\r\n') : text;
    try {
      await fs.writeFile(file, final, 'utf8');
    } catch (err) {
      const msg = errMsg(err);
      return fail(ErrorType.fileWriteFailure, msg, `Error writing file: ${msg}`, `Error executing edit: ${msg}`);
    }
    return {
      llmContent: `Successfully modified file: ${file} (${count} replacements). Here is the updated code:\n${changedSnippet(content, text)}`,
      returnDisplay: fileChange({
        filePath: file,
        originalContent: content,
        newContent: text,
        isNewFile: false,
        labels: ['Current', 'Proposed'],
      }),
      facts: { kind: 'write', filePath: file, originalContent: raw, newContent: final, replacements: count },
    };
  },
});
