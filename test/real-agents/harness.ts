// What every real-agent driver shares: the hooks a case declares (recording commands, or http
// hooks answered by the model server), the throwaway folders of one side's run, and the
// environment both sides start from.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Exited } from './agents.js';
import type { HookAnswer, Recorded } from './model-server.js';
import type { Dirs, Observation } from './observe.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const HOOK = path.join(HERE, 'hook.cjs');
export const ROOT = path.resolve(HERE, '..', '..');
/** The `hookline` command as installed: the bundle's launcher. */
export const CLI = path.join(ROOT, 'dist', 'bin', 'hookline.cjs');

export interface Reply {
  /** Printed on stdout (an http hook's body): a string as is, anything else as JSON. */
  out?: unknown;
  err?: string;
  exit?: number;
  sleepMs?: number;
  /** An http hook's status (default 200). */
  status?: number;
}

export interface HookSpec {
  label: string;
  /** The Nth run answers with replies[N] (the last once they run out). Default: nothing, exit 0. */
  replies?: Reply[];
  /**
   * More handler fields (`timeout`, `async`, `statusMessage`, `name`…). `type: "http"` posts to
   * the model server's `/hook/LABEL`; another type other than command replaces the command.
   */
  handler?: Record<string, unknown>;
  /** The command, with `{hook}` standing for the recording hook (default: `{hook}`). */
  command?: string;
}

export interface Group {
  matcher?: string;
  /** Gemini CLI's `sequential` on a definition. */
  sequential?: boolean;
  hooks: HookSpec[];
}

/** The documentation as one text: README.md and every page under docs/, the dialect pages included. */
export function documentation(): string {
  const pages = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = path.join(dir, e.name);
      return e.isDirectory() ? pages(p) : e.name.endsWith('.md') ? [p] : [];
    });
  return [path.join(ROOT, 'README.md'), ...pages(path.join(ROOT, 'docs'))].map((f) => fs.readFileSync(f, 'utf8')).join('\n');
}

/** Whether the documentation has a differences row whose first cell starts with `row`. */
export function hasDifferenceRow(row: string): boolean {
  return documentation()
    .split('\n')
    .some((l) => l.startsWith(`| ${row}`));
}

/** A hook spec as a command handler. */
export function hook(label: string, ...replies: Reply[]): HookSpec {
  return { label, replies };
}

export function group(matcher: string | undefined, ...hooks: HookSpec[]): Group[] {
  return [{ ...(matcher !== undefined ? { matcher } : {}), hooks }];
}

/** Replaces `{project}` in every string of a value with the side's project folder. */
export function placed<T>(v: T, project: string): T {
  if (typeof v === 'string') return v.split('{project}').join(project) as T;
  if (Array.isArray(v)) return v.map((x) => placed(x, project)) as T;
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, placed(x, project)])) as T;
  return v;
}

export function specsFile(dirs: Dirs, label: string): string {
  return path.join(dirs.base, 'hooks', `${label}.json`);
}

export function callsLog(dirs: Dirs): string {
  return path.join(dirs.base, 'calls.jsonl');
}

/** A settings `hooks` object: each hook a recording command (or an http hook on the model server). */
export function hooksObject(groups: Record<string, Group[]>, dirs: Dirs, serverUrl: string): Record<string, unknown[]> {
  const log = callsLog(dirs);
  fs.mkdirSync(path.join(dirs.base, 'hooks'), { recursive: true });
  const hooks: Record<string, unknown[]> = {};
  for (const [event, list] of Object.entries(groups)) {
    hooks[event] = list.map((g) => ({
      ...(g.matcher !== undefined ? { matcher: g.matcher } : {}),
      ...(g.sequential !== undefined ? { sequential: g.sequential } : {}),
      hooks: g.hooks.map((h) => {
        const spec = specsFile(dirs, h.label);
        fs.writeFileSync(spec, JSON.stringify({ label: h.label, log, replies: h.replies ?? [] }));
        const type = h.handler?.type;
        if (type === 'http') return { url: `${serverUrl}/hook/${h.label}`, ...h.handler };
        if (type && type !== 'command') return { ...h.handler };
        const recorder = `node ${JSON.stringify(HOOK)} ${JSON.stringify(spec)}`;
        return { type: 'command', command: (h.command ?? '{hook}').split('{hook}').join(recorder), ...h.handler };
      }),
    }));
  }
  return hooks;
}

/** Writes a case's files into the project (relative path → content). */
export function writeFiles(dirs: Dirs, files: Record<string, string> | undefined): void {
  for (const [rel, content] of Object.entries(files ?? {})) {
    const f = path.join(dirs.project, rel);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, content);
  }
}

export function writeJsonFile(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2));
}

/** An http hook's call, recorded as the command hooks record theirs, and its answer from the case. */
export function httpHook(dirs: Dirs): (label: string, body: unknown) => HookAnswer {
  return (label, body) => {
    const spec = JSON.parse(fs.readFileSync(specsFile(dirs, label), 'utf8')) as { log: string; replies: Reply[] };
    const count = `${spec.log}.${label}.count`;
    const n = fs.existsSync(count) ? Number(fs.readFileSync(count, 'utf8')) : 0;
    fs.writeFileSync(count, String(n + 1));
    fs.appendFileSync(spec.log, `${JSON.stringify({ label, call: n, input: body, env: {}, names: [], argv: [] })}\n`);
    const reply = spec.replies.length ? spec.replies[Math.min(n, spec.replies.length - 1)] : {};
    return { status: reply.status ?? 200, body: reply.out };
  };
}

export function makeDirs(side: string): Dirs {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), `hookline-real-${side}-`));
  const dirs = { base, project: path.join(base, 'project'), home: path.join(base, 'home') };
  fs.mkdirSync(dirs.project, { recursive: true });
  fs.mkdirSync(dirs.home, { recursive: true });
  return dirs;
}

/** Only what a hook would see anyway: no Hookline or agent settings of the machine running the suite. */
export function baseEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const k of ['PATH', 'LANG', 'TERM', 'TMPDIR', 'SHELL']) if (process.env[k]) env[k] = process.env[k];
  return { ...env, HOME: home, USER: os.userInfo().username };
}

/** Several runs of one side (a conversation continued) as one exit. */
export function joined(runs: Exited[]): Exited {
  return {
    code: runs.at(-1)?.code ?? null,
    stdout: runs.map((r) => r.stdout).join(''),
    stderr: runs.map((r) => r.stderr).join(''),
    timedOut: runs.some((r) => r.timedOut),
  };
}

export interface SideRun<S extends string = string> {
  side: S;
  dirs: Dirs;
  exited: Exited;
  requests: Recorded[];
  observation: Observation;
}

/** The text of a message's content (a string, or blocks with `text`). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b: any) => (typeof b?.text === 'string' ? b.text : '')).join('\n');
  return '';
}
