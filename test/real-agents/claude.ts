// Claude Code cases: the same hooks and model turns through the real `claude -p` and through
// `hookline agent`, both on one scripted Anthropic-protocol model server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENTS, agentBin, runGroup, type Exited } from './agents.js';
import { startModelServer, type HookAnswer, type Turn, type Recorded } from './model-server.js';
import { observe, type Aspect, type Dirs, type Observation, type Segment, type SideReaders } from './observe.js';
import { agentToolInput, CLAUDE_TOOL_NAMES } from '../../src/dialects/claude/tools.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const HOOK = path.join(HERE, 'hook.cjs');
const ROOT = path.resolve(HERE, '..', '..');
const CLI = path.join(ROOT, 'dist', 'bin', 'hookline.cjs');

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
   * More handler fields (`timeout`, `async`, `statusMessage`…). `type: "http"` posts to the model
   * server's `/hook/LABEL`; another type other than command replaces the command.
   */
  handler?: Record<string, unknown>;
  /** The command, with `{hook}` standing for the recording hook (default: `{hook}`). */
  command?: string;
}

export interface Group {
  matcher?: string;
  hooks: HookSpec[];
}

export interface ClaudeCase {
  name: string;
  prompt?: string;
  /** Prompts of earlier runs in the same project; each later run continues the conversation (`--continue`, `--resume`). */
  before?: string[];
  /** The model's answers to the main conversation, in Claude Code's tool names and inputs. */
  turns: Turn[];
  hooks: Record<string, Group[]>;
  /** Where the hooks are configured. Default: the project's `.claude/settings.json`. */
  scope?: 'project' | 'user' | 'local';
  /** Other settings beside `hooks`, in the same file. */
  settings?: Record<string, unknown>;
  /** Files to create in the project (relative path → content). */
  files?: Record<string, string>;
  /** `bypass` (`--dangerously-skip-permissions`, Hookline's yolo) or `default`. Default: bypass. */
  mode?: 'bypass' | 'default';
  /** The answer to side requests (prompt hooks, titles). */
  side?: string;
  /** Aspects that differ on purpose, and the README row that says why. */
  differs?: { aspects: Aspect[]; row: string };
  timeoutMs?: number;
  /** Rewrites each hook input on both sides before they compare (text a documented difference leaves apart). */
  normalize?: (input: any) => any;
  /** Settings in other files of the same run (a project's beside the user's hooks). */
  alsoSettings?: Array<{ scope: 'project' | 'user' | 'local'; settings: Record<string, unknown> }>;
  /** Project files whose content after the run is compared (what hooks wrote). */
  compareFiles?: string[];
  /** Hooks the real agent starts without waiting for them, so they may not run before it exits. */
  mayNotRun?: string[];
  /** More environment for both agents. */
  env?: Record<string, string>;
  /** A plugin, given to both agents with `--plugin-dir`: its name and its `hooks/hooks.json` hooks. */
  plugin?: { name: string; hooks: Record<string, Group[]> };
}

/** Replaces `{project}` in every string of a value with the side's project folder. */
export function placed<T>(v: T, project: string): T {
  if (typeof v === 'string') return v.split('{project}').join(project) as T;
  if (Array.isArray(v)) return v.map((x) => placed(x, project)) as T;
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, placed(x, project)])) as T;
  return v;
}

/** A hook spec as a command handler. */
export function hook(label: string, ...replies: Reply[]): HookSpec {
  return { label, replies };
}

export function group(matcher: string | undefined, ...hooks: HookSpec[]): Group[] {
  return [{ ...(matcher !== undefined ? { matcher } : {}), hooks }];
}

/** A Bash call that leaves `ran-N` in the project, so a case sees whether it ran. */
export function bash(n: number, extra = ''): Turn {
  return { tools: [{ name: 'Bash', input: { command: `touch ran-${n}${extra}`, description: `step ${n}` } }] };
}

export const CLAUDE_ENV = ['CLAUDE_PROJECT_DIR', 'CLAUDE_ENV_FILE', 'CLAUDE_PLUGIN_ROOT', 'CLAUDE_PLUGIN_DATA', 'CLAUDECODE'] as const;

