/**
 * Hook traces: one JSONL file per session under `~/.gemini/hookline/traces/` (`$HOOKLINE_TRACE_DIR`
 * instead), one line per hook run and one per fired event, appended after the hooks ran. Every
 * hook system records through `recordFire`, so the CLI, the server, the agent and the library
 * all leave the same trace. Lines are written whole with O_APPEND (one write each), so
 * concurrent processes interleave lines, never bytes. The input is kept as a SHA-256 digest; the
 * full input only with `trace.inputs` (for `hookline replay`). Off with `trace.enabled: false`
 * or `HOOKLINE_TRACE=0`.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseJsonc } from '../config/jsonc.js';
import { readLimitedText } from '../config/limits.js';
import { stampOf } from '../config/watched.js';
import { systemSettingsPath, userGeminiDir, userSettingsPath, type Env } from '../config/paths.js';
import { sessionIdProblem } from '../events/session-id.js';
import { looksSecret } from '../run/env.js';
import { approxJsonSize, jsonDigest, writtenText } from '../run/serialize.js';
import { failureOf, type FailureKind } from '../decide/failure.js';
import { recordFireTelemetry } from '../telemetry.js';

/** One hook's run, as a trace line holds it. */
export interface TraceRun {
  hook: string;
  source?: string;
  file?: string;
  /** When it started and how long it took (ms since the epoch; ms). */
  start: number;
  ms: number;
  exit: number | null;
  /** The hook's own answer: allow, deny, ask, block, stop, error, ok (nothing decided), … */
  decision: string;
  reason?: string;
  /** What else its output does, in words: `input rewritten (command)`, `context added (42 chars)`, … */
  effect?: string;
  /** The fields of the tool input it rewrote; their values before and after only with `trace.inputs`. */
  changes?: TraceChange[];
  /** The context it added, with `trace.inputs` only. */
  context?: string;
  stderr?: string;
  error?: string;
  /** Something odd that did not fail the run (output that looked like JSON but did not parse, …). */
  warning?: string;
  /** How it failed (timeout, crash, start, …); derived when the line is written. */
  failure?: FailureKind;
  /** Ran in shadow mode: logged, not enforced. */
  shadow?: boolean;
  /** The digest of the input this hook read, when it differs from the event's (a sequential chain). */
  input?: string;
}

/** One field a hook rewrote. */
export interface TraceChange {
  field: string;
  before?: unknown;
  after?: unknown;
}

/** One fired event and its runs. */
export interface TraceFire {
  dialect: string;
  session: string;
  event: string;
  /** The tool (or trigger, agent) the matchers saw. */
  target?: string;
  cwd?: string;
  /** The event's input, as the first hook read it. */
  input: unknown;
  /** What the hooks decided together, and what else the aggregated output does. */
  decision: string;
  reason?: string;
  effect?: string;
  /** The hooks ran one after another (each may read what the earlier ones changed). */
  sequential?: boolean;
  runs: TraceRun[];
}

export interface TraceLineBase {
  v: 1;
  kind: 'run' | 'fire';
  t: string;
  session: string;
  dialect: string;
  event: string;
  /** Links a fire's runs to it. */
  fire: string;
  target?: string;
}
export type TraceRunLine = TraceLineBase & { kind: 'run' } & Omit<TraceRun, 'input' | 'start'> & { start: string; input: string };
export type TraceFireLine = TraceLineBase & {
  kind: 'fire';
  cwd?: string;
  input: string;
  /** The full input, with `trace.inputs` on. */
  inputJson?: unknown;
  /** Why the full input is not here although `trace.inputs` is on. */
  inputOmitted?: string;
  decision: string;
  reason?: string;
  effect?: string;
  sequential?: boolean;
  runs: number;
  ms: number;
};
export type TraceLine = TraceRunLine | TraceFireLine;

export interface TraceSettings {
  enabled: boolean;
  inputs: boolean;
  dir: string;
}

/** A session's trace file past this size is rotated to `<session>.1.jsonl` (the older one dropped). */
export const TRACE_MAX_BYTES = 4 * 1024 * 1024;
/** At most this many session traces are kept; the oldest go when a new one starts. */
export const TRACE_MAX_FILES = 200;
/**
 * How far past TRACE_MAX_FILES the folder may grow before the oldest go: a new trace then costs
 * one folder listing, and the files are stat-ed once per this many new traces, not for each.
 */
export const TRACE_PRUNE_SLACK = 20;
/** Excerpts kept of stderr, reasons and errors (characters). */
export const EXCERPT_CHARS = 2000;
/** A full input larger than this is left out (its digest is kept). */
export const MAX_INPUT_BYTES = 256 * 1024;

export function defaultTraceDir(env: Env): string {
  return env.HOOKLINE_TRACE_DIR || path.join(userGeminiDir(env), 'hookline', 'traces');
}

