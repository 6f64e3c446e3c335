// Gemini CLI cases: the same hooks and model turns through the real `gemini -p` and through
// `hookline agent --model gemini:…`, both on one scripted Gemini-protocol model server.
import path from 'node:path';
import { AGENTS, agentBin, runGroup, type Exited } from './agents.js';
import {
  baseEnv,
  CLI,
  hooksObject,
  httpHook,
  joined,
  makeDirs,
  placed,
  writeFiles,
  writeJsonFile,
  type Group,
  type SideRun as HarnessRun,
} from './harness.js';
import { startModelServer, type Turn } from './model-server.js';
import { observe, type Aspect, type Dirs, type Segment, type SideReaders } from './observe.js';

export { group, hook, type Reply, type HookSpec, type Group } from './harness.js';

export const MODEL = 'gemini-2.5-flash';

export interface GeminiCase {
  name: string;
  prompt?: string;
  /** The model's answers to the main conversation, in Gemini CLI's tool names and arguments. */
  turns: Turn[];
  hooks: Record<string, Group[]>;
  /** Where the hooks are configured. Default: the project's `.gemini/settings.json`. */
  scope?: 'project' | 'user';
  /** Other settings beside `hooks`, in the same file. */
  settings?: Record<string, unknown>;
  /** Files to create in the project (relative path → content). */
  files?: Record<string, string>;
  /** The approval mode of both agents (`--yolo` is `yolo`). Default: yolo. */
  mode?: 'yolo' | 'default' | 'auto_edit';
  /** Whether the project folder is trusted (`GEMINI_CLI_TRUST_WORKSPACE=true` for Gemini CLI, `hookline trust` for Hookline). Default: true. */
  trusted?: boolean;
  /** The answer to side requests. */
  side?: string;
  /** Aspects that differ on purpose, and the README row that says why. */
  differs?: { aspects: Aspect[]; row: string };
  timeoutMs?: number;
  /** Rewrites each hook input on both sides before they compare (text a documented difference leaves apart). */
  normalize?: (input: any) => any;
  /** More environment for both agents. */
  env?: Record<string, string>;
  /** More variables to compare, beside the hook contract's. */
  envNames?: string[];
  /** Hooks in the user's settings too, beside the project's. */
  userHooks?: Record<string, Group[]>;
  /** Prompts of earlier runs in the same project; the last run resumes the latest session (`--resume`). */
  before?: string[];
  /** An extension installed for the user: its name and its `hooks/hooks.json` hooks. */
  extension?: { name: string; hooks: Record<string, Group[]> };
}

/** A shell call that leaves `ran-N` in the project, so a case sees whether it ran. */
export function shell(n: number, extra = ''): Turn {
  return { tools: [{ name: 'run_shell_command', input: { command: `touch ran-${n}${extra}`, description: `step ${n}` } }] };
}

/** The variables of Gemini CLI's hook contract. */
export const GEMINI_ENV = [
  'GEMINI_PROJECT_DIR',
  'GEMINI_CWD',
  'GEMINI_SESSION_ID',
  'GEMINI_PLANS_DIR',
  'CLAUDE_PROJECT_DIR',
  'GEMINI_CLI',
] as const;

/** User settings both agents read: Gemini CLI's API-key sign-in, nothing sent anywhere but the model server. */
const USER_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  general: { disableAutoUpdate: true, disableUpdateNag: true },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
};

function writeSettings(c: GeminiCase, dirs: Dirs, serverUrl: string): string {
  const hooks = hooksObject(c.hooks, dirs, serverUrl);
  const userHooks = c.userHooks ? { hooks: hooksObject(c.userHooks, dirs, serverUrl) } : {};
  const user = c.scope === 'user' ? { ...USER_SETTINGS, ...placed(c.settings, dirs.project), hooks } : { ...USER_SETTINGS, ...userHooks };
  writeJsonFile(path.join(dirs.home, '.gemini', 'settings.json'), user);
  if (c.scope !== 'user')
    writeJsonFile(path.join(dirs.project, '.gemini', 'settings.json'), { ...placed(c.settings, dirs.project), hooks });
  if (c.extension) {
    // Installed as `gemini extensions install` leaves it: a folder under ~/.gemini/extensions with its manifest.
    const root = path.join(dirs.home, '.gemini', 'extensions', c.extension.name);
    writeJsonFile(path.join(root, 'gemini-extension.json'), { name: c.extension.name, version: '1.0.0' });
    writeJsonFile(path.join(root, 'hooks', 'hooks.json'), { hooks: hooksObject(c.extension.hooks, dirs, serverUrl) });
  }
  writeFiles(dirs, c.files);
  return path.join(dirs.base, 'calls.jsonl');
}

function partText(p: any): string {
  if (typeof p?.text === 'string') return p.text;
  if (p?.functionResponse) {
    const r = p.functionResponse.response;
    if (typeof r?.output === 'string') return r.output;
    if (typeof r?.error === 'string') return r.error;
    if (typeof r?.content === 'string') return r.content;
    return JSON.stringify(r ?? null);
  }
  return '';
}