const AGENT_NAMES = Object.fromEntries(
  Object.entries(CLAUDE_TOOL_NAMES)
    .filter(([agent]) => agent !== 'grep_search')
    .map(([agent, claude]) => [claude, agent]),
);

/** The turns as Hookline's agent takes them: its tool names and arguments. */
function hooklineTurns(turns: Turn[], project: string): Turn[] {
  return turns.map((t) => ({
    ...t,
    ...(t.tools
      ? {
          tools: t.tools.map((c) => {
            const name = AGENT_NAMES[c.name] ?? c.name;
            return { name, input: agentToolInput(name, c.input, project) };
          }),
        }
      : {}),
  }));
}

export function specsFile(dirs: Dirs, label: string): string {
  return path.join(dirs.base, 'hooks', `${label}.json`);
}

/** The settings' `hooks` object: each hook a recording command (or an http hook on the model server). */
function hooksObject(groups: Record<string, Group[]>, dirs: Dirs, serverUrl: string): Record<string, unknown[]> {
  const log = path.join(dirs.base, 'calls.jsonl');
  fs.mkdirSync(path.join(dirs.base, 'hooks'), { recursive: true });
  const hooks: Record<string, unknown[]> = {};
  for (const [event, list] of Object.entries(groups)) {
    hooks[event] = list.map((g) => ({
      ...(g.matcher !== undefined ? { matcher: g.matcher } : {}),
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

function writeSettings(c: ClaudeCase, dirs: Dirs, serverUrl: string): { log: string; args: string[] } {
  const log = path.join(dirs.base, 'calls.jsonl');
  const hooks = hooksObject(c.hooks, dirs, serverUrl);
  const fileOf = (scope: ClaudeCase['scope']) =>
    scope === 'user'
      ? path.join(dirs.home, '.claude', 'settings.json')
      : path.join(dirs.project, '.claude', scope === 'local' ? 'settings.local.json' : 'settings.json');
  const file = fileOf(c.scope);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ ...placed(c.settings, dirs.project), hooks }, null, 2));
  for (const other of c.alsoSettings ?? []) {
    const f = fileOf(other.scope);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, JSON.stringify(placed(other.settings, dirs.project), null, 2));
  }
  for (const [rel, content] of Object.entries(c.files ?? {})) {
    const f = path.join(dirs.project, rel);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, content);
  }
  const args: string[] = [];
  if (c.plugin) {
    const root = path.join(dirs.base, 'plugins', c.plugin.name);
    fs.mkdirSync(path.join(root, '.claude-plugin'), { recursive: true });
    fs.mkdirSync(path.join(root, 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(root, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: c.plugin.name, version: '1.0.0' }));
    fs.writeFileSync(
      path.join(root, 'hooks', 'hooks.json'),
      JSON.stringify({ hooks: hooksObject(c.plugin.hooks, dirs, serverUrl) }, null, 2),
    );
    args.push('--plugin-dir', root);
  }
  return { log, args };
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

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b: any) => (typeof b?.text === 'string' ? b.text : '')).join('\n');
  return '';
}

/** Anthropic messages as (role, kind, text) blocks. */
export const anthropicBlocks = (body: any): Segment[] => {
  const out: Segment[] = [];
  for (const s of Array.isArray(body.system) ? body.system : body.system ? [{ text: body.system }] : [])
    out.push({ role: 'system-prompt', kind: 'text', text: text([s]) });
  for (const m of body.messages ?? []) {
    if (typeof m.content === 'string') {
      out.push({ role: m.role, kind: 'text', text: m.content });
      continue;
    }
    for (const b of m.content ?? []) {
      if (b.type === 'text') out.push({ role: m.role, kind: 'text', text: b.text });
      else if (b.type === 'tool_result') out.push({ role: m.role, kind: b.is_error ? 'tool_error' : 'tool_result', text: text(b.content) });
    }
  }
  return out;
};

