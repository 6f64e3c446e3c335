/**
 * Fires one Claude Code event: every matching hook at once (handlers.ts runs each type: a command
 * with `bash -c` in the project folder and the input as JSON on stdin, an http POST, a model's
 * judgement), identical hooks once, each stopped at its timeout; then the runs are read and
 * aggregated (output.ts). A hook's `if` filter decides whether it runs at all; `async` hooks
 * run in the background (their output is not honoured), and so do `asyncRewake` hooks in an
 * interactive session (one that exits 2 leaves its output for the agent's next turn, see
 * background.ts); elsewhere, as under Claude Code's -p, an asyncRewake hook is an ordinary hook.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { envFrom } from '../../run/process.js';
import { sanitizeEnv } from '../../run/env.js';
import { expandVariables } from '../../run/expand.js';
import { CLAUDE_CATALOG, type ClaudeEvent } from './events.js';
import type { ClaudeConfig, ClaudeHook, ClaudeSource } from './config.js';
import { aggregateClaude, type ClaudeHookOutput, type ClaudeOutput } from './output.js';
import { processRunOf, type ProcessRun } from '../../run/result.js';
import { jsonText } from '../../run/serialize.js';
import { ClaudeSession } from './background.js';
import { runClaudeHandler, type HandlerRun } from './handlers.js';
import type { ClaudeHandlerType } from './handler-config.js';
import { IF_EVENTS } from './if-rule.js';
import { recordFire, traceRunOf } from '../../engine/trace.js';

export interface ClaudeFireOptions {
  /** The project folder: hooks run here, and it is `$CLAUDE_PROJECT_DIR`. Default: process.cwd(). */
  projectDir?: string;
  /**
   * The environment hooks start from, used as given (`CLAUDE_PROJECT_DIR` is added). Default:
   * process.env without secrets (`sanitizeEnv` with redaction on).
   */
  env?: NodeJS.ProcessEnv;
  /** `$CLAUDE_ENV_FILE` for the events Claude Code gives it to (SessionStart). */
  envFile?: string;
  signal?: AbortSignal;
  /** Hookline's own environment: http hooks read their `allowedEnvVars` from it. Default: process.env. */
  hostEnv?: NodeJS.ProcessEnv;
  /** The model that judges prompt and agent hooks; without one they are errors. */
  model?: LanguageModelV3;
  /** What to tell the user when a prompt or agent hook has no model. */
  noModel?: string;
  /**
   * What the session keeps between events: `once` hooks that ran, background runs, asyncRewake
   * messages. Without it the fire is a session of its own, and its background runs are awaited
   * (and reaped) before it returns.
   */
  session?: ClaudeSession;
  /** An interactive session: asyncRewake hooks run in the background and wake the agent (with -p or a fire, they run as ordinary hooks). */
  rewakeInBackground?: boolean;
  /** Without a session: where a long-running caller keeps the shells started ahead of its events. */
  processes?: Map<string, { close(): void }>;
  /** Called as each hook starts (e.g. to show its `statusMessage`). */
  onStart?(hook: ClaudeHook): void;
  /** Called once before any hook starts, when some will: the last word on the input they read. */
  beforeRun?(input: Record<string, unknown>): void;
  /**
   * Another agent reading Claude Code's file shape (Codex): the variables each hook's command may
   * name and gets in its environment, instead of `$CLAUDE_PROJECT_DIR` and a plugin's folders.
   */
  variables?(hook: ClaudeHook): Record<string, string>;
  /** How those variables are written into a command (default: `$NAME` and `${NAME}`, as Claude Code does). */
  expand?: HandlerRun['expand'];
  /** Runs identical hooks once each, as Codex does (Claude Code runs them once). */
  everyHook?: boolean;
  /** More names a tool event's matchers are tested against (Codex's `apply_patch` is matched as `Write` and `Edit` too). */
  aliases?: readonly string[];
  /** The event's name as its hooks read it in `hook_event_name`, when it is not the Claude Code event run (Codex's PreModelRequest). */
  wireEvent?: string;
  /** The dialect the fire is recorded under in traces. Default: `claude`. */
  dialect?: string;
}

/** Events Claude Code fires with no `permission_mode`: the session's start and end, its context files, compaction. */
export const NO_PERMISSION_MODE: ReadonlySet<ClaudeEvent> = new Set([
  'SessionStart',
  'SessionEnd',
  'SubagentStart',
  'InstructionsLoaded',
  'PreCompact',
  'PostCompact',
  'StopFailure',
]);

