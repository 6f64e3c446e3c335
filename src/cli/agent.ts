import fs from 'node:fs';
import path from 'node:path';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { HookEngine } from '../engine.js';
import { formatProblem } from '../config/problems.js';
import { sanitizeEnv } from '../run/env.js';
import { Agent, type AgentIO, type AgentOptions, type ApprovalMode } from '../agent/loop.js';
import { Session } from '../agent/session.js';
import { builtinTools } from '../agent/tools/index.js';
import { askAgentTool, type Dialects } from '../agent/dialects.js';
import { createModel, recording, ModelConfigError } from '../agent/models/providers.js';
import { echoModel } from '../agent/models/echo.js';
import { ScriptError } from '../agent/models/scripted.js';
import { interactive, terminalConfirm, type ConfirmRef } from '../agent/interactive.js';
import { defaultMmConfigPath, formatMmConfigError, loadMmConfig, MmConfigReadError, mmAgentFiles, mmAskDeniedCliLine, mmWithout, mmWorkspaceHooks, type MmConfig } from '../dialects/mm/index.js';
import { defaultSaConfigPath, loadSaConfig, SaConfigReadError, saWithout, saWorkspaceHooks, type SaConfig } from '../dialects/spatialagent/index.js';
import { claudeWithout, claudeWorkspaceHooks, loadClaudeConfig, withoutProjectHooks } from '../dialects/claude/index.js';
import { heldDialectHooks } from '../trust/dialects.js';
import type { FolderTrust } from '../trust/folders.js';
import { resolveDir, UsageError, warn } from './io.js';
import { reportHeld } from './trust.js';
import { sessionIdProblem } from '../events/session-id.js';

export interface AgentCliOptions {
  prompt?: string;
  model?: string;
  baseUrl?: string;
  approvalMode?: string;
  resume?: string | boolean;
  displayHooks?: boolean;
  record?: string;
  cwd?: string;
  maxSteps?: string;
  compressThreshold?: string;
  mmConfig?: string;
  ask?: string;
}

const MODES: readonly ApprovalMode[] = ['default', 'auto_edit', 'yolo'];

/** mm's configuration errors stop the agent, as they stop mm: `[config error: …]`, exit 1. */
class ConfigErrors extends Error {}

function readMm(file: string): MmConfig {
  let config: MmConfig;
  try {
    config = loadMmConfig(file);
  } catch (err) {
    if (err instanceof MmConfigReadError) throw new ConfigErrors(`[config error: ${file}: ${err.message}]`);
    throw err;
  }
  if (config.errors.length) throw new ConfigErrors(config.errors.map(formatMmConfigError).join('\n'));
  return config;
}

/** mm's display: `--display-hooks` or `displayHooks: true`; `mm --ask` lists nothing. */
function mmDisplay(opts: AgentCliOptions, config: MmConfig): boolean {
  return opts.ask === undefined && Boolean(opts.displayHooks || config.raw.displayHooks === true);
}

/**
 * The dialect configurations to load. A file inside the project folder found at its usual place
 * is workspace configuration, as `.gemini/settings.json`: it loads only when the folder is
 * trusted, and its new or changed hooks are held back until `hookline trust`.
 */
