// Codex cases: the same hooks and model turns through the real `codex exec` and through
// `hookline agent`, both on one scripted model server (OpenAI responses for Codex, chat
// completions for Hookline's openai-compatible provider; the readers make their messages alike).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENTS, agentBin, runGroup, type Exited } from './agents.js';
import { startModelServer, type Turn, type TurnOf, type Recorded } from './model-server.js';
import { observe, type Aspect, type Dirs, type Observation, type Segment, type SideReaders } from './observe.js';
import { baseEnv, makeDirs, placed, specsFile, type Group } from './harness.js';
import { codexHookHash } from '../../src/dialects/codex/config.js';
import { codexPluginFingerprint } from '../../src/dialects/codex/plugins.js';
import { codexEventLabel, isCodexEvent } from '../../src/dialects/codex/events.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const HOOK = path.join(HERE, 'hook.cjs');
const CLI = path.join(HERE, '..', '..', 'dist', 'bin', 'hookline.cjs');

export { group, hook } from './harness.js';

/** A shell call that leaves `ran-N` in the project, so a case sees whether it ran. */
export function bash(n: number, extra = ''): Turn {
  return { tools: [{ name: 'exec_command', input: { cmd: `touch ran-${n}${extra}` } }] };
}

export interface CodexCase {
  name: string;
  prompt?: string;
  /** The model's answers to the main conversation, in Codex's tool names (`exec_command {cmd}`). */
  turns: TurnOf[];
  hooks: Record<string, Group[]>;
  /** Where the hooks are: `~/.codex/hooks.json` (default), `[hooks]` in `~/.codex/config.toml`, or the project's `.codex/hooks.json`. */
  scope?: 'user' | 'toml' | 'project';
  /** Whether the user's config.toml records each hook as trusted (default), or holds a wrong hash, or nothing. */
  trust?: 'recorded' | 'changed' | 'none' | 'disabled';
  /** The project is trusted in the user's config.toml (project-scope cases; default true). */
  projectTrusted?: boolean;
  /** Hookline's side runs `hookline trust` on the project first (project-scope cases with records; default true). */
  hooklineTrust?: boolean;
  /** Files to create in the project (relative path → content). */
  files?: Record<string, string>;
  /** Aspects that differ on purpose, and the README row that says why. */
  differs?: { aspects: Aspect[]; row: string };
  /** The hooks' order is not compared: Codex starts an async hook in the background, and the tool's PostToolUse may start first. */
  anyOrder?: boolean;
  /**
   * A plugin's hooks (`guard@hk`, installed in Codex's plugin cache and enabled in the user's
   * config.toml), its other files (relative to the plugin's folder), and how its hooks are recorded:
   * as Codex's review writes them, by their hash alone, with the plugin's contents as they were before
   * a change, or not at all.
   */
  plugin?: {
    hooks: Record<string, Group[]>;
    files?: Record<string, string>;
    trust?: 'recorded' | 'hash-only' | 'changed-content' | 'none';
  };
  /** More of the user's config.toml (Codex reads it; Hookline reads what it knows of it). */
  toml?: string;
  /** Codex's model metadata for the stub model (its catalog): `apply_patch` offers Codex's patch tool. */
  catalog?: 'apply_patch';
  /** How the tools are approved: bypassed on both sides (default), or Codex's automatic review and the agent's default mode, where PermissionRequest hooks answer. */
  approval?: 'bypass' | 'review';
  /** Hookline's turns when they cannot be read off Codex's (a patch is the agent's write_file or replace). */
  hooklineTurns?: TurnOf[];
  /** More arguments for `hookline agent`. */
  hooklineArgs?: string[];
  /**
   * A subagent's conversation: the requests whose last user message is `task` get these turns.
   * Codex's `spawn_agent` starts its `default` agent; Hookline's side hands off to an agent of that
   * name (an mm configuration the user names, with `ask_agent`).
   */
  subagent?: { task: string; turns: Turn[] };
  /** Hooks the real agent may exit before running. */
  mayNotRun?: string[];
  /** No hook is expected to run on the real agent. */
  noneRun?: boolean;
  /** Hooks are held back (trust): Hookline must say so. */
  held?: boolean;
  timeoutMs?: number;
  normalize?: (input: any) => any;
  compareFiles?: string[];
  env?: Record<string, string>;
}