/** The events whose hooks may write `export` lines to `$CLAUDE_ENV_FILE`. */
export const ENV_FILE_EVENTS: ReadonlySet<ClaudeEvent> = new Set<ClaudeEvent>(['SessionStart']);

/** One hook's run. */
export interface ClaudeRun extends ProcessRun {
  type: ClaudeHandlerType;
  /** What ran: the command, the URL, the prompt, or `server/tool`. */
  command: string;
  source: ClaudeSource;
  /** The plugin's id (`name@marketplace`) for a plugin's hook. */
  plugin?: string;
  file: string;
  /** Where it is in the file, e.g. `hooks.PreToolUse[0].hooks[0]`. */
  path: string;
  matcher?: string;
  timeoutSeconds: number;
  /** Exit 0 and no error. */
  success: boolean;
  /** A non-blocking error (its response is ignored). */
  error?: string;
  /** What the run contributes, as Claude Code JSON output (see ClaudeRunReading.response). */
  response?: ClaudeHookOutput;
  format?: 'json' | 'text' | 'exit2';
  /** Plain stdout shown in the transcript only. */
  text?: string;
  /** Exit code 2: the stderr that is its reason, as printed. */
  blockStderr?: string;
  /** A one-word summary: `error`, `stop`, `deny`, `defer`, `ask`, `allow`, `block`, `ok`, or `async` for a background run. */
  outcome: string;
  /** Ran in the background (`async`, `asyncRewake`): its output decided nothing. */
  background?: boolean;
}

export interface ClaudeFireResult {
  event: ClaudeEvent;
  /** The input every hook read. */
  input: Record<string, unknown>;
  output: ClaudeOutput;
  runs: ClaudeRun[];
  /** Disagreements between hooks (e.g. two different `updatedInput`s). */
  warnings: string[];
}

/** The variables a hook's command may name: the project, and for a plugin's hooks its folders. */
export function claudeHookVariables(hook: Pick<ClaudeHook, 'plugin'>, projectDir: string): Record<string, string> {
  return {
    CLAUDE_PROJECT_DIR: projectDir,
    ...(hook.plugin ? { CLAUDE_PLUGIN_ROOT: hook.plugin.root, CLAUDE_PLUGIN_DATA: hook.plugin.data } : {}),
  };
}

/**
 * `$CLAUDE_PROJECT_DIR` and `${CLAUDE_PROJECT_DIR}` (and the other names in `vars`, e.g.
 * `${CLAUDE_PLUGIN_ROOT}`), substituted quoted for where they stand.
 */
export function expandClaudeCommand(
  command: string,
  projectDir: string,
  vars: Record<string, string> = { CLAUDE_PROJECT_DIR: projectDir },
): string {
  const names = Object.keys(vars).sort((a, b) => b.length - a.length);
  return expandVariables(command, (text, i) => {
    for (const name of names) {
      if (text.startsWith(`\${${name}}`, i)) return { length: name.length + 3, value: vars[name] };
      if (text.startsWith(`$${name}`, i) && !/[A-Za-z0-9_]/.test(text[i + name.length + 1] ?? ''))
        return { length: name.length + 1, value: vars[name] };
    }
    return undefined;
  });
}

/** The value an input is matched on for this event ('' when absent); undefined when the event has no matcher. */
export function claudeMatchValue(event: ClaudeEvent, input: Record<string, unknown>): string | undefined {
  const field = CLAUDE_CATALOG[event].matchField;
  if (!field) return undefined;
  const v = input[field];
  return typeof v === 'string' ? v : '';
}

/**
 * The hooks an event would run for this input: matching, passing their `if` filter (tool events
 * only), identical hooks once (the first kept).
 */
