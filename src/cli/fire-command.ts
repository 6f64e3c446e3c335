import { parseArgs } from 'node:util';
import type { FireOptions } from './fire.js';
import { load } from './run-program.js';

interface FireOption {
  /** The long flag, without `--`. */
  flag: string;
  /** The value's name in help. */
  value: string;
  help: string;
  repeatable?: boolean;
}

/** `hookline fire`'s options: commander's (src/cli/program.ts) and the plain parse below read this one table. */
export const FIRE_OPTIONS: readonly FireOption[] = [
  { flag: 'input', value: 'file', help: "the event's own fields as JSON (- for stdin)" },
  { flag: 'cwd', value: 'dir', help: 'session folder (default: the current folder)' },
  { flag: 'session-id', value: 'id', help: 'session id (default: a new one)' },
  { flag: 'transcript-path', value: 'path', help: 'transcript file path' },
  {
    flag: 'dialect',
    value: 'name',
    help: 'gemini | claude | codex | copilot | mm | spatialagent | agy: event names, input and configuration of that hook system',
  },
  {
    flag: 'config',
    value: 'file',
    help: "the dialect's configuration file (mm: $MM_CONFIG or agent.yaml; spatialagent: .spatialagent/settings.json; claude: instead of .claude/settings*.json; codex: a hooks.json or config.toml instead of the project's .codex; copilot: a hooks file instead of the workspace's)",
  },
  { flag: 'model', value: 'spec', help: 'spatialagent and claude prompt hooks: the model, as for `hookline agent` (scripted:FILE, …)' },
  { flag: 'base-url', value: 'url', help: 'base URL of an openai-compatible server (with --model)' },
  { flag: 'plugin-dir', value: 'dir', help: 'claude: load a Claude Code plugin from this folder (repeatable)', repeatable: true },
];

export const DEFAULT_DIALECT = 'gemini';

/** `session-id` → `sessionId`, as commander names option values. */
const camel = (flag: string) => flag.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/**
 * The event and options of a plain `fire` command line (argv after the node and script words),
 * read with Node's own parser so an event does not load commander. Anything else — help, a
 * mistake, a value that begins with a dash — is undefined, and commander reads it and answers.
 */
export function plainFire(argv: readonly string[]): { event: string; opts: FireOptions } | undefined {
  if (argv[0] !== 'fire') return undefined;
  const options = Object.fromEntries(FIRE_OPTIONS.map((o) => [o.flag, { type: 'string' as const, multiple: !!o.repeatable }]));
  let parsed: ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true; strict: true; args: string[] }>>;
  try {
    parsed = parseArgs({ args: argv.slice(1), options, allowPositionals: true, strict: true });
  } catch {
    return undefined;
  }
  if (parsed.positionals.length !== 1) return undefined;
  const opts: Record<string, unknown> = { dialect: DEFAULT_DIALECT };
  for (const [flag, value] of Object.entries(parsed.values)) opts[camel(flag)] = value;
  return { event: parsed.positionals[0]!, opts: opts as FireOptions };
}

/** Fires the event, with every hook process stopped and reaped before the command ends. */
export async function runFire(event: string, opts: FireOptions): Promise<void> {
  const [{ withHookProcesses }, { fire }] = await load(() => Promise.all([import('./lifecycle.js'), import('./fire.js')]));
  await withHookProcesses(() => fire(event, opts));
}
