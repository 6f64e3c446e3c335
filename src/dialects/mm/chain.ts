/**
 * Runs one mm event's chain: the matching hooks one after another, `sh -c` in the session
 * folder, each reading what the previous one left (prompt, transcript, answer, tool input).
 * Contexts accumulate in hook order; `stop` and `deny` end the chain; a failure is handled by
 * the hook's `onError`. The result is what the turn acts on after the chain.
 */
import { fileURLToPath } from 'node:url';
import { runCommand, STDOUT_LIMIT } from '../../run/command.js';
import { envFrom } from '../../run/process.js';
import { ASK_EVENTS, CANCELLABLE, READS, TOOL_EVENTS, actionAllowed, type MmEvent } from './events.js';
import { mmHooksFor, type MmConfig, type MmHook, type OnError } from './config.js';
import { buildMmInput, encodeMmJson, type MmEventData } from './input.js';
import { decodeMmResponse, type MmResponse } from './response.js';
import { joinContexts, mmHookFailedReason, mmStopResponse } from './effects.js';
import { charCount, mmDisplayLine, mmFailureLine } from './display.js';
import type { ProcessResult, ProcessRun } from '../../run/result.js';
import { PROCESS_SESSION, recordSequentialFire, traceRunOf } from '../../engine/trace.js';

export interface MmFireOptions {
  /** The session folder: hooks run here, and it is the input's `cwd`. Default: process.cwd(). */
  cwd?: string;
  /** mm hands its own environment to hooks. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** The turn's cancellation. Ignored for postGeneration and postAsk, which run after a cancel. */
  signal?: AbortSignal;
  /** Numbers the display lines across a turn; shared by every event of the turn. Default: from 1. */
  counter?: { next: number };
  /** `MM_BIN`. Default: $MM_BIN, else this hookline's CLI. */
  mmBin?: string;
  /** `MM_CONFIG`. Default: the configuration's absolute path. */
  mmConfig?: string;
  /** The session the trace goes to (default: one per process). */
  session?: string;
}

/** One hook's run. */
export interface MmRun extends ProcessRun {
  /** Its number in the turn (the display's `<n>`). */
  n: number;
  event: MmEvent;
  /** The tool or agent name, on the events that have one. */
  target?: string;
  command: string;
  onError: OnError;
  /** True when the run did not fail. */
  success: boolean;
  /** The failure message, exactly as in the failure line. */
  error?: string;
  cancelled?: boolean;
  /** The decoded response, when there was a valid one. */
  response?: MmResponse;
  /** `continue`, `stop`, `deny`, `failed`, or the changes joined by ` + `. */
  decision: string;
  /** The display line. */
  line: string;
  /** The failure line, when onError is fail or warn. */
  failureLine?: string;
}

/** The response object the turn acts on after the chain: the action and the fields that survive. */
export interface MmOutput {
  action: 'continue' | 'stop' | 'deny';
  prompt?: string;
  transcript?: string;
  answer?: string;
  /** Every context, each introduced by `[context added by a hook]`, separated by a blank line. */
  context?: string;
  input?: unknown;
  reason?: string;
  /** preGeneration stop: what the user reads (the default text applied). */
  response?: string;
  /** The failure that stopped or denied (onError: fail). */
  error?: string;
}

export interface MmFireResult {
  event: MmEvent;
  /** The input object the first hook read. */
  input: Record<string, unknown>;
  output: MmOutput;
  /** The raw contexts, in order (output.context joins them). */
  contexts: string[];
  runs: MmRun[];
  /** Display lines, one per run. */
  lines: string[];
  /** Failure lines to show (onError fail and warn). */
  failures: string[];
  /** The turn was cancelled during, or before, the chain. */
  cancelled: boolean;
}

/** Go's names for the signals a hook is likely to die of (`signal: killed`). */
const SIGNAL_NAMES: Record<string, string> = {
  SIGKILL: 'killed',
  SIGTERM: 'terminated',
  SIGINT: 'interrupt',
  SIGHUP: 'hangup',
  SIGQUIT: 'quit',
  SIGABRT: 'aborted',
  SIGSEGV: 'segmentation fault',
  SIGPIPE: 'broken pipe',
  SIGBUS: 'bus error',
  SIGFPE: 'floating point exception',
  SIGILL: 'illegal instruction',
  SIGUSR1: 'user defined signal 1',
  SIGUSR2: 'user defined signal 2',
  SIGALRM: 'alarm clock',
};

