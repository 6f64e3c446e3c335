import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import type { Writable } from 'node:stream';
import { GroupRun, KILL_GRACE_MS } from './process.js';
import type { JsonSlices } from './serialize.js';
import type { ProcessResult } from './result.js';
import { withSlot } from './slots.js';

export { KILL_GRACE_MS };
import { boundedTimeoutMs } from '../config/timeout.js';

export const DEFAULT_TIMEOUT_MS = 60_000;
/** Past this much stdout the hook is stopped: no decision needs a megabyte. */
export const STDOUT_LIMIT = 1024 * 1024;
const STDERR_LIMIT = 1024 * 1024;
/** After the shell exits, how long leftover pipe holders get before the run is closed anyway. */
const DRAIN_MS = 100;

export interface CommandRun {
  /** The command after variable expansion, run with `bash -c`. */
  command: string;
  cwd: string;
  env: Record<string, string>;
  /** What the hook reads on stdin: JSON text, or (a large input) its bytes, made as the hook reads them. */
  stdin: string | JsonSlices;
  timeoutMs?: number;
  signal?: AbortSignal;
  shell?: string;
}

class Capped {
  private chunks: Buffer[] = [];
  size = 0;
  over = false;
  constructor(private readonly limit: number) {}
  push(b: Buffer): void {
    if (this.over) return;
    const room = this.limit - this.size;
    if (b.length > room) {
      if (room > 0) this.chunks.push(b.subarray(0, room));
      this.size = this.limit;
      this.over = true;
      return;
    }
    this.chunks.push(b);
    this.size += b.length;
  }
  bytes(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
  }
}

/**
 * Runs one command hook in its own process group. Every path ends in a ProcessResult (what the
 * process did; src/decide reads its output): the group is
 * killed on timeout (SIGTERM, then SIGKILL), on a stdout flood, on abort, and once the shell has
 * exited (so a background child holding the pipe cannot delay the result or outlive the hook).
 */
export function runCommand(run: CommandRun): Promise<ProcessResult> {
  return withSlot(run.signal, () => startCommand(run));
}

