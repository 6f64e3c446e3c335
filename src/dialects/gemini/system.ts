/** Gemini CLI settings hooks as a hook system: the engine's own events, input and settings files. */
import { randomUUID } from 'node:crypto';
import type { EVENT_FIELDS } from '../../events/input.js';
import { inputSchemas } from '../../events/lazy-schema.js';
import { plainFields } from '../../events/plain.js';
import { EVENT_NAMES, isEventName } from '../../events/names.js';
import { formatProblem, jsonPath, UsageError } from '../../config/problems.js';
import { closestEvent } from '../../config/validate.js';
import { displayName, type HookEntry } from '../../config/entry.js';
import { geminiFingerprint, geminiReview } from '../../trust/fingerprints.js';
import { HookEngine, loadContext, type HookContext } from '../../engine/index.js';
import { shadowRunLine } from '../../engine/trace-gemini.js';
import type { DialectHook } from '../../trust/dialects.js';
import type { HookControl, ListedHook } from '../list.js';
import { disableHook, enableHook } from '../../config/write.js';
import { validationLines, type HookSystem } from '../system.js';
import { geminiAdapter } from './agent.js';
import { settingsHints } from './hints.js';
import { foreignEvent } from '../foreign-event.js';

import { heldWarnings } from '../../engine/held.js';

export { heldWarnings };

/** Checks the types of the fields that are present; absent fields are left to the hooks. */
function checkFields(event: keyof typeof EVENT_FIELDS, fields: Record<string, unknown>): void {
  if (plainFields(event, fields)) return;
  const r = inputSchemas().EVENT_FIELDS[event].partial().safeParse(fields);
  if (!r.success) {
    const first = r.error.issues[0];
    throw new UsageError(`input for ${event}: ${jsonPath(first.path as Array<string | number>) || 'value'}: ${first.message}`);
  }
}

function asWorkspaceHook(e: HookEntry, projectDir: string): DialectHook {
  const fp = geminiFingerprint(e, projectDir);
  return {
    source: 'gemini',
    event: e.event,
    matcher: e.matcher,
    name: displayName(e.hook),
    command: e.hook.type === 'command' ? e.hook.command : null,
    file: e.file ?? '',
    path: e.path ?? '',
    id: `${e.file ?? ''}#${e.path ?? ''}`,
    label: `${displayName(e.hook)} (${e.event}${e.matcher ? ` ${e.matcher}` : ''}): ${e.hook.type === 'command' ? e.hook.command : e.hook.type === 'http' ? `POST ${e.hook.url}` : ''}`,
    ...fp,
    // Gemini CLI reads the same file and looks up `name:command`: written beside the new key.
    ...(fp.key && fp.legacy ? { alsoWrite: [fp.legacy] } : {}),
  };
}

/** Every settings hook with its state, for `hookline list` and `/hooks`. */
export function listGeminiHooks(ctx: HookContext, runtime: readonly HookEntry[] = []): ListedHook[] {
  const held = new Set(ctx.held.map((h) => h.entry));
  return [...runtime, ...ctx.config.entries].map((e) => ({
    event: e.event,
    matcher: e.matcher ?? null,
    name: displayName(e.hook),
    command: e.hook.type === 'command' ? e.hook.command : null,
    source: e.source,
    file: e.file ?? null,
    enabled: e.enabled,
    trusted: !held.has(e),
    ...geminiReview(e),
  }));
}

/**
 * An environment as a key: a server keeps one engine per folder and environment, since the
 * environment says where settings and trust are read from and what the hooks start from (each
 * event's own: see `fire`). Left out: what a host sets afresh for each hook it starts (a trace's
 * context, the terminal's size), which would otherwise make each event's engine a new one.
 */
const perEvent = (k: string) => k === 'TRACEPARENT' || k === 'TRACESTATE' || k === 'COLUMNS' || k === 'LINES';

/**
 * Environments seen lately, most recent first: a copy of each (with how many names it has, what
 * a host sets for each hook left out), the object it last came as and whether that one set any
 * of those, and its number. A client's comes as a new object with each of its events: compared
 * key by key, which costs far less than writing it out. One gone from the list gets a new number
 * (and engine) if it comes back.
 */
interface Seen {
  env: NodeJS.ProcessEnv;
  names: number;
  last: NodeJS.ProcessEnv;
  lastPerEvent: boolean;
  id: number;
}
const recent: Seen[] = [];
const RECENT = 64;
let lastEnvId = 0;

