import path from 'node:path';
/**
 * Antigravity CLI (`agy`) hooks as a hook system: its event names, its camelCase input, its
 * hooks.json files (config.ts). The workspace's files run only in a trusted folder, and only the
 * hooks trusted with `hookline trust`.
 */
import fs from 'node:fs';
import { formatProblem, UsageError } from '../../config/problems.js';
import { loadContext } from '../../engine/index.js';
import { processFields } from '../../run/result.js';
import { heldDialectHooks, sessionGate } from '../../trust/dialects.js';
import { validationLines, heldBackOf, type HookSystem } from '../system.js';
import { agyAdapter } from './agent.js';
import {
  agyHookPaths,
  AGY_EVENTS,
  AgyConfigReadError,
  agyEventNamed,
  agyWithout,
  agyWorkspaceHooks,
  loadAgyConfig,
  TOOL_EVENTS,
  type AgyConfig,
  type AgyEvent,
} from './config.js';
import { fireAgy } from './run.js';
import { isObject } from '../json.js';

function load(projectDir: string, config: string | undefined, env: NodeJS.ProcessEnv): AgyConfig {
  let loaded: AgyConfig;
  try {
    loaded = loadAgyConfig({ projectDir, env, file: config });
  } catch (e) {
    if (e instanceof AgyConfigReadError) throw new UsageError(e.message);
    throw e;
  }
  if (config && !loaded.files.find((f) => f.file === path.resolve(config))?.exists)
    throw new UsageError(`agy hooks ${config} not found — check the path given to --config`);
  return loaded;
}

function agyEvent(name: string): AgyEvent {
  const e = agyEventNamed(name);
  if (!e) throw new UsageError(`unknown agy event "${name}" — use one of ${AGY_EVENTS.join(', ')}`);
  return e;
}

function counts(config: AgyConfig): Partial<Record<AgyEvent, number>> {
  const out: Partial<Record<AgyEvent, number>> = {};
  for (const h of config.hooks) out[h.event] = (out[h.event] ?? 0) + 1;
  return out;
}

export const agySystem: HookSystem = {
  name: 'agy',
  describeConfig: '.agents/hooks.json, .antigravitycli/hooks.json, ~/.gemini/config/hooks.json, ~/.gemini/antigravity-cli/hooks.json',
  events: AGY_EVENTS,
  async fire(eventArg, fields, opts) {
    if (opts.hasModel)
      throw new UsageError(
        '--model is only for prompt hooks (SpatialAgent, Claude Code) — drop it, or add --dialect spatialagent or claude',
      );
    const event = agyEvent(eventArg);
    if (TOOL_EVENTS.has(event) && !(isObject(fields.toolCall) && typeof fields.toolCall.name === 'string')) {
      throw new UsageError(
        `input for ${event}: "toolCall.name" is required — e.g. {"toolCall": {"name": "run_command", "args": {"CommandLine": "ls"}}}`,
      );
    }
    const loaded = load(opts.cwd, opts.config, opts.env);
    const warnings = loaded.problems.map(formatProblem);
    const ctx = loadContext({ cwd: opts.cwd, env: opts.env });
    const workspace = agyWorkspaceHooks(loaded, opts.cwd);
    const { held, warning } = heldDialectHooks(opts.cwd, workspace, ctx.trust, opts.env);
    if (warning) warnings.push(warning);
    const heldBack = heldBackOf(workspace, held, ctx.trust).filter((h) => h.event === event);
    const input = {
      ...fields,
      ...(opts.sessionId !== undefined ? { conversationId: opts.sessionId } : {}),
      ...(opts.transcriptPath !== undefined ? { transcriptPath: opts.transcriptPath } : {}),
    };
    const result = await fireAgy(agyWithout(loaded, held), event, input, { projectDir: opts.cwd, env: ctx.baseEnv, signal: opts.signal });
    for (const r of result.runs) if (r.error) warnings.push(`${event} hook ${r.command} (${r.file} ${r.path}): ${r.error}`);
    const runs = result.runs.map((r) => ({
      name: r.command,
      command: r.command,
      source: r.source,
      file: r.file,
      path: r.path,
      ...(r.suite ? { hook: r.suite } : {}),
      ...(r.matcher !== undefined ? { matcher: r.matcher } : {}),
      timeoutSeconds: r.timeoutSeconds,
      ...processFields(r),
      outcome: r.outcome,
      ...(r.decision ? { decision: r.decision } : {}),
      ...(r.reason !== undefined ? { reason: r.reason } : {}),
      response: r.response ?? null,
    }));
    return { output: result.output, runs, heldBack, warnings };
  },
  validate({ cwd, config, env }) {
    const loaded = load(cwd, config, env);
    const files = loaded.files.filter((f) => f.exists).map((f) => f.file);
    return {
      ...validationLines(loaded.problems, { files: files.length, kind: 'hooks file', hooks: loaded.hooks.length }),
      json: { files, problems: loaded.problems, hooks: counts(loaded) },
    };
  },
  configured({ cwd, env }) {
    return agyHookPaths(cwd, env).some((p) => fs.existsSync(p.file));
  },
  workspaceHooks(dir, env) {
    try {
      return agyWorkspaceHooks(loadAgyConfig({ projectDir: dir, env }), dir);
    } catch (e) {
      // A file that cannot be read runs no hook either: nothing to trust.
      if (e instanceof AgyConfigReadError) return [];
      throw e;
    }
  },
  adapter(setup) {
    const loaded = loadAgyConfig({ projectDir: setup.cwd, env: process.env });
    for (const p of loaded.problems) setup.warn(formatProblem(p));
    const gate = sessionGate(setup, loaded, agyWorkspaceHooks, agyWithout);
    if (!gate.config.hooks.length) return undefined;
    return agyAdapter({ config: gate.config, current: gate.current, env: setup.hookEnv }, setup.ctx);
  },
};
