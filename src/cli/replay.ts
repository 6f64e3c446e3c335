/**
 * `hookline replay TRACE|RECORDING [--cwd DIR] [--current] [--json]`: fires a recorded session's
 * events again, against the hooks as they are configured now, without the agent or a model, and
 * prints each decision that would change. A trace replays the events whose full input it holds
 * (recorded with `trace.inputs`); an agent session recording (its transcript) replays the user's
 * prompts and the model's tool calls as BeforeAgent, BeforeTool and AfterTool. Workspace hooks
 * held back for trust are left out and said so; `--current` replays against the files as they
 * are, in a throwaway home where they are trusted, as `hookline test` does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../config/problems.js';
import { visible } from '../config/display.js';
import { systemNamed } from '../dialects/registry.js';
import { flushTraces, type TraceFireLine } from '../engine/trace.js';
import { DENYING, findTrace, loadTrace, parseTrace, type TracedFire } from './trace-file.js';
import { resolveDir, warn, print, printJson } from './io.js';
import { makeSandbox, type Sandbox } from './hooktest/sandbox.js';
import type { HeldBack } from '../dialects/system.js';

/** One event to fire again. */
export interface ReplayEvent {
  /** Its number in the trace or recording (1-based). */
  n: number;
  dialect: string;
  event: string;
  target?: string;
  cwd?: string;
  fields: Record<string, unknown>;
  /** What the hooks decided then; undefined for a recording, which holds no hook decisions. */
  before?: string;
  beforeReason?: string;
}

export interface ReplayChange {
  n: number;
  dialect: string;
  event: string;
  target?: string;
  before: string;
  after: string;
  reason?: string;
  /** The runs that answered now: hook and decision. */
  hooks: Array<{ hook: string; decision: string; shadow?: boolean }>;
}

/** The events of a trace that can be replayed, and how many hold only a digest. */
export function traceEvents(fires: readonly TracedFire[]): { events: ReplayEvent[]; digestsOnly: number } {
  const events: ReplayEvent[] = [];
  let digestsOnly = 0;
  fires.forEach(({ fire }, i) => {
    const input = fire.inputJson;
    if (!input || typeof input !== 'object' || Array.isArray(input)) {
      digestsOnly++;
      return;
    }
    events.push({
      n: i + 1,
      dialect: fire.dialect,
      event: fire.event,
      ...(fire.target ? { target: fire.target } : {}),
      ...(fire.cwd ? { cwd: fire.cwd } : {}),
      fields: input as Record<string, unknown>,
      before: fire.decision,
      ...(fire.reason ? { beforeReason: fire.reason } : {}),
    });
  });
  return { events, digestsOnly };
}

interface RecordedMessage {
  role: string;
  text?: string;
  toolCalls?: Array<{ id: string; name: string; args: Record<string, unknown> }>;
  results?: Array<{ id: string; name: string; output: string; isError?: boolean }>;
}

/** The Gemini events an agent session recording (its transcript) implies, in order. */
export function recordingEvents(text: string): { events: ReplayEvent[]; cwd?: string } {
  const events: ReplayEvent[] = [];
  let cwd: string | undefined;
  const calls = new Map<string, { name: string; args: Record<string, unknown> }>();
  const add = (event: string, fields: Record<string, unknown>, target?: string) =>
    events.push({ n: events.length + 1, dialect: 'gemini', event, fields, ...(target ? { target } : {}) });
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let rec: { type?: string; projectDir?: string; message?: RecordedMessage };
    try {
      rec = JSON.parse(line);
    } catch {
      continue;
    }
    if (rec.type === 'session' && typeof rec.projectDir === 'string') cwd = rec.projectDir;
    const m = rec.type === 'message' ? rec.message : undefined;
    if (!m) continue;
    if (m.role === 'user' && typeof m.text === 'string') add('BeforeAgent', { prompt: m.text });
    if (m.role === 'model')
      for (const c of m.toolCalls ?? []) {
        calls.set(c.id, c);
        add('BeforeTool', { tool_name: c.name, tool_input: c.args }, c.name);
      }
    if (m.role === 'tool')
      for (const r of m.results ?? []) {
        const call = calls.get(r.id);
        add(
          'AfterTool',
          {
            tool_name: r.name,
            tool_input: call?.args ?? {},
            tool_response: { llmContent: r.output, returnDisplay: r.output, ...(r.isError ? { error: r.output } : {}) },
          },
          r.name,
        );
      }
  }
  return { events, ...(cwd ? { cwd } : {}) };
}

