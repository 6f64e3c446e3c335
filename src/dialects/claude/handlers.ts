/**
 * Runs one Claude Code handler of any type and reads what it gave, as Claude Code reads it:
 *
 * - `command`: `bash -c` in the project folder, the input on stdin (output.ts reads the result).
 * - `http`: the input POSTed to the URL (src/run/http.ts). A 2xx with an empty body is success
 *   with no output, a 2xx with a JSON object is read like a command's JSON stdout, a 2xx with any
 *   other body, a non-2xx status, a connection failure or a timeout is a non-blocking error: an
 *   HTTP status alone never blocks.
 * - `prompt` and `agent`: the agent's model answers `{"ok": true}` or `{"ok": false, "reason"}`;
 *   `ok: false` blocks as exit code 2 would (PreToolUse: deny, and a prompt hook without
 *   `continueOnBlock` also ends the turn; Stop: Claude goes on with the reason, unless a prompt
 *   hook says `impossible`). At most 12 run at once. With no model, each is an error that says so.
 * - `mcp_tool`: an error (Hookline has no MCP client).
 *
 * `onFailure: "block"` turns any error (a timeout included) into a block (fail closed).
 */
import fs from 'node:fs';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { runInShell } from '../../run/prewarm.js';
import { runHttp } from '../../run/http.js';
import { tryExpand } from '../../run/expand.js';
import type { ProcessResult } from '../../run/result.js';
import { askModel } from '../../run/judge.js';
import type { ClaudeEvent } from './events.js';
import type { ClaudeHook } from './config.js';
import { readClaudeRun, type ClaudeRunReading } from './output.js';
import { judges } from './background.js';

export interface HandlerRun {
  /** Where the hook runs and `$CLAUDE_PROJECT_DIR`. */
  projectDir: string;
  /** The hook's process environment (command hooks). */
  env: Record<string, string>;
  /** Where an http hook's allowed header variables are read from. */
  hostEnv: NodeJS.ProcessEnv;
  /** The variables a command may name (`$CLAUDE_PROJECT_DIR`, a plugin's folders). */
  vars: Record<string, string>;
  /** The event's input as JSON text. */
  stdin: string;
  input: Record<string, unknown>;
  model?: LanguageModelV3;
  /** What to say when a prompt or agent hook has no model. */
  noModel?: string;
  signal?: AbortSignal;
  /** Where a session keeps shells started ahead of its events: command hooks run in them (src/run/prewarm.ts). */
  pools?: Map<string, { close(): void }>;
  expand(command: string, projectDir: string, vars: Record<string, string>): string;
}

export interface HandlerResult {
  raw: ProcessResult;
  reading: ClaudeRunReading;
}

const NO_MODEL =
  'needs a model to judge it, and none is configured (in the agent the session model judges; with `hookline fire`, give one with --model)';

/** The reading of a block (exit code 2) with `reason`, for this event. */
export function blockReading(event: ClaudeEvent, reason: string): ClaudeRunReading {
  // A block decided here (a judgement, a failure that fails closed) is no exit code: it names no command.
  const { stderr: _stderr, ...r } = readClaudeRun(event, { exitCode: 2, stdout: '', stderr: reason, durationMs: 0 }, 0);
  return r.response ? { ...r, format: 'json' } : r;
}

function errored(error: string, started: number): HandlerResult {
  return { raw: { exitCode: null, stdout: '', stderr: '', error, durationMs: performance.now() - started }, reading: { error } };
}

export async function runClaudeHandler(hook: ClaudeHook, event: ClaudeEvent, run: HandlerRun): Promise<HandlerResult> {
  const r = await runOne(hook, event, run);
  if (!r.reading.error || hook.onFailure !== 'block') return r;
  // Fail closed: the error blocks as exit code 2 would, with the error as the reason.
  return { raw: r.raw, reading: blockReading(event, `${hook.type} hook failed (onFailure: block): ${r.reading.error}`) };
}

