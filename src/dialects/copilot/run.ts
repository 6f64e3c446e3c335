/**
 * Fires one Copilot CLI event as Copilot CLI 1.0.102 does: the matching hooks one after another
 * in file order, each given the event's JSON on stdin in its own shape (camelCase for Copilot's
 * event names, snake_case with Claude's tool names for PascalCase ones), `bash -c` in its `cwd`
 * (else the project folder) with `COPILOT_CLI=1`, `COPILOT_PROJECT_DIR`, `CLAUDE_PROJECT_DIR`
 * and, for a hooks folder's files, `COPILOT_HOOK_DIR`. On preToolUse each hook sees the arguments
 * as the earlier ones rewrote them, and a deny ends the chain.
 *
 * How a run is read (answer.ts): exit 0 with a JSON object is an answer; exit 2 on preToolUse
 * and permissionRequest denies (`hook exited with code 2`, `Permission denied by hook.`),
 * elsewhere its stderr is shown to the user; any other failure on those two denies (`(hook
 * errored)`, `Permission request hook failed`: fail closed), elsewhere it is reported and
 * ignored; a timeout lets the tool run. `onFailure: "block"` (Hookline's) makes every failure
 * deny, a timeout and output that is not JSON included.
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { runInShell } from '../../run/prewarm.js';
import { runHttp } from '../../run/http.js';
import { sanitizeEnv } from '../../run/env.js';
import { envFrom } from '../../run/process.js';
import { processRunOf, type ProcessResult, type ProcessRun } from '../../run/result.js';
import { recordSequentialFire, traceRunOf } from '../../engine/trace.js';
import type { CopilotConfig, CopilotHook, CopilotSource } from './config.js';
import { pascalName, TOOL_EVENTS, type CopilotEvent, type Shape } from './events.js';
import { copilotClaudeName } from './tools.js';
import { aggregateCopilot, readCopilotRun, type CopilotOutput, type CopilotReading } from './answer.js';

export interface CopilotRun extends ProcessRun {
  type: 'command' | 'http';
  command: string;
  source: CopilotSource;
  file: string;
  path: string;
  event: string;
  matcher?: string;
  timeoutSeconds: number;
  /** The answer it gave, as read for its shape. */
  answer?: Record<string, unknown>;
  /** `deny`, `ask`, `allow`, `block`, `error`, `shown` (exit 2's stderr for the user) or `ok`. */
  outcome: string;
}

export interface CopilotFireResult {
  event: CopilotEvent;
  /** The input in Copilot's camelCase (each hook read it in its own shape). */
  input: Record<string, unknown>;
  output: CopilotOutput;
  runs: CopilotRun[];
}

export interface CopilotFireOptions {
  projectDir: string;
  /** The environment hooks start from (sanitised). Default: process.env without secrets. */
  env?: NodeJS.ProcessEnv;
  /** Where http hooks' loopback switch is read (Hookline's own environment). */
  hostEnv?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Called once before any hook starts, when some will. */
  beforeRun?(): void;
  /** Where a long-running caller keeps the shells started ahead of its events. */
  processes?: Map<string, { close(): void }>;
}