export function claudeHooksFor(
  config: ClaudeConfig,
  event: ClaudeEvent,
  input: Record<string, unknown>,
  opts: { projectDir?: string; aliases?: readonly string[]; everyHook?: boolean } = {},
): ClaudeHook[] {
  const value = claudeMatchValue(event, input);
  const values = value === undefined ? [] : [value, ...(opts.aliases ?? [])];
  const projectDir = opts.projectDir ?? (typeof input.cwd === 'string' ? input.cwd : process.cwd());
  const where = { cwd: typeof input.cwd === 'string' && input.cwd ? input.cwd : projectDir, projectDir };
  const toolInput = typeof input.tool_input === 'object' && input.tool_input !== null ? (input.tool_input as Record<string, unknown>) : {};
  const seen = new Set<string>();
  const out: ClaudeHook[] = [];
  for (const h of config.hooks) {
    if (h.event !== event || (value !== undefined && !values.some((v) => h.match.test(v)))) continue;
    if (h.if && !(IF_EVENTS.has(event) && h.if.test(String(input.tool_name ?? ''), toolInput, where))) continue;
    // The same text in two plugins runs two different scripts.
    const key = `${h.type}\0${h.plugin?.root ?? ''}\0${h.command}`;
    if (seen.has(key) && !opts.everyHook) continue;
    seen.add(key);
    out.push(h);
  }
  return out;
}

/** The full input: the base fields filled in where missing, `hook_event_name` always the event. */
export function buildClaudeInput(
  event: ClaudeEvent,
  fields: Record<string, unknown>,
  projectDir: string,
  wireEvent: string = event,
): Record<string, unknown> {
  const input: Record<string, unknown> = {
    session_id: randomUUID(),
    transcript_path: '',
    cwd: projectDir,
    // Claude Code's session start and end carry no permission mode.
    ...(NO_PERMISSION_MODE.has(event) ? {} : { permission_mode: 'default' }),
    ...fields,
    hook_event_name: wireEvent,
  };
  if ((event === 'Stop' || event === 'SubagentStop') && input.stop_hook_active === undefined) input.stop_hook_active = false;
  return input;
}

function outcomeOf(event: ClaudeEvent, run: Pick<ClaudeRun, 'error' | 'response'>): string {
  if (run.error) return 'error';
  const r = run.response;
  if (!r) return 'ok';
  if (r.continue === false) return 'stop';
  const s: Record<string, unknown> = r.hookSpecificOutput ?? {};
  if (event === 'PreToolUse') {
    const d =
      (s.permissionDecision as string | undefined) ?? (r.decision === 'approve' ? 'allow' : r.decision === 'block' ? 'deny' : undefined);
    return d ?? 'ok';
  }
  return r.decision === 'block' && CLAUDE_CATALOG[event].block !== 'none' ? 'block' : 'ok';
}

