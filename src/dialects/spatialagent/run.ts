/**
 * Runs SpatialAgent hooks. An event's hooks run in order; the first `block` stops the chain and
 * is the result. `bash` hooks: exit 0 approves, non-zero blocks, and a JSON
 * `{"decision", "reason"}` in the output decides instead when present. `prompt` hooks: the
 * agent's model answers the prompt. A hook that errors (cannot start, times out, its model
 * fails, its output floods) approves, as the seed says.
 */
import os from 'node:os';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { runCommand } from '../../run/command.js';
import { envFrom } from '../../run/process.js';
import type { SaEvent } from './events.js';
import type { SaConfig, SaHook } from './config.js';
import { saMatches } from './matcher.js';
import { contextEnv, expandPlain, expandShell, normalizeContext, type SaContext } from './variables.js';
import { decideFromAnswer, findDecisionJson } from './decision.js';
import { textNestsDeeper, tooDeep } from '../../config/limits.js';
import type { ProcessRun } from '../../run/result.js';
import { tryExpand } from '../../run/expand.js';
import { askModel } from '../../run/judge.js';
import { visible } from '../../config/display.js';
import { PROCESS_SESSION, recordSequentialFire, traceRunOf } from '../../engine/trace.js';

export interface SaFireOptions {
  /** The project folder: bash hooks run here. Default: process.cwd(). */
  cwd?: string;
  /** SpatialAgent hands its own environment (plus the variables) to hooks. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** The agent's model, for prompt hooks. Without one a prompt hook approves ("No LLM for prompt hook"). */
  model?: LanguageModelV3;
  signal?: AbortSignal;
  /** Numbers the display lines across a turn. Default: from 1. */
  counter?: { next: number };
  /** The session the trace goes to (default: one per process). */
  session?: string;
}

export interface SaOutput {
  decision: 'approve' | 'block';
  /** Why it blocked; '' when it approves. */
  reason: string;
}

export interface SaRun extends ProcessRun {
  n: number;
  event: SaEvent;
  type: 'bash' | 'prompt';
  /** Where the hook is in the settings file. */
  path: string;
  /** The command as written (bash). */
  command?: string;
  /** The prompt as written (prompt). */
  prompt?: string;
  /** What ran: the command with its variables filled in (shell-escaped), or the prompt sent to the model. */
  expanded: string;
  /** False when the hook errored (it then approves). */
  success: boolean;
  /** The model's answer (prompt hooks). */
  answer?: string;
  decision: 'approve' | 'block';
  reason: string;
  line: string;
}

export interface SaFireResult {
  event: SaEvent;
  context: SaContext;
  output: SaOutput;
  runs: SaRun[];
  lines: string[];
}

type Outcome = Omit<SaRun, 'n' | 'event' | 'type' | 'path' | 'command' | 'prompt' | 'line'>;

function signalCode(sig: NodeJS.Signals): number {
  return -(os.constants.signals[sig] ?? 1);
}

export async function runSaBashHook(hook: SaHook, context: SaContext, opts: SaFireOptions = {}): Promise<Outcome> {
  const command = tryExpand(expandShell, hook.command!, context);
  const expanded = typeof command === 'string' ? command : hook.command!;
  const env = envFrom(opts.env ?? process.env);
  Object.assign(env, contextEnv(context));
  if (typeof command !== 'string')
    return {
      expanded,
      exitCode: null,
      durationMs: 0,
      stdout: '',
      stderr: '',
      success: false,
      error: command.error!,
      decision: 'approve',
      reason: command.error!,
    };
  const r = await runCommand({
    command: expanded,
    cwd: opts.cwd ?? process.cwd(),
    env,
    stdin: '',
    timeoutMs: hook.timeoutSeconds * 1000,
    signal: opts.signal,
    shell: 'bash',
  });
  const base = { expanded, exitCode: r.exitCode, durationMs: Math.round(r.durationMs * 1000) / 1000, stdout: r.stdout, stderr: r.stderr };
  const errored = (error: string): Outcome => ({
    ...base,
    success: false,
    error,
    ...(r.timedOut ? { timedOut: true } : {}),
    decision: 'approve',
    reason: error,
  });
  if (r.timedOut) return errored(`Hook timed out after ${hook.timeoutSeconds}s`);
  // Killed by us (cancel, stdout flood) or never started: an error. Killed by anything else: a non-zero exit.
  if (r.error && !r.error.startsWith('Hook killed by signal')) return errored(`Hook error: ${r.error}`);
  // As SpatialAgent: the decision is looked for in stdout then stderr, and wins over the exit code.
  const json = findDecisionJson(r.stdout + r.stderr);
  if (json) return { ...base, success: true, ...json };
  const code = r.signal ? signalCode(r.signal) : (r.exitCode ?? 0);
  // Output nested too deep to read is an error; the exit code still decides (a failing hook still blocks).
  const unreadable = textNestsDeeper(r.stdout + r.stderr) ? { success: false, error: `Hook error: ${tooDeep('output')}; not read` } : {};
  if (code === 0) return { ...base, success: true, decision: 'approve', reason: '', ...unreadable };
  return { ...base, success: true, decision: 'block', reason: `Command exited with code ${code}`, ...unreadable };
}

