import type { HookOutput } from '../events/output.js';

/** What one process run did, for every outcome (timeouts and kills included); no reading of its output. */
export interface ProcessResult {
  exitCode: number | null;
  signal?: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Why the run failed on Hookline's side: timeout, cancel, stdout flood, could not start. */
  error?: string;
  /** Something odd that did not make the run fail (e.g. invalid UTF-8 on stdout). */
  warning?: string;
  timedOut?: boolean;
  durationMs: number;
}

/** What one hook run gave, once its output is read (src/decide). */
export interface RunResult extends ProcessResult {
  success: boolean;
  output?: HookOutput;
  /** `json` when stdout (or stderr) held a JSON object, `text` for the plain-text fallback. */
  outputFormat?: 'json' | 'text';
}

/** The process part every hook run reports, whatever the dialect. */
export interface ProcessRun {
  exitCode: number | null;
  success: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  error?: string;
  /** What was read but is not quite what the process wrote (invalid UTF-8, a cut stderr). */
  warning?: string;
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
    ...(r.warning ? { warning: r.warning } : {}),
    ...(r.timedOut ? { timedOut: true } : {}),
  };
}

/** A finished process as a dialect reports its run: `error` is the dialect's reading of it (none: success by exit 0). */
export function processRunOf(r: ProcessResult, error: string | undefined): ProcessRun {
  return {
    exitCode: r.exitCode,
    success: r.exitCode === 0 && !error,
    durationMs: Math.round(r.durationMs * 1000) / 1000,
    stdout: r.stdout,
    stderr: r.stderr,
    ...(error ? { error } : {}),
    ...(r.warning ? { warning: r.warning } : {}),
    ...(r.timedOut ? { timedOut: true } : {}),
  };
}
