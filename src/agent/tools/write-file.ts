import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { errCode, ErrorType, errMsg, fail, lineEnding, omissionPlaceholders, oneLine, readTextFile } from './common.js';
import { changedSnippet, fileChange } from './diff.js';
import { isFailure, resolveInWorkspace } from './paths.js';
import { defineTool, type ToolResult } from './types.js';

const parameters = z.object({
  file_path: z.string().describe('The path to the file to write to.'),
  content: z
    .string()
    .describe(
      "The content to write to the file. Give the complete literal content; never use omission placeholders such as '(rest of methods ...)' or '...'.",
    ),
});

/** Maps a write error to Gemini CLI's message and error type. */
export function writeError(file: string, err: unknown): ToolResult {
  const code = errCode(err);
  let msg = `Error writing to file '${file}': ${errMsg(err)}${code ? ` (${code})` : ''}`;
  let type: string = ErrorType.fileWriteFailure;
  if (code === 'EACCES') {
    msg = `Permission denied writing to file: ${file} (${code})`;
    type = ErrorType.permissionDenied;
  } else if (code === 'ENOSPC') {
    msg = `No space left on device: ${file} (${code})`;
    type = ErrorType.noSpaceLeft;
  } else if (code === 'EISDIR') {
    msg = `Target is a directory, not a file: ${file} (${code})`;
    type = ErrorType.targetIsDirectory;
  }
  return fail(type, msg);
}

export const writeFile = defineTool({
  name: 'write_file',
  description:
    'Writes content to a file in the workspace, creating it (and missing parent folders) or replacing it entirely. ' +
    "An existing file's line endings (LF or CRLF) are kept. Use 'replace' for small changes to existing files.",
  parameters,
  kind: 'edit',
  title: (a) => oneLine(`WriteFile ${a.file_path}`),
  async preview(a, ctx) {
    const r = resolveInWorkspace(ctx.cwd, a.file_path);
    if (isFailure(r)) return undefined;
    const original = await readTextFile(r.path).catch(() => null);
    return { filePath: r.path, originalContent: original, newContent: a.content };
  },
  async run(a, ctx) {
    if (!a.file_path) return fail(ErrorType.invalidParams, 'Missing or empty "file_path"');
    const r = resolveInWorkspace(ctx.cwd, a.file_path);
    if (isFailure(r)) return { ...r, returnDisplay: 'Error: Path not in workspace.' };
    const file = r.path;
    if (omissionPlaceholders(a.content).length > 0) {
      return fail(
        ErrorType.invalidParams,
        "`content` contains an omission placeholder (for example 'rest of methods ...'). Provide complete file content.",
      );
    }
    let original = '';
    let exists = false;
    try {
      const st = await fs.stat(file);
      if (st.isDirectory()) return fail(ErrorType.targetIsDirectory, `Path is a directory, not a file: ${file}`);
      original = await readTextFile(file);
      exists = true;
    } catch (err) {
      if (errCode(err) !== 'ENOENT') {
        const msg = `Error checking existing file '${file}': ${errMsg(err)}${errCode(err) ? ` (${errCode(err)})` : ''}`;
        return fail(ErrorType.fileWriteFailure, msg);
      }
    }
    const crlf = exists && original ? lineEnding(original) === '\r\n' : os.EOL === '\r\n';
    const finalContent = crlf ? a.content.replace(/\r?\n/g, '\r\n') : a.content;
    try {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, finalContent, 'utf8');
    } catch (err) {
      return writeError(file, err);
    }
    const head = exists ? `Successfully overwrote file: ${file}.` : `Successfully created and wrote to new file: ${file}.`;
    return {
      llmContent: `${head} Here is the updated code:\n${changedSnippet(exists ? original : '', finalContent)}`,
      returnDisplay: fileChange({
        filePath: file,
        originalContent: original,
        newContent: a.content,
        isNewFile: !exists,
        labels: ['Original', 'Written'],
      }),
      facts: { kind: 'write', filePath: file, originalContent: exists ? original : null, newContent: finalContent },
    };
  },
});
