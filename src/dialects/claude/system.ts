import path from 'node:path';
/**
 * Claude Code's hooks as a hook system: its event names, its wire input, its settings files
 * (`~/.claude/settings.json`, `.claude/settings.json`, `.claude/settings.local.json`, or
 * `--config FILE` instead of the project's two). The project's files run only in a trusted
 * folder, and only the hooks trusted with `hookline trust`.
 */
import { formatProblem, jsonPath, UsageError } from '../../config/problems.js';
import { loadContext } from '../../engine/index.js';
import { heldDialectHooks } from '../../trust/dialects.js';
import { withKeptProcesses, validationLines, heldBackOf, unlessUnreadable, type HeldBack, type HookSystem } from '../system.js';
import { claudeAdapter } from './agent.js';
import {
  ClaudeConfigReadError,
  claudeHookCounts,
  claudeHookText,
  claudeSessionEnv,
  claudeWithout,
  claudeHookKey,
  claudeWorkspaceHooks,
  loadClaudeConfig,
  withoutProjectHooks,
  type ClaudeConfig,
} from './config.js';
import {
  CLAUDE_EVENTS,
  CLAUDE_EVENT_FIELDS,
  ClaudeBaseInput,
  TOOL_EVENTS,
  UNSUPPORTED_CLAUDE_EVENTS,
  closestClaudeEvent,
  isClaudeEvent,
} from './events.js';
import { ENV_FILE_EVENTS, fireClaude } from './run.js';
import { freshEnvFile, sourcedEnv } from './env-file.js';
import fs from 'node:fs';
import { processFields } from '../../run/result.js';
import { startFailure } from '../../engine/advice.js';
import { claudeHints } from './hints.js';
import { unchanged, type Probe } from '../../trust/scripts.js';

function load(
  projectDir: string,
  config: string | undefined,
  env: NodeJS.ProcessEnv,
  pluginDirs?: string[],
  leave?: ReadonlySet<string>,
): ClaudeConfig {
  let loaded: ClaudeConfig;
  try {
    loaded = loadClaudeConfig({ projectDir, env, files: config ? [config] : undefined, pluginDirs, leave });
  } catch (e) {
    if (e instanceof ClaudeConfigReadError) throw new UsageError(e.message);
    throw e;
  }
  if (config && !loaded.files.find((f) => f.file === path.resolve(config))?.exists)
    throw new UsageError(`Claude Code settings ${config} not found — check the path given to --config`);
  return loaded;
}

function claudeEvent(name: string) {
  if (isClaudeEvent(name)) return name;
  if (UNSUPPORTED_CLAUDE_EVENTS.includes(name))
    throw new UsageError(`Claude Code's ${name} event is not supported by Hookline — use one of ${CLAUDE_EVENTS.join(', ')}`);
  const hint = closestClaudeEvent(name);
  throw new UsageError(
    `unknown Claude Code event "${name}"${hint ? ` (did you mean "${hint}"?)` : ''} — use one of ${CLAUDE_EVENTS.join(', ')}`,
  );
}

/** The configuration without the workspace hooks that may not run here, and why. */
function gated(
  config: ClaudeConfig,
  projectDir: string,
  env: NodeJS.ProcessEnv,
): { config: ClaudeConfig; warnings: string[]; hookEnv: Record<string, string>; sessionEnv: Record<string, string>; heldBack: HeldBack[] } {
  const ctx = loadContext({ cwd: projectDir, env });
  const workspace = claudeWorkspaceHooks(config, projectDir);
  const { held, warning } = heldDialectHooks(projectDir, workspace, ctx.trust, env);
  return {
    config: claudeWithout(config, held),
    warnings: warning ? [warning] : [],
    hookEnv: { ...ctx.baseEnv, ...claudeSessionEnv(config, ctx.trust, held) },
    sessionEnv: claudeSessionEnv(config, ctx.trust, held),
    heldBack: heldBackOf(workspace, held, ctx.trust),
  };
}

