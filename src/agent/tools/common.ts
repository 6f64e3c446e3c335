import fs from 'node:fs/promises';
import type { ToolResult } from './types.js';

/** Error types, spelled as Gemini CLI's ToolErrorType values so hooks see the same strings. */
export const ErrorType = {
  invalidParams: 'invalid_tool_params',
  fileNotFound: 'file_not_found',
  fileWriteFailure: 'file_write_failure',
  readContentFailure: 'read_content_failure',
  createExisting: 'attempt_to_create_existing_file',
  fileTooLarge: 'file_too_large',
  permissionDenied: 'permission_denied',
  noSpaceLeft: 'no_space_left',
  targetIsDirectory: 'target_is_directory',
  pathNotInWorkspace: 'path_not_in_workspace',
  pathIsNotDirectory: 'path_is_not_a_directory',
  editNoOccurrence: 'edit_no_occurrence_found',
  editOccurrenceMismatch: 'edit_expected_occurrence_mismatch',
  editNoChange: 'edit_no_change',
  globError: 'glob_execution_error',
  grepError: 'grep_execution_error',
  lsError: 'ls_execution_error',
  shellError: 'shell_execute_error',
  policyViolation: 'policy_violation',
} as const;

export function fail(type: string, message: string, returnDisplay: string = message, llmContent: string = message): ToolResult {
  return { llmContent, returnDisplay, error: { message, type } };
}

export function errMsg(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function errCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

/**
 * Makes text safe for a one-line title: newlines and control characters
 * (which could redraw an approval prompt in a terminal) become visible escapes.
 */
export function oneLine(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    if (c === '\r') return '\\r';
    return `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
}

/** NUL bytes or many control characters in the first 4 KiB mean binary. */
export function looksBinary(buf: Uint8Array): boolean {
  const n = Math.min(buf.length, 4096);
  if (n === 0) return false;
  let odd = 0;
  for (let i = 0; i < n; i++) {
    const b = buf[i];
    if (b === 0) return true;
    if (b < 7 || (b > 13 && b < 32 && b !== 27)) odd++;
  }
  return odd / n > 0.3;
}

/** Decodes text, honouring a UTF-8 or UTF-16 byte order mark. */
export function decodeText(buf: Uint8Array): string {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return new TextDecoder('utf-8').decode(buf.subarray(3));
  if (buf[0] === 0xff && buf[1] === 0xfe) return new TextDecoder('utf-16le').decode(buf.subarray(2));
  if (buf[0] === 0xfe && buf[1] === 0xff) {
    try {
      return new TextDecoder('utf-16be').decode(buf.subarray(2));
    } catch {
      // Node without full ICU: fall through to UTF-8
    }
  }
  return new TextDecoder('utf-8').decode(buf);
}

export async function readTextFile(file: string): Promise<string> {
  return decodeText(await fs.readFile(file));
}

/** Lines that are only a "rest of code ..." style placeholder, which would wipe real code if written. */
const PLACEHOLDER_PREFIXES = new Set([
  'rest of',
  'rest of method',
  'rest of methods',
  'rest of code',
  'unchanged code',
  'unchanged method',
  'unchanged methods',
]);

export function omissionPlaceholders(text: string): string[] {
  const found: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let t = raw.trim();
    if (t.startsWith('//')) t = t.slice(2).trim();
    if (t.startsWith('(') && t.endsWith(')')) t = t.slice(1, -1).trim();
    const at = t.indexOf('...');
    if (at < 0) continue;
    const prefix = t
      .slice(0, at)
      .trim()
      .toLowerCase()
      .split(/[ \t]+/)
      .filter(Boolean)
      .join(' ');
    const rest = t.slice(at + 3).trim();
    if (!PLACEHOLDER_PREFIXES.has(prefix)) continue;
    if (rest.length > 0 && ![...rest].every((c) => c === '.')) continue;
    found.push(`${prefix} ...`);
  }
  return found;
}

/** Detects the line ending a file uses, defaulting to LF. */
export function lineEnding(text: string): '\r\n' | '\n' {
  const i = text.indexOf('\n');
  return i > 0 && text[i - 1] === '\r' ? '\r\n' : '\n';
}
