/** One configured hook run for one input: the runner it needs, then the run as `fire` reports it. */
import path from 'node:path';
import type { AnyHookInput } from '../events/input.js';
import type { EventName } from '../events/names.js';
import type { HookOutput } from '../events/output.js';
import { extensionsDir, projectSlug, userGeminiDir, type Env } from '../config/paths.js';
import { displayName, type HookEntry, type Source } from '../config/entry.js';
import { LARGE_INPUT, runCommand } from '../run/command.js';
import { runFunction } from '../run/function.js';
import { runHttp } from '../run/http.js';
import { expandCommand, tryExpand } from '../run/expand.js';
import { expandExtensionCommand } from '../run/extension-vars.js';
import { PersistentProcess } from '../run/persistent.js';
import { type PrewarmPools, runPrewarmed } from '../run/prewarm.js';
import type { RunResult } from '../run/result.js';
import { decideRun } from '../decide/run.js';
import { failureOf } from '../decide/failure.js';
import { plainTextOutput } from '../decide/parse.js';
import { expandEnvRefs } from '../run/env-refs.js';
import { approxJsonSize, JsonSlices, jsonText, writtenText } from '../run/serialize.js';
import { msTimeoutHint, startFailure } from './advice.js';
import { traceSettings } from './trace.js';

/** One hook's run, as reported by `fire`. */
export interface HookRun {
  name: string;
  command?: string;
  /** An http hook's URL. */
  url?: string;
  source: Source;
  file?: string;
  exitCode: number | null;
  success: boolean;
  durationMs: number;
  output?: HookOutput;
  stdout: string;
  stderr: string;
  error?: string;
  warning?: string;
  timedOut?: boolean;
  /** Shadow mode: its output is shown and traced but left out of the aggregation. */
  shadow?: boolean;
}

/** What running a hook needs besides the hook and its input. */
export interface RunDeps {
  cwd: string;
  projectDir: string;
  env: Env;
  baseEnv: Record<string, string>;
  sessionId: string;
  /** Persistent hook processes, by what started them (and the pre-warmed interpreters); kept by the caller across events. */
  persistent: Map<string, PersistentProcess | PrewarmPools>;
  /** Whether hook processes may be started ahead of events (false: every one-shot hook runs cold). */
  startAhead?: boolean;
  signal?: AbortSignal;
}

const BLOCKED_UNTRUSTED = 'Security: Blocked execution of project hook in untrusted folder';

// Parallel hooks share one input object: serialise it once, not once per hook. A large input is
// written to each hook as it reads, from a few reused buffers, so its text is never held whole
// (and, traced, its digest is taken in the first pass).
const sliced = new WeakMap<object, JsonSlices>();
function stdinFor(input: AnyHookInput, env: Env): string | JsonSlices {
  const s = sliced.get(input) ?? writtenText(input);
  if (s !== undefined) return s;
  if (approxJsonSize(input, LARGE_INPUT) <= LARGE_INPUT) return jsonText(input);
  const slices = new JsonSlices(input, traceSettings(env).enabled);
  sliced.set(input, slices);
  return slices;
}

export function plansDir(env: Env, projectDir: string, sessionId: string): string {
  return path.join(userGeminiDir(env), 'tmp', projectSlug(projectDir), sessionId, 'plans');
}

