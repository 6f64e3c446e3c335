// Shared pieces for the end-to-end tests of `hookline agent`: a project with hooks, a scripted
// model, the agent run as a real process, and readers for what the hooks and the model received.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { CLI, HOOKS, cmd, makeProject, trustDialectHooks, type Project, type ProjectOptions } from '../helpers.js';

/** Quotes a word for bash. */
export function sq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A fixture hook script's path, quoted for bash. */
export function fixture(name: string): string {
  return sq(path.join(HOOKS, name));
}

/**
 * A command running e2e-respond.sh: it appends its stdin to `log` (unless null), prints `out`
 * (an object is printed as JSON), writes `stderr` and exits with `code`.
 */
export function respond(log: string | null, out: unknown = '', code = 0, stderr = ''): string {
  const text = typeof out === 'string' ? out : JSON.stringify(out);
  return [fixture('e2e-respond.sh'), sq(log ?? '-'), sq(text), String(code), ...(stderr ? [sq(stderr)] : [])].join(' ');
}

/** A command hook entry with a short timeout, so a broken test never waits long. */
export function hookEntry(command: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return cmd(command, { timeout: 5000, ...extra });
}

/** One event's hook definitions: `on('BeforeTool', cmd, {matcher})`. */
export function on(command: string | string[], def: Record<string, unknown> = {}): Array<Record<string, unknown>> {
  return [{ ...def, hooks: (Array.isArray(command) ? command : [command]).map((c) => hookEntry(c)) }];
}

export interface ScriptLine {
  text?: string;
  chunks?: string[];
  toolCalls?: Array<{ name: string; args: Record<string, unknown> }>;
}

/** What the scripted model logged for one call (HOOKLINE_SCRIPT_LOG). */
export interface ModelCall {
  call: number;
  prompt: Array<{ role: string; content: unknown }>;
  toolChoice?: { type: string; toolName?: string };
  tools?: string[];
  temperature?: number;
  maxOutputTokens?: number;
}

export interface AgentRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time of the whole process. */
  ms: number;
  /** Every model call of this run, as the model received it. */
  calls: ModelCall[];
  /** The `🪝` lines of `--display-hooks`. */
  hookLines: string[];
}

export interface AgentProject extends Project {
  /** Folder beside the project for the scripts and model-call logs. */
  base: string;
  run: (opts: RunOptions) => Promise<AgentRun>;
}

export interface RunOptions {
  /** `-p` prompt; interactive when absent. */
  prompt?: string;
  /** The model's answers, one per call (ignored when `model` is given). */
  script?: ScriptLine[];
  /** A `--model` spec instead of the script. */
  model?: string;
  args?: string[];
  /** Piped stdin (interactive mode reads prompts and commands from it). */
  input?: string;
  env?: NodeJS.ProcessEnv;
}

let runs = 0;

/** A project (trusted unless `opts.trusted` is false) whose `.gemini/settings.json` is `settings`, and a runner for the agent in it. */
export function agentProject(settings: Record<string, unknown> = {}, opts: Omit<ProjectOptions, 'project'> = {}): AgentProject {
  const p = makeProject({ ...opts, project: settings });
  const base = path.dirname(p.dir);
  return { ...p, base, run: (o) => runAgent(p, base, o, opts.trusted !== false) };
}

async function runAgent(p: Project, base: string, opts: RunOptions, trusted: boolean): Promise<AgentRun> {
  // A trusted project stands for a user who trusted its hooks as the test wrote them: the dialect
  // files (agent.yaml, .spatialagent/, .claude/) are written after the project is made.
  if (trusted) trustDialectHooks(p.dir, p.home);
  const n = ++runs;
  const log = path.join(base, `calls-${n}.jsonl`);
  let model = opts.model;
  if (!model) {
    const script = path.join(base, `script-${n}.jsonl`);
    fs.writeFileSync(script, (opts.script ?? []).map((l) => JSON.stringify(l) + '\n').join(''));
    model = `scripted:${script}`;
  }
  const args = [
    CLI,
    'agent',
    ...(opts.prompt !== undefined ? ['-p', opts.prompt] : []),
    '--model',
    model,
    '--cwd',
    p.dir,
    ...(opts.args ?? []),
  ];
  const env = { ...p.env, HOOKLINE_SCRIPT_LOG: log, ...opts.env };
  const t0 = performance.now();
  const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: base, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
  const ms = performance.now() - t0;
  return { ...r, ms, calls: readJsonl(log) as ModelCall[], hookLines: r.stderr.split('\n').filter((l) => l.startsWith('🪝')) };
}

/** A JSONL file's records; none when the file does not exist. */
export function readJsonl(file: string): any[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (p && p.type === 'text' ? p.text : '')).join('');
}

/** The text of each message of `role` in a call, in order (`assistant` for the model's turns). */
export function texts(call: ModelCall, role: 'user' | 'assistant' | 'system'): string[] {
  return call.prompt.filter((m) => m.role === role).map((m) => partsText(m.content));
}

/** The hooks' messages of their own the model read (system messages after the system prompt), in order. */
export function notes(call: ModelCall): string[] {
  return texts(call, 'system').slice(1);
}

/** The last user message's text. */
export function lastUser(call: ModelCall): string {
  const t = texts(call, 'user');
  return t[t.length - 1] ?? '';
}

export interface ToolResultSeen {
  toolCallId: string;
  toolName: string;
  type: string;
  value: string;
}

/** Every tool result in a call's prompt, in order. */
export function toolResults(call: ModelCall): ToolResultSeen[] {
  const out: ToolResultSeen[] = [];
  for (const m of call.prompt) {
    if (m.role !== 'tool' || !Array.isArray(m.content)) continue;
    for (const p of m.content)
      if (p.type === 'tool-result')
        out.push({ toolCallId: p.toolCallId, toolName: p.toolName, type: p.output?.type, value: String(p.output?.value ?? '') });
  }
  return out;
}

/** The session transcript files written under the project's home. */
export function transcripts(p: Project): string[] {
  const root = path.join(p.home, '.gemini', 'tmp');
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const f = path.join(d, e.name);
      if (e.isDirectory()) walk(f);
      else if (e.name.endsWith('.jsonl')) out.push(f);
    }
  };
  if (fs.existsSync(root)) walk(root);
  return out;
}

/** A command running e2e-when.sh: like `respond`, but prints `out` only when stdin contains `needle`. */
export function when(log: string | null, needle: string, out: unknown, code = 0): string {
  const text = typeof out === 'string' ? out : JSON.stringify(out);
  return [fixture('e2e-when.sh'), sq(log ?? '-'), sq(needle), sq(text), String(code)].join(' ');
}
