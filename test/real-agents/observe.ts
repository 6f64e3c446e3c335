// What one side of a case did, made comparable: the hooks' inputs and environment, how often each
// ran, which tool commands ran, what the model was shown of the hooks' words (and where), and
// what the user was shown. Only what is volatile is normalised: folders, ids, times.
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Recorded } from './model-server.js';

/** Every text a case's hooks produce carries this, so it can be found wherever it lands. */
export const MARK = 'HK-';

export interface HookCall {
  label: string;
  call: number;
  input: any;
  env: Record<string, string>;
  names: string[];
}

/** One place a hook's words reached the model: the message's role, the block's kind, the text. */
export interface Segment {
  role: string;
  kind: string;
  text: string;
}

export interface Observation {
  /** Hook runs in order: label, event and normalised input. */
  hooks: Array<{ label: string; input: unknown }>;
  /** The environment variables each hook label saw (names of the hook contract, normalised values). */
  env: Record<string, Record<string, string>>;
  counts: Record<string, number>;
  /** Marker files the case's commands create (`touch ran-N`): which tool calls really ran. */
  ran: string[];
  /** Main-conversation model requests. */
  requests: number;
  /** The hooks' words in the last main request, in order. */
  model: Segment[];
  /** The hooks' words the user was shown (each whole message that carries a mark). */
  user: string[];
  /** Everything the user was shown, to find the other side's messages in. */
  userText: string;
  /** The project files a case names, after the run (what hooks wrote). */
  files: Record<string, string | null>;
}

export interface Dirs {
  base: string;
  project: string;
  home: string;
}

/** Readers for what a side printed and sent, per agent. */
export interface SideReaders {
  /** The model's messages of one request as (role, kind, text) blocks. */
  blocks(body: any): Segment[];
  /** The messages the user was shown, from what the side printed. */
  shown(stdout: string, stderr: string): string[];
}

function slug(p: string): string {
  return p.replace(/[^A-Za-z0-9]/g, '-');
}

/** Fields whose numbers depend on the machine and the moment. */
const VOLATILE_NUMBERS = new Set(['duration_ms', 'durationMs', 'timestamp', 'context_tokens', 'seconds_since_last_response']);

/** Replaces the run's folders and ids with names, so two runs compare. */
export function normaliser(dirs: Dirs): (v: unknown, key?: string) => unknown {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return p;
    }
  };
  const pairs: Array<[string, string]> = [];
  for (const [p, name] of [
    [dirs.project, '<project>'],
    [dirs.home, '<home>'],
    [dirs.base, '<base>'],
  ] as const) {
    for (const form of new Set([real(p), p])) {
      pairs.push([form, name]);
      pairs.push([slug(form), slug(name)]);
    }
  }
  pairs.sort((a, b) => b[0].length - a[0].length);
  const text = (s: string) => {
    let out = s;
    for (const [from, to] of pairs) out = out.split(from).join(to);
    return out
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
      .replace(/toolu_[A-Za-z0-9]+/g, '<toolu>')
      .replace(/call_[A-Za-z0-9]+/g, '<call>')
      .replace(/Process Group PGID: \d+/g, 'Process Group PGID: <pgid>');
  };
  const walk = (v: unknown, key?: string): unknown => {
    if (key === 'transcript_path' || key === 'agent_transcript_path' || key === 'transcriptPath')
      return typeof v === 'string' && v.endsWith('.jsonl') ? '<transcript>' : v;
    // A time written as text (Copilot CLI's PascalCase payloads): only its form is compared.
    if (key === 'timestamp' && typeof v === 'string') return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(v) ? '<iso-time>' : v;
    if (VOLATILE_NUMBERS.has(key ?? '')) return typeof v === 'number' ? '<number>' : typeof v;
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) out[k] = walk((v as Record<string, unknown>)[k], k);
      return out;
    }
    return v;
  };
  return walk;
}

/** Calls in the order they ran, hooks of one event (run in parallel) by label. */
function inOrder(calls: HookCall[]): HookCall[] {
  const out: HookCall[] = [];
  let run: HookCall[] = [];
  const flush = () => {
    out.push(...run.sort((a, b) => a.label.localeCompare(b.label)));
    run = [];
  };
  for (const c of calls) {
    if (run.length && run[0].input?.hook_event_name !== c.input?.hook_event_name) flush();
    run.push(c);
  }
  flush();
  return out;
}

export function readCalls(log: string): HookCall[] {
  if (!fs.existsSync(log)) return [];
  return fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as HookCall);
}

/** The paragraphs of a text that carry a hook's mark. */
function marked(text: string): string[] {
  return text.split(/\n\n+/).filter((p) => p.includes(MARK));
}

export interface ObserveInput {
  dirs: Dirs;
  log: string;
  requests: Recorded[];
  stdout: string;
  stderr: string;
  readers: SideReaders;
  /** Variable names of the hook contract to compare. */
  envNames: readonly string[];
  /** A case's own rewrite of each hook input. */
  normalize?: (input: any) => any;
  /** Project files to compare, relative to the project. */
  files?: readonly string[];
  /** The agent runs an event's hooks one after another (Copilot CLI): calls and their words keep the order they came in. */
  sequential?: boolean;
}

