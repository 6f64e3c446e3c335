import type { HookOutput } from '../events/output.js';
import { textNestsDeeper, tooDeep } from '../config/limits.js';

export interface Parsed {
  output?: HookOutput;
  outputFormat?: 'json' | 'text';
  /** Output that cannot be read safely (nested too deep): the run fails with this message. */
  error?: string;
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
    return { output: plainTextOutput(text, exitCode), outputFormat: 'text' };
  }
  if (value && typeof value === 'object') return { output: value as HookOutput, outputFormat: 'json' };
  return {};
}

export function plainTextOutput(text: string, exitCode: number): HookOutput {
  if (exitCode === 0) return { decision: 'allow', systemMessage: text };
  if (exitCode === 1) return { decision: 'allow', systemMessage: `Warning: ${text}` };
  return { decision: 'deny', reason: text };
}