export const CODEX_ENV = [
  'CODEX_HOME',
  'PLUGIN_ROOT',
  'PLUGIN_DATA',
  'CLAUDE_PLUGIN_ROOT',
  'CLAUDE_PLUGIN_DATA',
  'CLAUDE_PROJECT_DIR',
  'CLAUDECODE',
] as const;

/** The hooks object of a hooks.json: each hook a recording command. */
function hooksObject(groups: Record<string, Group[]>, dirs: Dirs): Record<string, unknown[]> {
  const log = path.join(dirs.base, 'calls.jsonl');
  fs.mkdirSync(path.join(dirs.base, 'hooks'), { recursive: true });
  const hooks: Record<string, unknown[]> = {};
  for (const [event, list] of Object.entries(groups)) {
    hooks[event] = list.map((g) => ({
      ...(g.matcher !== undefined ? { matcher: g.matcher } : {}),
      hooks: g.hooks.map((h) => {
        const spec = specsFile(dirs, h.label);
        fs.writeFileSync(spec, JSON.stringify({ label: h.label, log, replies: h.replies ?? [] }));
        const recorder = `node ${JSON.stringify(HOOK)} ${JSON.stringify(spec)}`;
        return { type: 'command', command: (h.command ?? '{hook}').split('{hook}').join(recorder), ...h.handler };
      }),
    }));
  }
  return hooks;
}

const tomlString = (s: string) => JSON.stringify(s);

/** `[[hooks.Event]]` tables for a config.toml. */
function hooksToml(hooks: Record<string, unknown[]>): string {
  let out = '';
  for (const [event, groups] of Object.entries(hooks))
    for (const g of groups as Array<{ matcher?: string; hooks: Array<Record<string, unknown>> }>) {
      out += `\n[[hooks.${event}]]\n${g.matcher !== undefined ? `matcher = ${tomlString(g.matcher)}\n` : ''}`;
      for (const h of g.hooks) {
        out += `[[hooks.${event}.hooks]]\n`;
        for (const [k, v] of Object.entries(h)) out += `${k} = ${typeof v === 'string' ? tomlString(v) : String(v)}\n`;
      }
    }
  return out;
}

/** The trust records for every hook of a file (keyed by `source`: the file, or a plugin's `<id>:<file>`), as Codex's review writes them. */
function records(
  source: string,
  hooks: Record<string, unknown[]>,
  how: CodexCase['trust'] | 'hash-only' | 'changed-content',
  contentHash?: string,
): string {
  if (how === 'none') return '';
  let out = '';
  for (const [event, groups] of Object.entries(hooks)) {
    if (!isCodexEvent(event)) continue;
    (groups as Array<{ matcher?: string; hooks: Array<Record<string, any>> }>).forEach((g, gi) =>
      g.hooks.forEach((h, hi) => {
        const key = `${source}:${codexEventLabel(event)}:${gi}:${hi}`;
        const matcher = ['PreToolUse', 'PostToolUse', 'PermissionRequest', 'SessionStart'].includes(event) ? g.matcher : undefined;
        const def = {
          command: h.command,
          timeout: Math.max(1, h.timeout ?? 600),
          async: h.async === true,
          ...(h.statusMessage !== undefined ? { statusMessage: h.statusMessage } : {}),
          ...(h.additionalContextLimit !== undefined ? { additionalContextLimit: h.additionalContextLimit } : {}),
        };
        const hash = how === 'changed' ? `sha256:${'0'.repeat(64)}` : codexHookHash(event, matcher, def);
        out += `\n[hooks.state.${tomlString(key)}]\n${how === 'disabled' ? 'enabled = false' : `trusted_hash = ${tomlString(hash)}`}\n`;
        if (contentHash && how !== 'hash-only' && how !== 'disabled')
          out += `trusted_content_hash = ${tomlString(how === 'changed-content' ? `sha256:${'0'.repeat(64)}` : contentHash)}\n`;
      }),
    );
  }
  return out;
}

