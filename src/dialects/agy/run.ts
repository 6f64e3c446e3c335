/**
 * Fires one agy event: the matching command hooks one after another, in file order (`bash -c`
 * in the workspace folder, the camelCase input as JSON on stdin), identical commands once, each
 * stopped at its timeout. PreToolUse runs are read as decisions (decision.ts); the other
 * events' hooks observe, and a failed run is reported.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { runCommand } from '../../run/command.js';
import { sanitizeEnv } from '../../run/env.js';
import { processRunOf, type ProcessRun } from '../../run/result.js';
import { recordSequentialFire, traceRunOf } from '../../engine/trace.js';
import type { AgyConfig, AgyEvent, AgyHook, AgySource } from './config.js';
import { TOOL_EVENTS } from './config.js';
import { aggregateDecisions, failure, readJsonObject, readPreToolUse, type AgyDecision } from './decision.js';

export interface AgyRun extends ProcessRun {
  command: string;
  source: AgySource;
  file: string;
  path: string;
  suite: string;
  matcher?: string;
  timeoutSeconds: number;
  decision?: AgyDecision;
  reason?: string;
  /** The JSON object the hook printed. */
  response?: Record<string, unknown>;
  /** `deny`, `force_ask`, `ask`, `allow`, `error` or `ok`. */
  outcome: string;
}

export interface AgyFireResult {
  event: AgyEvent;
  input: Record<string, unknown>;
  /** PreToolUse: the decision of every hook together, null when none decided. Other events: null. */
  output: { decision: AgyDecision; reason?: string } | null;
  runs: AgyRun[];
}

export interface AgyFireOptions {
  projectDir: string;
  /** The environment hooks start from (sanitised). Default: process.env without secrets. */
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Names the tool is also known by (a hook's matcher is tested against each). */
  toolNames?: string[];
}

/** The input with agy's common fields filled in where missing. */
export function buildAgyInput(fields: Record<string, unknown>, projectDir: string): Record<string, unknown> {
  return {
    conversationId: randomUUID(),
    stepIdx: 0,
    transcriptPath: '',
    workspacePaths: [projectDir],
    artifactDirectoryPath: '',
    ...fields,
  };
}

export function agyHooksFor(config: AgyConfig, event: AgyEvent, names: readonly string[]): AgyHook[] {
  const seen = new Set<string>();
  return config.hooks.filter((h) => {
    if (h.event !== event) return false;
    if (TOOL_EVENTS.has(event) && !names.some((n) => h.match.test(n))) return false;
    if (seen.has(h.command)) return false;
    seen.add(h.command);
    return true;
  });
}

/** Fires one event. Never throws for a hook's failure. */
export async function fireAgy(
  config: AgyConfig,
  event: AgyEvent,
  fields: Record<string, unknown>,
  opts: AgyFireOptions,
): Promise<AgyFireResult> {
  const projectDir = path.resolve(opts.projectDir);
  const input = buildAgyInput(fields, projectDir);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(opts.env ?? sanitizeEnv(process.env, { enabled: true, allowed: [], blocked: [] })))
    if (v !== undefined) env[k] = v;
  const call = input.toolCall as { name?: unknown } | undefined;
  const names = opts.toolNames ?? (typeof call?.name === 'string' ? [call.name] : ['']);
  const stdin = JSON.stringify(input);
  const runs: AgyRun[] = [];
  const began = Date.now();
  for (const hook of agyHooksFor(config, event, names)) {
    const r = await runCommand({
      command: hook.command,
      cwd: projectDir,
      env,
      stdin,
      timeoutMs: hook.timeoutSeconds * 1000,
      signal: opts.signal,
    });
    let reading: { decision?: AgyDecision; reason?: string; error?: string; response?: Record<string, unknown> };
    if (event === 'PreToolUse') reading = readPreToolUse(r, hook.timeoutSeconds);
    else {
      const error = failure(r, hook.timeoutSeconds);
      const json = error ? undefined : readJsonObject(r.stdout);
      reading = { ...(error ? { error } : {}), ...(json?.value ? { response: json.value } : {}) };
    }
    runs.push({
      command: hook.command,
      source: hook.source,
      file: hook.file,
      path: hook.path,
      suite: hook.suite,
      ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}),
      timeoutSeconds: hook.timeoutSeconds,
      ...processRunOf(r, reading.error),
      ...(reading.decision ? { decision: reading.decision } : {}),
      ...(reading.reason !== undefined ? { reason: reading.reason } : {}),
      ...(reading.response ? { response: reading.response } : {}),
      outcome: reading.decision ?? (reading.error ? 'error' : 'ok'),
    });
  }
  const output = event === 'PreToolUse' ? aggregateDecisions(runs) : null;
  recordSequentialFire(
    {
      began,
      dialect: 'agy',
      session: typeof input.conversationId === 'string' ? input.conversationId : '',
      event,
      ...(typeof call?.name === 'string' ? { target: call.name } : {}),
      cwd: projectDir,
      input,
      decision: output?.decision ?? (runs.some((r) => r.error) ? 'error' : 'ok'),
      ...(output?.reason ? { reason: output.reason } : {}),
      runs: runs.map((r) => traceRunOf(r, r.outcome, r.reason)),
    },
    opts.env ?? process.env,
  );
  return { event, input, output, runs };
}
