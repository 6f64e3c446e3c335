import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { ErrorType, errMsg, fail, oneLine } from './common.js';
import { isFailure, resolveInWorkspace } from './paths.js';
import { defineTool, type ToolResult } from './types.js';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_OUTPUT_CHARS = 1024 * 1024;
/** Grace between SIGTERM and SIGKILL for the process group. */
const KILL_GRACE_MS = 200;

const parameters = z.object({
  command: z.string().describe('Exact bash command to execute as `bash -c <command>`'),
  description: z
    .string()
    .optional()
    .describe('Brief description of the command for the user. Be specific and concise. Ideally a single sentence. Can be up to 3 sentences for clarity. No line breaks.'),
  dir_path: z
    .string()
    .optional()
    .describe('(OPTIONAL) The path of the directory to run the command in. If not provided, the project root directory is used. Must be a directory within the workspace and must already exist.'),
  is_background: z.boolean().optional().describe('Not supported by this agent: every process the command starts is stopped when the command finishes. Leave unset.'),
});

/**
 * Finds `$(...)`, backticks, `<(...)` or `>(...)` outside single quotes. Gemini CLI
 * refuses such commands, so the model learns the same rule here.
 */
export function hasCommandSubstitution(command: string): boolean {
  let single = false;
  let double = false;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (c === "'" && !double) {
      single = !single;
      continue;
    }
    if (c === '"' && !single) {
      double = !double;
      continue;
    }
    if (single) continue;
    if (c === '\\' && i + 1 < command.length) {
      if (!double || '$`"\\\n'.includes(command[i + 1])) i++;
      continue;
    }
    if (c === '$' && command[i + 1] === '(') return true;
    if (!double && (c === '<' || c === '>') && command[i + 1] === '(') return true;
    if (c === '`') return true;
  }
  return false;
}

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

function killGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

function groupAlive(pid: number): boolean {
  return killGroup(pid, 0 as unknown as NodeJS.Signals);
}

/** Keeps the last `max` characters (errors tend to be at the end). */
class Tail {
  text = '';
  dropped = 0;
  constructor(private readonly max: number) {}
  push(s: string): void {
    this.text += s;
    if (this.text.length > this.max) {
      this.dropped += this.text.length - this.max;
      this.text = this.text.slice(this.text.length - this.max);
    }
  }
}

interface Outcome {
  output: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  error: Error | null;
  pid: number | undefined;
  aborted: boolean;
  timedOut: boolean;
  backgroundPids: number[];
}

function execute(command: string, cwd: string, env: Record<string, string>, signal: AbortSignal, timeoutMs: number): Promise<Outcome> {
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

    const child = spawn('bash', ['-c', wrap(command, pidFile)], {
      cwd,
      env: { ...env, PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // own process group, so the whole tree can be signalled
    });
    const pid = child.pid;

    /** SIGTERM the group, SIGKILL whatever is left shortly after. */
    const stopGroup = () => {
      if (pid === undefined) return;
      if (killGroup(pid, 'SIGTERM')) timers.push(setTimeout(() => killGroup(pid, 'SIGKILL'), KILL_GRACE_MS));
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
      if (pid !== undefined && groupAlive(pid)) {
        killGroup(pid, 'SIGKILL');
      }
      for (const t of timers) clearTimeout(t);
      fs.rmSync(tmp, { recursive: true, force: true });
      if (!binary) out.push(decoders.out.decode() + decoders.err.decode());
      let output = binary ? '[Binary output detected. Halting stream...]' : out.text.replace(ANSI, '').trim();
      if (out.dropped > 0) output = `[Output truncated: showing the last ${MAX_OUTPUT_CHARS} characters; ${out.dropped} earlier characters were dropped.]\n${output}`;
      resolve({ output, exitCode, signal: exitSignal, error, pid, aborted, timedOut, backgroundPids });
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
      if (pid !== undefined && groupAlive(pid)) {
        killGroup(pid, 'SIGTERM');
        timers.push(setTimeout(() => killGroup(pid, 'SIGKILL'), KILL_GRACE_MS));
        // a daemon that left the group may still hold the pipes: do not wait for it forever
        timers.push(
          setTimeout(() => {
            child.stdout?.destroy();
            child.stderr?.destroy();
            finish();
          }, KILL_GRACE_MS + 2000),
        );
      }
    });
    child.on('close', finish);
  });
}

function signalNumber(sig: NodeJS.Signals): number | string {
  return os.constants.signals[sig] ?? sig;
}