/** The first `max` bytes of `s`, cut on a character boundary. */
export function firstBytes(s: string, max: number): string {
  const b = Buffer.from(s, 'utf8');
  if (b.length <= max) return s;
  let end = max;
  while (end > 0 && (b[end] & 0xc0) === 0x80) end--;
  return b.subarray(0, end).toString('utf8');
}

/** The failure of a process run, before its stdout is read; undefined when it exited 0. */
function processFailure(r: ProcessResult, hook: MmHook, cancelled: boolean): string | undefined {
  if (r.timedOut) return `timed out after ${hook.timeoutText}`;
  if (cancelled) return 'cancelled';
  if (r.error === `stdout larger than ${STDOUT_LIMIT} bytes`) return r.error;
  if (r.error?.startsWith('cannot start hook')) return r.error;
  if (r.signal) return `signal: ${SIGNAL_NAMES[r.signal] ?? r.signal}`;
  if (r.exitCode !== 0) {
    const stderr = firstBytes(r.stderr, 300).trim();
    return `exit status ${r.exitCode}${stderr ? `: ${stderr}` : ''}`;
  }
  return undefined;
}

function defaultBin(env: NodeJS.ProcessEnv): string {
  return env.MM_BIN || fileURLToPath(new URL('../../cli/main.js', import.meta.url));
}

/** The tool or agent name the matchers see, on the events that have one. */
export function mmTarget(event: MmEvent, data: MmEventData): string | undefined {
  if (TOOL_EVENTS.has(event)) return data.tool?.name ?? '';
  if (ASK_EVENTS.has(event)) return data.ask?.agent ?? '';
  return undefined;
}

/** Fires one event of an mm configuration. Never throws for a hook's failure. */
export async function fireMm(config: MmConfig, event: MmEvent, data: MmEventData, opts: MmFireOptions = {}): Promise<MmFireResult> {
  const cwd = opts.cwd ?? process.cwd();
  const env = opts.env ?? process.env;
  const counter = opts.counter ?? { next: 1 };
  const signal = CANCELLABLE.has(event) ? opts.signal : undefined;
  const target = mmTarget(event, data);
  const reads = READS[event];

  // The state each hook reads, as the previous one left it.
  const state: MmEventData = {
    ...data,
    ...(data.tool ? { tool: { ...data.tool } } : {}),
    ...(data.ask ? { ask: { ...data.ask } } : {}),
  };
  const changed = new Set<'prompt' | 'transcript' | 'answer' | 'input'>();
  const contexts: string[] = [];
  const runs: MmRun[] = [];
  const failures: string[] = [];
  let ended: MmOutput | undefined;
  let cancelled = false;
  const firstInput = buildMmInput(event, state, cwd);

  const baseEnv = envFrom(env);
  const began = Date.now();

  for (const hook of mmHooksFor(config, event, target ?? '')) {
    if (signal?.aborted) {
      cancelled = true;
      break;
    }
    const input = runs.length ? buildMmInput(event, state, cwd) : firstInput;
    const r = await runCommand({
      command: hook.command,
      cwd,
      env: {
        ...baseEnv,
        MM_HOOK_EVENT: event,
        MM_CONFIG_DIR: hook.configDir,
        MM_BIN: opts.mmBin ?? defaultBin(env),
        MM_CONFIG: opts.mmConfig ?? config.absFile,
      },
      stdin: encodeMmJson(input),
      timeoutMs: hook.timeoutNs / 1e6,
      signal,
      shell: 'sh',
    });
    const wasCancelled = !r.timedOut && r.error === 'Hook cancelled';
    let failure = processFailure(r, hook, wasCancelled);
    let response: MmResponse | undefined;
    if (!failure) {
      const d = decodeMmResponse(r.stdout);
      if (!d.ok) failure = d.message;
      else response = d.response;
    }
    const action = response?.action || 'continue';
    if (response && !failure) {
      if (action === 'error') failure = response.error || 'the hook reported an error';
      else if (!actionAllowed(event, action)) failure = `action "${action}" is not valid for ${event}`;
    }

    let decision: string;
    let failureLine: string | undefined;
    if (failure) {
      decision = 'failed';
      if (hook.onError !== 'ignore') failures.push((failureLine = mmFailureLine(event, hook.command, failure)));
      if (hook.onError === 'fail') {
        const reason = mmHookFailedReason(failure);
        if (event === 'preGeneration') ended = { action: 'stop', reason, response: mmStopResponse(undefined, reason), error: failure };
        else if (event === 'preToolCall' || event === 'preAsk') ended = { action: 'deny', reason, error: failure };
      }
    } else if (action === 'stop') {
      decision = 'stop';
      ended = {
        action: 'stop',
        ...(response!.reason ? { reason: response!.reason } : {}),
        response: mmStopResponse(response!.response, response!.reason),
      };
    } else if (action === 'deny') {
      decision = 'deny';
      ended = { action: 'deny', ...(response!.reason ? { reason: response!.reason } : {}) };
    } else {
      decision = apply(event, response!, reads, state, changed, contexts).join(' + ') || 'continue';
    }

    const n = counter.next++;
    const run: MmRun = {
      n,
      event,
      ...(target !== undefined ? { target } : {}),
      command: hook.command,
      onError: hook.onError,
      exitCode: r.exitCode,
      success: !failure,
      durationMs: Math.round(r.durationMs * 1000) / 1000,
      stdout: r.stdout,
      stderr: r.stderr,
      ...(failure ? { error: failure } : {}),
      ...(r.timedOut ? { timedOut: true } : {}),
      ...(wasCancelled ? { cancelled: true } : {}),
      ...(response ? { response } : {}),
      decision,
      line: mmDisplayLine(n, event, target, hook.command, decision),
      ...(failureLine ? { failureLine } : {}),
    };
    runs.push(run);
    if (wasCancelled) cancelled = true;
    if (ended || cancelled) break;
  }

  const output: MmOutput = ended ?? survivors(event, state, changed, contexts);
  recordSequentialFire(
    {
      began,
      dialect: 'mm',
      session: opts.session ?? PROCESS_SESSION,
      event,
      ...(target ? { target } : {}),
      cwd,
      input: firstInput,
      decision: output.action,
      ...(output.reason ? { reason: output.reason } : {}),
      runs: runs.map((r) => traceRunOf(r, r.error ? 'error' : r.decision, r.response?.reason)),
    },
    env,
  );
  return { event, input: firstInput, output, contexts: ended ? [] : contexts, runs, lines: runs.map((r) => r.line), failures, cancelled };
}

