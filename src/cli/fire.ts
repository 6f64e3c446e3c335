import { HookEngine } from '../engine.js';
import { EVENT_FIELDS } from '../events/input.js';
import { EVENT_NAMES, isEventName } from '../events/names.js';
import { formatProblem, jsonPath } from '../config/problems.js';
import { closestEvent } from '../config/validate.js';
import { readInput, resolveDir, UsageError, warn } from './io.js';
import { reportHeld } from './trust.js';
import { dialectOf, rejectDialectOptions } from './dialect.js';
import { sessionIdProblem } from '../events/session-id.js';

export interface FireOptions {
  input?: string;
  cwd?: string;
  sessionId?: string;
  transcriptPath?: string;
  /** gemini (default), mm, spatialagent or claude; the other dialects are handled in dialects.ts and claude.ts. */
  dialect?: string;
  config?: string;
  model?: string;
  baseUrl?: string;
}

/** Checks the types of the fields that are present; absent fields are left to the hooks. */
function checkFields(event: keyof typeof EVENT_FIELDS, fields: Record<string, unknown>): void {
  const schema = EVENT_FIELDS[event].partial();
  const r = schema.safeParse(fields);
  if (!r.success) {
    const first = r.error.issues[0];
    throw new UsageError(`input for ${event}: ${jsonPath(first.path as Array<string | number>) || 'value'}: ${first.message}`);
  }
}

export async function fire(eventArg: string, opts: FireOptions): Promise<void> {
  const dialect = dialectOf(opts.dialect);
  const badId = opts.sessionId !== undefined ? sessionIdProblem(opts.sessionId, '--session-id') : undefined;
  if (badId) throw new UsageError(badId);
  if (dialect === 'claude') return (await import('./claude.js')).fireClaudeCli(eventArg, opts);
  if (dialect !== 'gemini') return (await import('./dialects.js')).fireDialect(dialect, eventArg, opts);
  rejectDialectOptions(opts);
  if (!isEventName(eventArg)) {
    const hint = closestEvent(eventArg);
    throw new UsageError(`unknown event "${eventArg}"${hint ? ` (did you mean "${hint}"?)` : ''}; expected one of ${EVENT_NAMES.join(', ')}`);
  }
  const event = eventArg;
  const fields = readInput(opts.input);
  checkFields(event, fields);
  const badInputId = typeof fields.session_id === 'string' ? sessionIdProblem(fields.session_id, 'input session_id') : undefined;
  if (badInputId) throw new UsageError(badInputId);
  const cwd = resolveDir(opts.cwd ?? (typeof fields.cwd === 'string' && fields.cwd ? fields.cwd : undefined));
  const engine = new HookEngine({
    cwd,
    sessionId: opts.sessionId ?? (typeof fields.session_id === 'string' ? fields.session_id : undefined),
    transcriptPath: opts.transcriptPath ?? (typeof fields.transcript_path === 'string' ? fields.transcript_path : undefined),
    watchConfig: false,
  });
  for (const p of engine.problems) warn(formatProblem(p));
  reportHeld(engine);
  const { session_id: _s, transcript_path: _t, cwd: _c, hook_event_name: _h, timestamp: _ts, ...own } = fields;
  // As Gemini CLI fires it: an AfterAgent outside a retry has `stop_hook_active: false`.
  if (event === 'AfterAgent' && own.stop_hook_active === undefined) own.stop_hook_active = false;
  const result = await engine.fire(event, own);
  for (const r of result.runs) {
    if (r.error) warn(r.error);
    if (r.warning) warn(`warning: ${r.warning}`);
  }
  const out = {
    output: result.output ?? null,
    runs: result.runs.map((r) => ({
      name: r.name,
      command: r.command ?? null,
      source: r.source,
      exitCode: r.exitCode,
      success: r.success,
      durationMs: r.durationMs,
      output: r.output ?? null,
      stdout: r.stdout,
      stderr: r.stderr,
      error: r.error ?? null,
    })),
  };
  process.stdout.write(JSON.stringify(out, null, 2) + '\n');
}
