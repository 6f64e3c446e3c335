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
  timedOut?: boolean;
  durationMs: number;
}