const PLUGIN = { id: 'guard@hk', folder: path.join('plugins', 'cache', 'hk', 'guard', '1.0.0') };

/** Installs the case's plugin as `codex plugin add` does; its `[plugins]` table and the trust records for the user's config.toml. */
function plugin(p: NonNullable<CodexCase['plugin']>, codexHome: string, dirs: Dirs): string {
  const root = path.join(codexHome, PLUGIN.folder);
  const hooks = hooksObject(placed(p.hooks, dirs.project), dirs);
  const files: Record<string, string> = {
    '.codex-plugin/plugin.json': JSON.stringify({ name: 'guard', version: '1.0.0', description: 'a guard' }),
    'hooks/hooks.json': JSON.stringify({ hooks }, null, 2),
    ...p.files,
  };
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  return `\n[plugins.${tomlString(PLUGIN.id)}]\nenabled = true\n${records(`${PLUGIN.id}:hooks/hooks.json`, hooks, p.trust ?? 'recorded', codexPluginFingerprint(root))}`;
}

let models: Array<Record<string, unknown>> | undefined;

/** Codex's metadata for one of its own models with the patch tool, as the installed Codex lists it (`codex debug models`). */
function codexModel(dirs: Dirs): Record<string, unknown> {
  if (!models) {
    const home = path.join(dirs.base, 'models-home');
    fs.mkdirSync(path.join(home, '.codex'), { recursive: true });
    const r = spawnSync(agentBin(AGENTS.codex), ['debug', 'models'], {
      env: { ...baseEnv(home), CODEX_HOME: path.join(home, '.codex') },
      encoding: 'utf8',
    });
    models = (JSON.parse(r.stdout) as { models: Array<Record<string, unknown>> }).models;
  }
  const found = models.find((m) => m.slug === 'gpt-5.5') ?? models.find((m) => m.apply_patch_tool_type === 'freeform');
  if (!found) throw new Error('codex debug models lists no model with the patch tool');
  return found;
}

/** Codex's metadata for the stub model: its own for a current model, under the stub's name (it then offers its patch tool). */
function catalog(dirs: Dirs): string {
  const file = path.join(dirs.base, 'models.json');
  fs.writeFileSync(
    file,
    JSON.stringify({ models: [{ ...codexModel(dirs), slug: 'stub-model', display_name: 'stub-model', upgrade: null }] }),
  );
  return file;
}

/** Writes the case's files for one side: config.toml (provider, trust records), the hooks, the project's files. */
function writeConfig(c: CodexCase, dirs: Dirs, serverUrl: string): { log: string; codexHome: string } {
  const codexHome = path.join(dirs.home, '.codex');
  fs.mkdirSync(codexHome, { recursive: true });
  const hooks = hooksObject(placed(c.hooks, dirs.project), dirs);
  const scope = c.scope ?? 'user';
  let toml = [
    'model = "stub-model"',
    'model_provider = "stub"',
    '',
    '[model_providers.stub]',
    'name = "stub"',
    `base_url = ${tomlString(`${serverUrl}/v1`)}`,
    'wire_api = "responses"',
    'env_key = "STUB_API_KEY"',
    // An API error is the case's answer, not something to wait out.
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
  ].join('\n');
  if (c.catalog) toml = `model_catalog_json = ${tomlString(catalog(dirs))}\n${toml}`;
  if (c.toml) toml = `${c.toml}\n${toml}`;
  if (scope === 'project' && c.projectTrusted !== false) toml += `\n[projects.${tomlString(dirs.project)}]\ntrust_level = "trusted"\n`;
  if (c.plugin) toml += plugin(c.plugin, codexHome, dirs);
  if (scope === 'toml') {
    toml += hooksToml(hooks);
    toml += records(path.join(codexHome, 'config.toml'), hooks, c.trust);
  } else {
    const file = scope === 'project' ? path.join(dirs.project, '.codex', 'hooks.json') : path.join(codexHome, 'hooks.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ hooks }, null, 2));
    toml += records(file, hooks, c.trust);
  }
  fs.writeFileSync(path.join(codexHome, 'config.toml'), toml);
  for (const [rel, content] of Object.entries(c.files ?? {})) {
    const f = path.join(dirs.project, rel);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, content);
  }
  return { log: path.join(dirs.base, 'calls.jsonl'), codexHome };
}

