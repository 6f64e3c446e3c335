#!/usr/bin/env node
import { UsageError } from './io.js';
import { addFire, newProgram, parseWith } from './program.js';
import { load, runProgram } from './run-program.js';

/** Every environment variable Hookline itself reads, for `--help`. */
const ENVIRONMENT = `
Environment:
  GEMINI_CLI_HOME                  folder holding .gemini/ (settings, trustedFolders.json, trusted_hooks.json); default: HOME
  GEMINI_CLI_SYSTEM_SETTINGS_PATH  the system settings file
  GEMINI_CLI_TRUSTED_FOLDERS_PATH  the trusted folders file
  GEMINI_CLI_TRUST_WORKSPACE       true: trust the folder (hooks are recorded and run); false: never trust it
  GEMINI_RESTRICTED_MODE           true: no workspace hook runs
  GITHUB_SHA, SURFACE=Github       strict environment for hooks (as on GitHub runners)
  HOME                             the user's home (~/.claude/settings.json, ~/.gemini)
  MM_CONFIG                        the mm configuration (default: agent.yaml in the folder)
  MM_BIN                           the program mm hooks call back
  HOOKLINE_MODEL                   agent: the model (as --model); fire: judges Claude Code prompt hooks
  HOOKLINE_BASE_URL, OPENAI_BASE_URL   agent: openai-compatible server (as --base-url)
  HOOKLINE_API_KEY, OPENAI_API_KEY     agent: openai-compatible API key
  GEMINI_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY   agent: key for --model gemini:…
  GOOGLE_GEMINI_BASE_URL           agent: server for --model gemini:… (its root, as Gemini CLI reads it)
  ANTHROPIC_API_KEY                agent: key for --model anthropic:…
  ANTHROPIC_BASE_URL               agent: server for --model anthropic:… (its root, as Claude Code reads it)
  HOOKLINE_SCRIPT_LOG              agent: append each scripted call's prompt to this file
  HOOKLINE_PERSISTENT              set to 1 by Hookline for persistent hooks (hookline/sdk reads it)
  CLAUDE_ENV_FILE                  set by Hookline for Claude Code SessionStart hooks: the exports they write reach later shell commands
  HOOKLINE_DEBUG                   print the stack trace of an unexpected error, and why a "prewarm" hook ran cold
  HOOKLINE_NO_CGROUP               1: do not put hook processes in a cgroup of their own
  HOOKLINE_TRACE                   0: record no hook traces; inputs: record each event's full input too (for replay)
  HOOKLINE_TRACE_DIR               where hook traces are kept (default: ~/.gemini/hookline/traces)
  HOOKLINE_SOCKET                  fire: send the event to a running hookline serve on this socket (yours only: owner-only, in a private folder)
  HOOKLINE_MAX_HOOK_PROCESSES      at most this many one-shot hook processes at once; the others wait their turn (default 32)
  XDG_RUNTIME_DIR                  serve: the default socket's folder
  HOOKLINE_CLAUDE_MANAGED_SETTINGS Claude Code's managed policy file (default: /etc/claude-code/managed-settings.json)
  CLAUDE_CONFIG_DIR                Claude Code's home folder (default: ~/.claude)
  CLAUDE_CODE_PLUGIN_CACHE_DIR     where Claude Code keeps installed plugins (default: ~/.claude/plugins)
  CLAUDE_CODE_STOP_HOOK_BLOCK_CAP  agent: Claude Code Stop hooks may keep a turn going this many times in a row (default 8)
  CLAUDE_CODE_EFFORT_LEVEL         agent: the effort level Claude Code hooks are told (default medium)
  CODEX_HOME                       Codex's home folder (default: ~/.codex): its hooks.json, config.toml and trust records
  HOOKLINE_CODEX_SYSTEM_DIR        Codex's system layer, with requirements.toml (default: /etc/codex)
  COPILOT_HOME                     Copilot CLI's home folder (default: ~/.copilot)
  COPILOT_HOOK_ALLOW_LOCALHOST     1: Copilot CLI http hooks may post to this machine (http://127.0.0.1…)
  NO_COLOR, FORCE_COLOR, TERM      colour of error lines (only on a terminal, never with NO_COLOR)
  OTEL_EXPORTER_OTLP_ENDPOINT      export hook spans and metrics to this OTLP/HTTP collector (JSON), e.g. http://127.0.0.1:4318
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_METRICS_ENDPOINT   the same, per signal (full URL)
  OTEL_EXPORTER_OTLP_HEADERS       headers sent to the collector (k=v,k2=v2); OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES: the resource
  OTEL_SDK_DISABLED                true: no export, whatever the endpoint
  HOOKLINE_OTEL_NAMING             gemini: run spans and metrics under Gemini CLI's names (gemini_cli.hook_call…)
  XDG_CACHE_HOME                   the installed hookline keeps its compiled code in $XDG_CACHE_HOME/hookline (default ~/.cache/hookline)
  NODE_DISABLE_COMPILE_CACHE       1: do not keep compiled code
  NODE_OPTIONS                     a hook's own: a pre-warmed Node hook whose NODE_OPTIONS has --trace-exit is answered at its exit
  HOOKLINE_RELAY_BUDGET            seconds an installed shell-client entry waits before it refuses a guard (at most and by default 55)
`;

