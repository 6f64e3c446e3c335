/**
 * `hookline doctor`'s findings: for every configured hook of every hook system, whether it would
 * run for an event and a tool, and if not, why — read from the same configuration, trust gate
 * and matchers the fire path uses, and from the command itself (run/which.ts). Nothing is
 * written and no hook runs; only interpreters are started, with a probe that does nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { displayName, type HookEntry } from '../config/schema.js';
import { disabledOrNone, scopes } from '../config/write.js';
import { isInside, type Env } from '../config/paths.js';
import { msTimeoutHint } from '../engine/advice.js';
import { loadContext, type HookContext } from '../engine/index.js';
import { isEventName } from '../events/names.js';
import { KNOWN_TOOL_NAMES } from '../events/tools.js';
import { AT_RUN_TIME, checkCommand, probeInterpreter } from '../run/which.js';
import { expandCommand } from '../run/expand.js';
import { prewarmProblem } from '../run/prewarm.js';
import { heldDialectHooks, type DialectHook } from '../trust/dialects.js';
import { geminiReview, geminiReviewed } from '../trust/fingerprints.js';
import type { HookReview } from '../trust/review.js';
import type { FolderTrust } from '../trust/folders.js';
import { agentEventOf, MAPS } from './convert/maps.js';
import { changeDescriber, type ReviewedHook } from '../trust/reviewed.js';
import { allSystems } from './registry.js';

/** `runs`; `off`: disabled on purpose; `elsewhere`: not for this event or tool; `broken`: would silently not run. */
export type HookState = 'runs' | 'off' | 'elsewhere' | 'broken';

export interface DoctorHook {
  dialect: string;
  source: string;
  event: string;
  matcher: string | null;
  name: string;
  command: string | null;
  file: string | null;
  state: HookState;
  why: string[];
  /** Its other fingerprinted fields, as every review surface shows them. */
  details: string[];
  /** The user's variables it would read. */
  reads: string[];
  /** Its last traced run, when that failed (added by the command from the traces). */
  lastRun?: { at: string; session: string; failure: string; detail?: string };
}

export interface DoctorReport {
  folder: string;
  trust: FolderTrust;
  /** Configuration problems of every system configured here, as `hookline validate` prints them. */
  config: string[];
  configErrors: number;
  hooks: DoctorHook[];
  /** Each distinct interpreter the hooks start, and whether it starts. */
  spawn: Array<{ interpreter: string; path: string; problem?: string }>;
}

export interface DoctorOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** In the agent's (Gemini) names or a system's own. */
  event?: string;
  /** In the agent's (Gemini) names or a system's own. */
  tool?: string;
}

interface Candidate {
  dialect: string;
  source: string;
  event: string;
  matcher?: string;
  name: string;
  command: string | null;
  file: string | null;
  /** Set when disabled on purpose. */
  off?: string;
  /** Set when the trust gate holds it back. */
  held?: string;
  timeoutHint?: string;
  /** Why it asks for a waiting interpreter and would not get one. */
  prewarmNote?: string;
  vars: Record<string, string | undefined>;
  review?: HookReview;
}

const rel = (dir: string, f: string) => path.relative(dir, f) || f;

function disabledIn(name: string, ctx: HookContext): string | undefined {
  const s = scopes(ctx.projectDir, ctx.env as Env).find((sc) => disabledOrNone(sc.file).includes(name));
  return s?.file;
}

/** Whether `file`, symlinks resolved, is in `folder` (also resolved); true when it cannot be told. */
function insideFolder(file: string, folder: string): boolean {
  try {
    return isInside(fs.realpathSync(folder), fs.realpathSync(file));
  } catch {
    return true;
  }
}

/** Why a held hook does not run, and what to do about it; `change` says what changed (read only when asked). */
function heldReason(projectDir: string, folderUntrusted: boolean, problem: string | undefined, change: () => string | undefined): string {
  const then = `review it, then run: hookline trust ${JSON.stringify(projectDir)}`;
  if (folderUntrusted) return `folder not trusted — ${then}`;
  if (problem) return `cannot be trusted: ${problem}`;
  const c = change();
  return `new or changed since trusted${c ? `: ${c}` : ''} — ${then}`;
}

/** The reviewed-hooks record, read the first time a held hook asks what changed. */
function lazyDescriber(projectDir: string, env: Env): (h: ReviewedHook) => string | undefined {
  let describe: ((h: ReviewedHook) => string | undefined) | undefined;
  return (h) => (describe ??= changeDescriber(projectDir, env))(h);
}

