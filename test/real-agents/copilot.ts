// Copilot CLI cases: the same hooks and model turns through the real `copilot -p` (offline, on a
// scripted OpenAI chat-completions server) and through `hookline agent` on the same server.
import fs from 'node:fs';
import path from 'node:path';
import { AGENTS, agentBin, cacheDir, runGroup, type Exited } from './agents.js';
import { startModelServer, type Turn, type Recorded } from './model-server.js';
import { observe, type Aspect, type Dirs, type Observation, type Segment, type SideReaders } from './observe.js';
import { baseEnv, HOOK, httpHook, makeDirs, placed, specsFile, type Group, type HookSpec } from './harness.js';
import { agentToolArgs, agentToolFor } from '../../src/dialects/copilot/tools.js';

const ROOT = path.resolve(path.dirname(HOOK), '..', '..');
const CLI = path.join(ROOT, 'dist', 'bin', 'hookline.cjs');

/** A Copilot-format entry (`{"type", "bash", "matcher"…}`): a hook spec with its matcher on the entry itself. */
export interface Entry extends HookSpec {
  matcher?: string;
  /** Which field holds the command: `bash` (default), `command` or `powershell`. */
  key?: 'bash' | 'command' | 'powershell';
}

/** An event's entries: flat Copilot entries, or Claude-format groups (`{"matcher", "hooks": […]}`). */
export type Entries = Array<Entry | Group>;

/** A hooks file: where (relative to the project, or `~/…` in the home folder) and its hooks. */
export interface HooksFile {
  file: string;
  hooks: Record<string, Entries>;
  /** Other top-level fields of the file (`disableAllHooks`…). */
  extra?: Record<string, unknown>;
}

/** How the real agent is told to trust the folder (Hookline's side runs `hookline trust` unless `none`). */
export type Trust = 'flag' | 'allow-all' | 'repo-hooks' | 'none';

export interface CopilotCase {
  name: string;
  prompt?: string;
  /** The model's answers, in Copilot's tool names and arguments. */
  turns: Turn[];
  /** Hooks in `file` (default `.github/hooks/hooks.json`). */
  hooks: Record<string, Entries>;
  file?: string;
  /** More hooks files of the same run. */
  also?: HooksFile[];
  /** Files to create in the project (relative path → content). */
  files?: Record<string, string>;
  trust?: Trust;
  /** `allow-all` (`--allow-all-tools`, Hookline's yolo) or `default` (tools that need approval are refused, nobody to ask). */
  mode?: 'allow-all' | 'default';
  /** Prompts of earlier runs in the same project; each later run continues the conversation (`--continue`, `--resume`). */
  before?: string[];
  /** Aspects that differ on purpose, and the row of "Differences from Copilot CLI" that says why. */
  differs?: { aspects: Aspect[]; row: string };
  /** Rewrites each hook input on both sides before they compare. */
  normalize?: (input: any) => any;
  /** Project files whose content after the run is compared. */
  compareFiles?: string[];
  /** More environment for both agents. */
  env?: Record<string, string>;
  /** The model provider the real agent speaks: OpenAI chat completions (default) or Anthropic messages. */
  provider?: 'openai' | 'anthropic';
  timeoutMs?: number;
}

/** A Copilot-format entry running the recording hook. */
export function entry(label: string, ...replies: HookSpec['replies'] & object): Entry {
  return { label, replies };
}

/** A `bash` call that leaves `ran-N` in the project, so a case sees whether it ran. */
export function bash(n: number, extra = ''): Turn {
  return { tools: [{ name: 'bash', input: { command: `touch ran-${n}${extra}`, description: `step ${n}` } }] };
}

/** The variables of Copilot's hook contract the suite compares (and the provider's, which must not reach hooks). */
export const COPILOT_ENV = [
  'COPILOT_CLI',
  'COPILOT_PROJECT_DIR',
  'CLAUDE_PROJECT_DIR',
  'COPILOT_HOOK_DIR',
  'PLUGIN_ROOT',
  'COPILOT_PLUGIN_ROOT',
  'CLAUDE_PLUGIN_ROOT',
  'COPILOT_PROVIDER_BASE_URL',
  'COPILOT_PROVIDER_API_KEY',
  'HK_SECRET_TOKEN',
  'HK_PLAIN',
] as const;

const isGroup = (e: Entry | Group): e is Group => Array.isArray((e as Group).hooks);