async function runOne(hook: ClaudeHook, event: ClaudeEvent, run: HandlerRun): Promise<HandlerResult> {
  const started = performance.now();
  if (hook.type === 'command') {
    // Claude Code makes a plugin's data folder when a hook may use it.
    if (hook.plugin) {
      try {
        fs.mkdirSync(hook.plugin.data, { recursive: true });
      } catch {
        // The hook finds the folder missing, as it would under Claude Code.
      }
    }
    const command = tryExpand(run.expand, hook.command, run.projectDir, run.vars);
    const raw =
      typeof command !== 'string'
        ? command
        : // In a shell started ahead of the event when the session keeps them, else cold.
          await runInShell(
            run.pools,
            {
              command,
              cwd: run.projectDir,
              env: { ...run.env, ...run.vars },
              stdin: run.stdin,
              timeoutMs: hook.timeoutSeconds * 1000,
              signal: run.signal,
              shell: 'bash',
            },
            run.hostEnv,
          );
    return { raw, reading: readClaudeRun(event, raw, hook.timeoutSeconds) };
  }
  if (hook.type === 'http') {
    const h = hook.http!;
    const raw = await runHttp({
      url: h.url,
      headers: h.headers,
      allowedEnvVars: h.allowedEnvVars,
      env: run.hostEnv,
      body: run.stdin,
      timeoutMs: hook.timeoutSeconds * 1000,
      signal: run.signal,
    });
    const body = raw.stdout.trim();
    if (!raw.error && body && !body.startsWith('{')) {
      const error = `POST ${h.url} answered ${raw.status} with a body that is not a JSON object`;
      return { raw: { ...raw, error }, reading: { error } };
    }
    return { raw, reading: readClaudeRun(event, raw, hook.timeoutSeconds) };
  }
  if (hook.type === 'mcp_tool') return errored(`mcp_tool hook ${hook.command} not called: Hookline has no MCP client configured`, started);
  if (!run.model) return errored(`${hook.type} hook ${run.noModel ?? NO_MODEL}`, started);
  return judges.run(() => judge(hook, event, run, run.model!));
}

const INSTRUCTIONS = `You are a hook in an AI coding agent: you decide whether what the agent is about to do (or has just done) may go on, by the rule below. The event's input is JSON.
Answer with one JSON object and nothing else: {"ok": true} when it may go on, or {"ok": false, "reason": "<why, written for the agent>"} when it may not.`;

/** The prompt sent to the model: `$ARGUMENTS` is the input JSON (appended when the prompt does not name it). */
export function judgePrompt(prompt: string, stdin: string): string {
  return prompt.includes('$ARGUMENTS') ? prompt.replaceAll('$ARGUMENTS', stdin) : `${prompt}\n\nInput:\n${stdin}`;
}

/** Reads `{"ok": …, "reason"?, "impossible"?}` from a model's answer (code fences and prose around it allowed). */
export function readJudgement(answer: string): { ok: boolean; reason?: string; impossible?: boolean } | undefined {
  const start = answer.indexOf('{');
  const end = answer.lastIndexOf('}');
  if (start === -1 || end < start) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(answer.slice(start, end + 1));
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null || typeof (v as { ok?: unknown }).ok !== 'boolean') return undefined;
  const o = v as { ok: boolean; reason?: unknown; impossible?: unknown };
  return {
    ok: o.ok,
    ...(typeof o.reason === 'string' && o.reason ? { reason: o.reason } : {}),
    ...(o.impossible === true ? { impossible: true } : {}),
  };
}

/** What a judgement does at this event. */
export function judgementReading(
  hook: Pick<ClaudeHook, 'type' | 'judge'>,
  event: ClaudeEvent,
  j: { ok: boolean; reason?: string; impossible?: boolean },
): ClaudeRunReading {
  if (j.ok) return {};
  const reason = j.reason ?? `Blocked by ${hook.type} hook`;
  // PermissionRequest ignores ok: false.
  if ((event as string) === 'PermissionRequest') return {};
  if ((event === 'Stop' || event === 'SubagentStop') && j.impossible && hook.type === 'prompt')
    return { format: 'json', response: { systemMessage: reason } };
  const block = blockReading(event, reason);
  if (event === 'PreToolUse' && hook.type === 'prompt' && !hook.judge?.continueOnBlock)
    return { ...block, response: { ...block.response, continue: false, stopReason: reason } };
  return block;
}

async function judge(hook: ClaudeHook, event: ClaudeEvent, run: HandlerRun, model: LanguageModelV3): Promise<HandlerResult> {
  const started = performance.now();
  const prompt = judgePrompt(hook.judge!.prompt, run.stdin);
  const answer = await askModel(model, { system: INSTRUCTIONS, prompt }, hook.timeoutSeconds, run.signal);
  const durationMs = performance.now() - started;
  if (!answer.ok) {
    const error = answer.timedOut ? `timed out after ${hook.timeoutSeconds}s` : `the model failed: ${answer.message}`;
    return {
      raw: { exitCode: null, stdout: '', stderr: '', error, durationMs, ...(answer.timedOut ? { timedOut: true } : {}) },
      reading: { error },
    };
  }
  const raw: ProcessResult = { exitCode: 0, stdout: answer.text, stderr: '', durationMs };
  const j = readJudgement(answer.text);
  if (!j) {
    const error = `the model's answer is not {"ok": true|false, "reason": …}: ${answer.text.trim().split('\n')[0]?.slice(0, 200) ?? ''}`;
    return { raw: { ...raw, error }, reading: { error } };
  }
  return { raw, reading: judgementReading(hook, event, j) };
}
