/**
 * Runs an `http` hook: the event's JSON is POSTed to the hook's URL and the response is read
 * like a command hook's stdout. The result is a ProcessResult so every dialect reads it with the
 * reader it already has:
 *
 * - a 2xx response is exit code 0 with the body as stdout (empty body: no output);
 * - any other status (3xx included: redirects are not followed, so headers never reach another
 *   host), a connection failure, a body over the size limit, a timeout or a cancel is an error
 *   with no exit code: the dialect reads it as a non-blocking error (fail open) unless the hook
 *   asks to fail closed. As in Claude Code, a status code alone never blocks: a policy service
 *   blocks with a 2xx and a JSON decision.
 *
 * Header values may name variables (`$VAR`, `${VAR}`), filled in only from the hook's
 * `allowedEnvVars`; any other name becomes the empty string. The URL itself is never expanded.
 * `inputKey` / `resultKey` put the event under a key and read the answer from one, for services
 * with an envelope of their own (OPA's data API: `{"input": …}` in, `{"result": …}` out).
 */
import { HEADER_VAR_REF } from '../config/header-vars.js';
import { MAX_HTTP_RESPONSE_BYTES, textNestsDeeper, tooDeep } from '../config/limits.js';

import { boundedTimeoutMs } from '../config/timeout.js';
import type { ProcessResult } from './result.js';
import { deadline } from './deadline.js';

export const DEFAULT_HTTP_TIMEOUT_MS = 60_000;

export interface HttpRun {
  url: string;
  /** Header values as written; `$VAR` / `${VAR}` expanded from `allowedEnvVars` only. */
  headers?: Readonly<Record<string, string>>;
  allowedEnvVars?: readonly string[];
  /** Where allowed variables are read from (Hookline's own environment). */
  env: NodeJS.ProcessEnv;
  /** The event's JSON text. */
  body: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Default: MAX_HTTP_RESPONSE_BYTES. */
  maxBytes?: number;
  /** Send `{"<inputKey>": <event>}` instead of the event (OPA's data API reads `input`). */
  inputKey?: string;
  /** Read the answer from the response's `<resultKey>` field (OPA's `result`); absent means no output. */
  resultKey?: string;
}

export interface HttpResult extends ProcessResult {
  /** The response's status, when one came. */
  status?: number;
}

/** Header values with `$VAR` and `${VAR}` filled in from the allowed variables only (`$$` is `$`). */
export function expandHeaders(
  headers: Readonly<Record<string, string>>,
  allowed: readonly string[],
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  const ok = new Set(allowed);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    out[k] = v.replace(HEADER_VAR_REF, (m, braced?: string, bare?: string) => {
      if (m === '$$') return '$';
      const name = braced ?? bare ?? '';
      return ok.has(name) ? (env[name] ?? '') : '';
    });
  }
  return out;
}

/** Why a URL cannot be an http hook's target, or undefined. */
export function urlProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `"${url}" is not a valid URL`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `"${url}" must be an http:// or https:// URL`;
  if (u.username || u.password) return `"${url}" carries credentials in the URL; send them in a header from allowedEnvVars`;
  return undefined;
}

function firstLine(text: string, max = 200): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Why a fetch failed, in a few words (connection refused, unknown host…). */
function reason(e: unknown): string {
  const err = e as { message?: string; cause?: { code?: string; message?: string } };
  const code = err?.cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (code === 'ECONNRESET') return 'connection reset';
  return err?.cause?.message ?? err?.message ?? String(e);
}

/** The `key` field of a JSON object response, as JSON text ('' when absent: no decision). */
function resultOf(text: string, key: string): string | { error: string } {
  if (textNestsDeeper(text)) return { error: `${tooDeep('the response')}; not read` };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { error: `the response is not JSON, so it has no "${key}" field` };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return { error: `the response is not a JSON object, so it has no "${key}" field` };
  const result = (v as Record<string, unknown>)[key];
  return result === undefined ? '' : JSON.stringify(result);
}

/** POSTs the body and reads the answer. Never throws. */
export async function runHttp(run: HttpRun): Promise<HttpResult> {
  const started = performance.now();
  const timeoutMs = boundedTimeoutMs(run.timeoutMs, DEFAULT_HTTP_TIMEOUT_MS);
  const limit = run.maxBytes ?? MAX_HTTP_RESPONSE_BYTES;
  const took = () => performance.now() - started;
  const fail = (error: string, extra: Partial<HttpResult> = {}): HttpResult => ({
    exitCode: null,
    stdout: '',
    stderr: '',
    error,
    durationMs: took(),
    ...extra,
  });
  const problem = urlProblem(run.url);
  if (problem) return fail(problem);
  const wait = deadline(timeoutMs, run.signal);
  const stopped = () => (wait.timedOut() ? fail(`Hook timed out after ${timeoutMs}ms`, { timedOut: true }) : fail('Hook cancelled'));
  try {
    let res: Response;
    try {
      res = await fetch(run.url, {
        method: 'POST',
        headers: {
          ...expandHeaders(run.headers ?? {}, run.allowedEnvVars ?? [], run.env),
          'content-type': 'application/json',
        },
        body: run.inputKey ? `{${JSON.stringify(run.inputKey)}:${run.body}}` : run.body,
        redirect: 'manual',
        signal: wait.signal,
      });
    } catch (e) {
      if (wait.signal.aborted) return stopped();
      return fail(`POST ${run.url} failed: ${reason(e)}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    try {
      if (res.body) {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          size += chunk.length;
          if (size > limit) {
            over = true;
            wait.abort();
            break;
          }
          chunks.push(Buffer.from(chunk));
        }
      }
    } catch (e) {
      if (!over) return wait.signal.aborted ? stopped() : fail(`POST ${run.url}: reading the response failed: ${reason(e)}`);
    }
    const status = res.status;
    if (over) return fail(`POST ${run.url}: response larger than ${limit} bytes; not read`, { status });
    const text = Buffer.concat(chunks).toString('utf8');
    if (status < 200 || status > 299) {
      const where =
        status >= 300 && status < 400 && res.headers.get('location') ? ` (redirect to ${res.headers.get('location')} not followed)` : '';
      const body = firstLine(text);
      return fail(
        `POST ${run.url} answered HTTP ${status}${res.statusText ? ` ${res.statusText}` : ''}${where}${body ? `: ${body}` : ''}`,
        {
          status,
          stdout: text,
        },
      );
    }
    if (run.resultKey) {
      const result = resultOf(text, run.resultKey);
      if (typeof result !== 'string') return fail(`POST ${run.url}: ${result.error}`, { status, stdout: text });
      return { exitCode: 0, stdout: result, stderr: '', durationMs: took(), status };
    }
    return { exitCode: 0, stdout: text, stderr: '', durationMs: took(), status };
  } finally {
    wait.done();
  }
}
