/**
 * Fires one Claude Code event: every matching command hook at once (`bash -c` in the project
 * folder, the input as JSON on stdin, `CLAUDE_PROJECT_DIR` set), identical commands once, each
 * stopped at its timeout; then the runs are read and aggregated (output.ts).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { runCommand } from '../../run/command.js';
import { envFrom } from '../../run/process.js';
import { sanitizeEnv } from '../../run/env.js';
import { expandVariables, tryExpand } from '../../run/expand.js';
import { CLAUDE_CATALOG, type ClaudeEvent } from './events.js';
import type { ClaudeConfig, ClaudeHook, ClaudeSource } from './config.js';
import { aggregateClaude, readClaudeRun, type ClaudeHookOutput, type ClaudeOutput } from './output.js';
import { processRunOf, type ProcessRun } from '../../run/result.js';
import { recordFire } from '../../engine/trace.js';

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
}

/** The events whose hooks may write `export` lines to `$CLAUDE_ENV_FILE`. */
export const ENV_FILE_EVENTS: ReadonlySet<ClaudeEvent> = new Set<ClaudeEvent>(['SessionStart']);

/** One hook's run. */
export interface ClaudeRun extends ProcessRun {
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
  /** A one-word summary: `error`, `stop`, `deny`, `defer`, `ask`, `allow`, `block` or `ok`. */
  outcome: string;
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

/** The hooks an event would run for this input: matching, identical commands once (the first kept). */
export function claudeHooksFor(config: ClaudeConfig, event: ClaudeEvent, input: Record<string, unknown>): ClaudeHook[] {
  const value = claudeMatchValue(event, input);
  const seen = new Set<string>();
  const out: ClaudeHook[] = [];
  for (const h of config.hooks) {
    if (h.event !== event || (value !== undefined && !h.match.test(value))) continue;
    // The same text in two plugins runs two different scripts.
    const key = `${h.plugin?.root ?? ''}\0${h.command}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(h);
  }
  return out;
}

/** The full input: the base fields filled in where missing, `hook_event_name` always the event. */
export function buildClaudeInput(event: ClaudeEvent, fields: Record<string, unknown>, projectDir: string): Record<string, unknown> {
  const input: Record<string, unknown> = {
    session_id: randomUUID(),
    transcript_path: '',
    cwd: projectDir,
    permission_mode: 'default',
    ...fields,
    hook_event_name: event,
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
  const input = buildClaudeInput(event, fields, projectDir);
  const env: Record<string, string> = {
    ...envFrom(opts.env ?? sanitizeEnv(process.env, { enabled: true, allowed: [], blocked: [] })),
    CLAUDE_PROJECT_DIR: projectDir,
  };
  if (opts.envFile && ENV_FILE_EVENTS.has(event)) env.CLAUDE_ENV_FILE = opts.envFile;
  const stdin = JSON.stringify(input);
  const hooks = claudeHooksFor(config, event, input);
  const began = Date.now();
  const runs = await Promise.all(
    hooks.map(async (hook): Promise<ClaudeRun> => {
      const vars = claudeHookVariables(hook, projectDir);
      // Claude Code makes a plugin's data folder when a hook may use it.
      if (hook.plugin) {
        try {
          fs.mkdirSync(hook.plugin.data, { recursive: true });
        } catch {
          // The hook finds the folder missing, as it would under Claude Code.
        }
      }
      const command = tryExpand(expandClaudeCommand, hook.command, projectDir, vars);
      const r =
        typeof command !== 'string'
          ? command
          : await runCommand({
              command,
              cwd: projectDir,
              env: { ...env, ...vars },
              stdin,
              timeoutMs: hook.timeoutSeconds * 1000,
              signal: opts.signal,
            });
      const reading = readClaudeRun(event, r, hook.timeoutSeconds);
      return {
        command: hook.command,
        source: hook.source,
        ...(hook.plugin ? { plugin: hook.plugin.id } : {}),
        file: hook.file,
        path: hook.path,
        ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}),
        timeoutSeconds: hook.timeoutSeconds,
        ...processRunOf(r, reading.error),
        ...(reading.response ? { response: reading.response } : {}),
        ...(reading.format ? { format: reading.format } : {}),
        ...(reading.text !== undefined ? { text: reading.text } : {}),
        outcome: outcomeOf(event, reading),
      };
    }),
  );
  const { output, warnings } = aggregateClaude(
    event,
    runs.map((r) => ({ command: r.command, where: `${r.file} ${r.path}`, reading: { response: r.response, error: r.error } })),
  );
  if (runs.length) recordFire(claudeTraceFire(event, input, output, runs, began), opts.env ?? process.env);
  return { event, input, output, runs, warnings };
}

function claudeTraceFire(event: ClaudeEvent, input: Record<string, unknown>, output: ClaudeOutput, runs: ClaudeRun[], began: number) {
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
    dialect: 'claude',
    session: typeof input.session_id === 'string' ? input.session_id : '',
    event,
    ...(target ? { target } : {}),
    ...(typeof input.cwd === 'string' ? { cwd: input.cwd } : {}),
    input,
    decision,
    ...(reason ? { reason } : {}),
    runs: runs.map((r) => {
      const why = r.error ? undefined : reasonOf(r.response);
      return {
        hook: r.command,
        source: r.source,
        file: r.file,
        start: began,
        ms: r.durationMs,
        exit: r.exitCode,
        decision: r.outcome,
        ...(why ? { reason: why } : {}),
        stderr: r.stderr,
        ...(r.error ? { error: r.error } : {}),
      };
    }),
  };
}