/** The hooks an event runs for this input, in order; identical commands once. */
export function copilotHooksFor(config: CopilotConfig, event: CopilotEvent, toolName: string | undefined): CopilotHook[] {
  const tool = TOOL_EVENTS.has(event) ? (toolName ?? '') : undefined;
  const seen = new Set<string>();
  return config.hooks.filter((h) => {
    if (h.event !== event) return false;
    if (tool !== undefined && !h.matches(tool, copilotClaudeName(tool))) return false;
    const key = `${h.shape}\0${h.type}\0${h.cwd ?? ''}\0${JSON.stringify(h.env)}\0${h.command}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** camelCase field names whose Claude-format name is not their snake_case. */
const CLAUDE_FIELDS: Record<string, string> = { sessionId: 'session_id', toolArgs: 'tool_input', toolResult: 'tool_result' };

const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/**
 * An event's input for a hook of this shape. Copilot's: `{sessionId, timestamp (epoch ms), cwd,
 * …}`. Claude's: `{hook_event_name, session_id, timestamp (ISO 8601), cwd, …}` with snake_case
 * names (`tool_input`, `tool_result: {result_type, text_result_for_llm}`) and Claude's tool
 * names (`view` → `Read`). permissionRequest is Copilot's in both; notification names its event.
 */
export function copilotInput(event: CopilotEvent, shape: Shape, fields: Record<string, unknown>, at: Date): Record<string, unknown> {
  const { sessionId, cwd, ...own } = fields;
  if (event === 'permissionRequest') return { hookName: 'permissionRequest', sessionId, timestamp: at.getTime(), cwd, ...own };
  if (shape === 'copilot')
    return {
      ...(event === 'notification' ? { hook_event_name: 'Notification' } : {}),
      sessionId,
      timestamp: at.getTime(),
      cwd,
      ...own,
    };
  const out: Record<string, unknown> = { hook_event_name: pascalName(event), session_id: sessionId, timestamp: at.toISOString(), cwd };
  for (const [k, v] of Object.entries(own)) {
    if (k === 'toolName') out.tool_name = copilotClaudeName(String(v));
    else if (k === 'toolResult' && v && typeof v === 'object')
      out.tool_result = Object.fromEntries(Object.entries(v).map(([rk, rv]) => [snake(rk), rv]));
    else out[CLAUDE_FIELDS[k] ?? snake(k)] = v;
  }
  return out;
}

/** The folder a hook's file is named by in Copilot's messages: relative to the project when inside it. */
export function fileLabel(file: string, projectDir: string): string {
  const rel = path.relative(projectDir, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

async function runOne(hook: CopilotHook, stdin: string, env: Record<string, string>, opts: CopilotFireOptions): Promise<ProcessResult> {
  if (hook.type === 'http')
    return runHttp({
      url: hook.command,
      env: opts.hostEnv ?? process.env,
      body: stdin,
      timeoutMs: hook.timeoutSeconds * 1000,
      signal: opts.signal,
    });
  const run = {
    command: hook.command,
    cwd: hook.cwd ?? opts.projectDir,
    env: { ...env, ...(hook.hookDir ? { COPILOT_HOOK_DIR: hook.hookDir } : {}), ...hook.env },
    stdin,
    timeoutMs: hook.timeoutSeconds * 1000,
    signal: opts.signal,
    shell: 'bash',
  };
  return runInShell(opts.processes, run, opts.hostEnv ?? process.env);
}

/**
 * Fires one event with its camelCase `fields` (`sessionId` and `cwd` filled in when missing).
 * Never throws for a hook's failure.
 */
export async function fireCopilot(
  config: CopilotConfig,
  event: CopilotEvent,
  fields: Record<string, unknown>,
  opts: CopilotFireOptions,
): Promise<CopilotFireResult> {
  const projectDir = path.resolve(opts.projectDir);
  const input: Record<string, unknown> = { sessionId: randomUUID(), cwd: projectDir, ...fields };
  const env: Record<string, string> = {
    ...envFrom(opts.env ?? sanitizeEnv(process.env, { enabled: true, allowed: [], blocked: [] })),
    COPILOT_CLI: '1',
    COPILOT_PROJECT_DIR: projectDir,
    CLAUDE_PROJECT_DIR: projectDir,
  };
  const toolName = typeof input.toolName === 'string' ? input.toolName : undefined;
  const hooks = copilotHooksFor(config, event, toolName);
  if (hooks.length) opts.beforeRun?.();
  const at = new Date();
  const began = Date.now();
  const runs: CopilotRun[] = [];
  const readings: CopilotReading[] = [];
  let args = input.toolArgs;
  for (const hook of hooks) {
    const stdin = JSON.stringify(copilotInput(event, hook.shape, { ...input, ...(args !== undefined ? { toolArgs: args } : {}) }, at));
    const raw = await runOne(hook, stdin, env, opts);
    const reading = readCopilotRun(event, hook, raw, fileLabel(hook.file, projectDir));
    readings.push(reading);
    runs.push({
      type: hook.type,
      command: hook.command,
      source: hook.source,
      file: hook.file,
      path: hook.path,
      event: hook.name,
      ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}),
      timeoutSeconds: hook.timeoutSeconds,
      ...processRunOf(raw, reading.error),
      ...(reading.answer ? { answer: reading.answer } : {}),
      outcome: reading.outcome,
    });
    // Each preToolUse hook reads the arguments as the earlier ones left them; a deny ends the chain.
    if (event === 'preToolUse') {
      if (reading.deny !== undefined) break;
      if (reading.modifiedArgs) args = reading.modifiedArgs;
    }
    if (event === 'permissionRequest' && reading.behavior === 'deny') break;
  }
  const output = aggregateCopilot(event, readings);
  if (runs.length)
    recordSequentialFire(
      {
        began,
        dialect: 'copilot',
        session: typeof input.sessionId === 'string' ? input.sessionId : '',
        event,
        ...(toolName ? { target: toolName } : {}),
        cwd: projectDir,
        input,
        decision: output.deny !== undefined ? 'deny' : (output.decision ?? output.permissionDecision ?? output.behavior ?? 'ok'),
        ...(output.deny ? { reason: output.deny } : output.reason ? { reason: output.reason } : {}),
        runs: runs.map((r, i) => traceRunOf(r, r.outcome, readings[i].deny ?? readings[i].reason)),
      },
      opts.env ?? process.env,
    );
  return { event, input, output, runs };
}
