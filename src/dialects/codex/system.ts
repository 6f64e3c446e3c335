/**
 * Codex's hooks as a hook system. Two gates decide what runs, and both must agree:
 *
 * - Codex's own, as Codex applies it: a hook that is not managed runs only with a matching
 *   `trusted_hash` record in the user's config.toml, and a project's `.codex/` only when the user
 *   trusts the project there. Codex says nothing when it skips a hook; Hookline names each one
 *   and the command that reviews it (`hookline trust`, which writes Codex's records).
 * - Hookline's, on top, for the project's hooks: an untrusted folder runs none of them, and a new
 *   or changed one (its command, or a project script it runs) waits for `hookline trust`.
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { formatProblem, UsageError } from '../../config/problems.js';
import { visible } from '../../config/display.js';
import { loadContext } from '../../engine/index.js';
import { processFields } from '../../run/result.js';
import { startFailure } from '../../engine/advice.js';
import { heldDialectHooks, type DialectHook } from '../../trust/dialects.js';
import { fingerprintHook } from '../../trust/keys.js';
import { filesStamp } from '../../trust/scripts.js';
import { withKeptProcesses, validationLines, heldBackOf, unlessUnreadable, type HeldBack, type HookSystem } from '../system.js';
import { fireClaude } from '../claude/run.js';
import { codexAdapter } from './agent.js';
import {
  CODEX_RUNNER,
  CodexConfigReadError,
  codexHookId,
  codexHookVariables,
  codexProjectFiles,
  codexRunnable,
  codexRuns,
  loadCodexConfig,
  type CodexConfig,
  type CodexHook,
} from './config.js';
import {
  CODEX_CATALOG,
  CODEX_EVENTS,
  closestCodexEvent,
  isCodexEvent,
  NO_PERMISSION_MODE,
  NO_TURN_EVENTS,
  type CodexEvent,
} from './events.js';
import { codexTool } from './tools.js';
import { writeProjectTrust, writeTrustRecords } from './trust.js';

function load(projectDir: string, file: string | undefined, env: NodeJS.ProcessEnv): CodexConfig {
  let loaded: CodexConfig;
  try {
    loaded = loadCodexConfig({ projectDir, env, file });
  } catch (e) {
    if (e instanceof CodexConfigReadError) throw new UsageError(e.message);
    throw e;
  }
  if (file && !loaded.files.find((f) => f.file === path.resolve(file))?.exists)
    throw new UsageError(`Codex hooks file ${file} not found — check the path given to --config`);
  return loaded;
}

function codexEvent(name: string): CodexEvent {
  if (isCodexEvent(name)) return name;
  const hint = closestCodexEvent(name);
  throw new UsageError(`unknown Codex event "${name}"${hint ? ` (did you mean "${hint}"?)` : ''} — use one of ${CODEX_EVENTS.join(', ')}`);
}

const where = (h: CodexHook, dir: string) => {
  if (h.codex.plugin) return `plugin ${h.codex.plugin.id}`;
  const rel = path.relative(dir, h.file);
  return rel && !rel.startsWith('..') ? rel : h.file;
};

/** Whether Hookline's own gate reviews a hook too: the project's, and a plugin only the project turns on. */
const isWorkspace = (h: CodexHook) => h.codex.layer === 'project' || h.codex.plugin?.workspace === true;

/** `~/.codex/hooks.json (PreToolUse Bash): ./guard.sh`, `plugin lint@tools (Stop): …`. */
export function describeCodexHook(h: CodexHook, dir: string): string {
  return visible(`${where(h, dir)} (${h.codex.event}${h.matcher ? ` ${h.matcher}` : ''}): ${h.command}`);
}