/** Shell output is data from the outside world, so it is fenced off as untrusted for the model. */
function untrusted(text: string): string {
  return `<untrusted_context>\n${text.replaceAll('</untrusted_context>', '&lt;/untrusted_context&gt;')}\n</untrusted_context>`;
}

function report(o: Outcome, timeoutMs: number): ToolResult {
  if (o.aborted || o.timedOut) {
    const why = o.timedOut
      ? `Command was automatically cancelled because it exceeded the timeout of ${timeoutMs >= 60_000 ? `${(timeoutMs / 60_000).toFixed(1)} minutes` : `${timeoutMs / 1000} seconds`}.`
      : 'Command was cancelled by user before it could complete.';
    const llm = o.output ? `${why} Below is the output before it was cancelled:\n${o.output}` : `${why} There was no output before it was cancelled.`;
    const shown = o.timedOut ? why : 'Command cancelled by user.';
    return { llmContent: untrusted(llm), returnDisplay: o.output ? `${shown}\n\nOutput before cancellation:\n${o.output}` : shown };
  }
  const parts = [`Output: ${o.output || '(empty)'}`];
  if (o.error) parts.push(`Error: ${o.error.message}`);
  if (o.exitCode !== null && o.exitCode !== 0) parts.push(`Exit Code: ${o.exitCode}`);
  if (o.signal) parts.push(`Signal: ${signalNumber(o.signal)}`);
  if (o.backgroundPids.length) parts.push(`Background PIDs: ${o.backgroundPids.join(', ')} (stopped when the command finished)`);
  if (o.pid) parts.push(`Process Group PGID: ${o.pid}`);
  let display = o.output;
  if (!display) {
    if (o.signal) display = `Command terminated by signal: ${o.signal}`;
    else if (o.error) display = `Command failed: ${o.error.message}`;
    else if (o.exitCode !== null && o.exitCode !== 0) display = `Command exited with code: ${o.exitCode}`;
  }
  const result: ToolResult = { llmContent: untrusted(parts.join('\n')), returnDisplay: display };
  if (o.error) result.error = { message: o.error.message, type: ErrorType.shellError };
  return result;
}

export const runShellCommand = defineTool({
  name: 'run_shell_command',
  description:
    'Executes a shell command as `bash -c <command>` in the workspace (or `dir_path`), with stdin closed. The command leads its own process group; ' +
    'any processes it leaves running in the background are stopped when it finishes, and it is stopped after a time limit. ' +
    'Command substitution ($(...), backticks, <(...), >(...)) is refused.\n\n' +
    'Returned: Output (combined stdout/stderr, `(empty)` if none), Exit Code (only if non-zero), Error (only for a failure to start), ' +
    'Signal (only if the command was killed by a signal), Background PIDs (only if background jobs were started), Process Group PGID.',
  parameters,
  kind: 'execute',
  title: (a) => oneLine(`Shell ${a.command}${a.dir_path ? ` [in ${a.dir_path}]` : ''}`),
  async run(a, ctx) {
    if (!a.command.trim()) return fail(ErrorType.invalidParams, 'Command cannot be empty.');
    if (a.is_background) {
      return fail(
        ErrorType.invalidParams,
        'Background execution is not supported: every process a command starts is stopped when the command finishes. Run the command in the foreground and make it finish on its own.',
        'Background execution is not supported.',
      );
    }
    let cwd = ctx.cwd;
    if (a.dir_path) {
      const r = resolveInWorkspace(ctx.cwd, a.dir_path);
      if (isFailure(r)) return r;
      let isDir = false;
      try {
        isDir = fs.statSync(r.path).isDirectory();
      } catch {
        return fail(ErrorType.fileNotFound, `Directory does not exist: ${r.path}`, 'Directory does not exist.');
      }
      if (!isDir) return fail(ErrorType.pathIsNotDirectory, `Path is not a directory: ${r.path}`, 'Path is not a directory.');
      cwd = r.path;
    }
    if (hasCommandSubstitution(a.command)) {
      return fail(
        ErrorType.policyViolation,
        'Command injection detected: command substitution syntax ($(), backticks, <() or >()) found in command arguments. This is a security risk and the command was blocked.',
        'Blocked: command substitution detected in shell command.',
      );
    }
    if (ctx.signal.aborted) return { llmContent: 'Command was cancelled by user before it could start.', returnDisplay: 'Command cancelled by user.' };
    const timeoutMs = ctx.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    try {
      return report(await execute(a.command, cwd, ctx.env, ctx.signal, timeoutMs), timeoutMs);
    } catch (err) {
      return fail(ErrorType.shellError, errMsg(err), `Command failed: ${errMsg(err)}`);
    }
  },
});