/** runCommand without waiting for a slot: for a caller that holds one already (src/run/prewarm.ts). */
export function startCommand(run: CommandRun): Promise<ProcessResult> {
  const started = performance.now();
  let group: GroupRun;
  try {
    group = new GroupRun({
      command: run.command,
      cwd: run.cwd,
      env: run.env,
      shell: run.shell,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  } catch (e) {
    // e.g. a NUL byte in the command or env: nothing was started
    return Promise.resolve({
      exitCode: null,
      signal: null,
      stdout: '',
      stderr: '',
      durationMs: performance.now() - started,
      error: `cannot start hook: ${(e as Error).message}`,
    });
  }
  return superviseRun(group, run, { started });
}

/** What a run started earlier brings: output it wrote before the hook began, and a gate on its end. */
export interface SuperviseOptions {
  started: number;
  /** Output already read from the process's pipes, in order. */
  early?: { stdout: Buffer[]; stderr: Buffer[] };
  /** Another stream that must close before the run is over (a control channel). */
  extra?: NodeJS.ReadableStream & { destroy(): void };
  /**
   * Subscribes to the process's own word that its exit status is final and its stdout and stderr
   * are closed (a pre-warmed Node hook's, src/run/prewarm-report.ts); returns the unsubscribe.
   * The run is then over without waiting for the process to be torn down, which it goes on to be.
   */
  report?: (listener: (code: number) => void) => () => void;
}

/** How long a process that said its status is final gets to finish exiting before its group is killed. */
const REPORTED_EXIT_MS = 2000;

/**
 * Watches a started run to its end: output capped, the timeout, the cancel signal, the group
 * killed once the main process has exited. The stdin text (when `run.stdin` is a string and the
 * process has a stdin pipe) is written here.
 */
export function superviseRun(group: GroupRun, run: CommandRun, opts: SuperviseOptions): Promise<ProcessResult> {
  const { started } = opts;
  const timeoutMs = boundedTimeoutMs(run.timeoutMs, DEFAULT_TIMEOUT_MS);
  return new Promise((resolve) => {
    const out = new Capped(STDOUT_LIMIT);
    const err = new Capped(STDERR_LIMIT);
    let failure: string | undefined;
    let timedOut = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let exited = false;
    let done = false;
    let reported = false;
    let offReport: (() => void) | undefined;
    const timers: NodeJS.Timeout[] = [];
    const child = group.child;

    const stop = (why: string | undefined) => {
      if (why && !failure) failure = why;
      group.stop();
      // Whatever still holds the pipes, the run is over shortly after SIGKILL.
      timers.push(setTimeout(finishAfterReads, KILL_GRACE_MS + DRAIN_MS + 50));
    };
    // A timer can fire late, after the loop was busy (other hooks starting): what the hook wrote
    // before it exited may still sit in the pipe. One turn of the loop reads it, then the run ends.
    const finishAfterReads = () => setImmediate(finish);

    function finish(): void {
      if (done) return;
      done = true;
      for (const t of timers) clearTimeout(t);
      offReport?.();
      run.signal?.removeEventListener('abort', onAbort);
      if (reported && child.exitCode === null && child.signalCode === null) {
        // Its status is final and its pipes are closed: what is left is its teardown, and then its leftovers.
        const last = setTimeout(() => group.end(), REPORTED_EXIT_MS);
        last.unref();
        child.once('exit', () => {
          clearTimeout(last);
          group.end();
        });
      } else setImmediate(() => group.end());
      child.stdout?.destroy();
      child.stderr?.destroy();
      opts.extra?.destroy();
      // Nothing more is written: a child that kept the pipe gets no more of a large input.
      child.stdin?.destroy();
      const durationMs = performance.now() - started;
      // Invalid UTF-8 is replaced, not an error (the reference decodes the same way), but said;
      // so is stderr cut at its limit (a block reason read from it is then its start only).
      const raw = out.bytes();
      const stdout = raw.toString('utf8');
      const rawErr = err.bytes();
      const stderr = rawErr.toString('utf8');
      const said = [
        isUtf8(raw) ? undefined : 'stdout is not valid UTF-8 (invalid bytes were replaced with U+FFFD)',
        isUtf8(rawErr) ? undefined : 'stderr is not valid UTF-8 (invalid bytes were replaced with U+FFFD)',
        err.over ? `stderr larger than ${STDERR_LIMIT} bytes; only its first ${STDERR_LIMIT} bytes were read` : undefined,
      ].filter((w) => w !== undefined);
      const warning = said.length ? said.join('; ') : undefined;
      const base = { exitCode, signal: exitSignal, stdout, stderr, durationMs, ...(warning ? { warning } : {}) };
      if (timedOut) resolve({ ...base, timedOut: true, error: `Hook timed out after ${timeoutMs}ms` });
      else resolve({ ...base, ...(failure ? { error: failure } : {}) });
    }

    const onAbort = () => stop('Hook cancelled');

    // The input before the rest is set up: the hook may be waiting on it already. One that cannot
    // be written whole as JSON fails the run: the hook must not act on part of it.
    if (child.stdin) {
      child.stdin.on('error', () => {
        // EPIPE: the hook exited without reading its input. That is allowed.
      });
      writeInput(child.stdin, run.stdin, (e) => stop(`cannot write the event as JSON: ${e.message}`));
    }
    if (run.signal) {
      if (run.signal.aborted) onAbort();
      else run.signal.addEventListener('abort', onAbort, { once: true });
    }

    timers.push(
      setTimeout(() => {
        if (exited) return;
        timedOut = true;
        stop(undefined);
      }, timeoutMs),
    );

    const onOut = (b: Buffer) => {
      out.push(b);
      if (out.over && !failure) stop(`stdout larger than ${STDOUT_LIMIT} bytes`);
    };
    for (const b of opts.early?.stdout ?? []) onOut(b);
    for (const b of opts.early?.stderr ?? []) err.push(b);
    child.stdout!.on('data', onOut);
    child.stderr!.on('data', (b: Buffer) => err.push(b));

    const streams = opts.extra ? 3 : 2;
    let closedStreams = 0;
    const onStreamEnd = () => {
      closedStreams++;
      if (closedStreams === streams && (exited || reported)) finish();
    };
    child.stdout!.on('close', onStreamEnd);
    child.stderr!.on('close', onStreamEnd);
    opts.extra?.on('close', onStreamEnd);

    offReport = opts.report?.((code) => {
      if (exited || done) return;
      reported = true;
      exitCode = code;
      if (closedStreams === streams) finish();
    });

    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      if (done) return;
      reported = false;
      exited = true;
      exitCode = code;
      exitSignal = signal;
      // The result first when nothing holds the pipes; its end (at once after) kills what the hook left.
      if (closedStreams === streams) return finish();
      // Background children must not outlive the hook nor hold its pipes open.
      group.shellExited();
      timers.push(setTimeout(finishAfterReads, DRAIN_MS));
    };
    // A run handed over after its process ended (a pre-started one) still ends here.
    if (child.exitCode !== null || child.signalCode !== null) setImmediate(() => onExit(child.exitCode, child.signalCode));
    else child.on('exit', onExit);

    child.on('error', (e: NodeJS.ErrnoException) => {
      // A missing cwd also fails as "spawn bash ENOENT", which blames the wrong thing.
      const missingCwd = e.code === 'ENOENT' && !fs.existsSync(run.cwd);
      failure = `cannot start hook: ${missingCwd ? `working folder ${run.cwd} does not exist` : e.message}`;
      exited = true;
      finish();
    });
  });
}

/** Inputs past this size are written as the hook reads them (serialize.ts `JsonSlices`) rather than made into one string. */
export const LARGE_INPUT = 1024 * 1024;

/** Writes the input to the hook's stdin pipe and closes it; a large input as the pipe takes it. */
function writeInput(stdin: Writable, input: CommandRun['stdin'], failed: (err: Error) => void): void {
  if (typeof input === 'string') return void stdin.end(input);
  input.writeTo(stdin, failed);
}
