/**
 * A PreToolUse hook's answer. Two documented forms are read: `{"allowTool": false,
 * "denyReason": "…"}` (also written `allow_tool` / `deny_reason`) and the newer `{"decision":
 * "allow|deny|ask|force_ask", "reason": "…"}`. agy fails closed: empty output with exit 0 is no
 * opinion, but a failed run (non-zero exit, timeout, no start), output that is not a JSON
 * object, an object with neither form (`{}`), or an unknown decision denies the tool.
 */
import type { RunResult } from '../../run/result.js';
import { isObject } from '../json.js';

export type AgyDecision = 'allow' | 'deny' | 'ask' | 'force_ask';

export interface AgyReading {
  /** Absent: no opinion. */
  decision?: AgyDecision;
  reason?: string;
  /** Why the run denied by failing (not the hook's own answer). */
  error?: string;
  /** The JSON object the hook printed. */
  response?: Record<string, unknown>;
}

const DECISIONS: readonly string[] = ['allow', 'deny', 'ask', 'force_ask'];

/** A run's stdout as a JSON object, or why not; undefined for empty output. */
export function readJsonObject(stdout: string): { value?: Record<string, unknown>; error?: string } | undefined {
  const text = stdout.trim();
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? { value } : { error: `output is not a JSON object: ${text.slice(0, 200)}` };
  } catch {
    return { error: `output is not JSON: ${text.slice(0, 200)}` };
  }
}

export function failure(
  r: Pick<RunResult, 'exitCode' | 'timedOut' | 'stderr'> & { error?: string },
  timeoutSeconds: number,
): string | undefined {
  if (r.timedOut) return `timed out after ${timeoutSeconds} s`;
  if (r.error) return r.error;
  if (r.exitCode !== 0) return `exit ${r.exitCode ?? 'by signal'}${r.stderr.trim() ? `: ${r.stderr.trim().slice(0, 500)}` : ''}`;
  return undefined;
}

export function readPreToolUse(
  r: Pick<RunResult, 'exitCode' | 'timedOut' | 'stderr' | 'stdout'> & { error?: string },
  timeoutSeconds: number,
): AgyReading {
  const failed = failure(r, timeoutSeconds);
  if (failed) return { decision: 'deny', reason: failed, error: failed };
  const json = readJsonObject(r.stdout);
  if (!json) return {};
  if (!json.value) return { decision: 'deny', reason: json.error, error: json.error };
  const o = json.value;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  if (o.decision !== undefined) {
    const d = typeof o.decision === 'string' ? o.decision.toLowerCase() : undefined;
    if (!d || !DECISIONS.includes(d)) {
      const error = `unknown decision ${JSON.stringify(o.decision)}; expected allow, deny, ask or force_ask`;
      return { decision: 'deny', reason: error, error, response: o };
    }
    return { decision: d as AgyDecision, reason: text(o.reason) ?? text(o.denyReason) ?? text(o.deny_reason), response: o };
  }
  const allow = o.allowTool ?? o.allow_tool;
  if (typeof allow === 'boolean')
    return { decision: allow ? 'allow' : 'deny', reason: text(o.denyReason) ?? text(o.deny_reason) ?? text(o.reason), response: o };
  const error =
    allow === undefined
      ? 'output has no decision ("decision" or "allowTool")'
      : `"allowTool" must be true or false, got ${JSON.stringify(allow)}`;
  return { decision: 'deny', reason: error, error, response: o };
}

const RANK: Record<AgyDecision, number> = { allow: 1, ask: 2, force_ask: 3, deny: 4 };

/** Every hook's decision together: any deny vetoes, then force_ask, ask, allow; reasons of the winning kind joined. */
export function aggregateDecisions(readings: readonly AgyReading[]): { decision: AgyDecision; reason?: string } | null {
  let best: AgyDecision | undefined;
  for (const r of readings) if (r.decision && (!best || RANK[r.decision] > RANK[best])) best = r.decision;
  if (!best) return null;
  const reasons = readings.filter((r) => r.decision === best && r.reason).map((r) => r.reason as string);
  return { decision: best, ...(reasons.length ? { reason: reasons.join('\n') } : {}) };
}