/** A file's `hooks` object: each hook runs the recorder (or posts to the model server's `/hook/LABEL`). */
function hooksObject(hooks: Record<string, Entries>, dirs: Dirs, serverUrl: string): Record<string, unknown[]> {
  const log = path.join(dirs.base, 'calls.jsonl');
  fs.mkdirSync(path.join(dirs.base, 'hooks'), { recursive: true });
  const handler = (h: Entry, claudeFormat: boolean): Record<string, unknown> => {
    const spec = specsFile(dirs, h.label);
    fs.writeFileSync(spec, JSON.stringify({ label: h.label, log, replies: h.replies ?? [] }));
    const type = h.handler?.type;
    if (type === 'http') return { url: `${serverUrl}/hook/${h.label}`, ...h.handler };
    if (type && type !== 'command') return { ...h.handler };
    const command = (h.command ?? '{hook}').split('{hook}').join(`node ${JSON.stringify(HOOK)} ${JSON.stringify(spec)}`);
    return { type: 'command', [h.key ?? (claudeFormat ? 'command' : 'bash')]: command, ...h.handler };
  };
  const out: Record<string, unknown[]> = {};
  for (const [event, list] of Object.entries(hooks))
    out[event] = list.map((e) =>
      isGroup(e)
        ? { ...(e.matcher !== undefined ? { matcher: e.matcher } : {}), hooks: e.hooks.map((h) => handler(h, true)) }
        : { ...(e.matcher !== undefined ? { matcher: e.matcher } : {}), ...handler(e, false) },
    );
  return out;
}

function fileIn(dirs: Dirs, file: string): string {
  return file.startsWith('~/') ? path.join(dirs.home, file.slice(2)) : path.join(dirs.project, file);
}

function writeHooks(c: CopilotCase, dirs: Dirs, serverUrl: string): string {
  for (const f of [{ file: c.file ?? '.github/hooks/hooks.json', hooks: c.hooks }, ...(c.also ?? [])] as HooksFile[]) {
    const target = fileIn(dirs, f.file);
    // A hooks folder's files carry a version; settings files hold `hooks` beside their other settings.
    const versioned = /(^|\/)hooks\/[^/]+\.json$/.test(f.file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(
      target,
      JSON.stringify(
        { ...(versioned ? { version: 1 } : {}), ...placed(f.extra, dirs.project), hooks: hooksObject(f.hooks, dirs, serverUrl) },
        null,
        2,
      ),
    );
  }
  for (const [rel, content] of Object.entries(c.files ?? {})) {
    const f = fileIn(dirs, rel);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, placed(content, dirs.project));
  }
  return path.join(dirs.base, 'calls.jsonl');
}

/** The turns as Hookline's agent takes them: its tool names and arguments. */
function hooklineTurns(turns: Turn[], project: string): Turn[] {
  return turns.map((t) =>
    t.tools
      ? {
          ...t,
          tools: t.tools.map((c) => {
            const name = agentToolFor(c.name, c.input);
            return { name, input: agentToolArgs(name, c.input, project) };
          }),
        }
      : t,
  );
}

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b: any) => (typeof b?.text === 'string' ? b.text : '')).join('\n');
  return '';
}

/**
 * A tool's result with the hooks' guidance appended: the tool's own output is each agent's
 * (Copilot's `<shellId: 0 completed…>`, the agent's `Output: …`), not the hooks' contract, so only
 * what the hooks added is compared.
 */
export const hooksPart = (t: string): string => {
  const at = t.search(/\n\nTool "[^"]+" (succeeded|failed)\. Additional guidance from /);
  return at < 0 ? t : `<tool output>${t.slice(at)}`;
};

/** OpenAI chat messages as (role, kind, text) blocks; the first system message is the system prompt. */
export const chatBlocks = (body: any): Segment[] =>
  (body.messages ?? []).flatMap((m: any, i: number): Segment[] => {
    if (m.role === 'tool') return [{ role: 'tool', kind: 'tool_result', text: hooksPart(text(m.content)) }];
    const t = text(m.content);
    if (!t) return [];
    return [{ role: i === 0 && m.role === 'system' ? 'system-prompt' : m.role, kind: 'text', text: t }];
  });

/** Anthropic messages (COPILOT_PROVIDER_TYPE=anthropic) as blocks. */
const anthropicBlocks = (body: any): Segment[] => {
  const out: Segment[] = [];
  for (const m of body.messages ?? []) {
    if (typeof m.content === 'string') out.push({ role: m.role, kind: 'text', text: m.content });
    else
      for (const b of m.content ?? []) {
        if (b.type === 'text') out.push({ role: m.role, kind: 'text', text: b.text });
        else if (b.type === 'tool_result') out.push({ role: 'tool', kind: 'tool_result', text: hooksPart(text(b.content)) });
      }
  }
  return out;
};

const lines = (stdout: string, stderr: string) => [...stdout.split('\n'), ...stderr.split('\n')].filter((l) => l.trim());

/** What `copilot -p` showed, without the tree it draws around a tool's lines (`● `, `│ `, `└ `). */
const copilotLines = (stdout: string, stderr: string) =>
  lines(stdout, stderr).map((l) => l.replace(/^[\s●✗✓│└├─]+/u, '').replace(/^! /, ''));

/** Whether a recorded hook input is sessionStart's (either shape) or userPromptSubmitted's. */
const isStart = (i: any) => i?.hook_event_name === 'SessionStart' || (i?.source !== undefined && 'initialPrompt' in i);
const isPrompt = (i: any) => i?.hook_event_name === 'UserPromptSubmit' || (typeof i?.prompt === 'string' && !('toolName' in i));

/**
 * Copilot CLI starts a session's sessionStart hooks and the prompt's userPromptSubmitted hooks
 * at once (each chain in its order), so which of the two chains writes first is chance: in each
 * run of such calls, sessionStart's are put first, keeping the order within each chain.
 */
