import type { ChildProcess } from 'node:child_process';
import { valueNestsDeeper } from '../config/limits.js';
import { DEFAULT_TIMEOUT_MS, STDOUT_LIMIT } from './command.js';
import { GroupRun } from './process.js';
import type { ProcessResult } from './result.js';
import { MAX_TIMEOUT_MS } from '../config/timeout.js';

/**
 * Persistent hook processes: Hookline starts the hook once and exchanges one JSON line per event
 * over stdio instead of spawning a process per event.
 *
 *   hook → `{"hookline":"ready","concurrent":true}`   once, when it is ready (concurrent optional)
 *   Hookline → `{"id":1,"input":{…event input…}}`      one line per event
 *   hook → `{"id":1,"output":{…}}`                     or `{"id":1,"text":"…","exitCode":2,"stderr":"…"}`
 *
 * `output` is what a one-shot hook prints as JSON; `text` + `exitCode` get the same plain-text
 * fallback as a one-shot hook: a reply comes back as the ProcessResult of a one-shot run would
 * (`output` as JSON on stdout), for src/decide to read. A hook that dies is restarted on the
 * next event; a request that times out kills the process (its state is suspect) and fails with
 * the usual timeout error.
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
  resolve: (r: ProcessResult) => void;
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

export class PersistentProcess {
  private child?: ChildProcess;
  private group?: GroupRun;
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

  /** Sends one event (`text`: its JSON, when already made); resolves with a ProcessResult for every outcome. */
  request(input: unknown, timeoutMs = DEFAULT_TIMEOUT_MS, signal?: AbortSignal, text?: string): Promise<ProcessResult> {
    return new Promise((resolve) => {
      const id = this.nextId++;
      const line = text === undefined ? JSON.stringify({ id, input }) : `{"id":${id},"input":${text}}`;
      const p: Pending = { id, line: line + '\n', started: performance.now(), timeoutMs, resolve, signal };
      // Queued first: finish() only settles requests it knows.
      this.queue.push(p);
      // Clamped: a delay above Node's timer limit would fire after 1 ms.
      p.timer = setTimeout(() => this.timeout(p), Math.min(timeoutMs, MAX_TIMEOUT_MS));
      if (signal) {
        if (signal.aborted) return this.finish(p, { error: 'Hook cancelled' });
        p.abort = () => this.finish(p, { error: 'Hook cancelled' });
        signal.addEventListener('abort', p.abort, { once: true });
      }
      if (!this.child) this.start();
      this.pump();
    });
  }

  private start(): void {
    this.starts++;
    this.ready = false;
    this.buffer = '';
    this.stderr = '';
    let group: GroupRun;
    try {
      group = new GroupRun({
        command: this.spec.command,
        cwd: this.spec.cwd,
        env: { ...this.spec.env, [PERSISTENT_ENV]: '1' },
        shell: this.spec.shell,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    } catch (e) {
      const why = `cannot start persistent hook: ${(e as Error).message}`;
      for (const p of [...this.inflight.values(), ...this.queue]) this.finish(p, { error: why });
      return;
    }
    const child = group.child;
    this.group = group;
    this.child = child;
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
    child.on('exit', (code, sig) => this.onExit(group, code, sig));
    child.on('error', (e) => this.onExit(group, null, null, `cannot start persistent hook: ${e.message}`));
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
    let stdout = '';
    // Too deep to serialise again: the reply line as the hook wrote it, which decide reports as unreadable.
    if (reply.output && typeof reply.output === 'object') stdout = valueNestsDeeper(reply.output) ? line : JSON.stringify(reply.output);
    else if (typeof reply.text === 'string') stdout = reply.text;
    this.finish(p, { stdout, stderr, exitCode });
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

  private finish(p: Pending, r: Partial<ProcessResult>): void {
    if (!this.inflight.delete(p.id) && !this.queue.includes(p)) return;
    this.queue = this.queue.filter((q) => q !== p);
    clearTimeout(p.timer);
    if (p.abort) p.signal?.removeEventListener('abort', p.abort);
    p.resolve({ exitCode: null, stdout: '', stderr: '', ...r, durationMs: performance.now() - p.started });
    this.pump();
  }

  private timeout(p: Pending): void {
    // A hook that never said it was ready was never sent the event: say so, it is the usual mistake.
    const why = this.ready
      ? ''
      : ' — it never printed its ready line {"hookline":"ready"}, so it was never sent the event (defineHook from hookline/sdk prints it)';
    this.finish(p, { error: `Hook timed out after ${p.timeoutMs}ms${why}`, timedOut: true });
    // A handler that hung may hold state or the only worker: start afresh next time.
    this.restart(undefined);
  }

  private restart(why: string | undefined): void {
    const group = this.group;
    this.child = undefined;
    this.group = undefined;
    this.ready = false;
    if (why) for (const p of [...this.inflight.values()]) this.finish(p, { error: why });
    // SIGTERM now, SIGKILL after the grace; its exit handler then ends the run.
    group?.stop();
    // Requests the old process never answered go to the next one.
    this.queue.unshift(...this.inflight.values());
    this.inflight.clear();
    if (this.queue.length) this.start();
  }

  private onExit(group: GroupRun, code: number | null, sig: NodeJS.Signals | null, error?: string): void {
    group.end();
    if (group !== this.group) return;
    this.child = undefined;
    this.group = undefined;
    const why =
      error ??
      `persistent hook exited (${sig ? `signal ${sig}` : `code ${code}`})${this.stderr.trim() ? `: ${this.stderr.trim().split('\n').slice(-3).join(' | ')}` : ''}`;
    for (const p of [...this.inflight.values(), ...this.queue]) this.finish(p, { error: why, stderr: this.stderr });
  }

  /** Stops the process and fails anything still pending. */
  close(): void {
    const group = this.group;
    this.child = undefined;
    this.group = undefined;
    for (const p of [...this.inflight.values(), ...this.queue]) this.finish(p, { error: 'Hook cancelled' });
    group?.end();
  }
}
