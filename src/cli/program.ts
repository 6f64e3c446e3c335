import fs from 'node:fs';
import { Command, CommanderError } from 'commander';
import { error, formatLine, UsageError, warn } from './io.js';
import { otlpConfigured, startOtlpExport, telemetryFlushed } from '../telemetry.js';

// What every bundle of the CLI shares: the program, the `fire` command (which has a bundle of its
// own, so its start-up loads nothing else), and running a program to its end.

// Each command loads its own code when it runs: start-up pays only for the one in use.
let ran = false;
export const load = <T>(get: () => Promise<T>): Promise<T> => {
  ran = true;
  return get();
};

/** `error: unknown option '--x'` → `unknown option '--x' — see hookline --help`. */
function usageLine(text: string): string {
  const what = text
    .trim()
    .replace(/^error: /, '')
    .split('\n')[0];
  return `${what} — see hookline --help`;
}

/** The `hookline` program, with no commands yet. */
export function newProgram(): Command {
  const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return (
    new Command()
      .name('hookline')
      .description('Run, inspect and manage AI agent hooks.')
      .version(pkg.version)
      .exitOverride()
      // Commander's own errors (unknown command or option, missing argument) in Hookline's one-line shape.
      .configureOutput({ outputError: (text, write) => write(`${formatLine(usageLine(text), 'error')}\n`) })
  );
}

export function addFire(program: Command): void {
  program
    .command('fire')
    .description("fire one event and print the aggregated output and each hook's run as JSON")
    .argument('<event>', 'event name, e.g. BeforeTool')
    .option('--input <file>', "the event's own fields as JSON (- for stdin)")
    .option('--cwd <dir>', 'session folder (default: the current folder)')
    .option('--session-id <id>', 'session id (default: a new one)')
    .option('--transcript-path <path>', 'transcript file path')
    .option(
      '--dialect <name>',
      'gemini | claude | mm | spatialagent | agy: event names, input and configuration of that hook system',
      'gemini',
    )
    .option(
      '--config <file>',
      "the dialect's configuration file (mm: $MM_CONFIG or agent.yaml; spatialagent: .spatialagent/settings.json; claude: instead of .claude/settings*.json)",
    )
    .option('--model <spec>', 'spatialagent and claude prompt hooks: the model, as for `hookline agent` (scripted:FILE, …)')
    .option('--base-url <url>', 'base URL of an openai-compatible server (with --model)')
    .option('--plugin-dir <dir>', 'claude: load a Claude Code plugin from this folder (repeatable)', (dir: string, all: string[] = []) => [
      ...all,
      dir,
    ])
    .action(async (event: string, opts) => {
      const [{ withHookProcesses }, { fire }] = await load(() => Promise.all([import('./lifecycle.js'), import('./fire.js')]));
      await withHookProcesses(() => fire(event, opts));
    });
}

/** Parses the command line and runs the command; errors are one line, hook processes are reaped. */
export async function runProgram(program: Command): Promise<void> {
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
    await program.parseAsync(process.argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? 0 : 1;
    } else if (err instanceof UsageError) {
      error(err.message);
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