/** What `claude -p --output-format stream-json` showed: its messages and answers, not its hook debug events. */
const claudeReaders: SideReaders = {
  blocks: anthropicBlocks,
  shown(stdout, stderr) {
    const lines: string[] = [];
    for (const l of stdout.split('\n')) {
      let e: any;
      try {
        e = JSON.parse(l);
      } catch {
        if (l.trim()) lines.push(l);
        continue;
      }
      if (e.type === 'system' && ['hook_started', 'hook_response', 'init'].includes(e.subtype)) continue;
      if (e.type === 'user') continue; // tool results: the model's side
      if (e.type === 'assistant') lines.push(text(e.message?.content));
      else if (e.type === 'result') lines.push(String(e.result ?? ''));
      else if (e.type === 'system') lines.push(String(e.content ?? e.text ?? e.message ?? ''));
    }
    return [...lines, ...stderr.split('\n')].flatMap((l) => l.split('\n')).filter((l) => l.trim());
  },
};

const hooklineReaders: SideReaders = {
  blocks: anthropicBlocks,
  shown: (stdout, stderr) => [...stdout.split('\n'), ...stderr.split('\n')].filter((l) => l.trim()),
};

export interface SideRun {
  side: 'claude' | 'hookline';
  dirs: Dirs;
  exited: Exited;
  requests: Recorded[];
  observation: Observation;
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

export async function runSide(side: 'claude' | 'hookline', c: ClaudeCase): Promise<SideRun> {
  const dirs = makeDirs(side);
  const given = placed(c.turns, dirs.project);
  const turns = side === 'claude' ? given : hooklineTurns(given, dirs.project);
  const server = await startModelServer({ turns, side: c.side, hook: httpHook(dirs) });
  const { log, args: extra } = writeSettings(c, dirs, server.url);
  const env = { ...baseEnv(dirs.home), ANTHROPIC_API_KEY: 'test', ...c.env };
  const prompts = [...(c.before ?? []), c.prompt ?? 'go'];
  const hl = { ...env, GEMINI_CLI_HOME: dirs.home, ANTHROPIC_BASE_URL: server.url, HOOKLINE_TRACE: '0' };
  const runs: Exited[] = [];
  try {
    if (side === 'hookline' && c.scope !== 'user')
      await runGroup(process.execPath, [CLI, 'trust', dirs.project], { cwd: dirs.project, env: hl });
    for (const [i, prompt] of prompts.entries()) {
      if (side === 'claude') {
        const args = ['-p', prompt, '--output-format', 'stream-json', '--verbose', ...extra, ...(i ? ['--continue'] : [])];
        if ((c.mode ?? 'bypass') === 'bypass') args.push('--dangerously-skip-permissions');
        runs.push(
          await runGroup(agentBin(AGENTS.claude), args, {
            cwd: dirs.project,
            timeoutMs: c.timeoutMs,
            env: {
              ...env,
              ANTHROPIC_BASE_URL: server.url,
              CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
              DISABLE_TELEMETRY: '1',
              DISABLE_AUTOUPDATER: '1',
              IS_SANDBOX: '1',
            },
          }),
        );
      } else {
        const mode = (c.mode ?? 'bypass') === 'bypass' ? 'yolo' : 'default';
        const args = [
          CLI,
          'agent',
          '-p',
          prompt,
          '--model',
          'anthropic:claude-opus-5-5',
          '--approval-mode',
          mode,
          ...extra,
          ...(i ? ['--resume'] : []),
        ];
        runs.push(await runGroup(process.execPath, args, { cwd: dirs.project, timeoutMs: c.timeoutMs, env: hl }));
      }
    }
  } finally {
    await server.close();
  }
  const exited: Exited = {
    code: runs.at(-1)?.code ?? null,
    stdout: runs.map((r) => r.stdout).join(''),
    stderr: runs.map((r) => r.stderr).join(''),
    timedOut: runs.some((r) => r.timedOut),
  };
  const observation = observe({
    dirs,
    log,
    requests: server.requests,
    stdout: exited.stdout,
    stderr: exited.stderr,
    readers: side === 'claude' ? claudeReaders : hooklineReaders,
    envNames: CLAUDE_ENV,
    normalize: c.normalize,
    files: c.compareFiles,
  });
  return { side, dirs, exited, requests: server.requests, observation };
}