/** Whether `env` is `seen`'s environment; `found.perEvent` says whether it sets what a host sets per hook. */
function sameEnv(env: NodeJS.ProcessEnv, seen: Seen, found: { perEvent: boolean }): boolean {
  const copy = seen.env;
  let n = 0;
  found.perEvent = false;
  for (const k in env) {
    if (perEvent(k)) {
      found.perEvent = true;
      continue;
    }
    const v = copy[k];
    if (v !== env[k] || (v === undefined && !(k in copy))) return false;
    n++;
  }
  return n === seen.names;
}

const closeKept = (kept: { engine: HookEngine }) => kept.engine.close();

function envKey(env: NodeJS.ProcessEnv): Seen {
  // The object last seen again (the server's own; a session's kept one), unless a live process.env.
  const newest = recent[0];
  if (newest?.last === env && env !== process.env) return newest;
  let i = env === process.env ? -1 : recent.findIndex((s) => s.last === env);
  const found = { perEvent: i >= 0 && recent[i]!.lastPerEvent };
  if (i < 0) i = recent.findIndex((s) => sameEnv(env, s, found));
  if (i < 0) {
    const copy = { ...env };
    const names = Object.keys(copy).filter((k) => !perEvent(k));
    const seen = { env: copy, names: names.length, last: env, lastPerEvent: names.length < Object.keys(copy).length, id: ++lastEnvId };
    recent.unshift(seen);
    if (recent.length > RECENT) recent.pop();
    return seen;
  }
  const [seen] = recent.splice(i, 1);
  seen!.last = env;
  seen!.lastPerEvent = found.perEvent;
  recent.unshift(seen!);
  return seen!;
}

/** A loaded context's held-back lines, worked out once: a server says them with every event of the folder (a change reloads). */
const heldLines = new WeakMap<object, string[]>();
function heldLinesOf(context: HookContext): string[] {
  let lines = heldLines.get(context);
  if (!lines) heldLines.set(context, (lines = heldWarnings(context)));
  return lines;
}