const program = newProgram().addHelpText('after', ENVIRONMENT);
addFire(program);

program
  .command('list')
  .description('list configured hooks')
  .option('--cwd <dir>', 'project folder')
  .option('--json', 'print JSON')
  .action(async (opts) => (await load(() => import('./list.js'))).list(opts));

program
  .command('validate')
  .description('report every configuration problem (exit 1 on errors): every hook system found, or the one named')
  .option('--cwd <dir>', 'project folder')
  .option('--json', 'print JSON')
  .option('--dialect <name>', 'gemini | claude | codex | copilot | mm | spatialagent | agy (default: every one configured here)')
  .option(
    '--config <file>',
    "the dialect's configuration file (mm: $MM_CONFIG or agent.yaml; spatialagent: .spatialagent/settings.json; claude: instead of .claude/settings*.json; codex: a hooks.json or config.toml instead of the project's .codex; copilot: a hooks file instead of the workspace's)",
  )
  .option('--plugin-dir <dir>', 'claude: load a Claude Code plugin from this folder (repeatable)', (dir: string, all: string[] = []) => [
    ...all,
    dir,
  ])
  .action(async (opts) => {
    process.exitCode = await (await load(() => import('./validate.js'))).validate(opts);
  });

for (const [cmd, enabled] of [
  ['enable', true],
  ['disable', false],
] as const) {
  program
    .command(`${cmd} <name>`)
    .description(`${cmd} a hook by name (or command), in settings`)
    .option('--cwd <dir>', 'project folder')
    .action(async (name: string, opts) => (await load(() => import('./manage.js'))).setHook(name, enabled, opts));
  program
    .command(`${cmd}-all`)
    .description(`${cmd} every hook, in settings`)
    .option('--cwd <dir>', 'project folder')
    .action(async (opts) => (await load(() => import('./manage.js'))).setAll(enabled, opts));
}

program
  .command('trust')
  .description('trust a folder and its current hooks; lists new or changed ones')
  .argument('[dir]', 'folder (default: the current folder)')
  .option('--check', 'only list what is untrusted; exit 1 if anything is')
  .option('--json', 'with --check: print JSON')
  .action(async (dir: string | undefined, opts) => {
    process.exitCode = await (await load(() => import('./trust.js'))).trust(dir, opts);
  });

program
  .command('test')
  .description('run hook test fixtures (default: .hookline/tests/) in a sandboxed home; exit 1 on any failure')
  .argument('[paths...]', 'fixture files or folders')
  .option('--cwd <dir>', 'project folder (default: the current folder)')
  .option('--hook <name>', "judge each fixture on this hook's own answer (its name or command)")
  .action(async (paths: string[], opts) => {
    const [{ withHookProcesses }, { hookTest }] = await Promise.all([import('./lifecycle.js'), import('./test.js')]);
    await withHookProcesses(async () => {
      process.exitCode = await hookTest(paths, opts);
    });
  });

program
  .command('init')
  .description('scaffold a hook: its script, its entry in the project configuration and passing test fixtures')
  .option('--lang <lang>', 'bash | node | python', 'bash')
  .option('--event <event>', "the event, in the dialect's names (default: before a tool runs)")
  .option('--dialect <name>', 'gemini | claude | codex | copilot | mm | spatialagent | agy', 'gemini')
  .option('--name <name>', 'the hook and its script file', 'guard')
  .option('--cwd <dir>', 'project folder (default: the current folder)')
  .action(async (opts) => (await import('./init.js')).init(opts));

program
  .command('doctor')
  .description('for every configured hook: would it run (for this event and tool), and if not, why; exit 1 when one would silently not run')
  .option('--cwd <dir>', 'project folder (default: the current folder)')
  .option('--event <event>', "only this event (the agent's name, e.g. BeforeTool, or a hook system's)")
  .option('--tool <name>', 'only hooks whose matcher picks this tool (e.g. run_shell_command)')
  .option('--json', 'print JSON')
  .action(async (opts) => {
    process.exitCode = await (await import('./doctor.js')).doctor(opts);
  });