/** The environment a system's hooks get: the sanitised base, and the variables the system sets (the folders known now). */
function runnerVars(ctx: HookContext, dialect: string): Record<string, string | undefined> {
  const known: Record<string, string> = { GEMINI_PROJECT_DIR: ctx.projectDir, CLAUDE_PROJECT_DIR: ctx.projectDir, GEMINI_CWD: ctx.cwd };
  const set = Object.fromEntries((MAPS[dialect]?.vars ?? []).map((v) => [v, known[v] ?? AT_RUN_TIME]));
  return { ...ctx.baseEnv, ...set };
}

function geminiCandidates(ctx: HookContext): Candidate[] {
  const held = new Map(ctx.held.map((h) => [h.entry, h]));
  const vars = runnerVars(ctx, 'gemini');
  const describe = lazyDescriber(ctx.projectDir, ctx.env as Env);
  return ctx.config.entries.map((e: HookEntry) => {
    const name = displayName(e.hook);
    const env = { ...vars, ...(e.hook.type === 'command' ? e.hook.env : {}) };
    const h = held.get(e);
    const disabled = e.enabled ? undefined : disabledIn(name, ctx);
    return {
      dialect: 'gemini',
      source: e.source,
      event: e.event,
      ...(e.matcher !== undefined ? { matcher: e.matcher } : {}),
      name,
      command: e.hook.type === 'command' ? e.hook.command : null,
      file: e.file ?? null,
      ...(e.enabled
        ? {}
        : { off: `disabled by name "${name}"${disabled ? ` in ${disabled} (hooksConfig.disabled)` : ''} — hookline enable ${name}` }),
      ...(h
        ? {
            held: heldReason(ctx.projectDir, h.reason === 'untrusted-folder', h.problem, () => describe(geminiReviewed(e, ctx.projectDir))),
          }
        : {}),
      ...(e.hook.type === 'command' && msTimeoutHint(e.hook.timeout) ? { timeoutHint: msTimeoutHint(e.hook.timeout) } : {}),
      ...prewarmNoteOf(e, ctx, env),
      vars: env,
      review: geminiReview(e),
    };
  });
}

/** A hook that asks for `"prewarm": true` and would not run in a waiting interpreter: why, and that it still runs. */
function prewarmNoteOf(e: HookEntry, ctx: HookContext, env: Record<string, string | undefined>): { prewarmNote?: string } {
  if (e.hook.type !== 'command' || e.hook.persistent || (e.hook.prewarm ?? e.prewarm) !== true) return {};
  const command = expandCommand(e.hook.command, { projectDir: ctx.projectDir, cwd: ctx.cwd, plansDir: 'plans', sessionId: 'session' });
  const problem = prewarmProblem(command, ctx.cwd, env);
  return problem ? { prewarmNote: `asks for "prewarm": true but starts its interpreter at the event (it runs as usual): ${problem}` } : {};
}

async function dialectCandidates(ctx: HookContext, env: NodeJS.ProcessEnv): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const describe = lazyDescriber(ctx.projectDir, env as Env);
  for (const s of await allSystems()) {
    const vars = runnerVars(ctx, s.name);
    const own = s.listHooks?.(ctx.projectDir, env) ?? [];
    for (const h of own)
      out.push({
        dialect: s.name,
        source: h.plugin ? `plugin ${h.plugin}` : 'user',
        event: h.event,
        ...(h.matcher !== null ? { matcher: h.matcher } : {}),
        name: h.name,
        command: h.command,
        file: h.file,
        vars,
        review: { details: h.details ?? [], reads: h.reads ?? [] },
      });
    // Gemini's workspace hooks are the settings entries, read with their state above.
    const ws: DialectHook[] = s.workspaceHooks(ctx.projectDir, env).filter((h) => h.source !== 'gemini' && !h.setting && !h.shared);
    const { held } = heldDialectHooks(ctx.projectDir, ws, ctx.trust, env, { record: false });
    for (const h of ws)
      out.push({
        dialect: s.name,
        source: h.plugin ? `plugin ${h.plugin}` : 'workspace',
        event: h.event,
        ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
        name: h.name,
        command: h.command,
        file: h.file,
        ...(held.has(h.id)
          ? {
              held: heldReason(ctx.projectDir, ctx.trust === 'untrusted', h.problem, () => describe(h)),
            }
          : {}),
        vars,
        review: h.review,
      });
  }
  return out;
}

/** The agent's points an event name stands for: itself in Gemini's names, or where each system that has it fires it. */
function askedPoints(event: string): Set<string> {
  const out = new Set<string>(isEventName(event) ? [event] : []);
  for (const d of Object.keys(MAPS)) {
    const a = agentEventOf(d, event);
    if (a) out.add(a);
  }
  return out;
}