/** The project's hooks as trust and `hookline list` see them: fingerprinted with the project files they run. */
export function codexWorkspaceHooks(config: CodexConfig, projectDir: string): DialectHook[] {
  return config.hooks.filter(isWorkspace).map((h) => ({
    source: 'codex' as const,
    event: h.codex.event,
    ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
    name: h.command,
    command: h.command,
    file: h.file,
    path: h.path,
    id: codexHookId(h),
    ...(h.codex.plugin ? { plugin: h.codex.plugin.id, label: describeCodexHook(h, projectDir) } : {}),
    ...fingerprintHook(
      'codex',
      {
        event: h.codex.event,
        matcher: h.matcher ?? null,
        handler: h.handler,
        // A plugin's hook is the plugin's: its contents, wherever it is installed.
        ...(h.codex.plugin ? { plugin: h.codex.plugin.id, content: h.codex.contentHash } : { file: path.relative(projectDir, h.file) }),
      },
      h.command,
      { projectDir, vars: codexHookVariables(h) },
    ),
  }));
}

/** The hooks Codex's own records keep from running (enabled ones only: `enabled = false` is the user's choice). */
function heldByCodex(config: CodexConfig): CodexHook[] {
  return config.hooks.filter((h) => h.codex.loaded && h.codex.enabled && !codexRuns(h));
}

/** What Codex's gate holds back, in lines for stderr: each hook, why, and the command that reviews it. */
export function codexTrustWarnings(config: CodexConfig, dir: string): string[] {
  const out: string[] = [];
  const held = heldByCodex(config);
  if (held.length)
    out.push(
      `Codex hook(s) without a trust record in ${visible(config.userConfig)} do not run, as in Codex (review them, then run: hookline trust ${JSON.stringify(dir)}):\n${held
        .map((h) => `  - ${describeCodexHook(h, dir)}${h.codex.trust === 'modified' ? ': changed since it was trusted' : ''}`)
        .join('\n')}`,
    );
  const unloaded = config.project.trusted ? [] : codexProjectFiles(config);
  if (unloaded.length)
    out.push(
      `Codex does not load ${unloaded.map((f) => visible(path.relative(dir, f) || f)).join(', ')}: the project is not trusted in ${visible(config.userConfig)} (trust it in Codex, or add [projects.${JSON.stringify(config.project.root)}] trust_level = "trusted")`,
    );
  return out;
}

/** Both gates: the configuration that may run here, what was held and why. */
function gated(config: CodexConfig, projectDir: string, trust: ReturnType<typeof loadContext>['trust'], env: NodeJS.ProcessEnv) {
  const workspace = codexWorkspaceHooks(config, projectDir).filter((w) =>
    config.hooks.some((h) => codexHookId(h) === w.id && h.codex.loaded),
  );
  const { held, warning } = heldDialectHooks(projectDir, workspace, trust, env);
  const warnings = [...codexTrustWarnings(config, projectDir), ...(warning ? [warning] : [])];
  const heldBack: HeldBack[] = [
    ...heldByCodex(config).map((h) => ({
      name: h.command,
      event: h.codex.event,
      source: 'codex',
      file: h.file,
      reason: 'untrusted-hook' as const,
    })),
    ...heldBackOf(workspace, held, trust),
  ];
  return { config: codexRunnable(config, held), warnings, heldBack, workspace };
}

/** What the hooks' environment has besides the sanitised one: `CODEX_HOME`, as Codex sets it. */
const codexEnv = (config: CodexConfig) => ({ CODEX_HOME: config.home });