function loadDialects(cwd: string, opts: AgentCliOptions, trust: FolderTrust, model: LanguageModelV3): Dialects {
  const d: Dialects = {};
  const trusted = trust !== 'untrusted';
  const inProject = (file: string) => !path.relative(cwd, path.resolve(file)).startsWith('..');
  const mmFile = opts.mmConfig ?? defaultMmConfigPath(cwd);
  let mm: MmConfig | undefined;
  let mmWorkspace = false;
  if (fs.existsSync(mmFile)) {
    mmWorkspace = !(opts.mmConfig || process.env.MM_CONFIG) && inProject(mmFile);
    if (mmWorkspace && !trusted) warn(`${cwd} is not a trusted folder: the mm hooks in ${mmFile} do not run (run: hookline trust)`);
    else mm = readMm(mmFile);
  } else if (opts.mmConfig) throw new UsageError(`no mm configuration at ${mmFile}`);
  let claude = loadClaudeConfig({ projectDir: cwd, env: process.env });
  for (const p of claude.problems) warn(formatProblem(p));
  const claudeProject = claude.hooks.some((h) => h.source === 'project' || h.source === 'local');
  if (claudeProject && !trusted) warn(`${cwd} is not a trusted folder: the Claude Code hooks in .claude/ do not run (run: hookline trust)`);
  if (!trusted) claude = withoutProjectHooks(claude);
  const saFile = defaultSaConfigPath(cwd);
  let sa: SaConfig | undefined;
  if (fs.existsSync(saFile)) {
    if (!trusted) warn(`${cwd} is not a trusted folder: the SpatialAgent hooks in ${saFile} do not run (run: hookline trust)`);
    else {
      try {
        sa = loadSaConfig(saFile);
        for (const p of sa.problems ?? []) warn(formatProblem(p));
      } catch (err) {
        if (err instanceof SaConfigReadError) warn(err.message);
        else throw err;
      }
    }
  }
  const workspace = [...(mm && mmWorkspace ? mmWorkspaceHooks(mm) : []), ...claudeWorkspaceHooks(claude), ...(sa ? saWorkspaceHooks(sa) : [])];
  const { held, warning } = heldDialectHooks(cwd, workspace, trust);
  if (warning) warn(warning);
  if (mm) {
    const config = mmWorkspace ? mmWithout(mm, held) : mm;
    d.mm = { config, display: mmDisplay(opts, config), depth: 0 };
  }
  claude = claudeWithout(claude, held);
  if (claude.hooks.length) d.claude = { config: claude, display: Boolean(opts.displayHooks) };
  if (sa) d.spatialagent = { config: saWithout(sa, held), model, display: Boolean(opts.displayHooks) };
  return d;
}

/** The model as hooks see it in `llm_request.model`: `scripted`, or the spec (`openai-compatible:llama3`). */
function modelName(spec: string | undefined): string {
  return spec ? spec.replace(/^scripted:.*$/, 'scripted') : 'embedded';
}