/** Why a hook is not for the asked event or tool (undefined: it is). */
function elsewhere(c: Candidate, opts: DoctorOptions): string | undefined {
  const map = MAPS[c.dialect];
  const agentEvent = isEventName(c.event) && c.dialect === 'gemini' ? c.event : agentEventOf(c.dialect, c.event);
  if (opts.event !== undefined && opts.event !== c.event && !(agentEvent && askedPoints(opts.event).has(agentEvent)))
    return `not for ${opts.event}: it is for ${c.event}${agentEvent && agentEvent !== c.event ? ` (the agent's ${agentEvent})` : ''}`;
  if (opts.tool === undefined || c.matcher === undefined || !map) return undefined;
  if (agentEvent !== 'BeforeTool' && agentEvent !== 'AfterTool') return undefined;
  // The tool in this system's names, from the agent's name or any system's.
  const agentNames = new Set([opts.tool, ...Object.values(MAPS).map((m) => m.toolBack(opts.tool!))]);
  const names = [...new Set([opts.tool, ...[...agentNames].map((t) => map.tool(t))])];
  if (names.some((t) => map.matches(c.event, c.matcher!, t))) return undefined;
  const would = KNOWN_TOOL_NAMES.map((t) => map.tool(t)).filter((t) => map.matches(c.event, c.matcher!, t));
  return `matcher ${JSON.stringify(c.matcher)} does not match ${names.join(' / ')}; it matches ${would.length ? [...new Set(would)].join(', ') : 'no tool the agent has'}`;
}

export async function diagnose(opts: DoctorOptions): Promise<DoctorReport> {
  const ctx = loadContext({ cwd: opts.cwd, env: opts.env });
  const systems = await allSystems();
  const config: string[] = [];
  let configErrors = 0;
  for (const s of systems) {
    if (!s.configured({ cwd: ctx.projectDir, env: opts.env })) continue;
    try {
      const v = s.validate({ cwd: ctx.projectDir, cwdFlag: ctx.projectDir, env: opts.env });
      configErrors += v.errors;
      // A validation ends with its summary, which only matters with errors.
      config.push(...(v.errors ? v.lines : v.lines.slice(0, -1)).map((l) => `${s.name}: ${l}`));
    } catch (e) {
      configErrors++;
      config.push(`${s.name}: ${(e as Error).message}`);
    }
  }
  const candidates = [...geminiCandidates(ctx), ...(await dialectCandidates(ctx, opts.env))];
  const interpreters = new Map<string, string>();
  const hooks: DoctorHook[] = candidates.map((c) => {
    const why: string[] = [];
    const away = elsewhere(c, opts);
    if (c.off) why.push(c.off);
    if (c.held) why.push(c.held);
    if (c.command !== null) {
      const check = checkCommand(c.command, { cwd: ctx.cwd, vars: c.vars });
      why.push(...check.problems);
      // Probing runs the interpreter: only for a hook that may run, and never a program from the project folder.
      if (check.interpreter && !c.held && !insideFolder(check.interpreter.path, ctx.projectDir))
        interpreters.set(check.interpreter.path, check.interpreter.name);
    }
    if (c.timeoutHint) why.push(c.timeoutHint);
    const broken = Boolean(c.held) || why.length > (c.off ? 1 : 0);
    if (c.prewarmNote) why.push(c.prewarmNote);
    // Not a fault of the hook: the system itself fires it; only the reference agent never does.
    if (MAPS[c.dialect] && !MAPS[c.dialect].fired.includes(c.event))
      why.push(
        `${c.event} is never fired by hookline agent (no point of its loop); it runs under ${c.dialect} itself or with hookline fire`,
      );
    const state: HookState = away ? 'elsewhere' : c.off ? 'off' : broken ? 'broken' : 'runs';
    return {
      dialect: c.dialect,
      source: c.source,
      event: c.event,
      matcher: c.matcher ?? null,
      name: c.name,
      command: c.command,
      file: c.file ? rel(ctx.projectDir, c.file) : null,
      state,
      why: away ? [away, ...why] : why,
      details: c.review?.details ?? [],
      reads: c.review?.reads ?? [],
    };
  });
  const spawn = [...interpreters].map(([p, name]) => {
    const problem = probeInterpreter({ name, path: p }, ctx.baseEnv);
    return { interpreter: name, path: p, ...(problem ? { problem } : {}) };
  });
  return { folder: ctx.projectDir, trust: ctx.trust, config, configErrors, hooks, spawn };
}
