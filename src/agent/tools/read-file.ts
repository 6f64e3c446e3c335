import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { decodeText, ErrorType, errMsg, fail, looksBinary, oneLine } from './common.js';
import { isFailure, resolveInWorkspace } from './paths.js';
import { defineTool } from './types.js';

export const MAX_LINES = 2000;
export const MAX_LINE_LENGTH = 2000;
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

/** Media and archives: the model only gets a note that the file is binary (we pass text only). */
const BINARY_EXTENSIONS = new Set(
  'png jpg jpeg gif webp bmp ico tif tiff heic avif pdf mp3 wav aiff aac ogg flac m4a mp4 mov avi mkv webm zip tar gz tgz bz2 xz 7z rar jar war exe dll so dylib o a class bin wasm pyc woff woff2 ttf otf eot sqlite db'.split(
    ' ',
  ),
);

const parameters = z.object({
  file_path: z.string().describe('The path to the file to read.'),
  start_line: z.number().int().min(1).optional().describe('Optional: The 1-based line number to start reading from.'),
  end_line: z.number().int().min(1).optional().describe('Optional: The 1-based line number to end reading at (inclusive).'),
});

export const readFile = defineTool({
  name: 'read_file',
  description:
    `Reads a text file in the workspace and returns its content. Large files are cut to ${MAX_LINES} lines and very long lines are shortened; ` +
    `the result says so and tells you how to read further with 'start_line' and 'end_line' (1-based, inclusive). Binary files are reported, not shown.`,
  parameters,
  kind: 'read',
  title: (a) => oneLine(`ReadFile ${a.file_path}${a.start_line || a.end_line ? ` (lines ${a.start_line ?? 1}-${a.end_line ?? ''})` : ''}`),
  async run(a, ctx) {
    if (a.file_path.trim() === '') return fail(ErrorType.invalidParams, "The 'file_path' parameter must be non-empty.");
    if (a.start_line !== undefined && a.end_line !== undefined && a.start_line > a.end_line) {
      return fail(ErrorType.invalidParams, 'start_line cannot be greater than end_line');
    }
    const r = resolveInWorkspace(ctx.cwd, a.file_path);
    if (isFailure(r)) return r;
    const file = r.path;
    let st: Stats;
    try {
      st = await fs.stat(file);
    } catch {
      return fail(
        ErrorType.fileNotFound,
        `File not found: ${file}`,
        'File not found.',
        'Could not read file because no file was found at the specified path.',
      );
    }
    if (st.isDirectory()) {
      return fail(
        ErrorType.targetIsDirectory,
        `Path is a directory, not a file: ${file}`,
        'Path is a directory.',
        'Could not read file because the provided path is a directory, not a file.',
      );
    }
    if (st.size > MAX_FILE_BYTES) {
      const limit = `File size exceeds the ${MAX_FILE_BYTES / 1024 / 1024}MB limit.`;
      return fail(ErrorType.fileTooLarge, `${limit.slice(0, -1)}: ${file} (${(st.size / 1024 / 1024).toFixed(2)}MB)`, limit, limit);
    }
    let buf: Buffer;
    try {
      buf = await fs.readFile(file);
    } catch (err) {
      const msg = `Error reading file ${r.rel}: ${errMsg(err)}`;
      return fail(ErrorType.readContentFailure, `Error reading file ${file}: ${errMsg(err)}`, msg, msg);
    }
    const ext = path.extname(file).slice(1).toLowerCase();
    const utf16 = (buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff);
    if (ext !== 'svg' && (BINARY_EXTENSIONS.has(ext) || (!utf16 && looksBinary(buf)))) {
      return { llmContent: `Cannot display content of binary file: ${r.rel}`, returnDisplay: `Skipped binary file: ${r.rel}` };
    }
    const lines = decodeText(buf).split(/\r?\n/);
    const total = lines.length;
    const start = (a.start_line ?? 1) - 1;
    if (start >= total) {
      return fail(
        ErrorType.invalidParams,
        `start_line ${a.start_line} is past the end of ${r.rel}, which has ${total} lines.`,
        `Error: start_line is past the end of the file (${total} lines).`,
      );
    }
    const end = a.end_line !== undefined ? Math.min(a.end_line, total) : Math.min(start + MAX_LINES, total);
    let shortened = false;
    const shown = lines.slice(start, end).map((l) => {
      if (l.length <= MAX_LINE_LENGTH) return l;
      shortened = true;
      return l.slice(0, MAX_LINE_LENGTH) + '... [truncated]';
    });
    const partial = start > 0 || end < total;
    const content = shown.join('\n');
    const facts = { kind: 'read' as const, filePath: file, content, startLine: start + 1, numLines: shown.length, totalLines: total };
    let display = '';
    if (partial) display = `Read lines ${start + 1}-${end} of ${total} from ${r.rel}${shortened ? ' (some lines were shortened)' : ''}`;
    else if (shortened) display = `Read all ${total} lines from ${r.rel} (some lines were shortened)`;
    if (!partial && !shortened) return { llmContent: content, returnDisplay: display, facts };
    const header =
      `\nIMPORTANT: The file content has been truncated.\nStatus: Showing lines ${start + 1}-${end} of ${total} total lines.\n` +
      `Action: To read more, call 'read_file' again with 'start_line' and 'end_line'; the next section starts at start_line: ${end + 1}.\n\n--- FILE CONTENT (truncated) ---\n`;
    return { llmContent: header + content, returnDisplay: display, facts };
  },
});