let cached: { key: string; value: { enabled?: boolean; inputs?: boolean } } | undefined;

/** `trace` from the system and user settings (the system's wins); a workspace cannot change it. */
function settingsTrace(env: Env): { enabled?: boolean; inputs?: boolean } {
  const files = [systemSettingsPath(env), userSettingsPath(env)];
  const key = files.map((f) => `${f}:${stampOf(f).stamp}`).join('|');
  if (cached?.key === key) return cached.value;
  const value: { enabled?: boolean; inputs?: boolean } = {};
  for (const file of files.reverse()) {
    try {
      const parsed = parseJsonc(readLimitedText(file));
      const t = parsed.ok ? (parsed.value as { trace?: unknown })?.trace : undefined;
      if (t && typeof t === 'object') {
        const { enabled, inputs } = t as Record<string, unknown>;
        if (typeof enabled === 'boolean') value.enabled = enabled;
        if (typeof inputs === 'boolean') value.inputs = inputs;
      }
    } catch {
      // no such file: nothing set there
    }
  }
  cached = { key, value };
  return value;
}

/** Whether and where to trace: `HOOKLINE_TRACE` (0/off, 1/on, inputs) over the settings' `trace`. */
export function traceSettings(env: Env = process.env): TraceSettings {
  const dir = defaultTraceDir(env);
  const flag = env.HOOKLINE_TRACE?.trim().toLowerCase();
  if (flag === '0' || flag === 'off' || flag === 'false' || flag === 'no') return { enabled: false, inputs: false, dir };
  const s = settingsTrace(env);
  if (flag === 'inputs') return { enabled: true, inputs: true, dir };
  return { enabled: flag === '1' || flag === 'on' || flag === 'true' ? true : (s.enabled ?? true), inputs: s.inputs ?? false, dir };
}

/** `sha256:` and the digest of the input's JSON text; a large input is hashed as it is serialised, never held as one string. */
export function digest(input: unknown): string {
  return jsonDigest(input);
}

/** A file name for a session id: itself when it is of the safe alphabet, else its digest. */
export function traceFileName(session: string): string {
  return sessionIdProblem(session) ? `${digest(session).slice(7, 39)}.jsonl` : `${session}.jsonl`;
}

/** Text cut to `max` characters, with every word that looks like a secret replaced. */
export function excerpt(text: string, max = EXCERPT_CHARS): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return cut.replace(/[^\s"'`=:,;()[\]{}<>]{8,}/g, (w) => (looksSecret(w) ? '[redacted]' : w));
}

const trimmed = (s: string | undefined, max = EXCERPT_CHARS): string | undefined => (s ? excerpt(s, max) : undefined);

let everyRunShadow = false;

/** `hookline agent --shadow`: every run this process records is marked as shadow (nothing it answers is enforced). */
export function traceEveryRunAsShadow(): void {
  everyRunShadow = true;
}

/** One process's id for fires that name no session (e.g. an mm event from `hookline fire`). */
export const PROCESS_SESSION = randomUUID();

function pruneOld(dir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return;
  }
  if (names.length <= TRACE_MAX_FILES + TRACE_PRUNE_SLACK) return;
  const aged = names
    .map((n) => {
      try {
        return { n, t: fs.statSync(path.join(dir, n)).mtimeMs };
      } catch {
        return { n, t: 0 };
      }
    })
    .sort((a, b) => a.t - b.t);
  for (const { n } of aged.slice(0, names.length - TRACE_MAX_FILES)) fs.rmSync(path.join(dir, n), { force: true });
}

function appendLines(file: string, lines: string[]): void {
  let size = -1;
  try {
    size = fs.statSync(file).size;
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  }
  if (size > TRACE_MAX_BYTES) {
    try {
      fs.renameSync(file, file.replace(/\.jsonl$/, '.1.jsonl'));
    } catch {
      // another process rotated it first
    }
  }
  // O_APPEND, one write per line: concurrent writers never split a line.
  const fd = fs.openSync(file, 'a', 0o600);
  try {
    for (const l of lines) fs.writeSync(fd, l);
  } finally {
    fs.closeSync(fd);
  }
  if (size < 0) pruneOld(path.dirname(file));
}

/** A run's failure kind, read from what it reported, whichever system it belongs to. */
function failed(r: TraceRun): { failure?: FailureKind } {
  const failure = r.failure ?? failureOf({ exitCode: r.exit, stderr: r.stderr, error: r.error, warning: r.warning });
  return failure ? { failure } : {};
}

/** What a fire's lines need of its input, taken as it fired: the host may change the input once the fire is done. */
interface InputSeen {
  digest: string;
  /** The JSON text the hooks read, when it was one string. */
  text?: string;
}

