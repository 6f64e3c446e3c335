/**
 * How a hook run failed, in one word, whatever its hook system: what `stats` counts, what traces
 * record, what `onFailure: "block"` fails closed on. A crash is a non-zero exit with an
 * interpreter's stack trace on stderr: the hook broke, it did not decide.
 */

export type FailureKind = 'timeout' | 'signal' | 'crash' | 'start' | 'output' | 'error' | 'exit';

const STACK_TRACES: readonly RegExp[] = [
  /^Traceback \(most recent call last\):$/m, // Python
  /^\s+at (?:.+ \()?(?:node:|file:\/\/|\/|[A-Za-z]:\\).*:\d+(?::\d+)?\)?$/m, // Node, Deno, Bun
  /^panic: .*\n(?:[\s\S]*\n)?goroutine \d+ /m, // Go
  /^Exception in thread "/m, // the JVM
  /^\s+at [\w$.<>]+\([\w$]+\.(?:java|kt|scala):\d+\)$/m,
  /:\d+:in [`'][^']*': .* \(\w+(?:Error|Exception)\)$/m, // Ruby
  /^thread '.*' panicked at /m, // Rust
];

/** True when stderr holds an interpreter's stack trace. */
export function looksLikeCrash(stderr: string): boolean {
  return STACK_TRACES.some((re) => re.test(stderr));
}

/** The line of a stack trace that names the error (`ModuleNotFoundError: No module named 'x'`). */
export function crashSummary(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim());
  const named = lines.find((l) => /^(?:Uncaught )?(?:[\w.$]+(?:Error|Exception)|Error)\b(?: \[[\w_]+\])?:/.test(l) || /^panic: /.test(l));
  const python = /^Traceback \(most recent call last\):$/m.test(stderr) ? lines.filter(Boolean).at(-1) : undefined;
  const line = python ?? named ?? lines.find(Boolean) ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/** A run's facts, as every hook system reports them. */
export interface FailureFacts {
  exitCode: number | null;
  stderr?: string;
  error?: string;
  warning?: string;
  timedOut?: boolean;
}

/** The exit codes that are answers rather than failures: 0, and 2, the blocking code of Gemini CLI and Claude Code. */
const ANSWERS = new Set([0, 2]);

/** How the run failed, or undefined when it answered (whatever it decided). */
export function failureOf(r: FailureFacts): FailureKind | undefined {
  if (r.timedOut || /\btimed out\b/i.test(r.error ?? '')) return 'timeout';
  if (/killed by signal/i.test(r.error ?? '')) return 'signal';
  if (r.exitCode !== null && r.exitCode !== 0 && looksLikeCrash(r.stderr ?? '')) return 'crash';
  if (r.exitCode === 126 || r.exitCode === 127) return 'start';
  if (r.error) return 'error';
  if (/not valid JSON|nested deeper than/.test(r.warning ?? '')) return 'output';
  if (r.exitCode !== null && !ANSWERS.has(r.exitCode)) return 'exit';
  return undefined;
}