export const codexSystem: HookSystem = {
  name: 'codex',
  describeConfig: '~/.codex/hooks.json, ~/.codex/config.toml [hooks], .codex/ of a trusted project, /etc/codex, enabled plugins',
  events: CODEX_EVENTS,
  async fire(eventArg, fields, opts) {
    const event = codexEvent(eventArg);
    if ((event === 'PreToolUse' || event === 'PostToolUse' || event === 'PermissionRequest') && typeof fields.tool_name !== 'string')
      throw new UsageError(`input for ${event}: "tool_name" is required — e.g. {"tool_name": "Bash", "tool_input": {"command": "ls"}}`);
    if (
      fields.tool_input !== undefined &&
      (typeof fields.tool_input !== 'object' || fields.tool_input === null || Array.isArray(fields.tool_input))
    )
      throw new UsageError(`input for ${event}: tool_input: must be an object`);
    const warnings: string[] = [];
    if (typeof fields.hook_event_name === 'string' && fields.hook_event_name !== event)
      warnings.push(`input hook_event_name "${fields.hook_event_name}" replaced by "${event}"`);
    const loaded = load(opts.cwd, opts.config, opts.env);
    warnings.push(...loaded.problems.map(formatProblem));
    const ctx = loadContext({ cwd: opts.cwd, env: opts.env });
    const g = gated(loaded, opts.cwd, ctx.trust, opts.env);
    warnings.push(...g.warnings);
    if (!CODEX_CATALOG[event].fired) warnings.push(`Codex's ${event} event has no moment in hookline agent; fired here as asked`);
    const input: Record<string, unknown> = {
      session_id: opts.sessionId ?? randomUUID(),
      ...(NO_TURN_EVENTS.has(event) ? {} : { turn_id: randomUUID() }),
      transcript_path: opts.transcriptPath ?? null,
      cwd: opts.cwd,
      model: '',
      ...(NO_PERMISSION_MODE.has(event) ? {} : { permission_mode: 'default' }),
      ...fields,
      ...(opts.sessionId !== undefined ? { session_id: opts.sessionId } : {}),
      ...(opts.transcriptPath !== undefined ? { transcript_path: opts.transcriptPath } : {}),
    };
    const tool = typeof input.tool_name === 'string' ? input.tool_name : undefined;
    const own = { ...g.config, hooks: g.config.hooks.filter((h) => (h as CodexHook).codex?.event === event) };
    const result = await withKeptProcesses(opts.warm, 'codex', opts.cwd, (processes) =>
      fireClaude(own, CODEX_CATALOG[event].claude, input, {
        projectDir: opts.cwd,
        env: { ...ctx.baseEnv, ...codexEnv(loaded) },
        ...CODEX_RUNNER,
        // A hook matched as apply_patch is matched as Write and Edit too.
        ...(tool === 'apply_patch' ? { aliases: codexTool('write_file').aliases } : {}),
        wireEvent: event,
        signal: opts.signal,
        processes,
      }),
    );
    for (const r of result.runs) {
      if (r.error) warnings.push(`${event} hook ${r.command} (${r.file} ${r.path}): ${r.error}`);
      const start = startFailure(r.command, r.exitCode, r.stderr);
      if (start) warnings.push(`${event} hook ${r.command} (${r.file} ${r.path}): ${start}`);
    }
    for (const w of result.warnings) warnings.push(`warning: ${w}`);
    const runs = result.runs.map((r) => ({
      name: r.command,
      command: r.command,
      source: r.source,
      file: r.file,
      path: r.path,
      ...(r.matcher !== undefined ? { matcher: r.matcher } : {}),
      timeoutSeconds: r.timeoutSeconds,
      ...processFields(r),
      outcome: r.outcome,
      ...(r.background ? { background: true } : {}),
      response: r.response ?? null,
    }));
    const { blocks: _blocks, contexts, ...output } = result.output;
    return {
      output: { ...output, ...(contexts.length ? { contexts: contexts.map((c) => c.text) } : {}) },
      runs,
      heldBack: g.heldBack.filter((h) => h.event === event),
      warnings,
    };
  },
  validate({ cwd, config, env }) {
    const loaded = load(cwd, config, env);
    const problems = [...loaded.problems];
    for (const h of loaded.hooks)
      if (!CODEX_CATALOG[h.codex.event].fired)
        problems.push({
          file: h.file,
          path: h.path,
          message: `${h.codex.event} has no moment in hookline agent: this hook never runs there`,
          severity: 'warning',
        });
    const files = loaded.files.filter((f) => f.exists).map((f) => f.file);
    const trust = codexTrustWarnings(loaded, cwd);
    const counts: Record<string, number> = {};
    for (const h of loaded.hooks) counts[h.codex.event] = (counts[h.codex.event] ?? 0) + 1;
    return {
      ...validationLines(problems, { files: files.length, kind: 'Codex file', hooks: loaded.hooks.length }, trust),
      json: {
        files,
        problems,
        hooks: counts,
        trust: loaded.hooks.map((h) => ({
          key: h.codex.key,
          hash: h.codex.hash,
          ...(h.codex.contentHash ? { contentHash: h.codex.contentHash } : {}),
          trust: h.codex.trust,
          enabled: h.codex.enabled,
        })),
      },
    };
  },
  configured({ cwd, env }) {
    try {
      const loaded = loadCodexConfig({ projectDir: cwd, env });
      return loaded.hooks.length > 0 || loaded.files.some((f) => f.exists && f.file.endsWith('hooks.json'));
    } catch {
      // A file that cannot be read is for validate to report.
      return true;
    }
  },
  workspaceHooks(dir, env) {
    return unlessUnreadable(
      () => loadCodexConfig({ projectDir: dir, env }),
      CodexConfigReadError,
      (c) => codexWorkspaceHooks(c, dir),
    );
  },
  listHooks(dir, env) {
    return unlessUnreadable(
      () => loadCodexConfig({ projectDir: dir, env }),
      CodexConfigReadError,
      (loaded) => {
        return loaded.hooks
          .filter((h) => !isWorkspace(h))
          .map((h) => ({
            event: h.codex.event,
            matcher: h.matcher ?? null,
            name: h.command,
            command: h.command,
            source: 'codex',
            file: h.file,
            enabled: h.codex.enabled,
            trusted: codexRuns(h),
            ...(h.codex.plugin ? { plugin: h.codex.plugin.id } : {}),
          }));
      },
    );
  },
  ownTrust: {
    pending(dir, env) {
      const loaded = load(dir, undefined, env);
      return loaded.hooks.filter((h) => h.codex.enabled && !codexRuns(h) && h.codex.loaded).map((h) => describeCodexHook(h, dir));
    },
    trust(dir, env, opts) {
      let loaded = load(dir, undefined, env);
      if (opts?.project && !loaded.project.trusted) {
        writeProjectTrust(loaded.userConfig, loaded.project.root);
        loaded = load(dir, undefined, env);
      }
      const todo = loaded.hooks.filter(
        (h) => h.codex.enabled && h.codex.loaded && (h.codex.trust === 'untrusted' || h.codex.trust === 'modified'),
      );
      writeTrustRecords(
        loaded.userConfig,
        todo.map((h) => ({ key: h.codex.key, hash: h.codex.hash, ...(h.codex.contentHash ? { contentHash: h.codex.contentHash } : {}) })),
      );
      return todo.map((h) => describeCodexHook(h, dir));
    },
  },
  adapter(setup) {
    let scripts = { files: [] as string[], stamp: '' };
    const gatedLoad = (warn: boolean) => {
      const loaded = loadCodexConfig({ projectDir: setup.cwd, env: process.env });
      if (warn) for (const p of loaded.problems) setup.warn(formatProblem(p));
      const g = gated(loaded, setup.cwd, setup.trust, process.env);
      if (warn) for (const w of g.warnings) setup.warn(w);
      const files = g.workspace.flatMap((h) => h.files);
      scripts = { files, stamp: filesStamp(files) };
      return { config: g.config, hooks: loaded.hooks, home: loaded.home };
    };
    const first = gatedLoad(true);
    if (!first.config.hooks.length) return undefined;
    return codexAdapter(
      {
        config: first.config,
        hooks: first.hooks,
        env: { ...setup.hookEnv, CODEX_HOME: first.home },
        reload: () => gatedLoad(true),
        stale: () => filesStamp(scripts.files) !== scripts.stamp,
      },
      setup.ctx,
    );
  },
};
