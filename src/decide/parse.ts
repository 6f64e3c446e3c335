import type { HookOutput } from '../events/output.js';

export interface Parsed {
  output?: HookOutput;
  outputFormat?: 'json' | 'text';
}

/**
 * Turns what a command hook printed into an output, as Gemini CLI does: stdout (or stderr when
 * stdout is empty) is JSON, possibly double-encoded; otherwise the text becomes a message whose
 * meaning depends on the exit code (0 allow, 1 warning, other deny).
 */
export function parseHookText(stdout: string, stderr: string, exitCode: number): Parsed {
  const text = stdout.trim() || stderr.trim();
  if (!text) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
    if (typeof value === 'string') value = JSON.parse(value);
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
