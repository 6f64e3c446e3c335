import type { HookOutput } from '../events/output.js';
import { textNestsDeeper, tooDeep } from '../config/limits.js';
import { lineColumn, parseJson } from '../config/jsonc.js';

export interface Parsed {
  output?: HookOutput;
  outputFormat?: 'json' | 'text';
  /** Output that cannot be read safely (nested too deep): the run fails with this message. */
  error?: string;
  /** Output that looks like JSON but does not parse: read as text, and said (where it broke, what it did). */
  warning?: string;
}

/** An object, or an array of values: what a hook meant as JSON (a log line such as `[info] ok` is not). */
const MEANT_AS_JSON = /^(?:\{|\[\s*[[{"\d\]-])/;

/** Where the first JSON value of the text ends, when it is one whole value followed by more; else undefined. */
function firstValueEnd(text: string): number | undefined {
  // Each try parses a prefix: bounded, so a large broken output costs little.
  if (text.length > 64 * 1024) return undefined;
  let tries = 0;
  for (let i = text.indexOf('\n'); i !== -1 && tries++ < 100; i = text.indexOf('\n', i + 1)) {
    try {
      JSON.parse(text.slice(0, i));
      return i;
    } catch {
      // not yet a whole value
    }
  }
  return undefined;
}

/** Says where text that was meant as JSON broke, and what the plain-text reading made of it. */
function notJson(what: string, text: string, exitCode: number): string {
  const parsed = parseJson(text);
  let where = parsed.ok ? 'not one JSON value' : parsed.message.replace(/^invalid JSON at /, '');
  // A whole JSON value and then more (a log line printed after the answer) is the common case: say so.
  const end = firstValueEnd(text);
  if (end !== undefined) {
    const { line, column } = lineColumn(text, end + (text.slice(end).length - text.slice(end).trimStart().length));
    where = `line ${line}, column ${column}: text after the JSON value`;
  }
  const did = exitCode === 0 ? 'allows' : exitCode === 1 ? 'allows with a warning' : 'denies';
  return `${what} is not valid JSON (${where}); read as plain text, which ${did} (exit ${exitCode})`;
}

/**
 * Output nested too deep to read: an error on the hook. A hook that exited as a blocking one
 * (not 0 or 1) still blocks, so an unreadable answer never turns a deny into an allow.
 */
export function unreadableOutput(what: string, exitCode: number): Parsed {
  const error = `${tooDeep(what)}; not read`;
  return exitCode === 0 || exitCode === 1 ? { error } : { error, output: plainTextOutput(error, exitCode), outputFormat: 'text' };
}

/**
 * Turns what a command hook printed into an output, as Gemini CLI does: stdout (or stderr when
 * stdout is empty) is JSON, possibly double-encoded; otherwise the text becomes a message whose
 * meaning depends on the exit code (0 allow, 1 warning, other deny).
 */
export function parseHookText(stdout: string, stderr: string, exitCode: number): Parsed {
  const text = stdout.trim() || stderr.trim();
  if (!text) return {};
  const what = stdout.trim() ? 'stdout' : 'stderr';
  if (textNestsDeeper(text)) return unreadableOutput(what, exitCode);
  let value: unknown;
  try {
    value = JSON.parse(text);
    if (typeof value === 'string') {
      if (textNestsDeeper(value)) return unreadableOutput(what, exitCode);
      value = JSON.parse(value);
    }
  } catch {
    const warning = MEANT_AS_JSON.test(text) ? notJson(what, text, exitCode) : undefined;
    return { output: plainTextOutput(text, exitCode), outputFormat: 'text', ...(warning ? { warning } : {}) };
  }
  if (value && typeof value === 'object') return { output: value as HookOutput, outputFormat: 'json' };
  return {};
}

export function plainTextOutput(text: string, exitCode: number): HookOutput {
  if (exitCode === 0) return { decision: 'allow', systemMessage: text };
  if (exitCode === 1) return { decision: 'allow', systemMessage: `Warning: ${text}` };
  return { decision: 'deny', reason: text };
}
