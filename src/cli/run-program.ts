import { error, UsageError, warn } from './io.js';
import { otlpConfigured, startOtlpExport, telemetryFlushed } from '../telemetry.js';

// Running one command to its end, for every bundle of the CLI. Nothing here loads commander: a
// plain `hookline fire` runs without it (src/cli/fire-command.ts).

// Each command loads its own code when it runs: start-up pays only for the one in use.
let ran = false;
export const load = <T>(get: () => Promise<T>): Promise<T> => {
  ran = true;
  return get();
};

/** Runs the command `parse` picks from the command line; errors are one line, hook processes are reaped. */
export async function runProgram(parse: () => Promise<void>): Promise<void> {
  // Loaded only when a collector is named, so a start without one pays nothing for it.
  let flushTelemetry: (() => Promise<void>) | undefined;
  try {
    if (otlpConfigured()) {
      // A collector that cannot be set up is said; the command still runs.
      flushTelemetry = await startOtlpExport().catch((e: Error) => {
        warn(`telemetry: cannot export over OTLP (${e.message}) — check OTEL_EXPORTER_OTLP_ENDPOINT`);
        return undefined;
      });
    }
    await parse();
  } catch (err) {
    if (err instanceof UsageError) {
      error(err.message);
      process.exitCode = 1;
    } else if (isSystemError(err)) {
      // A file or folder the system refused (not a folder, no permission, disk full): the
      // environment's problem, said in one line, not a bug.
      error(`${err.message} — check that path (its permissions, or GEMINI_CLI_HOME / HOME)`);
      process.exitCode = 1;
    } else {
      // Not the user's mistake: one line, and the stack only when asked for.
      const e = err as Error;
      error(`${e?.message ?? String(err)} — this is a bug in hookline; run again with HOOKLINE_DEBUG=1 for the stack trace and report it`);
      if (process.env.HOOKLINE_DEBUG) process.stderr.write(`${e?.stack ?? ''}\n`);
      process.exitCode = 1;
    }
  }
  // Timers do not run once the process exits: stop and reap what hooks left before that.
  if (ran) await (await import('../run/process.js')).drain();
  if (flushTelemetry) {
    await telemetryFlushed();
    await flushTelemetry();
  }
}

/** An error from a system call on a path (ENOTDIR, EACCES, EROFS, ENOSPC…). */
function isSystemError(err: unknown): err is NodeJS.ErrnoException {
  const e = err as NodeJS.ErrnoException | undefined;
  return typeof e?.code === 'string' && typeof e.syscall === 'string' && typeof e.path === 'string';
}
