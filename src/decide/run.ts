import type { ProcessResult, RunResult } from '../run/result.js';
import { parseHookText } from './parse.js';
import { crashSummary, looksLikeCrash } from './failure.js';

/**
 * Reads a finished command hook's process result as Gemini CLI does. A run that failed on
 * Hookline's side (timeout, cancel, flood, could not start) has no output; otherwise stdout (or
 * stderr) is parsed, and a death by signal is an error beside whatever the hook printed.
 */
export function decideRun(raw: ProcessResult): RunResult {
  if (raw.error || raw.timedOut) return { ...raw, success: false };
  // As the reference: a signal death counts as exit 0 for the plain-text fallback.
  const parsed = parseHookText(raw.stdout, raw.stderr, raw.exitCode ?? 0);
  // Unlike the reference (exit code 0, no error), a killed hook is reported, as a timeout is.
  // Output too deep to read is an error too (a blocking exit code still blocks).
  // A non-blocking exit with a stack trace is a crash, not an allow (the plain-text reading stays).
  const crash = raw.exitCode === 1 && looksLikeCrash(raw.stderr) ? `crashed (exit 1): ${crashSummary(raw.stderr)}` : undefined;
  const error = raw.signal ? `Hook killed by signal ${raw.signal}` : (parsed.error ?? crash);
  const { error: _unread, warning: unparsed, ...rest } = parsed;
  const warning = [raw.warning, unparsed].filter(Boolean).join('; ');
  return { ...raw, ...rest, success: raw.exitCode === 0 && !error, ...(error ? { error } : {}), ...(warning ? { warning } : {}) };
}
