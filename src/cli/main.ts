#!/usr/bin/env node
import fs from 'node:fs';
import { Command, CommanderError } from 'commander';
import { fire } from './fire.js';
import { list } from './list.js';
import { validate } from './validate.js';
import { setAll, setHook } from './manage.js';
import { trust } from './trust.js';
import { UsageError } from './io.js';

const program = new Command();
const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
program.name('hookline').description('Run, inspect and manage AI agent hooks.').version(pkg.version).exitOverride().showHelpAfterError();

program
  .command('fire')
  .description("fire one event and print the aggregated output and each hook's run as JSON")
  .argument('<event>', 'event name, e.g. BeforeTool')
  .option('--input <file>', "the event's own fields as JSON (- for stdin)")
  .option('--cwd <dir>', 'session folder (default: the current folder)')
  .option('--session-id <id>', 'session id (default: a new one)')
  .option('--transcript-path <path>', 'transcript file path')
  .option('--dialect <name>', 'gemini | claude | mm | spatialagent: event names, input and configuration of that hook system', 'gemini')
  .option('--config <file>', "the dialect's configuration file (mm: $MM_CONFIG or agent.yaml; spatialagent: .spatialagent/settings.json; claude: instead of .claude/settings*.json)")
  .option('--model <spec>', 'spatialagent prompt hooks: the model, as for `hookline agent` (scripted:FILE, …)')
  .option('--base-url <url>', 'base URL of an openai-compatible server (with --model)')
  .option('--plugin-dir <dir>', 'claude: load a Claude Code plugin from this folder (repeatable)', (dir: string, all: string[] = []) => [...all, dir])
  .action(async (event: string, opts) => fire(event, opts));

program
  .command('list')
  .description('list configured hooks')
  .option('--cwd <dir>', 'project folder')
  .option('--json', 'print JSON')
  .action(async (opts) => list(opts));

program
  .command('validate')
  .description('report every configuration problem (exit 1 on errors)')
  .option('--cwd <dir>', 'project folder')
  .option('--json', 'print JSON')
  .option('--dialect <name>', 'gemini | claude | mm | spatialagent', 'gemini')
  .option('--config <file>', "the dialect's configuration file (mm: $MM_CONFIG or agent.yaml; spatialagent: .spatialagent/settings.json; claude: instead of .claude/settings*.json)")
  .option('--plugin-dir <dir>', 'claude: load a Claude Code plugin from this folder (repeatable)', (dir: string, all: string[] = []) => [...all, dir])
  .action(async (opts) => {
    process.exitCode = await validate(opts);
  });

for (const [cmd, enabled] of [['enable', true], ['disable', false]] as const) {
  program
    .command(`${cmd} <name>`)
    .description(`${cmd} a hook by name (or command), in settings`)
    .option('--cwd <dir>', 'project folder')
    .action((name: string, opts) => setHook(name, enabled, opts));
  program
    .command(`${cmd}-all`)
    .description(`${cmd} every hook, in settings`)
    .option('--cwd <dir>', 'project folder')
    .action((opts) => setAll(enabled, opts));
}

program
  .command('trust')
  .description("trust a folder and its current hooks; lists new or changed ones")
  .argument('[dir]', 'folder (default: the current folder)')
  .option('--check', 'only list what is untrusted; exit 1 if anything is')
  .action(async (dir: string | undefined, opts) => {
    process.exitCode = await trust(dir, opts);
  });

program
  .command('agent')
  .description('run the reference agent: every hook event at its point of a real agent loop')
  .option('-p, --prompt <text>', 'run one prompt non-interactively and print the answer')
  .option('--model <spec>', 'scripted:FILE | openai-compatible:MODEL | gemini:MODEL | anthropic:MODEL (or HOOKLINE_MODEL)')
  .option('--base-url <url>', 'base URL of an openai-compatible server (or HOOKLINE_BASE_URL)')
  .option('--approval-mode <mode>', 'default | auto_edit | yolo', 'default')
  .option('--resume [session]', 'resume the latest session, or the one with this id')
  .option('--display-hooks', 'print one line per hook run')
  .option('--record <file>', "append the model's answers to a script file")
  .option('--cwd <dir>', 'project folder (default: the current folder)')
  .option('--max-steps <n>', 'model calls per turn at most', '25')
  .option('--compress-threshold <tokens>', 'compress the history past this many estimated tokens')
  .option('--mm-config <file>', "an mm configuration (default: $MM_CONFIG or agent.yaml in the folder)")
  .option('--ask <agent>', 'hand the question to an agent of mmConfigs and print its answer')
  .option('--plugin-dir <dir>', 'load a Claude Code plugin from this folder for the session (repeatable)', (dir: string, all: string[] = []) => [...all, dir])
  .argument('[question]', 'with --ask: the question (or give it with -p)')
  .action(async (question: string | undefined, opts) => {
    if (question !== undefined && opts.ask === undefined) throw new UsageError(`unexpected argument "${question}": use -p "prompt", or --ask <agent> "question"`);
    // Loaded on demand: the agent pulls in the AI SDK, which `fire` must not pay for.
    const { agentCommand } = await import('./agent.js');
    process.exitCode = await agentCommand({ ...opts, ...(question !== undefined && opts.prompt === undefined ? { prompt: question } : {}) });
  });

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exitCode = err.exitCode === 0 ? 0 : 1;
  } else if (err instanceof UsageError) {
    process.stderr.write(`hookline: ${err.message}\n`);
    process.exitCode = 1;
  } else {
    // Never a stack trace for the user: one line (HOOKLINE_DEBUG=1 prints the stack).
    const line = ((err as Error)?.message ?? String(err)).split('\n')[0];
    process.stderr.write(`hookline: ${process.env.HOOKLINE_DEBUG ? (err as Error)?.stack ?? String(err) : line}\n`);
    process.exitCode = 1;
  }
}