export async function agentCommand(opts: AgentCliOptions): Promise<number> {
  try {
    return await run(opts);
  } catch (err) {
    if (err instanceof ConfigErrors) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

async function run(opts: AgentCliOptions): Promise<number> {
  const cwd = resolveDir(opts.cwd);
  const mode = (opts.approvalMode ?? 'default') as ApprovalMode;
  if (!MODES.includes(mode)) throw new UsageError(`--approval-mode must be one of ${MODES.join(', ')}`);
  if (opts.ask !== undefined && opts.prompt === undefined) throw new UsageError('--ask <agent> needs the question: hookline agent --ask <agent> "question"');
  const spec = opts.model ?? process.env.HOOKLINE_MODEL;
  let model: LanguageModelV3;
  try {
    model = spec ? createModel({ spec, baseUrl: opts.baseUrl, scriptLog: process.env.HOOKLINE_SCRIPT_LOG }) : echoModel();
  } catch (err) {
    if (err instanceof ModelConfigError || err instanceof ScriptError) throw new UsageError(err.message);
    throw err;
  }
  if (opts.record) model = recording(model, opts.record);
  // A saved session's file (`….jsonl`) or an id; an id is held to the safe alphabet.
  const resumeId = typeof opts.resume === 'string' && !opts.resume.endsWith('.jsonl') ? sessionIdProblem(opts.resume, '--resume') : undefined;
  if (resumeId) throw new UsageError(resumeId);
  const session = opts.resume ? Session.resume(cwd, opts.resume === true ? 'latest' : String(opts.resume)) : Session.create(cwd);
  const engine = new HookEngine({ cwd, sessionId: session.id, transcriptPath: session.transcriptPath });
  for (const p of engine.problems) warn(formatProblem(p));
  reportHeld(engine);
  const dialects = loadDialects(cwd, opts, engine.folderTrust, model);
  const interactiveMode = opts.prompt === undefined;
  const hookEnv = sanitizeEnv(process.env, engine.loaded.redaction);
  const confirmRef: ConfirmRef = {};
  const io: AgentIO = {
    text: (chunk) => process.stdout.write(chunk),
    notice: (line) => process.stderr.write(`${line}\n`),
    ...(process.stdin.isTTY ? { confirm: (q: string) => (confirmRef.fn ?? terminalConfirm(process.stdin, process.stderr))(q) } : {}),
  };
  const base: Omit<AgentOptions, 'engine' | 'session' | 'tools' | 'dialects' | 'interactive'> = {
    model,
    modelName: modelName(spec),
    // Real providers switch model when a BeforeModel hook names another one; a script cannot.
    modelFor: (name: string) => {
      const kind = spec?.split(':')[0];
      if (!kind || kind === 'scripted') return undefined;
      const m = createModel({ spec: `${kind}:${name.startsWith(`${kind}:`) ? name.slice(kind.length + 1) : name}`, baseUrl: opts.baseUrl });
      return opts.record ? recording(m, opts.record) : m;
    },
    io,
    approvalMode: mode,
    displayHooks: opts.displayHooks,
    maxSteps: opts.maxSteps ? Number(opts.maxSteps) : undefined,
    compressThreshold: opts.compressThreshold ? Number(opts.compressThreshold) : undefined,
    toolEnv: hookEnv,
    hookEnv,
  };
  const toolsFor = (mm: MmConfig | undefined) => {
    const agents = mm ? mmAgentFiles(mm) : {};
    return Object.keys(agents).length ? [...builtinTools(), askAgentTool(agents)] : builtinTools();
  };
  // A called agent runs its own configuration's hooks (and the project's Gemini hooks), one level deeper.
  const spawnAgent = (_name: string, file: string, depth: number, quiet: boolean): Agent => {
    let config = readMm(file);
    // A called agent's configuration inside the project is workspace configuration too: its new
    // or changed hooks are held back like the asking agent's.
    if (!path.relative(cwd, path.resolve(file)).startsWith('..')) {
      const { held, warning } = heldDialectHooks(cwd, mmWorkspaceHooks(config), engine.folderTrust);
      if (warning) warn(warning);
      config = mmWithout(config, held);
    }
    const childSession = Session.create(cwd);
    const childEngine = new HookEngine({ cwd, sessionId: childSession.id, transcriptPath: childSession.transcriptPath });
    return new Agent({
      ...base,
      io: quiet ? { ...io, text: () => {} } : io,
      engine: childEngine,
      session: childSession,
      tools: toolsFor(config),
      interactive: false,
      dialects: { mm: { config, display: mmDisplay(opts, config), depth }, spatialagent: dialects.spatialagent, claude: dialects.claude },
      spawnAgent,
    });
  };
  const agent = new Agent({ ...base, engine, session, tools: toolsFor(dialects.mm?.config), interactive: interactiveMode, dialects, spawnAgent });

  if (opts.ask !== undefined) {
    const r = await agent.ask(opts.ask, opts.prompt!, false, 'cli');
    if (r.status === 'denied') {
      process.stderr.write(`${mmAskDeniedCliLine(r.reason)}\n`);
      return 1;
    }
    if (r.status === 'error') {
      process.stderr.write(`[ask: ${r.output}]\n`);
      return 1;
    }
    if (r.heldAnswer) process.stdout.write(r.output);
    if (!r.output.endsWith('\n')) process.stdout.write('\n');
    return 0;
  }

  await agent.start(opts.resume ? 'resume' : 'startup');
  if (interactiveMode) {
    await interactive(agent, { out: process.stdout, input: process.stdin, confirmRef });
    return 0;
  }
  const cancel = new AbortController();
  const onInterrupt = () => cancel.abort();
  process.once('SIGINT', onInterrupt);
  const result = await agent.turn(opts.prompt!, cancel.signal);
  process.off('SIGINT', onInterrupt);
  if (result.text && !result.text.endsWith('\n')) process.stdout.write('\n');
  await agent.end('exit');
  // 130: interrupted, as shells report Ctrl-C.
  return result.status === 'error' ? 1 : result.status === 'cancelled' ? 130 : 0;
}