/**
 * Gemini `contents` as (role, kind, text) blocks. A function response is `tool_response` whether
 * it failed or not: Gemini CLI sends a failure as `{error}` and a result as `{output}`, the AI
 * SDK's Gemini provider that Hookline's agent speaks through sends both as `{name, content}` (a
 * row of "Differences from Gemini CLI"); the text is compared.
 */
export const geminiBlocks = (body: any): Segment[] => {
  const out: Segment[] = [];
  for (const p of body.systemInstruction?.parts ?? [])
    if (typeof p.text === 'string') out.push({ role: 'system-prompt', kind: 'text', text: p.text });
  for (const m of body.contents ?? []) {
    for (const p of m.parts ?? []) {
      if (typeof p.text === 'string') out.push({ role: m.role, kind: 'text', text: p.text });
      else if (p.functionResponse) out.push({ role: m.role, kind: 'tool_response', text: partText(p) });
    }
  }
  return out;
};

/** Lines a side printed; Gemini CLI's level tags (`[WARNING] `, `[ERROR] `) are its console's, not the message. */
const lines = (stdout: string, stderr: string) =>
  [...stdout.split('\n'), ...stderr.split('\n')].map((l) => l.replace(/^\[(WARNING|ERROR)\] /, '')).filter((l) => l.trim());

/** What `gemini -p` showed: the answer on stdout, its messages on stderr. */
const geminiReaders: SideReaders = { blocks: geminiBlocks, shown: lines };

const hooklineReaders: SideReaders = { blocks: geminiBlocks, shown: lines };

/** Gemini CLI's own session context (date, folder listing) opens its first message; it is the agent's, not the hooks'. */
const SESSION_CONTEXT = /<session_context>[\s\S]*?<\/session_context>/g;

function withoutSessionContext(input: any): any {
  const r = input?.llm_request;
  if (!r || !Array.isArray(r.messages)) return input;
  const messages = r.messages.map((m: any) =>
    typeof m?.content === 'string' ? { ...m, content: m.content.replace(SESSION_CONTEXT, '') } : m,
  );
  return { ...input, llm_request: { ...r, messages } };
}

export type SideRun = HarnessRun<'gemini' | 'hookline'>;

export async function runSide(side: 'gemini' | 'hookline', c: GeminiCase): Promise<SideRun> {
  const dirs = makeDirs(side);
  const turns = placed(c.turns, dirs.project);
  // Gemini CLI's chat streams; its side requests (none with `-m` in `-p` so far) would not. A
  // BeforeToolSelection NONE leaves Hookline's call with no tools, and it is still the chat.
  const server = await startModelServer({
    turns,
    side: c.side,
    hook: httpHook(dirs),
    isMain: (url) => url.includes(':streamGenerateContent'),
  });
  const log = writeSettings(c, dirs, server.url);
  const trusted = c.trusted ?? true;
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(dirs.home),
    GEMINI_CLI_HOME: dirs.home,
    GEMINI_API_KEY: 'test',
    GOOGLE_GEMINI_BASE_URL: server.url,
    ...c.env,
  };
  const mode = c.mode ?? 'yolo';
  const prompts = [...(c.before ?? []), c.prompt ?? 'go'];
  const runs: Exited[] = [];
  const hl = { ...env, HOOKLINE_TRACE: '0' };
  try {
    if (side === 'hookline' && trusted && c.scope !== 'user')
      await runGroup(process.execPath, [CLI, 'trust', dirs.project], { cwd: dirs.project, env: hl });
    for (const [i, prompt] of prompts.entries()) {
      if (side === 'gemini') {
        const args = ['-p', prompt, '-m', MODEL, '--output-format', 'text', '--approval-mode', mode, ...(i ? ['--resume', 'latest'] : [])];
        runs.push(
          await runGroup(agentBin(AGENTS.gemini), args, {
            cwd: dirs.project,
            timeoutMs: c.timeoutMs,
            env: { ...env, GEMINI_CLI_NO_RELAUNCH: 'true', ...(trusted ? { GEMINI_CLI_TRUST_WORKSPACE: 'true' } : {}) },
          }),
        );
      } else {
        const args = [CLI, 'agent', '-p', prompt, '--model', `gemini:${MODEL}`, '--approval-mode', mode, ...(i ? ['--resume'] : [])];
        runs.push(await runGroup(process.execPath, args, { cwd: dirs.project, timeoutMs: c.timeoutMs, env: hl }));
      }
    }
  } finally {
    await server.close();
  }
  const exited = joined(runs);
  const observation = observe({
    dirs,
    log,
    requests: server.requests,
    stdout: exited.stdout,
    stderr: exited.stderr,
    readers: side === 'gemini' ? geminiReaders : hooklineReaders,
    envNames: [...GEMINI_ENV, ...(c.envNames ?? [])],
    normalize: (i) => (c.normalize ? c.normalize(withoutSessionContext(i)) : withoutSessionContext(i)),
  });
  return { side, dirs, exited, requests: server.requests, observation };
}