const textOf = (content: unknown): string => {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b: any) => (typeof b?.text === 'string' ? b.text : '')).join('\n');
  return '';
};

/** OpenAI responses input items as (role, kind, text) blocks; a developer message is a system one. */
export const responsesBlocks = (body: any): Segment[] => {
  const out: Segment[] = [];
  if (typeof body.instructions === 'string') out.push({ role: 'system-prompt', kind: 'text', text: body.instructions });
  for (const it of body.input ?? []) {
    if (it.type === 'message' || (it.role && it.content !== undefined && it.type === undefined))
      out.push({ role: it.role === 'developer' ? 'system' : it.role, kind: 'text', text: textOf(it.content) });
    else if (it.type === 'function_call_output' || it.type === 'custom_tool_call_output')
      out.push({ role: 'tool', kind: 'tool_result', text: textOf(it.output) });
  }
  return out;
};

/** Chat completions messages as (role, kind, text) blocks. */
export const chatBlocks = (body: any): Segment[] => {
  const out: Segment[] = [];
  for (const [i, m] of (body.messages ?? []).entries()) {
    if (m.role === 'tool') out.push({ role: 'tool', kind: 'tool_result', text: textOf(m.content) });
    else out.push({ role: m.role === 'system' && i === 0 ? 'system-prompt' : m.role, kind: 'text', text: textOf(m.content) });
  }
  return out;
};

/** What `codex exec --json` showed: the model's messages and the errors it printed, and its stderr. */
const codexReaders: SideReaders = {
  blocks: responsesBlocks,
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
      const item = e.item;
      if (item?.type === 'agent_message') lines.push(String(item.text ?? ''));
      else if (item?.type === 'error') lines.push(String(item.message ?? ''));
      else if (e.type === 'error') lines.push(String(e.message ?? ''));
    }
    // Codex's log lines (`<time> ERROR codex_core::…: error=<message>`): what they say.
    const logged = stderr.split('\n').map((l) => l.replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z\s+[A-Z]+\s+[\w:]+:\s+(error=)?/, ''));
    return [...lines, ...logged].flatMap((l) => l.split('\n')).filter((l) => l.trim());
  },
};

const hooklineReaders: SideReaders = {
  blocks: chatBlocks,
  shown: (stdout, stderr) => [...stdout.split('\n'), ...stderr.split('\n')].filter((l) => l.trim()),
};

/** The last user message's text of a request (OpenAI responses or chat completions). */
function lastUser(body: any): string {
  const items: any[] = body.input ?? body.messages ?? [];
  const last = items.filter((m) => m.role === 'user').at(-1);
  return last ? textOf(last.content) : '';
}

/** Hookline's side of a subagent: an agent named `default` in an mm configuration the user names. */
function subagentConfig(dirs: Dirs): string[] {
  const top = path.join(dirs.base, 'agents.yaml');
  fs.writeFileSync(path.join(dirs.base, 'agents.default.yaml'), 'model: openai-compatible:stub-model\n');
  fs.writeFileSync(
    top,
    `model: openai-compatible:stub-model\nmmConfigs:\n  default: ${JSON.stringify(path.join(dirs.base, 'agents.default.yaml'))}\n`,
  );
  return ['--mm-config', top];
}

/** The turns as Hookline's agent takes them: Codex's shell call is the agent's shell command. */
function hooklineTurns(turns: TurnOf[]): TurnOf[] {
  return turns.map((t) => (typeof t === 'function' || !t.tools ? t : { ...t, tools: t.tools.map(hooklineCall) }));
}

