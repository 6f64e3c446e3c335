/**
 * `hookline fire --dialect claude` and `hookline validate --dialect claude`: Claude Code's event
 * names, its wire input, its settings files (`~/.claude/settings.json`,
 * `.claude/settings.json`, `.claude/settings.local.json`, or `--config FILE` instead of the
 * project's two). The project's files run only in a trusted folder, and only the hooks trusted
 * with `hookline trust`; a file named with --config is the user's own choice.
 */
import path from 'node:path';
import { formatProblem, jsonPath } from '../config/problems.js';
import { HookEngine } from '../engine.js';
import { sanitizeEnv } from '../run/env.js';
import { heldDialectHooks } from '../trust/dialects.js';
import { processFields, readInput, resolveDir, UsageError, warn } from './io.js';
import {
  CLAUDE_EVENTS,
  CLAUDE_EVENT_FIELDS,
  ClaudeBaseInput,
  ClaudeConfigReadError,
  TOOL_EVENTS,
  UNSUPPORTED_CLAUDE_EVENTS,
  claudeHookCounts,
  claudeWithout,
  claudeWorkspaceHooks,
  closestClaudeEvent,
  fireClaude,
  isClaudeEvent,
  loadClaudeConfig,
  withoutProjectHooks,
  type ClaudeConfig,
} from '../dialects/claude/index.js';

export interface ClaudeCliOptions {
  input?: string;
  cwd?: string;
  sessionId?: string;
  transcriptPath?: string;
  config?: string;
  model?: string;
  json?: boolean;
}

const print = (value: unknown) => process.stdout.write(JSON.stringify(value, null, 2) + '\n');

function load(projectDir: string, config: string | undefined): ClaudeConfig {
  let loaded: ClaudeConfig;
  try {
    loaded = loadClaudeConfig({ projectDir, env: process.env, files: config ? [config] : undefined });
  } catch (e) {
    if (e instanceof ClaudeConfigReadError) throw new UsageError(e.message);
    throw e;
  }
  if (config && !loaded.files.find((f) => f.source === 'explicit')?.exists) throw new UsageError(`Claude Code settings ${config} not found`);
  return loaded;
}

function claudeEvent(name: string) {
  if (isClaudeEvent(name)) return name;
  if (UNSUPPORTED_CLAUDE_EVENTS.includes(name)) throw new UsageError(`Claude Code's ${name} event is not supported by Hookline; supported: ${CLAUDE_EVENTS.join(', ')}`);
  const hint = closestClaudeEvent(name);
  throw new UsageError(`unknown Claude Code event "${name}"${hint ? ` (did you mean "${hint}"?)` : ''}; expected one of ${CLAUDE_EVENTS.join(', ')}`);
}

export async function fireClaudeCli(eventArg: string, opts: ClaudeCliOptions): Promise<void> {
  if (opts.model !== undefined) throw new UsageError('--model is for --dialect spatialagent (its prompt hooks)');
  const event = claudeEvent(eventArg);
  const fields = readInput(opts.input);
  const schema = ClaudeBaseInput.partial().extend(CLAUDE_EVENT_FIELDS[event].partial().shape);
  const parsed = schema.safeParse(fields);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new UsageError(`input for ${event}: ${jsonPath(first.path as Array<string | number>) || 'value'}: ${first.message}`);
  }
  if (TOOL_EVENTS.has(event) && typeof fields.tool_name !== 'string') throw new UsageError(`input for ${event}: "tool_name" is required (e.g. {"tool_name": "Bash", "tool_input": {"command": "ls"}})`);
  const known = new Set([...Object.keys(ClaudeBaseInput.shape), ...Object.keys(CLAUDE_EVENT_FIELDS[event].shape)]);
  for (const k of Object.keys(fields)) if (!known.has(k)) warn(`input field "${k}" is not part of ${event}'s documented input (passed to the hooks as given)`);
  if (typeof fields.hook_event_name === 'string' && fields.hook_event_name !== event) warn(`input hook_event_name "${fields.hook_event_name}" replaced by "${event}"`);

  const projectDir = resolveDir(opts.cwd ?? (typeof fields.cwd === 'string' && fields.cwd ? fields.cwd : undefined));
  let config = load(projectDir, opts.config);
  for (const p of config.problems) warn(formatProblem(p));
  const engine = new HookEngine({ cwd: projectDir, watchConfig: false });
  const env = sanitizeEnv(process.env, engine.loaded.redaction);
  const workspace = claudeWorkspaceHooks(config, projectDir);
  if (workspace.length && !engine.trustedFolder) {
    const files = [...new Set(workspace.map((h) => path.relative(projectDir, h.file)))].join(', ');
    warn(`${projectDir} is not a trusted folder: the hooks in ${files} do not run. Review them, then run: hookline trust ${JSON.stringify(projectDir)}`);
    config = withoutProjectHooks(config);
  } else {
    const { held, warning } = heldDialectHooks(projectDir, workspace, engine.folderTrust);
    if (warning) warn(warning);
    config = claudeWithout(config, held);
  }
  const input = {
    ...fields,
    ...(opts.sessionId !== undefined ? { session_id: opts.sessionId } : {}),
    ...(opts.transcriptPath !== undefined ? { transcript_path: opts.transcriptPath } : {}),
  };
  const result = await fireClaude(config, event, input, { projectDir, env });
  for (const r of result.runs) if (r.error) warn(`${event} hook ${r.command} (${r.file} ${r.path}): ${r.error}`);
  for (const w of result.warnings) warn(`warning: ${w}`);
  print({
    output: result.output,
    runs: result.runs.map((r) => ({
      name: r.command,
      command: r.command,
      source: r.source,
      file: r.file,
      path: r.path,
      ...(r.matcher !== undefined ? { matcher: r.matcher } : {}),
      timeoutSeconds: r.timeoutSeconds,
      ...processFields(r),
      outcome: r.outcome,
      response: r.response ?? null,
      ...(r.text !== undefined ? { text: r.text } : {}),
    })),
  });
}

export function validateClaudeCli(opts: ClaudeCliOptions): number {
  if (opts.model !== undefined) throw new UsageError('--model is for --dialect spatialagent (its prompt hooks)');
  const projectDir = resolveDir(opts.cwd);
  const config = load(projectDir, opts.config);
  const errors = config.problems.filter((p) => p.severity === 'error').length;
  const files = config.files.filter((f) => f.exists).map((f) => f.file);
  if (opts.json) print({ files, problems: config.problems, hooks: claudeHookCounts(config) });
  else {
    for (const p of config.problems) process.stdout.write(formatProblem(p) + '\n');
    process.stdout.write(`${files.length} settings file(s), ${config.hooks.length} hook(s), ${errors} error(s), ${config.problems.length - errors} warning(s)\n`);
  }
  return errors ? 1 : 0;
}
