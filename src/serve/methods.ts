/**
 * The server's methods. `fire` is `hookline fire`: the same registry, the same system `fire`,
 * the same report (src/dialects/system.ts `fireReport`), with stderr's lines as `warnings`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../config/problems.js';
import { summary } from '../dialects/list.js';
import { listHooks } from '../dialects/listing.js';
import { systemNamed } from '../dialects/registry.js';
import { fireReport, sessionIdsProblem } from '../dialects/system.js';
import { FIRE_REFUSED, INVALID_PARAMS, METHOD_NOT_FOUND, RpcError } from './protocol.js';
import type { Warm } from './warm.js';
import { validateSystems } from '../dialects/validate-all.js';
import { failedAnswer, HOST_NAMES, type HostName, type RelayAnswer } from '../relay/hosts.js';
import { freePort, type RelayHttpRequest, type RelayWeb } from './relay-http.js';
import { parseSources, runRelay } from '../relay/run.js';

export interface MethodContext {
  warm: Warm;
  env: NodeJS.ProcessEnv;
  /** Aborted when the client that asked goes away. */
  signal: AbortSignal;
  /** Stops the server once the answer is sent. */
  shutdown(): void;
  /** Claude Code's http entries' listener (a server only). */
  relayWeb?: RelayWeb;
}

/** `data.usage` is the line `hookline` itself would print for the same mistake. */
const invalid = (msg: string, usage?: string) =>
  new RpcError(INVALID_PARAMS, `invalid params: ${msg}`, usage === undefined ? undefined : { usage });

function optionalString(params: Record<string, unknown>, field: string): string | undefined {
  const v = params[field];
  // null is how many clients (None, nil) say "not given".
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw invalid(`"${field}" must be a string`);
  return v;
}

function requiredString(params: Record<string, unknown>, field: string): string {
  const v = optionalString(params, field);
  if (v === undefined || v === '') throw invalid(`"${field}" is required (a non-empty string)`);
  return v;
}

/** `cwd`: an absolute path to a folder (the server's own folder means nothing to a client). */
function folder(params: Record<string, unknown>, required: boolean): string | undefined {
  if (!required && params.cwd === undefined) return undefined;
  const cwd = requiredString(params, 'cwd');
  if (!path.isAbsolute(cwd)) throw invalid(`"cwd" must be an absolute path, got ${JSON.stringify(cwd)}`);
  let st: fs.Stats;
  try {
    st = fs.statSync(cwd);
  } catch {
    throw invalid(`"cwd": no such folder: ${cwd}`);
  }
  if (!st.isDirectory()) throw invalid(`"cwd": not a folder: ${cwd}`);
  return path.resolve(cwd);
}

/** `env`: the caller's environment for this event (its hooks get it, as the caller's own would), else the server's. */
function envParam(params: Record<string, unknown>, ctx: MethodContext): NodeJS.ProcessEnv {
  const given = params.env;
  if (
    given !== undefined &&
    (typeof given !== 'object' || given === null || Array.isArray(given) || Object.values(given).some((v) => typeof v !== 'string'))
  )
    throw invalid('"env" must be an object of strings');
  return (given as NodeJS.ProcessEnv | undefined) ?? ctx.env;
}

/** A system's usage error (unknown event, bad input field) is a bad parameter. */
async function asParams<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof UsageError) throw invalid(err.message, err.message);
    throw err;
  }
}

async function fire(params: Record<string, unknown>, ctx: MethodContext): Promise<unknown> {
  const event = requiredString(params, 'event');
  const input = params.input ?? {};
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw invalid('"input" must be an object with the event\'s fields');
  const cwd = folder(params, true)!;
  const sessionId = optionalString(params, 'sessionId');
  const transcriptPath = optionalString(params, 'transcriptPath');
  const dialect = optionalString(params, 'dialect');
  const config = optionalString(params, 'config');
  const badId = sessionIdsProblem(sessionId, input as Record<string, unknown>);
  if (badId) throw invalid(badId, badId);
  const env = envParam(params, ctx);
  const r = await asParams(async () =>
    (await systemNamed(dialect)).fire(event, input as Record<string, unknown>, {
      cwd,
      cwdFlag: cwd,
      sessionId,
      transcriptPath,
      config: config === undefined ? undefined : path.resolve(cwd, config),
      hasModel: false,
      env,
      signal: ctx.signal,
      warm: ctx.warm,
    }),
  );
  if (r.exitCode)
    throw new RpcError(FIRE_REFUSED, r.raw?.[0] ?? `the hook system refused to fire (exit status ${r.exitCode})`, {
      exitCode: r.exitCode,
      raw: r.raw ?? [],
      warnings: r.warnings,
    });
  return { ...fireReport(r), warnings: r.warnings, ...(r.raw?.length ? { raw: r.raw } : {}) };
}

async function list(params: Record<string, unknown>, ctx: MethodContext): Promise<unknown> {
  const cwd = folder(params, true)!;
  const { hooks, warnings } = await listHooks(cwd, ctx.env);
  return { hooks, summary: summary(hooks), warnings };
}

