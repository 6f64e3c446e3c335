import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GroupRun, signalGroup } from '../../run/process.js';

/** Output kept per command (the tail, in characters). */
export const MAX_OUTPUT_CHARS = 1024 * 1024;
/** Grace between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 200;

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]{0,4096}(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Runs the command in a subshell whose EXIT trap records the jobs it left running. */
function wrap(command: string, pidFile: string): string {
  let body = command.trim();
  if (body.endsWith('\\')) body += ' ';
  return `__hl_bgpids=${shellQuote(pidFile)}\n(\n  trap 'jobs -p > "$__hl_bgpids"' EXIT\n${body}\n)\n__hl_code=$?\nexit $__hl_code`;
}

/** Keeps the last `max` characters (errors tend to be at the end), trimming in batches. */
class Tail {
  private buf = '';
  private total = 0;
  constructor(private readonly max: number) {}
  push(s: string): void {
    this.buf += s;
    this.total += s.length;
    if (this.buf.length > 2 * this.max) this.buf = this.buf.slice(-this.max);
  }
  get text(): string {
    return this.buf.length > this.max ? this.buf.slice(-this.max) : this.buf;
  }
  get dropped(): number {
    return Math.max(0, this.total - this.max);
  }
}

export interface Outcome {
  output: string;
  /** The output as printed (ANSI codes removed, not trimmed), when it was kept whole. */
  printed?: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  error: Error | null;
  pid: number | undefined;
  aborted: boolean;
  timedOut: boolean;
  backgroundPids: number[];
}

/**
 * Runs `bash -c` in its own process group with stdin closed. On abort or timeout the
 * group gets SIGTERM, then SIGKILL; when the shell exits, whatever it left running
 * (its group and its background jobs) is stopped the same way. A shell that cannot
 * start resolves with `error` set.
 */
export function runInGroup(
  command: string,
  cwd: string,
  env: Record<string, string>,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<Outcome> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-shell-'));
  const pidFile = path.join(tmp, 'bgpids');
  return new Promise((resolve) => {
    const out = new Tail(MAX_OUTPUT_CHARS);
    let binary = false;
    let sniffed = 0;
    let aborted = false;
    let timedOut = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let error: Error | null = null;
    let finished = false;
    let backgroundPids: number[] = [];
    const readBackgroundPids = () => {
      try {
        backgroundPids = fs
          .readFileSync(pidFile, 'utf8')
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => /^\d+$/.test(l))
          .map(Number)
          .filter((p) => p !== pid);
      } catch {
        // no trap output: the shell was killed or never started
      }
    };
    const timers: NodeJS.Timeout[] = [];

    let group: GroupRun;
    try {
      // Own process group (and cgroup where available), so the whole tree can be signalled.
      group = new GroupRun({
        command: wrap(command, pidFile),
        cwd,
        env: { ...env, PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (err) {
      // e.g. a NUL byte in the command or env: nothing was started
      fs.rmSync(tmp, { recursive: true, force: true });
      const e = err instanceof Error ? err : new Error(String(err));
      resolve({ output: '', exitCode: 1, signal: null, error: e, pid: undefined, aborted: false, timedOut: false, backgroundPids: [] });
      return;
    }
    const child = group.child;
    const pid = child.pid;

    /** SIGTERM the group, SIGKILL whatever is left shortly after. */
    const stopGroup = () => group.stop(KILL_GRACE_MS);
    /** Signals what is left after the shell exited: its group, and background jobs by pid (`setsid` ones left the group). */
    const stopAll = (sig: NodeJS.Signals): boolean => {
      let any = signalGroup(pid, sig);
      for (const p of backgroundPids) {
        try {
          process.kill(p, sig);
          any = true;
        } catch {
          // already gone
        }
      }
      return any;
    };
    const onAbort = () => {
      aborted = true;
      stopGroup();
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => {
      timedOut = true;
      stopGroup();
    }, timeoutMs);

    const decoders = { out: new TextDecoder(), err: new TextDecoder() };
    const onData = (which: 'out' | 'err') => (chunk: Buffer) => {
      if (binary) return;
      if (sniffed < 4096) {
        sniffed += chunk.length;
        if (chunk.subarray(0, 4096).includes(0)) {
          binary = true;
          return;
        }
      }
      out.push(decoders[which].decode(chunk, { stream: true }));
    };
    child.stdout!.on('data', onData('out'));
    child.stderr!.on('data', onData('err'));

    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      // leftover members of the group (background jobs) must not outlive the call
      stopAll('SIGKILL');
      group.end();
      for (const t of timers) clearTimeout(t);
      fs.rmSync(tmp, { recursive: true, force: true });
      if (!binary) out.push(decoders.out.decode() + decoders.err.decode());
      const printed = binary || out.dropped > 0 ? undefined : out.text.replace(ANSI, '');
      let output = binary ? '[Binary output detected. Halting stream...]' : out.text.replace(ANSI, '').trim();
      if (out.dropped > 0)
        output = `[Output truncated: showing the last ${MAX_OUTPUT_CHARS} characters; ${out.dropped} earlier characters were dropped.]\n${output}`;
      resolve({
        output,
        ...(printed !== undefined ? { printed } : {}),
        exitCode,
        signal: exitSignal,
        error,
        pid,
        aborted,
        timedOut,
        backgroundPids,
      });
    };

    child.on('error', (err) => {
      error = err;
      exitCode = exitCode ?? 1;
      finish();
    });
    child.on('exit', (code, sig) => {
      exitCode = code;
      exitSignal = sig;
      // Read before signalling: a job killed between fork and exec would run the inherited trap and empty the file.
      readBackgroundPids();
      // The leader is gone; stop the rest of its group so the pipes close and nothing lingers.
      if (stopAll('SIGTERM')) timers.push(setTimeout(() => stopAll('SIGKILL'), KILL_GRACE_MS));
      // a daemon that left the group may still hold the pipes: do not wait for it forever
      timers.push(
        setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
          finish();
        }, KILL_GRACE_MS + 2000),
      );
    });
    child.on('close', finish);
  });
}