/** One of Codex's tool calls as the agent's. */
function hooklineCall(c: NonNullable<Turn['tools']>[number]): NonNullable<Turn['tools']>[number] {
  if (c.name === 'exec_command')
    return {
      name: 'run_shell_command',
      // What the model says a command needs more permissions for is the shell call's description.
      input: { command: String(c.input.cmd), ...(c.input.justification ? { description: String(c.input.justification) } : {}) },
    };
  // Codex's subagent is the agent's hand-off to its `default` agent.
  if (c.name === 'spawn_agent') return { name: 'ask_agent', input: { agent: 'default', prompt: String(c.input.message) } };
  return c;
}

export interface SideRun {
  side: 'codex' | 'hookline';
  dirs: Dirs;
  exited: Exited;
  requests: Recorded[];
  observation: Observation;
}

export async function runSide(side: 'codex' | 'hookline', c: CodexCase): Promise<SideRun> {
  const dirs = makeDirs(side);
  const given = placed(c.turns, dirs.project);
  const turns = side === 'codex' ? given : hooklineTurns(c.hooklineTurns ? placed(c.hooklineTurns, dirs.project) : given);
  const server = await startModelServer({
    turns,
    ...(c.subagent
      ? { branch: { when: (body: any) => lastUser(body) === c.subagent!.task, turns: placed(c.subagent.turns, dirs.project) } }
      : {}),
  });
  const { log, codexHome } = writeConfig(c, dirs, server.url);
  const env = { ...baseEnv(dirs.home), CODEX_HOME: codexHome, ...c.env };
  const prompt = c.prompt ?? 'go';
  let exited: Exited;
  try {
    if (side === 'codex') {
      const approval = c.approval === 'review' ? '--approve-for-me' : '--dangerously-bypass-approvals-and-sandbox';
      const args = ['exec', '--json', '--skip-git-repo-check', approval, prompt];
      exited = await runGroup(agentBin(AGENTS.codex), args, {
        cwd: dirs.project,
        timeoutMs: c.timeoutMs,
        env: { ...env, STUB_API_KEY: 'test' },
      });
    } else {
      const hl = {
        ...env,
        GEMINI_CLI_HOME: dirs.home,
        HOOKLINE_TRACE: '0',
        HOOKLINE_BASE_URL: `${server.url}/v1`,
        HOOKLINE_API_KEY: 'test',
      };
      // The project's hooks wait for Hookline's review too; it records Codex's own as well, so only where Codex's are there.
      if (c.scope === 'project' && (c.trust ?? 'recorded') === 'recorded' && c.hooklineTrust !== false)
        await runGroup(process.execPath, [CLI, 'trust', dirs.project], { cwd: dirs.project, env: hl });
      const mode = c.approval === 'review' ? 'default' : 'yolo';
      const args = [
        CLI,
        'agent',
        '-p',
        prompt,
        '--model',
        'openai-compatible:stub-model',
        '--approval-mode',
        mode,
        ...(c.subagent ? subagentConfig(dirs) : []),
        ...(c.hooklineArgs ?? []),
      ];
      exited = await runGroup(process.execPath, args, { cwd: dirs.project, timeoutMs: c.timeoutMs, env: hl });
    }
  } finally {
    await server.close();
  }
  const observation = observe({
    dirs,
    log,
    requests: server.requests,
    stdout: exited.stdout,
    stderr: exited.stderr,
    readers: side === 'codex' ? codexReaders : hooklineReaders,
    envNames: CODEX_ENV,
    normalize: c.normalize,
    files: c.compareFiles,
  });
  const order = (h: { label: string; input: unknown }) => `${h.label}\0${JSON.stringify(h.input)}`;
  const hooks = c.anyOrder ? [...observation.hooks].sort((a, b) => order(a).localeCompare(order(b))) : observation.hooks;
  return { side, dirs, exited, requests: server.requests, observation: { ...observation, hooks } };
}
