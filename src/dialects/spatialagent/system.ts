/**
 * SpatialAgent's hooks as a hook system: its events, its context variables as input, its
 * settings file (`--config`, or `.spatialagent/settings.json` in the folder). Prompt hooks are
 * answered by the model given with `--model`, as the agent's model answers them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { formatProblem, UsageError } from '../../config/problems.js';
import { loadContext } from '../../engine/index.js';
import { processFields } from '../../run/result.js';
import { startFailure } from '../../engine/advice.js';
import { heldDialectHooks, sessionGate } from '../../trust/dialects.js';
import { heldBackOf, type HeldBack, type HookSystem } from '../system.js';
import { spatialAgentAdapter } from './agent.js';
import { SaConfigReadError, defaultSaConfigPath, loadSaConfig, saHookCount, saWithout, saWorkspaceHooks, type SaConfig } from './config.js';
import { SA_ALL_VARIABLES, SA_EVENTS, SA_VARIABLES, isSaEvent } from './events.js';
import { fireSpatialAgent } from './run.js';

function read(file: string, explicit: boolean): SaConfig {
  let config: SaConfig;
  try {
    config = loadSaConfig(file);
  } catch (e) {
    if (e instanceof SaConfigReadError) throw new UsageError(e.message);
    throw e;
  }
  if (!config.exists && explicit) throw new UsageError(`SpatialAgent settings ${file} not found — check the path given to --config`);
  return config;
}

export const spatialAgentSystem: HookSystem = {
  name: 'spatialagent',
  describeConfig: '.spatialagent/settings.json',
  events: SA_EVENTS,
  async fire(eventArg, variables, opts) {
    if (!isSaEvent(eventArg)) throw new UsageError(`unknown SpatialAgent event "${eventArg}" — use one of ${SA_EVENTS.join(', ')}`);
    const event = eventArg;
    const warnings: string[] = [];
    for (const k of Object.keys(variables)) {
      if (!SA_ALL_VARIABLES.includes(k.toUpperCase())) {
        const known = SA_VARIABLES[event].length ? `${event}'s are ${SA_VARIABLES[event].join(', ')}` : `${event} documents none`;
        warnings.push(`${event}: input variable "${k}" is not one SpatialAgent documents (still set) — ${known}`);
      }
    }
    const cwd = opts.cwd;
    const file = opts.config ?? defaultSaConfigPath(cwd);
    const loaded = read(file, opts.config !== undefined);
    warnings.push(...loaded.problems.map(formatProblem));
    const model = await opts.model?.();
    if (!model && loaded.hooks[event].some((h) => h.type === 'prompt'))
      warnings.push(`${event} has prompt hooks and no --model: they approve ("No LLM for prompt hook")`);
    const ctx = loadContext({ cwd, env: opts.env });
    let config = loaded;
    let heldBack: HeldBack[] = [];
    if (opts.config === undefined) {
      const hooks = saWorkspaceHooks(loaded, cwd);
      const { held, warning } = heldDialectHooks(cwd, hooks, ctx.trust, opts.env);
      if (warning) warnings.push(warning);
      config = saWithout(loaded, held);
      heldBack = heldBackOf(hooks, held, ctx.trust).filter((h) => h.event === event);
    }
    const result = await fireSpatialAgent(config, event, variables, {
      cwd,
      model,
      env: ctx.baseEnv,
      signal: opts.signal,
      session: opts.sessionId,
    });
    for (const r of result.runs) {
      if (r.error) warnings.push(`${event} hook ${r.path}: ${r.error}`);
      const start = r.command !== undefined ? startFailure(r.command, r.exitCode, r.stderr) : undefined;
      if (start) warnings.push(`${event} hook ${r.path} (${file}): ${start}`);
    }
    const runs = result.runs.map((r) => ({
      n: r.n,
      name: r.command ?? r.prompt,
      type: r.type,
      path: r.path,
      ...(r.command !== undefined ? { command: r.command } : { prompt: r.prompt }),
      expanded: r.expanded,
      ...processFields(r),
      ...(r.answer !== undefined ? { answer: r.answer } : {}),
      decision: r.decision,
      reason: r.reason,
      line: r.line,
    }));
    return { output: result.output, runs, heldBack, warnings };
  },
  validate({ cwd, config: configFile }) {
    const file = configFile ?? defaultSaConfigPath(cwd);
    const config = read(file, true);
    const errors = config.problems.filter((p) => p.severity === 'error').length;
    return {
      lines: [
        ...config.problems.map(formatProblem),
        `${path.relative(process.cwd(), file) || file}: ${saHookCount(config)} hook(s), ${errors} error(s), ${config.problems.length - errors} warning(s)`,
      ],
      json: { file, problems: config.problems, hooks: Object.fromEntries(SA_EVENTS.map((e) => [e, config.hooks[e].length])) },
      errors,
    };
  },
  configured({ cwd }) {
    return fs.existsSync(defaultSaConfigPath(cwd));
  },
  workspaceHooks(dir) {
    try {
      return saWorkspaceHooks(loadSaConfig(defaultSaConfigPath(dir)), dir);
    } catch (e) {
      if (e instanceof SaConfigReadError) return [];
      throw e;
    }
  },
  adapter(setup) {
    const file = defaultSaConfigPath(setup.cwd);
    if (!fs.existsSync(file)) return undefined;
    let loaded: SaConfig;
    try {
      loaded = loadSaConfig(file);
    } catch (err) {
      if (!(err instanceof SaConfigReadError)) throw err;
      setup.warn(err.message);
      return undefined;
    }
    const gate = sessionGate(setup, loaded, saWorkspaceHooks, saWithout);
    if (setup.trust === 'untrusted') return undefined;
    for (const p of loaded.problems ?? []) setup.warn(formatProblem(p));
    return spatialAgentAdapter(
      {
        config: gate.config,
        current: gate.current,
        model: setup.model,
        display: setup.displayHooks,
        env: setup.hookEnv,
        system: setup.system,
      },
      setup.ctx,
    );
  },
};
