import { HookEngine } from '../engine.js';
import { formatProblem } from '../config/problems.js';
import { sanitizeEnv } from '../run/env.js';
import { Agent, type ApprovalMode } from '../agent/loop.js';
import { Session } from '../agent/session.js';
import { builtinTools } from '../agent/tools/index.js';
import { createModel, recording, ModelConfigError } from '../agent/models/providers.js';
import { echoModel } from '../agent/models/echo.js';
import { ScriptError } from '../agent/models/scripted.js';
import { interactive, terminalConfirm } from '../agent/interactive.js';
import { resolveDir, UsageError, warn } from './io.js';
import { reportHeld } from './trust.js';

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
}

const MODES: readonly ApprovalMode[] = ['default', 'auto_edit', 'yolo'];

export async function agentCommand(opts: AgentCliOptions): Promise<number> {
  const cwd = resolveDir(opts.cwd);
  const mode = (opts.approvalMode ?? 'default') as ApprovalMode;
  if (!MODES.includes(mode)) throw new UsageError(`--approval-mode must be one of ${MODES.join(', ')}`);
  const spec = opts.model ?? process.env.HOOKLINE_MODEL;
  let model;
  try {
    model = spec ? createModel({ spec, baseUrl: opts.baseUrl, scriptLog: process.env.HOOKLINE_SCRIPT_LOG }) : echoModel();
  } catch (err) {
    if (err instanceof ModelConfigError || err instanceof ScriptError) throw new UsageError(err.message);
    throw err;
  }
  if (opts.record) model = recording(model, opts.record);
  const session = opts.resume ? Session.resume(cwd, opts.resume === true ? 'latest' : String(opts.resume)) : Session.create(cwd);
  const engine = new HookEngine({ cwd, sessionId: session.id, transcriptPath: session.transcriptPath });
  for (const p of engine.problems) warn(formatProblem(p));
  reportHeld(engine);
  const interactiveMode = opts.prompt === undefined;
  const stdinTTY = Boolean(process.stdin.isTTY);
  const agent = new Agent({
    engine,
    model,
    modelName: spec ? spec.replace(/^scripted:.*$/, 'scripted') : 'embedded',
    session,
    tools: builtinTools(),
    interactive: interactiveMode,
    approvalMode: mode,
    displayHooks: opts.displayHooks,
    maxSteps: opts.maxSteps ? Number(opts.maxSteps) : undefined,
    compressThreshold: opts.compressThreshold ? Number(opts.compressThreshold) : undefined,
    toolEnv: sanitizeEnv(process.env, engine.loaded.redaction),
    io: {
      text: (chunk) => process.stdout.write(chunk),
      notice: (line) => process.stderr.write(`${line}\n`),
      ...(stdinTTY ? { confirm: terminalConfirm(process.stdin, process.stderr) } : {}),
    },
  });
  await agent.start(opts.resume ? 'resume' : 'startup');
  if (interactiveMode) {
    await interactive(agent, { out: process.stdout, input: process.stdin });
    return 0;
  }
  const result = await agent.turn(opts.prompt!);
  if (result.text && !result.text.endsWith('\n')) process.stdout.write('\n');
  await agent.end('exit');
  return result.status === 'error' ? 1 : 0;
}
