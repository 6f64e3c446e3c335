import fs from 'node:fs';
import { Command, CommanderError } from 'commander';
import { formatLine } from './io.js';
import { DEFAULT_DIALECT, FIRE_OPTIONS, runFire } from './fire-command.js';

// What every bundle of the CLI shares: the program and the `fire` command (which has a bundle of
// its own, so its start-up loads nothing else).

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
  const fire = program
    .command('fire')
    .description("fire one event and print the aggregated output and each hook's run as JSON")
    .argument('<event>', 'event name, e.g. BeforeTool');
  for (const o of FIRE_OPTIONS) {
    const flags = `--${o.flag} <${o.value}>`;
    if (o.repeatable) fire.option(flags, o.help, (v: string, all: string[] = []) => [...all, v]);
    else if (o.flag === 'dialect') fire.option(flags, o.help, DEFAULT_DIALECT);
    else fire.option(flags, o.help);
  }
  fire.action((event: string, opts) => runFire(event, opts));
}

/** Parses this process's command line with `program` and runs the command; commander's exits become the exit code. */
export function parseWith(program: Command): () => Promise<void> {
  return async () => {
    try {
      await program.parseAsync(process.argv);
    } catch (err) {
      if (!(err instanceof CommanderError)) throw err;
      process.exitCode = err.exitCode === 0 ? 0 : 1;
    }
  };
}