program
  .command('convert')
  .description('convert a hook configuration between hook systems; prints every field dropped or approximated on stderr')
  .argument('<file>', 'the configuration to convert')
  .requiredOption('--from <dialect>', 'gemini | claude | codex | copilot | mm | spatialagent | agy')
  .requiredOption('--to <dialect>', 'gemini | claude | codex | copilot | mm | spatialagent | agy')
  .option('-o, --output <file>', 'write here (atomically) instead of stdout')
  .action(async (file: string, opts) => (await import('./convert.js')).convert(file, opts));

program
  .command('serve')
  .description('serve fire, list and validate over a Unix socket (JSON-RPC 2.0, one message a line) from warm engines')
  .option('--socket <path>', 'the socket (default: $XDG_RUNTIME_DIR/hookline/hookline.sock, else ~/.gemini/hookline/hookline.sock)')
  .option('--http <host:port>', 'also serve HTTP POST on a loopback address, e.g. 127.0.0.1:7337')
  .option('--token-file <file>', 'with --http: the bearer token clients must send (a file only you can read)')
  .option('--idle-exit <seconds>', 'stop after this many seconds with no request')
  .option('--relay-port <port>', "also answer Claude Code's http entries (hookline install claude) on 127.0.0.1:PORT")
  .action(async (opts) => (await load(() => import('../serve/server.js'))).serve(opts));

program
  .command('relay')
  .description('answer one event of an agent Hookline is installed into (what `hookline install` entries run), in this process')
  .argument('<agent>', 'claude | codex | copilot | gemini')
  .option('--hooks-from <list>', 'whose hooks run: hookline (your Hookline settings, the default) and other agents, e.g. hookline,claude')
  .option('--deadline <seconds>', "Hookline's own limit for the event: past it a guard event is refused (default 55)")
  .option('--event <name>', "the agent's event, when its input does not name it (copilot's entries give it)")
  .option('--in-process', 'run here (the default; the light client passes it when no server answers)')
  .action(async (agent: string, opts) => {
    const [{ withHookProcesses }, { relayCommand }] = await Promise.all([import('./lifecycle.js'), import('./relay.js')]);
    await withHookProcesses(async () => {
      process.exitCode = await relayCommand(agent, opts);
    });
  });

program
  .command('install')
  .description("add Hookline's entries to another agent's own configuration, so that agent runs your reviewed hooks through Hookline")
  .argument('<agent>', 'claude | codex | copilot | gemini')
  .option('--scope <scope>', "user (the agent's user settings, the default) or project (this folder's)")
  .option('--hooks-from <list>', 'whose hooks run: hookline (your Hookline settings, the default) and other agents, e.g. claude')
  .option(
    '--transport <kind>',
    "loopback (Claude Code's http entries and a shell client to the warm server; the default on Linux) or socket (a Node client per event)",
  )
  .option('--port <port>', 'loopback: the port on 127.0.0.1 the entries reach the server at (default: the installed one, else a free one)')
  .option('--dry-run', 'print the exact change and write nothing')
  .option('-y, --yes', 'write without asking')
  .action(async (agent: string, opts) => {
    process.exitCode = await (await import('./install.js')).installCommand(agent, opts);
  });

program
  .command('uninstall')
  .description("remove Hookline's entries from another agent's configuration: the file as it was when nothing else changed it")
  .argument('<agent>', 'claude | codex | copilot | gemini')
  .option('--scope <scope>', 'user (the default) or project')
  .action(async (agent: string, opts) => {
    process.exitCode = await (await import('./install.js')).uninstallCommand(agent, opts);
  });

program
  .command('mcp-proxy')
  .description('serve an MCP server over stdio with hooks on its tools: hookline mcp-proxy [--name SERVER] -- <server command…>')
  .option('--name <server>', "the server name hooks see in mcp__<server>__<tool> (default: the server's own name)")
  .option('--cwd <dir>', 'the folder whose hooks run, where the server starts (default: the current folder)')
  .argument('<command...>', 'the MCP server to run, after --')
  .action(async (command: string[], opts) => {
    const [{ withHookProcesses }, { mcpProxy }] = await Promise.all([import('./lifecycle.js'), import('./mcp-proxy.js')]);
    await withHookProcesses(async () => {
      process.exitCode = await mcpProxy(command, opts);
    });
  });