async function validate(params: Record<string, unknown>, ctx: MethodContext): Promise<unknown> {
  const cwd = folder(params, true)!;
  const dialect = optionalString(params, 'dialect');
  const config = optionalString(params, 'config');
  if (config !== undefined && dialect === undefined) throw invalid('"config" names one hook system\'s file: give "dialect" with it');
  // Without a dialect, every hook system found for the folder, as `hookline validate` checks them.
  const v = await asParams(() =>
    validateSystems({ cwd, cwdFlag: cwd, dialect, config: config === undefined ? undefined : path.resolve(cwd, config), env: ctx.env }),
  );
  return { errors: v.errors, lines: v.lines, report: v.json };
}

/** `relay`: one event of an agent Hookline is installed into (`hookline relay`), answered in its format. */
async function relayEvent(params: Record<string, unknown>, ctx: MethodContext): Promise<unknown> {
  const host = requiredString(params, 'host');
  if (!(HOST_NAMES as readonly string[]).includes(host)) throw invalid(`"host" must be one of ${HOST_NAMES.join(', ')}`);
  const text = requiredString(params, 'event');
  const cwd = folder(params, true)!;
  const parsed = parseSources(optionalString(params, 'hooksFrom'), host as HostName);
  if ('problem' in parsed) throw invalid(parsed.problem, parsed.problem);
  const deadline = params.deadlineMs;
  const deadlineMs = typeof deadline === 'number' && Number.isFinite(deadline) && deadline > 0 ? deadline : 55_000;
  const env = envParam(params, ctx);
  const hookEvent = optionalString(params, 'hookEvent');
  // A Claude Code install's command entries (SessionStart, UserPromptSubmit) make sure its http entries' port is served.
  const port = params.httpPort;
  if (port !== undefined) {
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
      throw invalid('"httpPort" must be a port number (1 to 65535)');
    const problem = ctx.relayWeb ? await ctx.relayWeb.ensure(port) : 'this server takes no http entries';
    // Only Claude Code's http entries need the port: the other agents' events go on over the socket.
    if (problem && host === 'claude') return failedAnswer(host, eventName(text, hookEvent), `${problem} — ${await portFix(host)}`);
    const session = sessionOf(text);
    if (session !== undefined && ctx.relayWeb) ctx.relayWeb.remember(session, env);
  }
  return runRelay({
    host: host as HostName,
    text,
    sources: parsed.sources,
    env,
    cwd,
    deadlineMs,
    warm: ctx.warm,
    signal: ctx.signal,
    ...(hookEvent ? { event: hookEvent } : {}),
  });
}

/** The event's `session_id`, read without parsing the whole event (it comes first in Claude Code's). */
function sessionOf(text: string): string | undefined {
  return /"session_id"\s*:\s*"([^"\\]{1,200})"/.exec(text.slice(0, 65_536))?.[1];
}

function eventName(text: string, named: string | undefined): string {
  return named ?? /"hook_event_name"\s*:\s*"([A-Za-z]{1,64})"/.exec(text)?.[1] ?? '';
}

/** The command that moves the entries to a port that is free now. */
async function portFix(host: string): Promise<string> {
  const free = await freePort().catch(() => undefined);
  return `run \`hookline install ${host} --port ${free ?? '<a free port>'}\``;
}

/**
 * One event that came over loopback (relay-http.ts): a Claude Code http entry's, answered as the
 * command entry's relay answers it, with the environment its session's command entries came
 * with (else the server's); or the shell client's, with its own environment and folder.
 */
export async function relayWebEvent(r: RelayHttpRequest, ctx: MethodContext): Promise<RelayAnswer> {
  const host = r.host as HostName;
  const parsed = parseSources(r.from, host);
  const session = host === 'claude' ? sessionOf(r.text) : undefined;
  if (r.env && session !== undefined) ctx.relayWeb?.remember(session, r.env);
  if ('problem' in parsed) return failedAnswer(host, eventName(r.text, r.event), parsed.problem);
  return runRelay({
    host,
    text: r.text,
    sources: parsed.sources,
    env: r.env ?? ctx.relayWeb?.envOf(session) ?? ctx.env,
    cwd: r.cwd ?? process.cwd(),
    deadlineMs: 55_000,
    warm: ctx.warm,
    signal: ctx.signal,
    ...(r.event ? { event: r.event } : {}),
  });
}

export const METHODS: Record<string, (params: Record<string, unknown>, ctx: MethodContext) => Promise<unknown>> = {
  fire,
  relay: relayEvent,
  list,
  validate,
  /** Drops the warm engines: settings are read again and persistent hooks restart on the next fire. */
  async reload(_params, ctx) {
    return { reloaded: ctx.warm.clear() };
  },
  async shutdown(_params, ctx) {
    ctx.shutdown();
    return { stopping: true };
  },
};

export function method(name: string): (params: Record<string, unknown>, ctx: MethodContext) => Promise<unknown> {
  const m = Object.hasOwn(METHODS, name) ? METHODS[name] : undefined;
  if (!m)
    throw new RpcError(
      METHOD_NOT_FOUND,
      `method not found: ${JSON.stringify(name).slice(0, 100)}; expected one of ${Object.keys(METHODS).join(', ')}`,
    );
  return m;
}
