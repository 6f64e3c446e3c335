import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { parseHookText } from '../decide/parse.js';
import { DEFAULT_TIMEOUT_MS, KILL_GRACE_MS, STDOUT_LIMIT } from './command.js';
import type { RunResult } from './result.js';
import type { HookOutput } from '../events/output.js';

/**
 * Persistent hook processes: Hookline starts the hook once and exchanges one JSON line per event
 * over stdio instead of spawning a process per event.
 *
 *   hook → `{"hookline":"ready","concurrent":true}`   once, when it is ready (concurrent optional)
 *   Hookline → `{"id":1,"input":{…event input…}}`      one line per event
 *   hook → `{"id":1,"output":{…}}`                     or `{"id":1,"text":"…","exitCode":2,"stderr":"…"}`
 *
 * `output` is what a one-shot hook prints as JSON; `text` + `exitCode` get the same plain-text
 * fallback as a one-shot hook. A hook that dies is restarted on the next event; a request that
 * times out kills the process (its state is suspect) and fails with the usual timeout error.
 */
export const PERSISTENT_ENV = 'HOOKLINE_PERSISTENT';

export interface PersistentSpec {
  command: string;
  cwd: string;
  env: Record<string, string>;
  shell?: string;
}

interface Pending {
  id: number;
  line: string;
  started: number;
  timeoutMs: number;
  timer?: NodeJS.Timeout;
  resolve: (r: RunResult) => void;
  abort?: () => void;
  signal?: AbortSignal;
}

interface Reply {
  id: number;
  output?: unknown;
  text?: unknown;
  exitCode?: unknown;
  stderr?: unknown;
}

function killGroup(child: ChildProcess | undefined, sig: NodeJS.Signals): void {
  if (!child?.pid) return;
  try {
    process.kill(-child.pid, sig);
  } catch {
    // already gone
  }
}

/** Every live persistent process, so none outlives Hookline (even on process.exit). */
const live = new Set<PersistentProcess>();
let exitHook = false;
function trackExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.on('exit', () => {
    for (const p of live) p.close();
  });
}

export class PersistentProcess {
  private child?: ChildProcess;
  private ready = false;
  private concurrent = false;
  private buffer = '';
  private stderr = '';
  private nextId = 1;
  private inflight = new Map<number, Pending>();
  private queue: Pending[] = [];
  /** How many times the process was (re)started. */
  starts = 0;

  constructor(private readonly spec: PersistentSpec) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Sends one event; resolves with a RunResult for every outcome. */
  request(input: unknown, timeoutMs = DEFAULT_TIMEOUT_MS, signal?: AbortSignal): Promise<RunResult> {
    return new Promise((resolve) => {
      const id = this.nextId++;
      const p: Pending = { id, line: JSON.stringify({ id, input }) + '\n', started: performance.now(), timeoutMs, resolve, signal };
      p.timer = setTimeout(() => this.timeout(p), timeoutMs);
      if (signal) {
        if (signal.aborted) return this.finish(p, { error: 'Hook cancelled' });
        p.abort = () => this.finish(p, { error: 'Hook cancelled' });
        signal.addEventListener('abort', p.abort, { once: true });
      }
      if (!this.child) this.start();
      this.queue.push(p);
      this.pump();
    });
  }

