/**
 * `hookline fire` and `hookline validate` for the other dialects (`--dialect mm|spatialagent`):
 * the event under the dialect's own name, input in its own wire format, its own configuration
 * file (`--config`, or its usual place). Loaded only for those dialects, so `fire` for Gemini
 * hooks does not pay for YAML and RE2.
 */
import path from 'node:path';
import { z } from 'zod';
import { formatProblem, jsonPath } from '../config/problems.js';
import { processFields, readInput, resolveDir, UsageError, warn } from './io.js';
import { CARRIES, MM_EVENTS, isMmEvent } from '../dialects/mm/events.js';
import { MmConfigReadError, defaultMmConfigPath, formatMmConfigError, loadMmConfig, mmBannerSuffix, mmWithout, mmWorkspaceHooks, type MmConfig } from '../dialects/mm/config.js';
import { fireMm } from '../dialects/mm/chain.js';
import type { MmEventData } from '../dialects/mm/input.js';
import { SA_ALL_VARIABLES, SA_EVENTS, isSaEvent } from '../dialects/spatialagent/events.js';
import { SaConfigReadError, defaultSaConfigPath, loadSaConfig, saHookCount, saWithout, saWorkspaceHooks, type SaConfig } from '../dialects/spatialagent/config.js';
import { fireSpatialAgent } from '../dialects/spatialagent/run.js';
import type { Dialect } from './dialect.js';
import { HookEngine } from '../engine.js';
import { sanitizeEnv } from '../run/env.js';
import { heldDialectHooks, type DialectHook } from '../trust/dialects.js';
import { configOwner } from '../trust/owner.js';

export interface DialectFireOptions {
  input?: string;
  cwd?: string;
  config?: string;
  model?: string;
  baseUrl?: string;
}

const print = (value: unknown) => process.stdout.write(JSON.stringify(value, null, 2) + '\n');

/**
 * The environment dialect hooks run with, and the fingerprints of the hooks that may not run: a
 * file found at its usual place inside the project folder is workspace configuration, which
 * runs only in a trusted folder and only once its hooks are trusted (a file named with
 * --config, or $MM_CONFIG, is the user's own choice).
 */
function gate(cwd: string, file: string, explicit: boolean, hooks: DialectHook[]): { env: NodeJS.ProcessEnv; held: ReadonlySet<string> } {
  const engine = new HookEngine({ cwd, watchConfig: false });
  const env = sanitizeEnv(process.env, engine.loaded.redaction);
  if (configOwner(file, { projectDir: cwd, named: explicit }) === 'user') return { env, held: new Set() };
  if (!engine.trustedFolder) warn(`${cwd} is not a trusted folder: the hooks in ${file} do not run. Review it, then run: hookline trust ${JSON.stringify(cwd)}`);
  const { held, warning } = heldDialectHooks(cwd, hooks, engine.folderTrust);
  if (warning) warn(warning);
  return { env, held };
}

// ---- mm ----------------------------------------------------------------------------------

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

/** The configuration named by --config, or mm's usual place, as written (messages show it so). */
function mmConfigPath(opts: { cwd?: string; config?: string }): string {
  return opts.config ?? defaultMmConfigPath(opts.cwd ?? '', process.env);
}

function readMm(file: string): MmConfig {
  try {
    return loadMmConfig(file);
  } catch (e) {
    if (e instanceof MmConfigReadError) throw new UsageError(e.message);
    throw e;
  }
}

async function fireMmCli(eventArg: string, opts: DialectFireOptions): Promise<void> {
  if (!isMmEvent(eventArg)) throw new UsageError(`unknown mm event "${eventArg}"; expected one of ${MM_EVENTS.join(', ')}`);
  const event = eventArg;
  if (opts.model !== undefined) throw new UsageError('--model is for --dialect spatialagent (its prompt hooks)');
  const fields = readInput(opts.input);
  const parsed = MmInputSchema.safeParse(fields);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new UsageError(`input for ${event}: ${jsonPath(first.path as Array<string | number>) || 'value'}: ${first.message}`);
  }
  const known = new Set(['event', 'cwd', 'model', 'asked']);
  for (const k of Object.keys(fields)) {
    if (!(k in MmInputSchema.shape)) warn(`input field "${k}" is not part of mm's input (ignored)`);
    else if (!known.has(k) && !CARRIES[event].has(k)) warn(`input field "${k}" is not part of ${event}'s input (ignored)`);
  }
  const cwd = resolveDir(opts.cwd ?? parsed.data.cwd);
  const config = readMm(mmConfigPath(opts));
  if (config.errors.length) {
    // mm does not start with a configuration error.
    for (const e of config.errors) process.stderr.write(formatMmConfigError(e) + '\n');
    process.exitCode = 1;
    return;
  }
  const { event: _e, ...data } = parsed.data;
  // Found at its usual place, the file belongs to the folder it was found in (which may not be the input's cwd).
  const { env, held } = gate(path.dirname(config.absFile), config.absFile, Boolean(opts.config || process.env.MM_CONFIG), mmWorkspaceHooks(config, path.dirname(config.absFile)));
  const result = await fireMm(mmWithout(config, held), event, { ...(data as MmEventData), cwd }, { cwd, env });
  for (const line of result.failures) process.stderr.write(line + '\n');
  print({
    output: result.output,
    runs: result.runs.map((r) => ({
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
    })),
  });
}