/** Applies a `continue` response's fields that the event reads; returns the display's changes. */
function apply(
  event: MmEvent,
  r: MmResponse,
  reads: ReadonlySet<string>,
  state: MmEventData,
  changed: Set<'prompt' | 'transcript' | 'answer' | 'input'>,
  contexts: string[],
): string[] {
  const changes: string[] = [];
  if (reads.has('prompt') && r.prompt !== undefined) {
    if (event === 'preAsk') state.ask = { ...state.ask!, prompt: r.prompt };
    else state.prompt = r.prompt;
    changed.add('prompt');
    changes.push('prompt replaced');
  }
  if (reads.has('transcript') && r.transcript !== undefined) {
    state.ask = { ...state.ask!, transcript: r.transcript };
    changed.add('transcript');
    changes.push('transcript replaced');
  }
  if (reads.has('answer') && r.answer !== undefined) {
    state.answer = r.answer;
    changed.add('answer');
    changes.push('answer replaced');
  }
  if (reads.has('input') && r.input !== undefined) {
    state.tool = { ...state.tool!, input: r.input };
    changed.add('input');
    changes.push('input replaced');
  }
  // A blank context is ignored.
  if (reads.has('context') && r.context.trim()) {
    contexts.push(r.context);
    changes.push(`context (${charCount(r.context)} chars)`);
  }
  return changes;
}

/** The continue output: the fields hooks replaced, and the accumulated context. */
function survivors(event: MmEvent, state: MmEventData, changed: ReadonlySet<string>, contexts: string[]): MmOutput {
  const out: MmOutput = { action: 'continue' };
  if (changed.has('prompt')) out.prompt = event === 'preAsk' ? (state.ask?.prompt ?? '') : (state.prompt ?? '');
  if (changed.has('transcript')) out.transcript = state.ask?.transcript ?? '';
  if (changed.has('answer')) out.answer = state.answer ?? '';
  if (changed.has('input')) out.input = state.tool?.input;
  if (contexts.length) out.context = joinContexts(contexts);
  return out;
}
