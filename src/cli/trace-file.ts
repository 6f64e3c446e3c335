/** Reading hook traces (src/engine/trace.ts): finding a session's file and grouping its lines by fire. */
import fs from 'node:fs';
import { z } from 'zod';
import path from 'node:path';
import { UsageError } from '../config/problems.js';
import type { Env } from '../config/paths.js';
import { flushTraces, traceFileName, traceSettings, type TraceFireLine, type TraceLine, type TraceRunLine } from '../engine/trace.js';

/** A fired event with the runs it made, in the order they were written. */
export interface TracedFire {
  fire: TraceFireLine;
  runs: TraceRunLine[];
}

export interface LoadedTrace {
  file: string;
  session: string;
  lines: TraceLine[];
  fires: TracedFire[];
  /** Lines that were not trace records (a cut line, a foreign file). */
  skipped: number;
}

export function traceDir(env: Env = process.env): string {
  return traceSettings(env).dir;
}

function traceFiles(dir: string): Array<{ file: string; mtime: number }> {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.jsonl') && !n.endsWith('.1.jsonl'))
    .map((n) => {
      const file = path.join(dir, n);
      try {
        return { file, mtime: fs.statSync(file).mtimeMs };
      } catch {
        return { file, mtime: 0 };
      }
    })
    .sort((a, b) => b.mtime - a.mtime);
}

/** The trace file for a session id (or its start), a trace file's path, or the latest session. */
export function findTrace(which: string | undefined, env: Env = process.env): string {
  // What this process fired is on disk before it is looked for.
  flushTraces();
  const dir = traceDir(env);
  if (which && (which.includes('/') || which.endsWith('.jsonl'))) {
    if (!fs.existsSync(which)) throw new UsageError(`no trace file ${path.resolve(which)}`);
    return which;
  }
  const files = traceFiles(dir);
  if (!files.length)
    throw new UsageError(
      `no hook traces in ${dir} — run a hook first (traces are off with HOOKLINE_TRACE=0 or "trace": {"enabled": false})`,
    );
  if (!which) return files[0].file;
  const exact = path.join(dir, traceFileName(which));
  if (fs.existsSync(exact)) return exact;
  const starting = files.filter((f) => path.basename(f.file).startsWith(which));
  if (starting.length === 1) return starting[0].file;
  if (starting.length > 1)
    throw new UsageError(`session "${which}" is ambiguous in ${dir}: ${starting.map((f) => path.basename(f.file, '.jsonl')).join(', ')}`);
  throw new UsageError(`no trace for session "${which}" in ${dir} — \`hookline trace --list\` lists the sessions`);
}

/** Every session with a trace, newest first. */
export function listTraces(env: Env = process.env): Array<{ session: string; file: string; mtime: number }> {
  flushTraces();
  return traceFiles(traceDir(env)).map((f) => ({ session: path.basename(f.file, '.jsonl'), ...f }));
}

// What a trace line must hold to be read: a foreign or edited file's line of another shape (a
// `ms` that is not a number, a decision that is not text) is skipped and counted, never printed.
const text = z.string();
const maybe = text.optional();
const duration = z.number().finite().nonnegative();
const base = { v: z.literal(1), t: text, session: text, dialect: text, event: text, fire: text, target: maybe };
const RUN_LINE = z.looseObject({
  ...base,
  kind: z.literal('run'),
  hook: text,
  source: maybe,
  file: maybe,
  start: text.refine((t) => !Number.isNaN(Date.parse(t))),
  ms: duration,
  exit: z.number().int().nullable(),
  decision: text,
  reason: maybe,
  effect: maybe,
  stderr: maybe,
  error: maybe,
  shadow: z.boolean().optional(),
  input: text,
});
const FIRE_LINE = z.looseObject({
  ...base,
  kind: z.literal('fire'),
  cwd: maybe,
  input: text,
  inputOmitted: maybe,
  decision: text,
  reason: maybe,
  effect: maybe,
  sequential: z.boolean().optional(),
  runs: z.number().int().nonnegative(),
  ms: duration,
});
const LINE = z.discriminatedUnion('kind', [RUN_LINE, FIRE_LINE]);

const isLine = (v: unknown): v is TraceLine => LINE.safeParse(v).success;

/** Parses trace text; lines that are not trace records are counted, not fatal. */
export function parseTrace(text: string): { lines: TraceLine[]; skipped: number } {
  const lines: TraceLine[] = [];
  let skipped = 0;
  for (const l of text.split('\n')) {
    if (!l.trim()) continue;
    try {
      const v = JSON.parse(l) as unknown;
      if (isLine(v)) lines.push(v);
      else skipped++;
    } catch {
      skipped++;
    }
  }
  return { lines, skipped };
}

/** Groups runs under their fire; a fire line comes after its runs. */
export function groupFires(lines: readonly TraceLine[]): TracedFire[] {
  const pending = new Map<string, TraceRunLine[]>();
  const out: TracedFire[] = [];
  for (const l of lines) {
    if (l.kind === 'run') {
      const key = `${l.session}\0${l.fire}`;
      pending.set(key, [...(pending.get(key) ?? []), l]);
    } else {
      const key = `${l.session}\0${l.fire}`;
      out.push({ fire: l, runs: pending.get(key) ?? [] });
      pending.delete(key);
    }
  }
  return out;
}

/** A trace file and its rotated older part, as fires; `read` is the file's text when the caller has it already. */
export function loadTrace(file: string, read?: string): LoadedTrace {
  flushTraces();
  let text = '';
  // The rotated part first: it holds the older lines.
  const older = file.replace(/\.jsonl$/, '.1.jsonl');
  for (const f of [older, file]) {
    try {
      text += f === file && read !== undefined ? read : fs.readFileSync(f, 'utf8');
      if (!text.endsWith('\n')) text += '\n';
    } catch (err) {
      if (f === file) throw new UsageError(`cannot read trace ${file}: ${(err as Error).message}`);
    }
  }
  const { lines, skipped } = parseTrace(text);
  return { file, session: path.basename(file, '.jsonl'), lines, fires: groupFires(lines), skipped };
}

/** The 1-based fire a user names, or the last deny (else the last a shadow hook would have denied, else the last fire). */
export function pickFire(trace: LoadedTrace, n: number | undefined): { index: number; fire: TracedFire } {
  const fires = trace.fires;
  if (!fires.length) throw new UsageError(`trace ${trace.file} has no fired events`);
  if (n !== undefined) {
    if (!Number.isInteger(n) || n < 1 || n > fires.length)
      throw new UsageError(`event ${n} is not in trace ${trace.file}: it has events 1 to ${fires.length}`);
    return { index: n, fire: fires[n - 1] };
  }
  for (let i = fires.length - 1; i >= 0; i--) if (DENYING.has(fires[i].fire.decision)) return { index: i + 1, fire: fires[i] };
  // Else the last one a shadow hook would have denied.
  for (let i = fires.length - 1; i >= 0; i--)
    if (fires[i].runs.some((r) => r.shadow && DENYING.has(r.decision))) return { index: i + 1, fire: fires[i] };
  return { index: fires.length, fire: fires[fires.length - 1] };
}

/** Decisions that stop what the agent was about to do (`explain` picks the last of these). */
export const DENYING: ReadonlySet<string> = new Set(['deny', 'block', 'stop']);
