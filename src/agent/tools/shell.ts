import fs from 'node:fs';
import os from 'node:os';
import { z } from 'zod';
import { ErrorType, errMsg, fail, oneLine } from './common.js';
import { runInGroup, type Outcome } from './exec.js';
import { isFailure, resolveInWorkspace } from './paths.js';
import { defineTool, type ToolResult } from './types.js';

export const DEFAULT_TIMEOUT_MS = 120_000;

const parameters = z.object({
  command: z.string().describe('Exact bash command to execute as `bash -c <command>`'),
  description: z
    .string()
    .optional()
    .describe('A short, specific description of what the command does, shown to the user (one sentence, at most three; no line breaks).'),
  dir_path: z
    .string()
    .optional()
    .describe('Optional: the existing workspace directory to run the command in. Defaults to the workspace root.'),
  is_background: z
    .boolean()
    .optional()
    .describe('Not supported by this agent: every process the command starts is stopped when the command finishes. Leave unset.'),
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

function signalNumber(sig: NodeJS.Signals): number | string {
  return os.constants.signals[sig] ?? sig;
}

/** Shell output is data from the outside world, so it is fenced off as untrusted for the model. */
function untrusted(text: string): string {
  return `<untrusted_context>\n${text.replaceAll('</untrusted_context>', '&lt;/untrusted_context&gt;')}\n</untrusted_context>`;
}

export function report(o: Outcome, timeoutMs: number): ToolResult {
  if (o.aborted || o.timedOut) {
    const why = o.timedOut
      ? `Command was automatically cancelled because it exceeded the timeout of ${timeoutMs >= 60_000 ? `${(timeoutMs / 60_000).toFixed(1)} minutes` : `${timeoutMs / 1000} seconds`}.`
      : 'Command was cancelled by user before it could complete.';
    const llm = o.output
      ? `${why} Below is the output before it was cancelled:\n${o.output}`
      : `${why} There was no output before it was cancelled.`;
    const shown = o.timedOut ? why : 'Command cancelled by user.';
    return {
      llmContent: untrusted(llm),
      returnDisplay: o.output ? `${shown}\n\nOutput before cancellation:\n${o.output}` : shown,
      facts: { kind: 'shell', output: o.output, exitCode: o.exitCode, interrupted: true },
    };
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
  const result: ToolResult = {
    llmContent: untrusted(parts.join('\n')),
    returnDisplay: display,
    exitCode: o.exitCode,
    facts: {
      kind: 'shell',
      output: o.output,
      exitCode: o.exitCode,
      interrupted: false,
      ...(o.printed !== undefined ? { printed: o.printed } : {}),
    },
  };
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
    if (ctx.signal.aborted)
      return { llmContent: 'Command was cancelled by user before it could start.', returnDisplay: 'Command cancelled by user.' };
    const timeoutMs = ctx.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    try {
      return report(await runInGroup(a.command, cwd, ctx.env, ctx.signal, timeoutMs), timeoutMs);
    } catch (err) {
      return fail(ErrorType.shellError, errMsg(err), `Command failed: ${errMsg(err)}`);
    }
  },
});