async function runEntry(entry: HookEntry, input: AnyHookInput, deps: RunDeps, trusted: boolean): Promise<RunResult> {
  // A second check at run time, as in the reference: a project hook never runs in an untrusted folder.
  if (entry.source === 'project' && !trusted)
    return { success: false, exitCode: null, stdout: '', stderr: '', durationMs: 0, error: BLOCKED_UNTRUSTED };
  if (entry.hook.type === 'runtime') return runFunction(entry.hook, input, deps.signal);
  if (entry.hook.type === 'http') {
    const body = stdinFor(input, deps.env);
    const h = entry.hook;
    const r = await runHttp({
      url: h.url,
      headers: h.headers,
      allowedEnvVars: h.allowedEnvVars,
      env: deps.env,
      body: typeof body === 'string' ? body : JSON.stringify(input),
      timeoutMs: h.timeout,
      signal: deps.signal,
      inputKey: h.inputKey,
      resultKey: h.resultKey,
    });
    return decideRun(r);
  }
  const cwd = typeof input.cwd === 'string' && input.cwd ? input.cwd : deps.cwd;
  const plans = plansDir(deps.env, deps.projectDir, input.session_id);
  const ownEnv = entry.hook.env;
  // Made when a process is started (a persistent hook's, only once).
  const envOf = () => ({
    ...deps.baseEnv,
    GEMINI_PROJECT_DIR: deps.projectDir,
    GEMINI_PLANS_DIR: plans,
    GEMINI_CWD: cwd,
    GEMINI_SESSION_ID: input.session_id,
    CLAUDE_PROJECT_DIR: deps.projectDir,
    ...(ownEnv ? expandEnvRefs(ownEnv, deps.env) : {}),
    // An extension's declared settings win over the hook's own env, as in Gemini CLI.
    ...entry.extensionEnv,
  });
  // An extension's `${extensionPath}` and friends, then the Gemini variables; a value that cannot be
  // substituted safely (e.g. into arithmetic) fails the hook before it runs.
  const written = entry.extension
    ? expandExtensionCommand(entry.hook.command, {
        // <extension>/hooks/hooks.json: the extension's folder, wherever it was linked from.
        extensionPath: entry.file ? path.dirname(path.dirname(entry.file)) : path.join(extensionsDir(deps.env), entry.extension),
        workspacePath: deps.projectDir,
        settings: entry.extensionEnv,
      })
    : entry.hook.command;
  const command = tryExpand(expandCommand, written, { projectDir: deps.projectDir, cwd, plansDir: plans, sessionId: input.session_id });
  if (typeof command !== 'string') return command;
  if (!entry.hook.persistent) {
    const run = { command, cwd, env: envOf(), stdin: stdinFor(input, deps.env), timeoutMs: entry.hook.timeout, signal: deps.signal };
    // Unless turned off, a one-shot hook runs in a shell started (and put in its cgroup) ahead of
    // the event; in an interpreter started ahead too when it asks for "prewarm": true.
    const prewarm = entry.hook.prewarm ?? entry.prewarm;
    if (prewarm === false || deps.startAhead === false) return decideRun(await runCommand(run));
    return decideRun(await runPrewarmed(deps.persistent, run, deps.env, entry.hook.command, prewarm === true));
  }
  const key = `${entry.source}\0${entry.file ?? ''}\0${command}\0${JSON.stringify(entry.hook.env ?? {})}`;
  let proc = deps.persistent.get(key) as PersistentProcess | undefined;
  if (!proc) deps.persistent.set(key, (proc = new PersistentProcess({ command, cwd: deps.projectDir, env: envOf() })));
  // The input's text as other hooks of the event read it (and as the trace digests it, later).
  const text = stdinFor(input, deps.env);
  return decideRun(await proc.request(input, entry.hook.timeout, deps.signal, typeof text === 'string' ? text : undefined));
}

/** The run's error with its fix: a script that cannot start, a timeout in the wrong unit. */
function explain(entry: HookEntry, result: RunResult): string | undefined {
  if (entry.hook.type === 'runtime') return result.error;
  if (!result.error) return undefined;
  const start = entry.hook.type === 'command' ? startFailure(entry.hook.command, result.exitCode, result.stderr) : undefined;
  if (start) return `${result.error}; ${start}`;
  if (!result.timedOut) return result.error;
  const unit = msTimeoutHint(entry.hook.timeout);
  if (unit) return `${result.error.replace(/(\d)ms\b/, '$1 ms')} — ${unit}`;
  return result.error;
}

/** With `onFailure: "block"`, a run that failed (rather than answered) blocks as exit 2 would: fail closed. */
function failClosed(entry: HookEntry, result: RunResult, name: string): HookOutput | undefined {
  if (entry.hook.type === 'runtime' || entry.hook.onFailure !== 'block') return undefined;
  const kind = failureOf(result);
  if (!kind) return undefined;
  const what =
    result.error ?? result.warning ?? `exit ${result.exitCode}${result.stderr.trim() ? `: ${result.stderr.trim().split('\n')[0]}` : ''}`;
  return plainTextOutput(`hook "${name}" failed (onFailure: block): ${what}`, 2);
}

/** Runs one hook and reports it; errors name the event, the hook and its file. Never throws. */
export async function runHook(entry: HookEntry, event: EventName, input: AnyHookInput, deps: RunDeps, trusted: boolean): Promise<HookRun> {
  const result = await runEntry(entry, input, deps, trusted);
  const name = displayName(entry.hook);
  const where = `${event} hook "${name}"${entry.file ? ` (${entry.file})` : ''}`;
  const error = explain(entry, result);
  // A script that could not start is said with its fix; as a warning unless the run had an error,
  // so it changes no outcome (Gemini CLI reads exit 127 as its exit-code decision).
  const start =
    entry.hook.type === 'command' && !result.error ? startFailure(entry.hook.command, result.exitCode, result.stderr) : undefined;
  const warning = [result.warning, start].filter(Boolean).join('; ');
  const output = failClosed(entry, result, name) ?? result.output;
  return {
    name,
    ...(entry.hook.type === 'command' ? { command: entry.hook.command } : {}),
    ...(entry.hook.type === 'http' ? { url: entry.hook.url } : {}),
    source: entry.source,
    ...(entry.file ? { file: entry.file } : {}),
    exitCode: result.exitCode,
    success: result.success,
    durationMs: Math.round(result.durationMs * 1000) / 1000,
    ...(output ? { output } : {}),
    stdout: result.stdout,
    stderr: result.stderr,
    ...(error ? { error: `${where}: ${error}` } : {}),
    ...(warning ? { warning: `${where}: ${warning}` } : {}),
    ...(result.timedOut ? { timedOut: true } : {}),
    ...(entry.hook.shadow ? { shadow: true } : {}),
  };
}