const BASE_FIELDS = ['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'timestamp'];

/** Fires one event again; its decision is read back from a trace written to a folder of its own. */
async function fireAgain(
  e: ReplayEvent,
  cwd: string,
  scratch: string,
  base: NodeJS.ProcessEnv,
): Promise<{ fire?: TraceFireLine; runs: ReplayChange['hooks']; warnings: string[]; heldBack: HeldBack[] }> {
  const system = await systemNamed(e.dialect);
  const dir = fs.mkdtempSync(path.join(scratch, `${e.n}-`));
  const env = { ...base, HOOKLINE_TRACE: '1', HOOKLINE_TRACE_DIR: dir };
  const fields = e.dialect === 'gemini' ? Object.fromEntries(Object.entries(e.fields).filter(([k]) => !BASE_FIELDS.includes(k))) : e.fields;
  const r = await system.fire(e.event, fields, { cwd, env, hasModel: false });
  flushTraces();
  const written = fs.readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
  const lines = written.flatMap((n) => parseTrace(fs.readFileSync(path.join(dir, n), 'utf8')).lines);
  const fire = lines.find((l): l is TraceFireLine => l.kind === 'fire');
  const runs = lines.flatMap((l) =>
    l.kind === 'run' ? [{ hook: l.hook, decision: l.decision, ...(l.shadow ? { shadow: true } : {}) }] : [],
  );
  return { fire, runs, warnings: [...r.warnings, ...(r.raw ?? [])], heldBack: r.heldBack };
}

/** A decision as it counts for "did it change": no hook answering is the same as hooks letting it through. */
const normal = (d: string | undefined): string => (d === undefined || d === 'ok' || d === 'approve' || d === 'continue' ? 'allow' : d);

export async function replayEvents(
  events: readonly ReplayEvent[],
  opts: { cwd?: string; fallbackCwd?: string; current?: boolean },
): Promise<{ changes: ReplayChange[]; fired: number; warnings: string[]; heldBack: Array<HeldBack & { folder: string }> }> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-replay-'));
  const changes: ReplayChange[] = [];
  const warnings = new Set<string>();
  const held = new Map<string, HeldBack & { folder: string }>();
  // --current: one sandbox per folder, where its hooks as they are now are trusted.
  const sandboxes = new Map<string, Sandbox>();
  const envFor = async (cwd: string): Promise<NodeJS.ProcessEnv> => {
    if (!opts.current) return process.env;
    let s = sandboxes.get(cwd);
    if (!s) sandboxes.set(cwd, (s = await makeSandbox(cwd)));
    return s.env;
  };
  try {
    for (const e of events) {
      const cwd = opts.cwd ?? e.cwd ?? opts.fallbackCwd ?? process.cwd();
      if (!fs.existsSync(cwd)) {
        warnings.add(`event ${e.n} (${e.event}): its folder ${cwd} is gone — give --cwd`);
        continue;
      }
      let again: Awaited<ReturnType<typeof fireAgain>>;
      try {
        again = await fireAgain(e, cwd, scratch, await envFor(cwd));
      } catch (err) {
        warnings.add(`event ${e.n} (${e.dialect} ${e.event}): ${(err as Error).message}`);
        continue;
      }
      for (const w of again.warnings) warnings.add(w);
      for (const h of again.heldBack) held.set(`${h.file}\0${h.event}\0${h.name}`, { ...h, folder: cwd });
      const after = again.fire?.decision ?? 'ok';
      const changed =
        e.before === undefined ? DENYING.has(after) || after === 'ask' || after === 'force_ask' : normal(after) !== normal(e.before);
      if (!changed) continue;
      changes.push({
        n: e.n,
        dialect: e.dialect,
        event: e.event,
        ...(e.target ? { target: e.target } : {}),
        before: e.before ?? 'not recorded',
        after,
        ...(again.fire?.reason ? { reason: again.fire.reason } : {}),
        hooks: again.runs,
      });
    }
  } finally {
    for (const s of sandboxes.values()) s.remove();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return { changes, fired: events.length, warnings: [...warnings], heldBack: [...held.values()] };
}

/** Says which held-back hooks the replay left out, and the two ways to include them. */
export function heldBackNote(held: ReadonlyArray<HeldBack & { folder: string }>): string | undefined {
  if (!held.length) return undefined;
  const folders = [...new Set(held.map((h) => h.folder))];
  const list = held.map((h) => `${h.name} (${h.event}, ${h.file})`).join(', ');
  return `${held.length} workspace hook(s) held back for trust were left out of the replay, as if absent: ${list} — review them and run hookline trust ${folders.map((f) => JSON.stringify(f)).join(' ')}, or replay against the current files with --current`;
}

function isTrace(text: string): boolean {
  const first = text.slice(0, text.indexOf('\n') + 1 || undefined);
  try {
    const v = JSON.parse(first) as { v?: unknown; kind?: unknown };
    return v.v === 1 && (v.kind === 'run' || v.kind === 'fire');
  } catch {
    return false;
  }
}

export async function replay(which: string, opts: { cwd?: string; json?: boolean; current?: boolean }): Promise<number> {
  const cwd = opts.cwd !== undefined ? resolveDir(opts.cwd) : undefined;
  const file = fs.existsSync(which) ? which : findTrace(which);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
  let events: ReplayEvent[];
  let digestsOnly = 0;
  let fallbackCwd: string | undefined;
  let kind: 'trace' | 'recording';
  if (isTrace(text)) {
    kind = 'trace';
    ({ events, digestsOnly } = traceEvents(loadTrace(file, text).fires));
  } else {
    kind = 'recording';
    const r = recordingEvents(text);
    events = r.events;
    fallbackCwd = r.cwd;
    if (!events.length) throw new UsageError(`${file} is neither a hook trace nor an agent session recording with events to replay`);
  }
  const { changes, fired, warnings, heldBack } = await replayEvents(events, { cwd, fallbackCwd, current: opts.current });
  for (const w of warnings) warn(w);
  const left = heldBackNote(heldBack);
  if (left) warn(left);
  const onlyDigests =
    digestsOnly > 0
      ? `${file}: ${digestsOnly} event(s) have only an input digest and were not replayed — record full inputs with "trace": {"inputs": true} in ~/.gemini/settings.json or HOOKLINE_TRACE=inputs`
      : undefined;
  if (opts.json) {
    printJson({ file, kind, replayed: fired, digestsOnly, changes, heldBack });
  } else {
    for (const c of changes) {
      const who = c.hooks.filter((h) => !h.shadow && normal(h.decision) !== 'allow').map((h) => `${visible(h.hook)}: ${h.decision}`);
      print(
        `${String(c.n).padStart(3)}  ${c.dialect} ${c.event}${c.target ? ` ${visible(c.target)}` : ''}: ${c.before} → ${c.after}${c.reason ? ` (${visible(c.reason.split('\n')[0])})` : ''}${who.length ? ` [${who.join(', ')}]` : ''}`,
      );
    }
    const note = kind === 'recording' ? ' (a recording holds no hook decisions: listed are the events the hooks would now stop)' : '';
    print(`${fired} event(s) replayed, ${changes.length} decision(s) would change${note}`);
  }
  if (onlyDigests) warn(onlyDigests);
  if (kind === 'trace' && !events.length && digestsOnly) return 1;
  return 0;
}
