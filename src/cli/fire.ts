import { visibleLines } from '../config/display.js';
import { systemNamed } from '../dialects/registry.js';
import { fireReport, sessionIdsProblem } from '../dialects/system.js';
import { readInput, resolveDir, UsageError, warn, printJson } from './io.js';

export interface FireOptions {
  input?: string;
  cwd?: string;
  sessionId?: string;
  transcriptPath?: string;
  dialect?: string;
  config?: string;
  model?: string;
  baseUrl?: string;
  pluginDir?: string[];
}

/** `hookline fire`: one event through the named hook system; prints `{output, runs}`. */
export async function fire(event: string, opts: FireOptions): Promise<void> {
  // With HOOKLINE_SOCKET a running `hookline serve` fires it from a warm engine (here when unreachable).
  // A fire that needs a model of its own, or plugin folders, is not one the server can make.
  const ownModel = opts.model !== undefined || (opts.dialect === 'claude' && Boolean(process.env.HOOKLINE_MODEL));
  const socket = !ownModel && !opts.pluginDir?.length ? process.env.HOOKLINE_SOCKET : undefined;
  const system = socket ? undefined : await systemNamed(opts.dialect);
  if (opts.pluginDir?.length && system?.name !== 'claude')
    throw new UsageError('--plugin-dir loads Claude Code plugins — add --dialect claude, or drop it');
  const fields = readInput(opts.input);
  const badId = sessionIdsProblem(opts.sessionId, fields);
  if (badId) throw new UsageError(badId);
  const given = opts.cwd ?? (typeof fields.cwd === 'string' && fields.cwd ? fields.cwd : undefined);
  const cwd = resolveDir(given);
  if (socket && (await (await import('../serve/fire.js')).fireThroughServer(socket, event, fields, { ...opts, cwd }))) return;
  const target = system ?? (await systemNamed(opts.dialect));
  // Claude Code prompt and agent hooks are judged by the configured model when no --model is given.
  const modelSpec = opts.model ?? (target.name === 'claude' ? process.env.HOOKLINE_MODEL || undefined : undefined);
  const r = await target.fire(event, fields, {
    cwd,
    cwdFlag: opts.cwd,
    sessionId: opts.sessionId,
    transcriptPath: opts.transcriptPath,
    config: opts.config,
    pluginDirs: opts.pluginDir,
    hasModel: opts.model !== undefined,
    model: modelSpec === undefined ? undefined : async () => (await import('./model.js')).modelFromFlags(modelSpec, opts.baseUrl),
    env: process.env,
  });
  for (const w of r.warnings) warn(w);
  for (const l of r.raw ?? []) process.stderr.write(`${visibleLines(l)}\n`);
  if (r.exitCode) {
    process.exitCode = r.exitCode;
    return;
  }
  printJson(fireReport(r));
}