export const geminiSystem: HookSystem = {
  name: 'gemini',
  describeConfig: '.gemini/settings.json, ~/.gemini/settings.json, system settings, extensions',
  events: EVENT_NAMES,
  async fire(eventArg, fields, opts) {
    if (opts.config !== undefined)
      throw new UsageError(
        '--config names a file of another hook system — add --dialect claude|codex|copilot|mm|spatialagent|agy, or drop it (Gemini settings are found in their usual places)',
      );
    if (opts.hasModel)
      throw new UsageError(
        '--model is only for prompt hooks (SpatialAgent, Claude Code) — drop it, or add --dialect spatialagent or claude',
      );
    if (!isEventName(eventArg)) {
      const foreign = await foreignEvent(eventArg, 'Gemini settings');
      if (foreign) throw new UsageError(foreign);
      const hint = closestEvent(eventArg);
      throw new UsageError(`unknown event "${eventArg}"${hint ? ` (did you mean "${hint}"?)` : ''} — use one of ${EVENT_NAMES.join(', ')}`);
    }
    const event = eventArg;
    checkFields(event, fields);
    const sessionId = opts.sessionId ?? (typeof fields.session_id === 'string' ? fields.session_id : undefined);
    const transcriptPath = opts.transcriptPath ?? (typeof fields.transcript_path === 'string' ? fields.transcript_path : undefined);
    // A server keeps one engine per folder and environment (settings re-read when they change,
    // persistent hooks kept); the session is then the event's, not the engine's. Held hooks and warnings are
    // returned with every fire, so the engine itself says nothing.
    const quiet = () => {};
    // Held through the event: a reload, or making room for another, closes it only once it is done.
    const known = opts.warm ? envKey(opts.env) : undefined;
    const held = known
      ? opts.warm?.hold(
          `gemini\0${opts.cwd}\0${known.id}`,
          () => ({
            engine: new HookEngine({ cwd: opts.cwd, env: opts.env, watchConfig: true, configCheckIntervalMs: 0, onNotice: quiet }),
            perEvent: known.lastPerEvent,
          }),
          closeKept,
        )
      : undefined;
    const engine =
      held?.value.engine ??
      new HookEngine({ cwd: opts.cwd, env: opts.env, sessionId, transcriptPath, watchConfig: false, startAhead: false, onNotice: quiet });
    const { session_id: _s, transcript_path: _t, cwd: _c, hook_event_name: _h, timestamp: _ts, ...own } = fields;
    // As Gemini CLI fires it: an AfterAgent outside a retry has `stop_hook_active: false`.
    if (event === 'AfterAgent' && own.stop_hook_active === undefined) own.stop_hook_active = false;
    const session = opts.warm ? { session_id: sessionId ?? randomUUID(), transcript_path: transcriptPath ?? '' } : {};
    const seen = engine.pendingWarnings.length;
    let raised: string[];
    let context: HookContext;
    let result: Awaited<ReturnType<HookEngine['fire']>>;
    try {
      // This event's own values of what the key leaves out reach its hooks (the rest is the engine's).
      const env = known?.lastPerEvent || held?.value.perEvent ? opts.env : undefined;
      const firing = engine.fire(event, { ...session, ...own }, { signal: opts.signal, env });
      // Taken before the first await: the warnings this fire raised, not a concurrent one's.
      raised = engine.pendingWarnings.slice(seen);
      context = engine.context;
      result = await firing;
    } finally {
      // One-shot: nothing it started stays.
      if (held) held.release();
      else engine.close();
    }
    const warnings = [...context.config.problems.map(formatProblem), ...heldLinesOf(context), ...raised];
    for (const r of result.runs) {
      if (r.error) warnings.push(r.error);
      if (r.warning) warnings.push(`warning: ${r.warning}`);
      const shadow = r.shadow ? shadowRunLine(event, r, result.input) : undefined;
      if (shadow) warnings.push(shadow);
    }
    const runs = result.runs.map((r) => ({
      name: r.name,
      command: r.command ?? null,
      ...(r.url ? { url: r.url } : {}),
      source: r.source,
      exitCode: r.exitCode,
      success: r.success,
      durationMs: r.durationMs,
      output: r.output ?? null,
      stdout: r.stdout,
      stderr: r.stderr,
      error: r.error ?? null,
      ...(r.warning ? { warning: r.warning } : {}),
      ...(r.shadow ? { shadow: true } : {}),
    }));
    const heldBack = engine.context.held
      .filter((h) => h.entry.event === event)
      .map((h) => ({
        name: displayName(h.entry.hook),
        event: h.entry.event,
        source: h.entry.source,
        file: h.entry.file ?? '',
        reason: h.reason,
      }));
    const configErrors = context.config.problems.filter((p) => p.severity === 'error').map(formatProblem);
    return { output: result.output ?? null, runs, heldBack, warnings, ...(configErrors.length ? { configErrors } : {}) };
  },
  validate({ cwd, config, env }) {
    if (config !== undefined)
      throw new UsageError(
        '--config names a file of another hook system — add --dialect claude|codex|copilot|mm|spatialagent|agy, or drop it (Gemini settings are found in their usual places)',
      );
    const ctx = loadContext({ cwd, env });
    const problems = [...ctx.config.problems, ...settingsHints(ctx.config.entries)];
    const files = ctx.config.files.filter((f) => f.exists);
    return {
      ...validationLines(problems, { files: files.length, kind: 'settings file', hooks: ctx.config.entries.length }),
      json: { problems, files: files.map((f) => f.file) },
    };
  },
  // Settings layers always apply (defaults, system settings), so Gemini's are always checked.
  configured: () => true,
  workspaceHooks(dir, env) {
    return loadContext({ cwd: dir, env })
      .config.entries.filter((e) => e.source === 'project')
      .map((e) => asWorkspaceHook(e, dir));
  },
  adapter(setup) {
    return geminiAdapter(setup.engine, setup.ctx);
  },
};

/** `/hooks` for a session's engine: its hooks, and enabling or disabling one in settings (runtime hooks in memory). */
export function geminiControl(engine: HookEngine): HookControl {
  const runtime = () => engine.hooks().filter((e) => e.source === 'runtime');
  return {
    list: () => listGeminiHooks(engine.context, runtime()),
    setEnabled(name, enabled) {
      if (!engine.hooks().some((e) => displayName(e.hook) === name)) return `no hook named "${name}"`;
      const isRuntime = runtime().some((e) => displayName(e.hook) === name);
      const verb = enabled ? 'enable' : 'disable';
      const msg = isRuntime
        ? `${verb}d runtime hook "${name}"`
        : enabled
          ? enableHook(name, engine.projectDir)
          : disableHook(name, engine.projectDir);
      engine.reload();
      engine.setEnabled(name, enabled);
      return msg;
    },
  };
}