export function observe(o: ObserveInput): Observation {
  const norm = normaliser(o.dirs);
  const calls = readCalls(o.log);
  const counts: Record<string, number> = {};
  const env: Record<string, Record<string, string>> = {};
  for (const c of calls) {
    counts[c.label] = (counts[c.label] ?? 0) + 1;
    const seen: Record<string, string> = {};
    for (const n of o.envNames) if (c.names.includes(n)) seen[n] = n.endsWith('_FILE') ? '<file>' : String(norm(c.env[n] ?? '<set>'));
    env[c.label] = seen;
  }
  const main = o.requests.filter((r) => r.main);
  const last = main.at(-1);
  const model: Segment[] = [];
  for (const b of last ? o.readers.blocks(last.body) : []) {
    for (const p of b.kind.startsWith('tool_') ? (b.text.includes(MARK) ? [b.text] : []) : marked(b.text))
      model.push({ role: b.role, kind: b.kind, text: o.sequential ? String(norm(p)) : canonical(String(norm(p))) });
  }
  const shown = o.readers.shown(o.stdout, o.stderr).map((l) => String(norm(l.trim())));
  const user = [...new Set(shown.filter((l) => l.includes(MARK)))];
  const ran = fs.existsSync(o.dirs.project)
    ? fs
        .readdirSync(o.dirs.project)
        .filter((f) => f.startsWith('ran-'))
        .sort()
    : [];
  return {
    hooks: (o.sequential ? calls : inOrder(calls)).map((c) => ({
      label: c.label,
      input: norm(o.normalize ? o.normalize(c.input) : c.input),
    })),
    env,
    counts,
    ran,
    requests: main.length,
    model: o.sequential ? model : inRuns(model),
    user,
    userText: shown.join('\n'),
    files: Object.fromEntries(
      (o.files ?? []).map((f) => {
        const p = path.join(o.dirs.project, f);
        return [f, fs.existsSync(p) ? String(norm(fs.readFileSync(p, 'utf8'))) : null];
      }),
    ),
  };
}

/** Hooks of one event run in parallel: the contexts one message joins come in the order they finished. */
function canonical(text: string): string {
  const m = /^(.*? hook additional context: )([\s\S]*)$/.exec(text);
  return m ? m[1] + m[2].split('\n').sort().join('\n') : text;
}

/** Segments of one message kind side by side, in a stable order (parallel hooks finish in any order). */
function inRuns(segments: Segment[]): Segment[] {
  const out: Segment[] = [];
  let run: Segment[] = [];
  const flush = () => {
    out.push(...run.sort((a, b) => a.text.localeCompare(b.text)));
    run = [];
  };
  for (const s of segments) {
    if (run.length && (run[0].role !== s.role || run[0].kind !== s.kind)) flush();
    run.push(s);
  }
  flush();
  return out;
}

export type Aspect = Exclude<keyof Observation, 'userText'>;
export const ASPECTS: readonly Aspect[] = ['hooks', 'env', 'counts', 'ran', 'requests', 'model', 'user', 'files'];

/** An observation without some hooks' runs. */
function without(o: Observation, labels: readonly string[]): Observation {
  const keep = (l: string) => !labels.includes(l);
  return {
    ...o,
    hooks: o.hooks.filter((h) => keep(h.label)),
    env: Object.fromEntries(Object.entries(o.env).filter(([l]) => keep(l))),
    counts: Object.fromEntries(Object.entries(o.counts).filter(([l]) => keep(l))),
  };
}

/** Where two values differ, as `path: a ≠ b` lines. */
export function differences(a: unknown, b: unknown, at = ''): string[] {
  if (isDeepStrictEqual(a, b)) return [];
  const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = Array.isArray(a)
      ? [...Array(Math.max((a as unknown[]).length, (b as unknown[]).length)).keys()].map(String)
      : [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return keys.flatMap((k) => differences((a as any)[k], (b as any)[k], at ? `${at}.${k}` : k));
  }
  return [`${at || '(value)'}: ${show(a)} ≠ ${show(b)}`];
}

/** The aspects on which two observations differ, each with its lines. */
export function compare(
  real: Observation,
  theirs: Observation,
  skip: readonly Aspect[] = [],
  mayNotRun: readonly string[] = [],
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  // Hooks the real agent starts without waiting for them (and may exit before they run): compared only when they ran there.
  const dropped = mayNotRun.filter((l) => !real.counts[l]);
  const ours = dropped.length ? without(theirs, dropped) : theirs;
  for (const a of ASPECTS) {
    if (skip.includes(a)) continue;
    // What the real agent showed the user must be shown too; Hookline may say more (its warnings, tool lines).
    const d =
      a === 'user'
        ? real.user.filter((m) => !ours.userText.includes(m)).map((m) => `not shown: ${JSON.stringify(m)}`)
        : differences(real[a], ours[a]);
    if (d.length) out[a] = d;
  }
  return out;
}

export function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2));
}
