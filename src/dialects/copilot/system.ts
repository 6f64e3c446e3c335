/**
 * Copilot CLI's hooks as a hook system: its event names in both casings, its payloads, its files
 * (config.ts). The workspace's files run only in a trusted folder, and only the hooks trusted
 * with `hookline trust`; what is held back is said, with the command that trusts it (Copilot CLI
 * skips an untrusted workspace's hooks without a word).
 */
import fs from 'node:fs';
import path from 'node:path';
import { formatProblem, UsageError } from '../../config/problems.js';
import { loadContext } from '../../engine/index.js';
import { processFields } from '../../run/result.js';
import { heldDialectHooks } from '../../trust/dialects.js';
import { unchanged, type Probe } from '../../trust/scripts.js';
import { withKeptProcesses, validationLines, heldBackOf, unlessUnreadable, type HookSystem } from '../system.js';
import { copilotAdapter } from './agent.js';
import {
  claudeFilesCopilotReads,
  copilotHookCounts,
  copilotPlaces,
  CopilotConfigReadError,
  copilotWithout,
  copilotWorkspaceHooks,
  loadCopilotConfig,
  withoutWorkspace,
  type CopilotConfig,
} from './config.js';
import { COPILOT_EVENTS, PASCAL_NAMES, TOOL_EVENTS, closestCopilotEvent, copilotEventOf } from './events.js';
import { fireCopilot } from './run.js';
import { COPILOT_CLAUDE_NAMES } from './tools.js';
import { isObject } from '../json.js';

function load(projectDir: string, config: string | undefined, env: NodeJS.ProcessEnv): CopilotConfig {
  let loaded: CopilotConfig;
  try {
    loaded = loadCopilotConfig({ projectDir, env, file: config });
  } catch (e) {
    if (e instanceof CopilotConfigReadError) throw new UsageError(e.message);
    throw e;
  }
  if (config && !loaded.files.find((f) => f.file === path.resolve(config))?.exists)
    throw new UsageError(`Copilot CLI hooks ${config} not found — check the path given to --config`);
  return loaded;
}

const ALL_NAMES = [...COPILOT_EVENTS, ...Object.keys(PASCAL_NAMES)];

const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * `hookline fire` input in Copilot's camelCase. A Claude-format input (`tool_name: "Bash"`,
 * `tool_input`, `tool_result: {result_type, text_result_for_llm}`) is read too.
 */
function camelFields(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const toCopilot = Object.fromEntries(Object.entries(COPILOT_CLAUDE_NAMES).map(([c, claude]) => [claude, c]));
  for (const [k, v] of Object.entries(fields)) {
    if (k === 'hook_event_name' || k === 'timestamp') continue;
    if (k === 'tool_name') out.toolName = typeof v === 'string' && Object.hasOwn(toCopilot, v) ? toCopilot[v] : v;
    else if (k === 'tool_input') out.toolArgs = v;
    else if (k === 'tool_result' && isObject(v)) out.toolResult = Object.fromEntries(Object.entries(v).map(([rk, rv]) => [camel(rk), rv]));
    else if (k === 'stop_hook_active') out[k] = v;
    else out[k.includes('_') ? camel(k) : k] = v;
  }
  return out;
}

/** A signature of the files a session reads its hooks from: a change (a new file in a hooks folder too) reloads them. */
function stamp(projectDir: string, env: NodeJS.ProcessEnv, leave: ReadonlySet<string>): string {
  let places: string[];
  try {
    places = copilotPlaces(projectDir, env)
      .map((p) => p.file)
      .filter((f) => !leave.has(f));
  } catch {
    return 'unreadable';
  }
  return places
    .map((f) => {
      try {
        const s = fs.statSync(f);
        return `${f}:${s.ino}:${s.size}:${s.mtimeMs}`;
      } catch {
        return `${f}:-`;
      }
    })
    .join('\n');
}

