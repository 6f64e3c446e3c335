import type { LanguageModelV3 } from '@ai-sdk/provider';
import { HookEngine } from '../engine/index.js';
import { ConfigRefusal, formatProblem } from '../config/problems.js';
import { Agent, DEFAULT_SYSTEM, type AgentIO, type AgentOptions, type ApprovalMode } from '../agent/loop.js';
import { Session } from '../agent/session.js';
import { builtinTools } from '../agent/tools/index.js';
import { askAgentTool } from '../agent/tools/ask-agent.js';
import { recording } from '../agent/models/providers.js';
import { echoModel } from '../agent/models/echo.js';
import { compressCommand, interactive, terminalConfirm, type ConfirmRef } from '../agent/interactive.js';
import { mmAskDeniedCliLine } from '../dialects/mm/effects.js';
import type { Adapter, AdapterContext } from '../dialects/adapter.js';
import { geminiControl } from '../dialects/gemini/system.js';
import { allSystems } from '../dialects/registry.js';
import { leftFiles, type AgentSetup } from '../dialects/system.js';
import { modelFromFlags } from './model.js';
import { resolveDir, UsageError, warn } from './io.js';
import { sessionIdProblem } from '../events/session-id.js';
import { shadowAdapter } from '../agent/shadow.js';
import { traceEveryRunAsShadow } from '../engine/trace.js';
import { userDirs } from '../agent/context-files.js';

export interface AgentCliOptions {
  prompt?: string;
  model?: string;
  baseUrl?: string;
  approvalMode?: string;
  resume?: string | boolean;
  /** Shadow mode: hooks run and their objections are shown and traced, not enforced. */
  shadow?: boolean;
  displayHooks?: boolean;
  record?: string;
  cwd?: string;
  maxSteps?: string;
  compressThreshold?: string;
  mmConfig?: string;
  ask?: string;
  pluginDir?: string[];
  /** Where two dialects read one file, the one that runs its hooks. */
  preferDialect?: string;
}

const MODES: readonly ApprovalMode[] = ['default', 'auto_edit', 'yolo'];

/** A whole number of at least 1 from a flag, or a usage error that says what to give. */
export function positiveInt(flag: string, value: string | undefined, example: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`${flag} ${JSON.stringify(value)}: not a whole number of at least 1 — give one, e.g. ${flag} ${example}`);
  return n;
}

/** The saved session to go on with, or a usage error naming what there is to resume. */
function resumeSession(cwd: string, which: string): Session {
  try {
    return Session.resume(cwd, which);
  } catch {
    const what = which === 'latest' ? `no saved session in ${cwd} to resume` : `no saved session "${which}" in ${cwd}`;
    throw new UsageError(
      `${what} — start one with \`hookline agent\` (sessions are saved per project folder), or give an id from a session started here`,
    );
  }
}

/** The model as the hook systems name it: `scripted`, or the spec (`openai-compatible:llama3`). */
function modelSpec(spec: string | undefined): string {
  return spec ? spec.replace(/^scripted:.*$/, 'scripted') : 'embedded';
}

/** The model as hooks see it in `llm_request.model`: its name without the provider (`gemini-2.5-flash`), as Gemini CLI sends it. */
function modelName(spec: string | undefined): string {
  const named = modelSpec(spec);
  const i = named.indexOf(':');
  return i === -1 ? named : named.slice(i + 1);
}