export function startsFirst<T extends { input: unknown }>(calls: readonly T[]): T[] {
  const out: T[] = [];
  let block: T[] = [];
  const flush = () => {
    out.push(...block.filter((c) => isStart(c.input)), ...block.filter((c) => !isStart(c.input)));
    block = [];
  };
  for (const c of calls) {
    if (isStart(c.input) || isPrompt(c.input)) block.push(c);
    else {
      flush();
      out.push(c);
    }
  }
  flush();
  return out;
}

export interface SideRun {
  side: 'copilot' | 'hookline';
  dirs: Dirs;
  exited: Exited;
  requests: Recorded[];
  observation: Observation;
}

/** Where Copilot unpacks itself (about 235 MB on its first run): shared by every run, so it unpacks once. */
export function copilotCache(): string {
  return path.join(cacheDir(), 'copilot-xdg-cache');
}

/** Copilot's environment for an offline run on the model server. */
function copilotEnv(c: CopilotCase, env: NodeJS.ProcessEnv, serverUrl: string): NodeJS.ProcessEnv {
  return {
    ...env,
    XDG_CACHE_HOME: copilotCache(),
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    USE_TGREP: 'false',
    COPILOT_PROVIDER_BASE_URL: c.provider === 'anthropic' ? serverUrl : `${serverUrl}/v1`,
    COPILOT_PROVIDER_API_KEY: 'dummy',
    ...(c.provider === 'anthropic' ? { COPILOT_PROVIDER_TYPE: 'anthropic' } : {}),
    COPILOT_MODEL: c.provider === 'anthropic' ? 'claude-sonnet-4.5' : 'gpt-4.1',
    ...(c.trust === 'allow-all' ? { COPILOT_ALLOW_ALL: 'true' } : {}),
    ...(c.trust === 'repo-hooks' ? { GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS: 'true' } : {}),
  };
}

export async function runSide(side: 'copilot' | 'hookline', c: CopilotCase): Promise<SideRun> {
  const dirs = makeDirs(side);
  const given = placed(c.turns, dirs.project);
  const turns = side === 'copilot' ? given : hooklineTurns(given, dirs.project);
  const server = await startModelServer({ turns, hook: httpHook(dirs) });
  const log = writeHooks(c, dirs, server.url);
  const env = { ...baseEnv(dirs.home), ...c.env };
  const prompts = [...(c.before ?? []), c.prompt ?? 'go'];
  const trust = c.trust ?? 'flag';
  const mode = c.mode ?? 'allow-all';
  const runs: Exited[] = [];
  try {
    const hl = { ...env, GEMINI_CLI_HOME: dirs.home, HOOKLINE_BASE_URL: `${server.url}/v1`, HOOKLINE_TRACE: '0' };
    if (side === 'hookline' && trust !== 'none')
      await runGroup(process.execPath, [CLI, 'trust', dirs.project], { cwd: dirs.project, env: hl });
    for (const [i, prompt] of prompts.entries()) {
      if (side === 'copilot') {
        // --trust-folder is for a new session only: a continued one is trusted through the environment.
        const flagged = trust === 'flag' && !i;
        const args = ['-p', prompt, ...(flagged ? ['--trust-folder'] : []), '--no-auto-update', ...(i ? ['--continue'] : [])];
        if (trust !== 'allow-all' && mode === 'allow-all') args.push('--allow-all-tools');
        const more = trust === 'flag' && i ? { GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS: 'true' } : {};
        runs.push(
          await runGroup(agentBin(AGENTS.copilot), args, {
            cwd: dirs.project,
            timeoutMs: c.timeoutMs,
            env: { ...copilotEnv(c, env, server.url), ...more },
          }),
        );
      } else {
        const args = [
          CLI,
          'agent',
          '-p',
          prompt,
          '--model',
          'openai-compatible:gpt-4.1',
          '--approval-mode',
          mode === 'allow-all' ? 'yolo' : 'default',
          '--prefer-dialect',
          'copilot',
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
  const readers: SideReaders = {
    blocks: side === 'copilot' && c.provider === 'anthropic' ? anthropicBlocks : chatBlocks,
    shown: side === 'copilot' ? copilotLines : lines,
  };
  const observation = observe({
    dirs,
    log,
    requests: server.requests,
    stdout: exited.stdout,
    stderr: exited.stderr,
    readers,
    envNames: COPILOT_ENV,
    normalize: c.normalize,
    files: c.compareFiles,
    sequential: true,
  });
  return { side, dirs, exited, requests: server.requests, observation: { ...observation, hooks: startsFirst(observation.hooks) } };
}

/** Unpacks Copilot into the shared cache once, before cases run side by side. */
export async function prepareCopilot(): Promise<void> {
  const bin = agentBin(AGENTS.copilot);
  const r = await runGroup(bin, ['--version'], {
    cwd: cacheDir(),
    env: { ...baseEnv(cacheDir()), XDG_CACHE_HOME: copilotCache() },
    timeoutMs: 300_000,
  });
  if (r.code !== 0) throw new Error(`copilot --version failed:\n${r.stdout}\n${r.stderr}`);
}