export const copilotSystem: HookSystem = {
  name: 'copilot',
  describeConfig: '.github/hooks/*.json, .github/copilot/settings.json, .claude/settings.json, ~/.copilot/hooks/*.json',
  events: ALL_NAMES,
  async fire(eventArg, fields, opts) {
    if (opts.hasModel) throw new UsageError('--model is only for prompt hooks (SpatialAgent, Claude Code) — drop it for --dialect copilot');
    const ev = copilotEventOf(eventArg);
    if (!ev) {
      const hint = closestCopilotEvent(eventArg);
      throw new UsageError(
        `unknown Copilot CLI event "${eventArg}"${hint ? ` (did you mean "${hint}"?)` : ''} — use one of ${COPILOT_EVENTS.join(', ')}`,
      );
    }
    const input = camelFields(fields);
    if (TOOL_EVENTS.has(ev.event) && typeof input.toolName !== 'string')
      throw new UsageError(`input for ${eventArg}: "toolName" is required — e.g. {"toolName": "bash", "toolArgs": {"command": "ls"}}`);
    if (opts.sessionId !== undefined) input.sessionId = opts.sessionId;
    if (opts.transcriptPath !== undefined && (ev.event === 'agentStop' || ev.event === 'preCompact'))
      input.transcriptPath = opts.transcriptPath;
    const loaded = load(opts.cwd, opts.config, opts.env);
    const warnings = loaded.problems.map(formatProblem);
    const ctx = loadContext({ cwd: opts.cwd, env: opts.env });
    const workspace = copilotWorkspaceHooks(loaded, opts.cwd);
    const { held, warning } = heldDialectHooks(opts.cwd, workspace, ctx.trust, opts.env);
    if (warning) warnings.push(warning);
    const heldBack = heldBackOf(workspace, held, ctx.trust).filter((h) => copilotEventOf(h.event)?.event === ev.event);
    const result = await withKeptProcesses(opts.warm, 'copilot', opts.cwd, (processes) =>
      fireCopilot(copilotWithout(loaded, held), ev.event, input, {
        projectDir: opts.cwd,
        env: ctx.baseEnv,
        hostEnv: opts.env,
        signal: opts.signal,
        processes,
      }),
    );
    for (const r of result.runs) if (r.error) warnings.push(`${r.event} hook ${r.command} (${r.file} ${r.path}): ${r.error}`);
    for (const w of result.output.warnings) warnings.push(`warning: ${w}`);
    const runs = result.runs.map((r) => ({
      name: r.command,
      type: r.type,
      command: r.command,
      event: r.event,
      source: r.source,
      file: r.file,
      path: r.path,
      ...(r.matcher !== undefined ? { matcher: r.matcher } : {}),
      timeoutSeconds: r.timeoutSeconds,
      ...processFields(r),
      outcome: r.outcome,
      answer: r.answer ?? null,
    }));
    const { errors: _errors, warnings: _warnings, ...output } = result.output;
    return { output, runs, heldBack, warnings };
  },
  validate({ cwd, config, env }) {
    const loaded = load(cwd, config, env);
    const files = loaded.files.filter((f) => f.exists).map((f) => f.file);
    return {
      ...validationLines(loaded.problems, { files: files.length, kind: 'hooks file', hooks: loaded.hooks.length }),
      json: { files, problems: loaded.problems, hooks: copilotHookCounts(loaded) },
    };
  },
  configured({ cwd, env }) {
    // Copilot's own files: a project with only Claude Code's settings is Claude Code's (validate --dialect copilot reads them).
    const claude = new Set(claudeFilesCopilotReads(path.resolve(cwd)));
    try {
      return copilotPlaces(path.resolve(cwd), env).some((p) => !claude.has(p.file) && fs.existsSync(p.file));
    } catch {
      return true;
    }
  },
  workspaceHooks(dir, env) {
    return unlessUnreadable(
      () => loadCopilotConfig({ projectDir: dir, env }),
      CopilotConfigReadError,
      (c) => copilotWorkspaceHooks(c, dir),
    );
  },
  listHooks(dir, env) {
    return unlessUnreadable(
      () => loadCopilotConfig({ projectDir: dir, env }),
      CopilotConfigReadError,
      (loaded) => {
        return loaded.hooks
          .filter((h) => h.source === 'user')
          .map((h) => ({
            event: h.name,
            matcher: h.matcher ?? null,
            name: h.command,
            command: h.type === 'command' ? h.command : null,
            source: 'copilot',
            file: h.file,
            enabled: true,
            trusted: true,
          }));
      },
    );
  },
  borrows(dir) {
    return { from: 'claude', files: claudeFilesCopilotReads(path.resolve(dir)) };
  },
  adapter(setup) {
    const leave = setup.leave ?? new Set<string>();
    let probes: Probe[] = [];
    let seen = '';
    let config: CopilotConfig;
    // Loaded and gated again when a hooks file changed (the agent's own tools may write one) or a file a workspace hook runs did.
    const gatedLoad = (): CopilotConfig => {
      seen = stamp(setup.cwd, process.env, leave);
      let loaded: CopilotConfig;
      try {
        loaded = loadCopilotConfig({ projectDir: setup.cwd, env: process.env, leave });
      } catch (e) {
        setup.warn(`Copilot CLI hooks: ${(e as Error).message}; the workspace's hooks are held back`);
        return withoutWorkspace(config ?? { files: [], hooks: [], problems: [] });
      }
      for (const p of loaded.problems) setup.warn(formatProblem(p));
      const workspace = copilotWorkspaceHooks(loaded, setup.cwd);
      probes = workspace.flatMap((h) => h.probes ?? []);
      const { held, warning } = heldDialectHooks(setup.cwd, workspace, setup.trust);
      if (warning) setup.warn(warning);
      return copilotWithout(loaded, held);
    };
    config = gatedLoad();
    if (!config.hooks.length) return undefined;
    const current = () => {
      if (stamp(setup.cwd, process.env, leave) !== seen || !unchanged(probes)) config = gatedLoad();
      return config;
    };
    return copilotAdapter({ current, env: setup.hookEnv, hostEnv: process.env }, setup.ctx);
  },
};