function validateMmCli(opts: { cwd?: string; config?: string; json?: boolean }): number {
  if (opts.cwd) resolveDir(opts.cwd);
  const config = readMm(mmConfigPath(opts));
  const counts = Object.fromEntries(MM_EVENTS.map((e) => [e, config.hooks[e].length]));
  if (opts.json) print({ file: config.file, errors: config.errors.map(formatMmConfigError), hooks: counts });
  else if (config.errors.length) for (const e of config.errors) process.stdout.write(formatMmConfigError(e) + '\n');
  else {
    const n = MM_EVENTS.reduce((s, e) => s + config.hooks[e].length, 0);
    process.stdout.write(`${config.file}: ${n} hook(s)${mmBannerSuffix(config)}\n`);
  }
  return config.errors.length ? 1 : 0;
}

// ---- SpatialAgent ------------------------------------------------------------------------

function readSa(file: string, explicit: boolean): SaConfig {
  let config: SaConfig;
  try {
    config = loadSaConfig(file);
  } catch (e) {
    if (e instanceof SaConfigReadError) throw new UsageError(e.message);
    throw e;
  }
  if (!config.exists && explicit) throw new UsageError(`SpatialAgent settings ${file} not found`);
  return config;
}

async function fireSaCli(eventArg: string, opts: DialectFireOptions): Promise<void> {
  if (!isSaEvent(eventArg)) throw new UsageError(`unknown SpatialAgent event "${eventArg}"; expected one of ${SA_EVENTS.join(', ')}`);
  const event = eventArg;
  const variables = readInput(opts.input);
  for (const k of Object.keys(variables)) {
    if (!SA_ALL_VARIABLES.includes(k.toUpperCase())) warn(`input variable "${k}" is not one SpatialAgent documents (still set)`);
  }
  const cwd = resolveDir(opts.cwd);
  const config = readSa(opts.config ?? defaultSaConfigPath(cwd), opts.config !== undefined);
  for (const p of config.problems) warn(formatProblem(p));
  let model;
  if (opts.model) {
    // Loaded on demand: the AI SDK is only needed for prompt hooks.
    const { createModel, ModelConfigError } = await import('../agent/models/providers.js');
    const { ScriptError } = await import('../agent/models/scripted.js');
    try {
      model = createModel({ spec: opts.model, baseUrl: opts.baseUrl });
    } catch (e) {
      if (e instanceof ModelConfigError || e instanceof ScriptError) throw new UsageError(e.message);
      throw e;
    }
  } else if (config.hooks[event].some((h) => h.type === 'prompt')) {
    warn(`${event} has prompt hooks and no --model: they approve ("No LLM for prompt hook")`);
  }
  const saFile = opts.config ?? defaultSaConfigPath(cwd);
  const { env, held } = gate(cwd, saFile, opts.config !== undefined, saWorkspaceHooks(config, cwd));
  const result = await fireSpatialAgent(saWithout(config, held), event, variables, { cwd, model, env });
  for (const r of result.runs) if (r.error) warn(`${event} hook ${r.path}: ${r.error}`);
  print({
    output: result.output,
    runs: result.runs.map((r) => ({
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
    })),
  });
}

function validateSaCli(opts: { cwd?: string; config?: string; json?: boolean }): number {
  const cwd = resolveDir(opts.cwd);
  const file = opts.config ?? defaultSaConfigPath(cwd);
  const config = readSa(file, true);
  const errors = config.problems.filter((p) => p.severity === 'error').length;
  if (opts.json) print({ file, problems: config.problems, hooks: Object.fromEntries(SA_EVENTS.map((e) => [e, config.hooks[e].length])) });
  else {
    for (const p of config.problems) process.stdout.write(formatProblem(p) + '\n');
    process.stdout.write(`${path.relative(process.cwd(), file) || file}: ${saHookCount(config)} hook(s), ${errors} error(s), ${config.problems.length - errors} warning(s)\n`);
  }
  return errors ? 1 : 0;
}

// ---- entry points -------------------------------------------------------------------------

export async function fireDialect(dialect: Exclude<Dialect, 'gemini' | 'claude'>, event: string, opts: DialectFireOptions): Promise<void> {
  return dialect === 'mm' ? fireMmCli(event, opts) : fireSaCli(event, opts);
}

export function validateDialect(dialect: Exclude<Dialect, 'gemini' | 'claude'>, opts: { cwd?: string; config?: string; json?: boolean }): number {
  return dialect === 'mm' ? validateMmCli(opts) : validateSaCli(opts);
}