/** The lines a fire is written as: one per run, then the fire. */
export function traceLines(f: TraceFire, opts: { inputs: boolean; now?: Date; fireId?: string; seen?: InputSeen }): TraceLine[] {
  const fire = opts.fireId ?? randomUUID().slice(0, 8);
  const now = opts.now ?? new Date();
  const inputDigest = opts.seen?.digest ?? digest(f.input);
  const base = { v: 1 as const, session: f.session, dialect: f.dialect, event: f.event, fire, ...(f.target ? { target: f.target } : {}) };
  const out: TraceLine[] = f.runs.map((r) => ({
    ...base,
    kind: 'run' as const,
    t: new Date(r.start + r.ms).toISOString(),
    hook: r.hook,
    ...(r.source ? { source: r.source } : {}),
    ...(r.file ? { file: r.file } : {}),
    start: new Date(r.start).toISOString(),
    ms: r.ms,
    exit: r.exit,
    decision: r.decision,
    ...(r.reason ? { reason: trimmed(r.reason) } : {}),
    ...(r.effect ? { effect: r.effect } : {}),
    // Values are what the agent saw (commands, file contents): kept only with full inputs.
    ...(r.changes?.length ? { changes: opts.inputs ? r.changes : r.changes.map((c) => ({ field: c.field })) } : {}),
    ...(r.context && opts.inputs ? { context: trimmed(r.context) } : {}),
    ...(r.stderr?.trim() ? { stderr: trimmed(r.stderr) } : {}),
    ...(r.error ? { error: trimmed(r.error) } : {}),
    ...(r.warning ? { warning: trimmed(r.warning) } : {}),
    ...failed(r),
    ...(r.shadow || everyRunShadow ? { shadow: true } : {}),
    input: r.input ?? inputDigest,
  }));
  const first = f.runs.length ? Math.min(...f.runs.map((r) => r.start)) : now.getTime();
  const last = f.runs.length ? Math.max(...f.runs.map((r) => r.start + r.ms)) : now.getTime();
  let full: { inputJson?: unknown; inputOmitted?: string } = {};
  if (opts.inputs) {
    const text = opts.seen?.text;
    // Sized before it is serialised: a large input is never turned into one string here.
    const large =
      text !== undefined
        ? Buffer.byteLength(text) > MAX_INPUT_BYTES
        : approxJsonSize(f.input, MAX_INPUT_BYTES) > MAX_INPUT_BYTES || Buffer.byteLength(JSON.stringify(f.input) ?? '') > MAX_INPUT_BYTES;
    full = large
      ? { inputOmitted: `larger than ${MAX_INPUT_BYTES} bytes` }
      : { inputJson: text !== undefined ? (JSON.parse(text) as unknown) : f.input };
  }
  out.push({
    ...base,
    kind: 'fire',
    t: now.toISOString(),
    ...(f.cwd ? { cwd: f.cwd } : {}),
    input: inputDigest,
    ...full,
    decision: f.decision,
    ...(f.reason ? { reason: trimmed(f.reason) } : {}),
    ...(f.effect ? { effect: f.effect } : {}),
    ...(f.sequential ? { sequential: true } : {}),
    runs: f.runs.length,
    ms: Math.round((last - first) * 1000) / 1000,
  });
  return out;
}

/** The lines of one recorded fire, added to the file they go to once it is known whether and where to trace. */
type Pending = (files: Map<string, string[]>, settingsOf: (env: Env) => TraceSettings) => void;

/**
 * How long recorded fires wait to be written with those that follow: a busy host (a server, a
 * persistent hook answering in a fraction of a millisecond) writes each trace file once per
 * batch rather than once per event, off its events' path. Short, as a host killed outright
 * (a default SIGTERM) loses what is still waiting.
 */
const FLUSH_AFTER_MS = 10;

const pending: Pending[] = [];
let flushing: NodeJS.Timeout | undefined;
let exitHooked = false;

/**
 * Writes the trace lines of fires recorded so far. They are written a moment after the fire (with
 * the fires that follow it, in order), and at the latest as the process exits; a program that
 * reads its own trace right after a fire calls this first.
 */
export function flushTraces(): void {
  clearTimeout(flushing);
  flushing = undefined;
  if (!pending.length) return;
  const files = new Map<string, string[]>();
  const settings = new Map<Env, TraceSettings>();
  const settingsOf = (env: Env) => {
    let s = settings.get(env);
    if (!s) settings.set(env, (s = traceSettings(env)));
    return s;
  };
  for (const add of pending.splice(0)) add(files, settingsOf);
  for (const [file, lines] of files) {
    try {
      appendLines(file, lines);
    } catch {
      // Tracing is best effort.
    }
  }
}

function later(add: Pending): void {
  if (!flushing) {
    // Not holding the process open: one that is done exits at once and writes them as it exits.
    flushing = setTimeout(flushTraces, FLUSH_AFTER_MS);
    flushing.unref();
  }
  if (!exitHooked) process.once('exit', flushTraces);
  exitHooked = true;
  pending.push(add);
}