export async function agentCommand(opts: AgentCliOptions): Promise<number> {
  // The AI SDK's own warnings (a model name it does not know, a setting a provider ignores) are not the user's business.
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  try {
    return await run(opts);
  } catch (err) {
    if (err instanceof ConfigRefusal) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

async function run(opts: AgentCliOptions): Promise<number> {
  const cwd = resolveDir(opts.cwd);
  if (opts.shadow) traceEveryRunAsShadow();
  const mode = (opts.approvalMode ?? 'default') as ApprovalMode;
  if (!MODES.includes(mode)) throw new UsageError(`--approval-mode ${mode}: unknown mode — use one of ${MODES.join(', ')}`);
  const maxSteps = positiveInt('--max-steps', opts.maxSteps, '25');
  const compressThreshold = positiveInt('--compress-threshold', opts.compressThreshold, '20000');
  if (opts.ask !== undefined && opts.prompt === undefined)
    throw new UsageError('--ask <agent> needs the question — hookline agent --ask <agent> "question"');
  const spec = opts.model ?? process.env.HOOKLINE_MODEL;
  let model: LanguageModelV3 = spec ? await modelFromFlags(spec, opts.baseUrl, process.env.HOOKLINE_SCRIPT_LOG) : echoModel();
  if (opts.record) model = recording(model, opts.record);
  // A saved session's file (`….jsonl`) or an id; an id is held to the safe alphabet.
  const resumeId =
    typeof opts.resume === 'string' && !opts.resume.endsWith('.jsonl') ? sessionIdProblem(opts.resume, '--resume') : undefined;
  if (resumeId) throw new UsageError(resumeId);
  const session = opts.resume ? resumeSession(cwd, opts.resume === true ? 'latest' : String(opts.resume)) : Session.create(cwd);
  const systems = await allSystems();
  const prefer = opts.preferDialect;
  if (prefer !== undefined && !systems.some((s) => s.name === prefer))
    throw new UsageError(`--prefer-dialect ${prefer}: unknown dialect — use one of ${systems.map((s) => s.name).join(', ')}`);
  // A file two systems read runs once: by its own agent's dialect, or the preferred one.
  const left = leftFiles(systems, cwd, process.env, prefer);
  const interactiveMode = opts.prompt === undefined;
  const confirmRef: ConfirmRef = {};
  const io: AgentIO = {
    text: (chunk) => process.stdout.write(chunk),
    notice: (line) => process.stderr.write(`${line}\n`),
    ...(process.stdin.isTTY ? { confirm: (q: string) => (confirmRef.fn ?? terminalConfirm(process.stdin, process.stderr))(q) } : {}),
  };
  const kind = spec?.split(':')[0];
  // Real providers switch model when a BeforeModel hook names another one; a script cannot.
  const providers = kind && kind !== 'scripted' ? await import('../agent/models/providers.js') : undefined;
  const base: Omit<AgentOptions, 'adapters' | 'session' | 'tools' | 'interactive' | 'cwd'> = {
    model,
    modelName: modelName(spec),
    ...(providers && spec ? { config: providers.generationDefaults(spec) } : {}),
    modelFor: (name: string) => {
      if (!providers || !kind) return undefined;
      const m = providers.createModel({
        spec: `${kind}:${name.startsWith(`${kind}:`) ? name.slice(kind.length + 1) : name}`,
        baseUrl: opts.baseUrl,
      });
      return opts.record ? recording(m, opts.record) : m;
    },
    io,
    approvalMode: mode,
    maxSteps,
    compressThreshold,
  };

  /** An agent with every hook system's adapter: the user's own, or a called agent one level deeper. */
  const build = (
    s: Session,
    interactiveAgent: boolean,
    handOff?: { file: string; depth: number; name: string; parent: Session },
    quiet = false,
  ): Agent => {
    // Settings and hook scripts are checked before every event: the agent's own tools may have just changed them.
    const engine = new HookEngine({
      cwd,
      sessionId: s.id,
      transcriptPath: s.transcriptPath,
      shadow: Boolean(opts.shadow),
      configCheckIntervalMs: 0,
      // A called agent's held hooks were said by the agent that called it.
      onNotice: handOff ? () => {} : warn,
    });
    if (!handOff) {
      for (const p of engine.problems) warn(formatProblem(p));
      engine.noticeHeld();
    }
    const hookEnv = engine.context.baseEnv;
    const counter = { next: 1 };
    let agent: Agent | undefined;
    const agentIO = quiet ? { ...io, text: () => {} } : io;
    const ctx: AdapterContext = {
      cwd,
      modelName: modelSpec(spec),
      session: () => ({ id: s.id, transcriptPath: s.transcriptPath }),
      approvalMode: () => agent?.approvalMode ?? mode,
      io: agentIO,
      displayHooks: Boolean(opts.displayHooks),
      counter,
      depth: handOff?.depth ?? 0,
      interactive: interactiveAgent,
      ...(handOff
        ? { handedTo: { name: handOff.name, parent: { id: handOff.parent.id, transcriptPath: handOff.parent.transcriptPath } } }
        : {}),
    };
    const setup: AgentSetup = {
      cwd,
      engine,
      trust: engine.folderTrust,
      hookEnv,
      model,
      ctx,
      displayHooks: Boolean(opts.displayHooks),
      mmConfig: opts.mmConfig,
      pluginDirs: opts.pluginDir,
      ask: opts.ask !== undefined,
      system: DEFAULT_SYSTEM,
      handOff,
      warn,
    };
    const adapters = systems
      .map((sys) => sys.adapter({ ...setup, leave: left.get(sys.name) }))
      .filter((a): a is Adapter => a !== undefined)
      // Gemini settings hooks are shadowed in their engine; the other systems at their adapter.
      .map((a) => (opts.shadow && a.name !== 'gemini' ? shadowAdapter(a, agentIO) : a));
    for (const w of engine.pendingWarnings) warn(w);
    engine.on('warning', warn);
    const agents = Object.fromEntries(adapters.flatMap((a) => Object.keys(a.agents?.() ?? {}).map((n) => [n, n])));
    const tools = Object.keys(agents).length ? [...builtinTools(), askAgentTool(Object.keys(agents))] : builtinTools();
    agent = new Agent({
      ...base,
      io: agentIO,
      cwd,
      adapters,
      session: s,
      tools,
      interactive: interactiveAgent,
      toolEnv: hookEnv,
      counter,
      depth: handOff?.depth ?? 0,
      hooks: geminiControl(engine),
      contextFiles: {
        user: userDirs(),
        workspaceTrusted: engine.folderTrust !== 'untrusted',
      },
      // A called agent runs every hook system's hooks too, with its own configuration's mm hooks.
      spawnAgent: (name, file, depth, q) => build(Session.create(cwd), false, { file, depth, name, parent: s }, q),
    });
    return agent;
  };
  const agent = build(session, interactiveMode);

  if (opts.ask !== undefined) {
    const r = await agent.ask(opts.ask, opts.prompt!, false, 'cli').finally(() => agent.points.close());
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

  await agent.start(opts.resume ? 'resume' : 'startup', interactiveMode ? undefined : opts.prompt);
  if (interactiveMode) {
    await interactive(agent, { out: process.stdout, input: process.stdin, confirmRef });
    await agent.points.settle();
    agent.points.close();
    return 0;
  }
  // `-p /compress` (or `/compact`): the command, as at the prompt, not a turn.
  const command = compressCommand(opts.prompt!);
  if (command) {
    await agent.compress('manual', command.instructions);
    await agent.end('exit');
    await agent.points.settle();
    agent.points.close();
    return 0;
  }
  const cancel = new AbortController();
  const onInterrupt = () => cancel.abort();
  process.once('SIGINT', onInterrupt);
  const result = await agent.turn(opts.prompt!, cancel.signal);
  process.off('SIGINT', onInterrupt);
  if (result.text && !result.text.endsWith('\n')) process.stdout.write('\n');
  await agent.end('exit');
  await agent.points.settle();
  agent.points.close();
  // 130: interrupted, as shells report Ctrl-C.
  return result.status === 'error' ? 1 : result.status === 'cancelled' ? 130 : 0;
}
