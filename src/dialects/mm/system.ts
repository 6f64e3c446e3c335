/**
 * mm's hooks as a hook system: its events, its input object, its YAML configuration (`--config`,
 * `$MM_CONFIG`, or `agent.yaml` in the folder). mm refuses to start with a configuration error,
 * and so does firing: the `[config error: …]` lines, exit status 1.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigRefusal, jsonPath, UsageError } from '../../config/problems.js';
import { loadContext } from '../../engine/index.js';
import { processFields } from '../../run/result.js';
import { startFailure } from '../../engine/advice.js';
import { type DialectHook, heldDialectHooks, sessionGate } from '../../trust/dialects.js';
import type { FolderTrust } from '../../trust/folders.js';
import { configOwner, type ConfigOwner } from '../../trust/owner.js';
import { heldBackOf, type HeldBack, type HookSystem } from '../system.js';
import { mmAdapter } from './agent.js';
import { fireMm } from './chain.js';
import {
  MmConfigReadError,
  defaultMmConfigPath,
  formatMmConfigError,
  loadMmConfig,
  mmAgentFiles,
  mmBannerSuffix,
  mmWithout,
  mmWorkspaceHooks,
  type MmConfig,
} from './config.js';
import { CARRIES, MM_EVENTS, isMmEvent } from './events.js';
import type { MmEventData } from './input.js';

const MmInputSchema = z
  .object({
    event: z.string(),
    cwd: z.string(),
    model: z.string(),
    prompt: z.string(),
    tool: z.object({ id: z.string().optional(), name: z.string(), input: z.unknown().optional() }),
    ask: z.object({
      agent: z.string(),
      config: z.string().optional(),
      agentModel: z.string().optional(),
      via: z.enum(['tool', 'command', 'cli']).optional(),
      withContext: z.boolean().optional(),
      depth: z.number().int().min(0).optional(),
      prompt: z.string().optional(),
      transcript: z.string().optional(),
    }),
    output: z.string(),
    answer: z.string(),
    error: z.string(),
    durationMs: z.number().min(0),
    asked: z.object({ depth: z.number().int().min(0) }),
  })
  .partial();

function read(file: string, asUsage: boolean): MmConfig {
  try {
    return loadMmConfig(file);
  } catch (e) {
    if (!(e instanceof MmConfigReadError)) throw e;
    throw asUsage ? new UsageError(e.message) : new ConfigRefusal(`[config error: ${file}: ${e.message}]`);
  }
}

/** The configuration ready to run: refused on errors, its held-back workspace hooks removed. */
function runnable(
  config: MmConfig,
  dir: string,
  workspace: boolean,
  trust: FolderTrust,
  env: NodeJS.ProcessEnv,
  warn: (l: string) => void,
  heldBack: HeldBack[] = [],
): MmConfig {
  if (config.errors.length) throw new ConfigRefusal(config.errors.map(formatMmConfigError).join('\n'));
  if (!workspace) return config;
  const hooks = mmWorkspaceHooks(config, dir);
  const { held, warning } = heldDialectHooks(dir, hooks, trust, env);
  if (warning) warn(warning);
  heldBack.push(...heldBackOf(hooks, held, trust));
  return mmWithout(config, held);
}

/**
 * Whose each mm configuration reachable from `root` through `mmConfigs` is (root included),
 * decided on real paths (trust/owner.ts): an agent file a workspace configuration points at is
 * workspace configuration wherever it is, unless it is in the user's config home.
 */