  private start(): void {
    trackExit();
    this.starts++;
    this.ready = false;
    this.buffer = '';
    this.stderr = '';
    const shell = this.spec.shell ?? 'bash';
    // As for one-shot hooks: stdin is a socket, so without --norc bash would source ~/.bashrc.
    const args = path.basename(shell) === 'bash' ? ['--norc', '-c', this.spec.command] : ['-c', this.spec.command];
    const child = spawn(shell, args, {
      cwd: this.spec.cwd,
      env: { ...this.spec.env, [PERSISTENT_ENV]: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    this.child = child;
    live.add(this);
    // The hook process must not keep the host alive on its own.
    child.unref();
    for (const s of [child.stdin, child.stdout, child.stderr] as Array<{ unref?: () => void } | null>) s?.unref?.();
    child.stdin!.on('error', () => {
      // EPIPE: the process died; its exit handler fails what is pending.
    });
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (s: string) => this.onData(child, s));
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (s: string) => {
      this.stderr = (this.stderr + s).slice(-4096);
    });
    child.on('exit', (code, sig) => this.onExit(child, code, sig));
    child.on('error', (e) => this.onExit(child, null, null, `cannot start persistent hook: ${e.message}`));
  }

  private onData(child: ChildProcess, s: string): void {
    if (child !== this.child) return;
    this.buffer += s;
    if (this.buffer.length > STDOUT_LIMIT && !this.buffer.includes('\n')) {
      this.restart(`stdout line larger than ${STDOUT_LIMIT} bytes`);
      return;
    }
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) !== -1) {
      const line = this.buffer.slice(0, nl).trim();
      this.buffer = this.buffer.slice(nl + 1);
      if (line) this.onLine(line);
    }
  }

  private onLine(line: string): void {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return; // stray output (a log line, a library banner): not part of the protocol
    }
    if (msg.hookline === 'ready') {
      this.ready = true;
      this.concurrent = msg.concurrent === true;
      this.pump();
      return;
    }
    const reply = msg as unknown as Reply;
    const p = typeof reply.id === 'number' ? this.inflight.get(reply.id) : undefined;
    if (!p) return;
    const exitCode = typeof reply.exitCode === 'number' ? reply.exitCode : 0;
    const stderr = typeof reply.stderr === 'string' ? reply.stderr : '';
    let parsed: { output?: HookOutput; outputFormat?: 'json' | 'text' } = {};
    let stdout = '';
    if (reply.output && typeof reply.output === 'object') {
      stdout = JSON.stringify(reply.output);
      parsed = { output: reply.output as HookOutput, outputFormat: 'json' };
    } else if (typeof reply.text === 'string') {
      stdout = reply.text;
      parsed = parseHookText(reply.text, stderr, exitCode);
    } else if (stderr) parsed = parseHookText('', stderr, exitCode);
    this.finish(p, { ...parsed, stdout, stderr, exitCode, success: exitCode === 0 });
  }

  /** Sends queued requests: all at once for a concurrent hook, one at a time otherwise. */
  private pump(): void {
    if (!this.child || !this.ready) return;
    while (this.queue.length && (this.concurrent || this.inflight.size === 0)) {
      const p = this.queue.shift()!;
      this.inflight.set(p.id, p);
      this.child.stdin!.write(p.line);
    }
  }

  private finish(p: Pending, r: Partial<RunResult>): void {
    if (!this.inflight.delete(p.id) && !this.queue.includes(p)) return;
    this.queue = this.queue.filter((q) => q !== p);
    clearTimeout(p.timer);
    if (p.abort) p.signal?.removeEventListener('abort', p.abort);
    p.resolve({
      success: false,
      exitCode: null,
      stdout: '',
      stderr: '',
      ...r,
      durationMs: performance.now() - p.started,
    } as RunResult);
    this.pump();
  }

  private timeout(p: Pending): void {
    this.finish(p, { error: `Hook timed out after ${p.timeoutMs}ms`, timedOut: true });
    // A handler that hung may hold state or the only worker: start afresh next time.
    this.restart(undefined);
  }

  private restart(why: string | undefined): void {
    const child = this.child;
    this.child = undefined;
    this.ready = false;
    if (why) for (const p of [...this.inflight.values()]) this.finish(p, { error: why });
    killGroup(child, 'SIGTERM');
    setTimeout(() => killGroup(child, 'SIGKILL'), KILL_GRACE_MS).unref();
    live.delete(this);
    // Requests the old process never answered go to the next one.
    this.queue.unshift(...this.inflight.values());
    this.inflight.clear();
    if (this.queue.length) this.start();
  }

  private onExit(child: ChildProcess, code: number | null, sig: NodeJS.Signals | null, error?: string): void {
    killGroup(child, 'SIGKILL');
    if (child !== this.child) return;
    this.child = undefined;
    live.delete(this);
    const why = error ?? `persistent hook exited (${sig ? `signal ${sig}` : `code ${code}`})${this.stderr.trim() ? `: ${this.stderr.trim().split('\n').slice(-3).join(' | ')}` : ''}`;
    for (const p of [...this.inflight.values(), ...this.queue]) this.finish(p, { error: why, stderr: this.stderr });
  }

  /** Stops the process and fails anything still pending. */
  close(): void {
    const child = this.child;
    this.child = undefined;
    for (const p of [...this.inflight.values(), ...this.queue]) this.finish(p, { error: 'Hook cancelled' });
    killGroup(child, 'SIGKILL');
    live.delete(this);
  }
}