program
  .command('agent')
  .description('run the reference agent: every hook event at its point of a real agent loop')
  .option('-p, --prompt <text>', 'run one prompt non-interactively and print the answer')
  .option('--model <spec>', 'scripted:FILE | openai-compatible:MODEL | gemini:MODEL | anthropic:MODEL (or HOOKLINE_MODEL)')
  .option(
    '--base-url <url>',
    'base URL of the model server (openai-compatible: or HOOKLINE_BASE_URL; gemini: GOOGLE_GEMINI_BASE_URL; anthropic: ANTHROPIC_BASE_URL)',
  )
  .option('--approval-mode <mode>', 'default | auto_edit | yolo', 'default')
  .option('--resume [session]', 'resume the latest session, or the one with this id')
  .option('--display-hooks', 'print one line per hook run')
  .option('--shadow', 'shadow mode: every hook runs and what it would have denied is shown and traced, but nothing is enforced')
  .option('--record <file>', "append the model's answers to a script file")
  .option('--cwd <dir>', 'project folder (default: the current folder)')
  .option('--max-steps <n>', 'model calls per turn at most', '25')
  .option('--compress-threshold <tokens>', 'compress the history past this many estimated tokens')
  .option('--mm-config <file>', 'an mm configuration (default: $MM_CONFIG or agent.yaml in the folder)')
  .option('--ask <agent>', 'hand the question to an agent of mmConfigs and print its answer')
  .option(
    '--plugin-dir <dir>',
    'load a Claude Code plugin from this folder for the session (repeatable)',
    (dir: string, all: string[] = []) => [...all, dir],
  )
  .option(
    '--prefer-dialect <name>',
    "where two dialects read one file (.claude/settings*.json: Claude Code and Copilot CLI), this one runs its hooks (default: the file's own agent, claude)",
  )
  .argument('[question]', 'with --ask: the question (or give it with -p)')
  .action(async (question: string | undefined, opts) => {
    if (question !== undefined && opts.ask === undefined)
      throw new UsageError(`unexpected argument "${question}" — use -p "prompt", or --ask <agent> "question"`);
    // Loaded on demand: the agent pulls in the AI SDK, which `fire` must not pay for.
    const [{ agentCommand }, { withHookProcesses }] = await load(() => Promise.all([import('./agent.js'), import('./lifecycle.js')]));
    // SIGTERM and SIGHUP stop the hooks too; SIGINT is the agent's own (it cancels a turn).
    await withHookProcesses(
      async () => {
        process.exitCode = await agentCommand({
          ...opts,
          ...(question !== undefined && opts.prompt === undefined ? { prompt: question } : {}),
        });
      },
      { signals: ['SIGTERM', 'SIGHUP'], watchParent: false },
    );
  });

program
  .command('trace')
  .description("print a session's hook trace (default: the latest session), or write it as an HTML timeline")
  .argument('[session]', 'session id (or its start), or a trace file')
  .option('--json', 'print the trace records as JSON')
  .option('--html <file>', 'write a self-contained timeline page')
  .option('--list', 'list the sessions with a trace')
  .action(async (session: string | undefined, opts) => (await import('./trace.js')).trace(session, opts));

program
  .command('explain')
  .description('tell the story of one decision: which hooks answered what, how they were combined, what the agent did')
  .argument('[session]', 'session id (or its start), or a trace file (default: the latest session)')
  .argument('[n]', "the event's number in the trace (default: the last deny, block or stop)")
  .option('--json', 'print JSON')
  .action(async (session: string | undefined, n: string | undefined, opts) => (await import('./explain.js')).explain(session, n, opts));

program
  .command('stats')
  .description('per hook, from the traces: runs, p50/p95 time, deny rate, errors; warns about hooks that are consistently slow')
  .argument('[sessions...]', 'session ids or trace files (default: every trace kept)')
  .option('--json', 'print JSON')
  .action(async (sessions: string[], opts) => (await import('./stats.js')).stats(sessions, opts));

program
  .command('replay')
  .description("fire a recorded session's events again against the hooks as configured now; print each decision that would change")
  .argument('<trace>', 'a session id or trace file (recorded with trace.inputs), or an agent session recording (.jsonl transcript)')
  .option('--cwd <dir>', 'the folder to fire in (default: the one each event was recorded in)')
  .option('--current', "replay against the folder's hook files as they are now, trusted in a throwaway home (as hookline test does)")
  .option('--json', 'print JSON')
  .action(async (which: string, opts) => {
    const [{ withHookProcesses }, { replay }] = await Promise.all([import('./lifecycle.js'), import('./replay.js')]);
    await withHookProcesses(async () => {
      process.exitCode = await replay(which, opts);
    });
  });

program
  .command('completion')
  .description('print a shell completion script: eval "$(hookline completion bash)"')
  .argument('<shell>', 'bash | zsh | fish')
  .action(async (shell: string) => {
    process.stdout.write((await import('./completion.js')).completion(program, shell));
  });

// No top-level await: the bundled CLI is CommonJS, so its compiled code can be cached.
void runProgram(parseWith(program));