export function mmConfigOwners(
  root: string,
  rootOwner: ConfigOwner,
  projectDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Map<string, ConfigOwner> {
  const owners = new Map<string, ConfigOwner>([[path.resolve(root), rootOwner]]);
  const queue = [path.resolve(root)];
  while (queue.length) {
    const file = queue.shift()!;
    let agents: string[] = [];
    try {
      agents = Object.values(mmAgentFiles(loadMmConfig(file)));
    } catch (e) {
      if (!(e instanceof MmConfigReadError)) throw e;
    }
    for (const f of agents) {
      const owner = configOwner(f, { projectDir, referrer: owners.get(file), env });
      const had = owners.get(f);
      // Reached from a workspace file anywhere, it is the workspace's.
      if (had === 'workspace' || had === owner) continue;
      owners.set(f, owner);
      queue.push(f);
    }
  }
  return owners;
}

/** The file an agent of this session reads, and whether the user named it. */
function topFile(cwd: string, mmConfig: string | undefined, env: NodeJS.ProcessEnv): { file: string; named: boolean } {
  return { file: mmConfig ?? defaultMmConfigPath(cwd, env), named: Boolean(mmConfig || env.MM_CONFIG) };
}

export const mmSystem: HookSystem = {
  name: 'mm',
  describeConfig: '$MM_CONFIG or agent.yaml',
  events: MM_EVENTS,
  async fire(eventArg, fields, opts) {
    if (!isMmEvent(eventArg)) throw new UsageError(`unknown mm event "${eventArg}" — use one of ${MM_EVENTS.join(', ')}`);
    const event = eventArg;
    if (opts.hasModel)
      throw new UsageError(
        '--model is only for prompt hooks (SpatialAgent, Claude Code) — drop it, or add --dialect spatialagent or claude',
      );
    const parsed = MmInputSchema.safeParse(fields);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new UsageError(`input for ${event}: ${jsonPath(first.path as Array<string | number>) || 'value'}: ${first.message}`);
    }
    const warnings: string[] = [];
    const known = new Set(['event', 'cwd', 'model', 'asked']);
    for (const k of Object.keys(fields)) {
      if (!(k in MmInputSchema.shape)) warnings.push(`input field "${k}" is not part of mm's input (ignored)`);
      else if (!known.has(k) && !CARRIES[event].has(k)) warnings.push(`input field "${k}" is not part of ${event}'s input (ignored)`);
    }
    const cwd = opts.cwd;
    // Named as the user wrote it, as mm's messages show it.
    const file = opts.config ?? defaultMmConfigPath(opts.cwdFlag ?? '', opts.env);
    const loaded = read(file, true);
    if (loaded.errors.length)
      return { output: null, runs: [], heldBack: [], warnings, raw: loaded.errors.map(formatMmConfigError), exitCode: 1 };
    // Found at its usual place, the file belongs to the folder it was found in (which may not be the input's cwd).
    const named = Boolean(opts.config || opts.env.MM_CONFIG);
    const dir = path.dirname(loaded.absFile);
    const workspace = configOwner(loaded.absFile, { projectDir: dir, named, env: opts.env }) === 'workspace';
    // One load: the folder's trust and the environment its hooks start from.
    const ctx = loadContext({ cwd: dir, env: opts.env });
    const trust = ctx.trust;
    const heldBack: HeldBack[] = [];
    const config = runnable(loaded, dir, workspace, trust, opts.env, (l) => warnings.push(l), heldBack);
    const { event: _e, ...data } = parsed.data;
    const result = await fireMm(
      config,
      event,
      { ...(data as MmEventData), cwd },
      { cwd, env: ctx.baseEnv, signal: opts.signal, session: opts.sessionId },
    );
    for (const r of result.runs) {
      const start = startFailure(r.command, r.exitCode, r.stderr);
      if (start) warnings.push(`${event} hook ${r.command} (${config.file}): ${start}`);
    }
    const runs = result.runs.map((r) => ({
      n: r.n,
      name: r.command,
      command: r.command,
      event: r.event,
      ...(r.target !== undefined ? { target: r.target } : {}),
      onError: r.onError,
      ...processFields(r),
      decision: r.decision,
      response: r.response ?? null,
      line: r.line,
      ...(r.failureLine ? { failureLine: r.failureLine } : {}),
    }));
    return { output: result.output, runs, heldBack: heldBack.filter((h) => h.event === event), warnings, raw: result.failures };
  },
  validate({ cwdFlag, config: configFile, env }) {
    const config = read(configFile ?? defaultMmConfigPath(cwdFlag ?? '', env), true);
    const counts = Object.fromEntries(MM_EVENTS.map((e) => [e, config.hooks[e].length]));
    const n = MM_EVENTS.reduce((s, e) => s + config.hooks[e].length, 0);
    return {
      lines: config.errors.length ? config.errors.map(formatMmConfigError) : [`${config.file}: ${n} hook(s)${mmBannerSuffix(config)}`],
      json: { file: config.file, errors: config.errors.map(formatMmConfigError), hooks: counts },
      errors: config.errors.length,
    };
  },
  configured({ cwd, env }) {
    return fs.existsSync(path.resolve(cwd, defaultMmConfigPath(cwd, env)));
  },
  workspaceHooks(dir, env) {
    // With $MM_CONFIG set, agent.yaml in the folder is not read; that file is the user's own.
    const first = defaultMmConfigPath(dir, {});
    if (env.MM_CONFIG || !fs.existsSync(first)) return [];
    const out: DialectHook[] = [];
    // The agents it can hand off to (and theirs, and so on) are workspace hooks too.
    for (const [f, owner] of mmConfigOwners(first, 'workspace', dir, env)) {
      if (owner !== 'workspace' || !fs.existsSync(f)) continue;
      try {
        out.push(...mmWorkspaceHooks(loadMmConfig(f), dir));
      } catch (e) {
        // A file that cannot be read runs no hook either: nothing to trust.
        if (!(e instanceof MmConfigReadError)) throw e;
      }
    }
    return out;
  },
  adapter(setup) {
    const top = topFile(setup.cwd, setup.mmConfig, process.env);
    const called = setup.handOff;
    const file = called?.file ?? top.file;
    if (!fs.existsSync(file)) {
      if (setup.mmConfig && !called) throw new UsageError(`no mm configuration at ${file} — create it, or name another with --config FILE`);
      return undefined;
    }
    // A file found at its usual place in the project is workspace configuration; so is a called
    // agent's file that a workspace configuration points at, wherever it is.
    const topOwner = configOwner(top.file, { projectDir: setup.cwd, named: top.named });
    const owner = called ? (mmConfigOwners(top.file, topOwner, setup.cwd).get(path.resolve(file)) ?? 'workspace') : topOwner;
    const workspace = owner === 'workspace';
    if (workspace && setup.trust === 'untrusted') {
      setup.warn(
        `${setup.cwd} is not a trusted folder: the mm hooks in ${file} do not run (run: hookline trust ${JSON.stringify(setup.cwd)})`,
      );
      return undefined;
    }
    const loaded = read(file, false);
    if (loaded.errors.length) throw new ConfigRefusal(loaded.errors.map(formatMmConfigError).join('\n'));
    const gate = workspace ? sessionGate(setup, loaded, mmWorkspaceHooks, mmWithout) : { config: loaded, current: () => loaded };
    const config = gate.config;
    // mm's display: `--display-hooks` or `displayHooks: true`; `mm --ask` lists nothing.
    const display = !setup.ask && Boolean(setup.displayHooks || config.raw.displayHooks === true);
    return mmAdapter({ config, current: gate.current, display, env: setup.hookEnv }, setup.ctx);
  },
};