export async function runSaPromptHook(hook: SaHook, context: SaContext, opts: SaFireOptions = {}): Promise<Outcome> {
  const expanded = expandPlain(hook.prompt!, context);
  const started = performance.now();
  const base = { expanded, exitCode: null, stdout: '', stderr: '' };
  const took = () => Math.round((performance.now() - started) * 1000) / 1000;
  if (!opts.model)
    return {
      ...base,
      durationMs: 0,
      success: false,
      error: 'No LLM for prompt hook',
      decision: 'approve',
      reason: 'No LLM for prompt hook',
    };
  const answer = await askModel(opts.model, { prompt: expanded }, hook.timeoutSeconds, opts.signal);
  if (answer.ok)
    return { ...base, durationMs: took(), success: true, answer: answer.text, stdout: answer.text, ...decideFromAnswer(answer.text) };
  const error = answer.timedOut ? `Hook timed out after ${hook.timeoutSeconds}s` : `Hook error: ${answer.message}`;
  return {
    ...base,
    durationMs: took(),
    success: false,
    error,
    ...(answer.timedOut ? { timedOut: true } : {}),
    decision: 'approve',
    reason: error,
  };
}

function firstLine(s: string, max = 60): string {
  const line = s.split('\n')[0];
  const chars = [...line];
  return chars.length > max ? chars.slice(0, max - 1).join('') + '…' : line;
}

/** `🪝 <n>. <Event> · <command, or prompt: its first line> → approve | block: <reason> | approve (<error>)`. */
export function saDisplayLine(n: number, event: SaEvent, hook: SaHook, o: Pick<Outcome, 'decision' | 'reason' | 'error'>): string {
  const label = hook.type === 'bash' ? hook.command! : `prompt: ${firstLine(hook.prompt!)}`;
  const decision =
    o.decision === 'block' ? `block${o.reason ? `: ${firstLine(o.reason, 200)}` : ''}` : o.error ? `approve (${o.error})` : 'approve';
  return `🪝 ${n}. ${event} · ${visible(label)} → ${decision}`;
}

/** Fires one event: the matching hooks in order, until one blocks. Never throws for a hook's failure. */
export async function fireSpatialAgent(
  config: SaConfig,
  event: SaEvent,
  variables: Record<string, unknown>,
  opts: SaFireOptions = {},
): Promise<SaFireResult> {
  const context = normalizeContext(variables);
  const counter = opts.counter ?? { next: 1 };
  const runs: SaRun[] = [];
  let output: SaOutput = { decision: 'approve', reason: '' };
  const began = Date.now();
  for (const hook of config.hooks[event]) {
    if (!saMatches(hook.matcher, context)) continue;
    if (opts.signal?.aborted) break;
    const ran = hook.type === 'bash' ? await runSaBashHook(hook, context, opts) : await runSaPromptHook(hook, context, opts);
    // SpatialAgent approves when a hook errors; `onFailure: "block"` fails closed instead.
    const o: Outcome =
      ran.error && hook.onFailure === 'block' ? { ...ran, decision: 'block', reason: `Hook failed (onFailure: block): ${ran.error}` } : ran;
    const n = counter.next++;
    runs.push({
      n,
      event,
      type: hook.type,
      path: hook.path,
      ...(hook.type === 'bash' ? { command: hook.command } : { prompt: hook.prompt }),
      ...o,
      line: saDisplayLine(n, event, hook, o),
    });
    if (o.decision === 'block') {
      output = { decision: 'block', reason: o.reason };
      break;
    }
  }
  recordSequentialFire(
    {
      began,
      dialect: 'spatialagent',
      session: opts.session ?? PROCESS_SESSION,
      event,
      ...(typeof context.TOOL_NAME === 'string' && context.TOOL_NAME ? { target: context.TOOL_NAME } : {}),
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
      input: context,
      decision: output.decision,
      ...(output.reason ? { reason: output.reason } : {}),
      runs: runs.map((r) =>
        traceRunOf({ ...r, command: r.command ?? `prompt: ${r.prompt ?? ''}`.slice(0, 80) }, r.error ? 'error' : r.decision, r.reason),
      ),
    },
    opts.env ?? process.env,
  );
  return { event, context, output, runs, lines: runs.map((r) => r.line) };
}