/**
 * Appends a fired event and its runs to the session's trace, and records it for OpenTelemetry
 * when a provider is registered. Costs nothing when no hook ran; never throws (a trace that
 * cannot be written loses its lines, not the hooks' work). The lines are written after the fire
 * (`flushTraces`), with the input as the hooks read it.
 */
export function recordFire(fired: TraceFire, env: Env = process.env): void {
  if (!fired.runs.length) return;
  // When it fired: its lines are written a moment later.
  const now = new Date();
  const f = { ...fired, runs: fired.runs.map((r) => ({ ...r, ...failed(r) })) };
  // Now, in the caller's context: its active span is the hook spans' parent.
  try {
    recordFireTelemetry(f, env);
  } catch {
    // Telemetry is best effort too.
  }
  // The text the hooks read never changes (digested later, from it); an input no hook was given as
  // one string (a large one, or only in-process hooks) is digested now, and only when it is traced.
  const text = writtenText(f.input);
  let digestNow: string | undefined;
  try {
    if (text === undefined) {
      if (!traceSettings(env).enabled) return;
      digestNow = digest(f.input);
    }
  } catch {
    return;
  }
  later((files, settingsOf) => {
    try {
      const s = settingsOf(env);
      if (!s.enabled) return;
      const seen: InputSeen = { digest: digestNow ?? digest(f.input), ...(text !== undefined ? { text } : {}) };
      const file = path.join(s.dir, traceFileName(f.session));
      const lines = files.get(file) ?? [];
      for (const l of traceLines(f, { inputs: s.inputs, seen, now })) lines.push(`${JSON.stringify(l)}\n`);
      files.set(file, lines);
    } catch {
      // Tracing is best effort.
    }
  });
}

/** What an output does besides its decision: the names of the fields that act. */
export function effectOf(
  output: unknown,
  skip: readonly string[] = ['decision', 'reason', 'continue', 'hookEventName'],
): string | undefined {
  if (!output || typeof output !== 'object' || Array.isArray(output)) return undefined;
  const o = output as Record<string, unknown>;
  const keys: string[] = [];
  for (const [k, v] of Object.entries(o)) {
    if (skip.includes(k) || v === undefined || v === null || v === false || v === '') continue;
    if (k === 'hookSpecificOutput' && v && typeof v === 'object') keys.push(...(effectOf(v, skip)?.split(', ') ?? []));
    else keys.push(k);
  }
  return keys.length ? keys.join(', ') : undefined;
}

/** What every dialect's hook run reports, whatever else it holds. */
export interface RunFacts {
  command: string;
  source?: string;
  file?: string;
  durationMs: number;
  exitCode: number | null;
  stderr: string;
  error?: string | null;
  warning?: string;
  timedOut?: boolean;
}

/** A dialect's run as a trace line holds it, with the decision and reason read the dialect's way. */
export function traceRunOf(r: RunFacts, decision: string, reason?: string): Omit<TraceRun, 'start'> {
  return {
    hook: r.command,
    ...(r.source ? { source: r.source } : {}),
    ...(r.file ? { file: r.file } : {}),
    ms: r.durationMs,
    exit: r.exitCode,
    decision,
    ...(reason ? { reason } : {}),
    stderr: r.stderr,
    ...(r.error ? { error: r.error } : {}),
    ...(r.warning ? { warning: r.warning } : {}),
    ...(r.timedOut ? { failure: 'timeout' as const } : {}),
  };
}

/**
 * Records hooks that ran one after another from `began`: each run's start follows from the
 * durations before it (the sequential runners of mm, SpatialAgent and agy time only durations).
 */
export function recordSequentialFire(
  f: Omit<TraceFire, 'runs' | 'sequential'> & { began: number; runs: Array<Omit<TraceRun, 'start'>> },
  env: Env = process.env,
): void {
  const { began, runs, ...fire } = f;
  let t = began;
  const timed = runs.map((r) => {
    const start = t;
    t += r.ms;
    return { ...r, start };
  });
  recordFire({ ...fire, sequential: true, runs: timed }, env);
}

const WOULD: Record<string, string> = {
  deny: 'would have denied',
  block: 'would have blocked',
  ask: 'would have asked the user about',
  stop: 'would have stopped the agent at',
};

/** The line for a shadow run that objected ("would have denied …"); undefined when it did not. */
export function shadowLine(event: string, hook: string, decision: string, reason?: string, subject?: string): string | undefined {
  const verb = WOULD[decision];
  if (!verb) return undefined;
  return `shadow: ${event} hook "${hook}" ${verb} ${subject ? `\`${subject}\`` : 'this event'}${reason ? `: ${reason.split('\n')[0]}` : ''} (not enforced)`;
}
