import { systemNamed } from '../dialects/registry.js';
import { readInput, resolveDir, UsageError, warn } from './io.js';
import { sessionIdProblem } from '../events/session-id.js';

export interface FireOptions {
  input?: string;
  cwd?: string;
  sessionId?: string;
  transcriptPath?: string;
  dialect?: string;
  config?: string;
  model?: string;
  baseUrl?: string;
}

/** `hookline fire`: one event through the named hook system; prints `{output, runs, heldBack}`. */
export async function fire(event: string, opts: FireOptions): Promise<void> {
  const system = await systemNamed(opts.dialect);
  const badId = opts.sessionId !== undefined ? sessionIdProblem(opts.sessionId, '--session-id') : undefined;
  if (badId) throw new UsageError(badId);
  const fields = readInput(opts.input);
  const badInputId = typeof fields.session_id === 'string' ? sessionIdProblem(fields.session_id, 'input session_id') : undefined;
  if (badInputId) throw new UsageError(badInputId);
  const given = opts.cwd ?? (typeof fields.cwd === 'string' && fields.cwd ? fields.cwd : undefined);
  const r = await system.fire(event, fields, {
    cwd: resolveDir(given),
    cwdFlag: opts.cwd,
    sessionId: opts.sessionId,
    transcriptPath: opts.transcriptPath,
    config: opts.config,
    hasModel: opts.model !== undefined,
    model: opts.model === undefined ? undefined : async () => (await import('./model.js')).modelFromFlags(opts.model!, opts.baseUrl),
    env: process.env,
  });
  for (const w of r.warnings) warn(w);
  for (const l of r.raw ?? []) process.stderr.write(`${l}\n`);
  if (r.exitCode) {
    process.exitCode = r.exitCode;
    return;
  }
  process.stdout.write(JSON.stringify({ output: r.output, runs: r.runs, heldBack: r.heldBack }, null, 2) + '\n');
}
