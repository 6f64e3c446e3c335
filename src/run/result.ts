import type { HookOutput } from '../events/output.js';

/** What one hook run gave, for every outcome (timeouts and kills included). */
export interface RunResult {
  success: boolean;
  output?: HookOutput;
  /** `json` when stdout (or stderr) held a JSON object, `text` for the plain-text fallback. */
  outputFormat?: 'json' | 'text';
  exitCode: number | null;
  signal?: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  error?: string;
  /** Something odd that did not make the run fail (e.g. invalid UTF-8 on stdout). */
  warning?: string;
  timedOut?: boolean;
  durationMs: number;
}

/** The process part every hook run reports, whatever the dialect. */
export interface ProcessRun {
  exitCode: number | null;
  success: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  error?: string;
  timedOut?: boolean;
}

/** The process part of a hook run, as every `fire` prints it. */
export function processFields(r: ProcessRun) {
  return {
    exitCode: r.exitCode,
    success: r.success,
    durationMs: r.durationMs,
    stdout: r.stdout,
    stderr: r.stderr,
    error: r.error ?? null,
    ...(r.timedOut ? { timedOut: true } : {}),
  };
}