export const claudeSystem: HookSystem = {
  name: 'claude',
  describeConfig: '.claude/settings.json, .claude/settings.local.json, ~/.claude/settings.json, enabled plugins',
  events: CLAUDE_EVENTS,
  async fire(eventArg, fields, opts) {
    const event = claudeEvent(eventArg);
    const schema = ClaudeBaseInput.partial().extend(CLAUDE_EVENT_FIELDS[event].partial().shape);
    const parsed = schema.safeParse(fields);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new UsageError(`input for ${event}: ${jsonPath(first.path as Array<string | number>) || 'value'}: ${first.message}`);
    }
    if (TOOL_EVENTS.has(event) && typeof fields.tool_name !== 'string')
      throw new UsageError(`input for ${event}: "tool_name" is required — e.g. {"tool_name": "Bash", "tool_input": {"command": "ls"}}`);
    const warnings: string[] = [];
    const known = new Set([...Object.keys(ClaudeBaseInput.shape), ...Object.keys(CLAUDE_EVENT_FIELDS[event].shape)]);
    for (const k of Object.keys(fields))
      if (!known.has(k)) warnings.push(`input field "${k}" is not part of ${event}'s documented input (passed to the hooks as given)`);
    if (typeof fields.hook_event_name === 'string' && fields.hook_event_name !== event)
      warnings.push(`input hook_event_name "${fields.hook_event_name}" replaced by "${event}"`);
    const projectDir = opts.cwd;
    const loaded = load(projectDir, opts.config, opts.env, opts.pluginDirs, opts.leave);
    warnings.push(...loaded.problems.map(formatProblem));
    const configErrors = loaded.problems.filter((p) => p.severity === 'error').map(formatProblem);
    const g = gated(loaded, projectDir, opts.env);
    warnings.push(...g.warnings);
    const input = {
      ...fields,
      ...(opts.sessionId !== undefined ? { session_id: opts.sessionId } : {}),
      ...(opts.transcriptPath !== undefined ? { transcript_path: opts.transcriptPath } : {}),
    };
    const judged = g.config.hooks.some((h) => h.event === event && (h.type === 'prompt' || h.type === 'agent'));
    const model = judged ? await opts.model?.() : undefined;
    // SessionStart hooks get a fresh `$CLAUDE_ENV_FILE`; what they export there is sourced as the agent does, then the file goes.
    const fresh = ENV_FILE_EVENTS.has(event) ? freshEnvFile('sessionstart.sh') : undefined;
    const envFile = fresh?.file;
    let result: Awaited<ReturnType<typeof fireClaude>>;
    let exported: Record<string, string> | undefined;
    // Claude Code always names a transcript; an event with none gets an empty one while its hooks run.
    let transcript: { dir: string; file: string } | undefined;
    try {
      result = await withKeptProcesses(opts.warm, 'claude', projectDir, (processes) =>
        fireClaude(g.config, event, input, {
          beforeRun: (read) => {
            if (read.transcript_path !== '') return;
            transcript = freshEnvFile('transcript.jsonl');
            read.transcript_path = transcript.file;
          },
          projectDir,
          env: g.hookEnv,
          envFile,
          hostEnv: { ...opts.env, ...g.sessionEnv },
          processes,
          model,
          noModel:
            'needs a model to judge it: give one with --model or HOOKLINE_MODEL (e.g. anthropic:claude-haiku-4-5); the agent uses its own',
          signal: opts.signal,
        }),
      );
      if (envFile) {
        const sourced = await sourcedEnv(envFile, g.hookEnv, projectDir);
        if (sourced.error) warnings.push(`${event} hooks' CLAUDE_ENV_FILE: ${sourced.error}`);
        exported = sourced.env;
      }
    } finally {
      if (fresh) fs.rmSync(fresh.dir, { recursive: true, force: true });
      if (transcript) fs.rmSync(transcript.dir, { recursive: true, force: true });
    }
    for (const r of result.runs) {
      if (r.error) warnings.push(`${event} hook ${r.command} (${r.file} ${r.path}): ${r.error}`);
      const start = startFailure(r.command, r.exitCode, r.stderr, '$CLAUDE_PROJECT_DIR');
      if (start) warnings.push(`${event} hook ${r.command} (${r.file} ${r.path}): ${start}`);
      if (r.warning) warnings.push(`warning: ${event} hook ${r.command} (${r.file} ${r.path}): ${r.warning}`);
    }
    for (const w of result.warnings) warnings.push(`warning: ${w}`);
    const runs = result.runs.map((r) => ({
      name: r.command,
      type: r.type,
      command: r.command,
      source: r.source,
      ...(r.plugin ? { plugin: r.plugin } : {}),
      file: r.file,
      path: r.path,
      ...(r.matcher !== undefined ? { matcher: r.matcher } : {}),
      timeoutSeconds: r.timeoutSeconds,
      ...processFields(r),
      outcome: r.outcome,
      ...(r.background ? { background: true } : {}),
      response: r.response ?? null,
      ...(r.text !== undefined ? { text: r.text } : {}),
    }));
    // Each run's block and context are in `runs`; the output is the event's decision.
    const { blocks: _blocks, contexts: _contexts, ...output } = result.output;
    return {
      output,
      runs,
      heldBack: g.heldBack.filter((h) => h.event === event),
      warnings,
      ...(configErrors.length ? { configErrors } : {}),
      ...(exported ? { env: exported } : {}),
    };
  },
  validate({ cwd, config, env, pluginDirs }) {
    const loaded = load(cwd, config, env, pluginDirs);
    const files = loaded.files.filter((f) => f.exists).map((f) => f.file);
    const problems = [...loaded.problems, ...claudeHints(loaded.hooks)];
    return {
      ...validationLines(problems, { files: files.length, kind: 'settings file', hooks: loaded.hooks.length }),
      json: { files, problems, hooks: claudeHookCounts(loaded) },
    };
  },
  configured({ cwd, env }) {
    return loadClaudeConfig({ projectDir: cwd, env }).files.some((f) => f.exists);
  },
  workspaceHooks(dir, env) {
    return unlessUnreadable(
      () => loadClaudeConfig({ projectDir: dir, env }),
      ClaudeConfigReadError,
      (c) => claudeWorkspaceHooks(c, dir),
    );
  },
  listHooks(dir, env) {
    return unlessUnreadable(
      () => loadClaudeConfig({ projectDir: dir, env }),
      ClaudeConfigReadError,
      (loaded) => {
        return withoutProjectHooks(loaded).hooks.map((h) => ({
          event: h.event,
          matcher: h.matcher ?? null,
          name: claudeHookText(h),
          command: h.type === 'command' ? h.command : null,
          source: 'claude',
          file: h.file,
          enabled: true,
          trusted: true,
          ...(h.plugin ? { plugin: h.plugin.id } : {}),
          ...claudeHookKey(h, dir).review,
        }));
      },
    );
  },
  adapter(setup) {
    // The project files the workspace hooks run, as last gated: an edit during the session (by the
    // agent's own tools too) is gated again before the next event, as a settings change is.
    let probes: Probe[] = [];
    const gatedLoad = () => {
      const loaded = loadClaudeConfig({ projectDir: setup.cwd, env: process.env, pluginDirs: setup.pluginDirs, leave: setup.leave });
      for (const p of loaded.problems) setup.warn(formatProblem(p));
      const workspace = claudeWorkspaceHooks(loaded, setup.cwd);
      probes = workspace.flatMap((h) => h.probes ?? []);
      const { held, warning } = heldDialectHooks(setup.cwd, workspace, setup.trust);
      if (warning) setup.warn(warning);
      const sessionEnv = claudeSessionEnv(loaded, setup.trust, held);
      return {
        config: claudeWithout(loaded, held),
        env: { ...setup.hookEnv, ...sessionEnv },
        sessionEnv,
        hostEnv: { ...process.env, ...sessionEnv },
      };
    };
    const first = gatedLoad();
    if (!first.config.hooks.length && !Object.keys(first.sessionEnv).length) return undefined;
    // A settings file changed during the session is read again through the same gate.
    return claudeAdapter({ ...first, model: setup.model, reload: gatedLoad, stale: () => !unchanged(probes) }, setup.ctx);
  },
};