/** Fires one event. Never throws for a hook's failure. */
export async function fireClaude(
  config: ClaudeConfig,
  event: ClaudeEvent,
  fields: Record<string, unknown> = {},
  opts: ClaudeFireOptions = {},
): Promise<ClaudeFireResult> {
  const projectDir = path.resolve(opts.projectDir ?? process.cwd());
  const input = buildClaudeInput(event, fields, projectDir, opts.wireEvent);
  const env: Record<string, string> = {
    ...envFrom(opts.env ?? sanitizeEnv(process.env, { enabled: true, allowed: [], blocked: [] })),
    ...(opts.variables ? {} : { CLAUDE_PROJECT_DIR: projectDir }),
  };
  if (opts.envFile && ENV_FILE_EVENTS.has(event)) env.CLAUDE_ENV_FILE = opts.envFile;
  const session = opts.session ?? new ClaudeSession();
  const pools = opts.session?.processes ?? opts.processes;
  const hooks = claudeHooksFor(config, event, input, { projectDir, aliases: opts.aliases, everyHook: opts.everyHook });
  if (hooks.length) opts.beforeRun?.(input);
  const stdin = jsonText(input);
  const began = Date.now();
  const runOne = async (hook: ClaudeHook, signal: AbortSignal | undefined): Promise<ClaudeRun> => {
    opts.onStart?.(hook);
    const { raw, reading } = await runClaudeHandler(hook, event, {
      projectDir,
      env,
      hostEnv: opts.hostEnv ?? process.env,
      vars: opts.variables ? opts.variables(hook) : claudeHookVariables(hook, projectDir),
      stdin,
      input,
      model: opts.model,
      noModel: opts.noModel,
      signal,
      // A session of the agent (or a server) keeps shells started ahead; a one-shot fire has none to keep.
      ...(pools ? { pools } : {}),
      expand: opts.expand ?? expandClaudeCommand,
    });
    return {
      type: hook.type,
      command: hook.command,
      source: hook.source,
      ...(hook.plugin ? { plugin: hook.plugin.id } : {}),
      file: hook.file,
      path: hook.path,
      ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}),
      timeoutSeconds: hook.timeoutSeconds,
      ...processRunOf(raw, reading.error),
      ...(reading.response ? { response: reading.response } : {}),
      ...(reading.format ? { format: reading.format } : {}),
      ...(reading.stderr !== undefined ? { blockStderr: reading.stderr } : {}),
      ...(reading.text !== undefined ? { text: reading.text } : {}),
      outcome: outcomeOf(event, reading),
    };
  };
  // asyncRewake hooks go to the background only where a session waits for the user (Claude Code
  // runs them as ordinary hooks under -p, where nobody would be woken).
  const background = hooks.filter((h) => h.async || (h.asyncRewake && opts.rewakeInBackground));
  const backgroundRuns: Array<Promise<ClaudeRun>> = [];
  for (const hook of background) {
    // Not stopped with the event: a background hook outlives it, until the session closes (a
    // fire that is its own session is stopped by its caller's signal).
    const p = runOne(hook, opts.session ? session.signal : opts.signal).then((run) => {
      if (hook.asyncRewake && run.exitCode === 2) {
        const said = (run.stderr.trim() || run.stdout.trim() || `${hook.command} exited 2`).slice(0, 10_000);
        // Claude Code's words: the hook's prefix, or its own naming the hook, then what the hook said.
        const name = typeof input.tool_name === 'string' ? `${event}:${input.tool_name}` : event;
        const prefix = hook.rewakeMessage ?? `Stop hook blocking error from command "${name}":`;
        session.wake({ text: `${prefix} ${said}`, summary: hook.rewakeSummary ?? 'Stop hook feedback' });
      } else if (run.exitCode === 0 && run.response) {
        // Decides nothing, but what it says reaches the next turn, as in Claude Code.
        const context = (run.response.hookSpecificOutput as { additionalContext?: unknown } | undefined)?.additionalContext;
        const message = run.response.suppressOutput === true ? undefined : run.response.systemMessage;
        session.note({
          event,
          command: hook.command,
          ...(typeof context === 'string' && context ? { context } : {}),
          ...(typeof message === 'string' && message ? { systemMessage: message } : {}),
        });
      }
      return { ...run, background: true, outcome: run.error ? 'error' : 'async' };
    });
    session.track(p);
    backgroundRuns.push(p);
  }
  const runs = await Promise.all(hooks.filter((h) => !background.includes(h)).map((h) => runOne(h, opts.signal)));
  // A fire that is its own session waits for its background runs: every process is reaped.
  if (!opts.session) runs.push(...(await Promise.all(backgroundRuns)));
  const { output, warnings } = aggregateClaude(
    event,
    runs
      .filter((r) => !r.background)
      .map((r) => ({
        command: r.command,
        where: `${r.file} ${r.path}`,
        reading: {
          response: r.response,
          error: r.error,
          ...(r.format ? { format: r.format } : {}),
          ...(r.blockStderr !== undefined ? { stderr: r.blockStderr } : {}),
        },
      })),
  );
  if (runs.length) recordFire(claudeTraceFire(event, input, output, runs, began, opts.dialect), opts.env ?? process.env);
  return { event, input, output, runs, warnings };
}

function claudeTraceFire(
  event: ClaudeEvent,
  input: Record<string, unknown>,
  output: ClaudeOutput,
  runs: ClaudeRun[],
  began: number,
  dialect = 'claude',
) {
  const field = CLAUDE_CATALOG[event].matchField;
  const target = field && typeof input[field] === 'string' ? (input[field] as string) : undefined;
  const reasonOf = (r: ClaudeHookOutput | undefined) => {
    const s = (r?.hookSpecificOutput ?? {}) as Record<string, unknown>;
    const why = s.permissionDecisionReason ?? r?.reason ?? r?.stopReason;
    return typeof why === 'string' && why ? why : undefined;
  };
  const decision = !output.continue ? 'stop' : (output.permissionDecision ?? output.decision ?? 'ok');
  const reason = !output.continue ? output.stopReason : (output.permissionDecisionReason ?? output.reason);
  return {
    dialect,
    session: typeof input.session_id === 'string' ? input.session_id : '',
    event: typeof input.hook_event_name === 'string' ? input.hook_event_name : event,
    ...(target ? { target } : {}),
    ...(typeof input.cwd === 'string' ? { cwd: input.cwd } : {}),
    input,
    decision,
    ...(reason ? { reason } : {}),
    runs: runs.map((r) => ({ ...traceRunOf(r, r.outcome, r.error ? undefined : reasonOf(r.response)), start: began })),
  };
}
