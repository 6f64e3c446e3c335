import { systemNamed } from '../dialects/registry.js';
import { readInput, resolveDir, UsageError, warn } from './io.js';

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
  const system = await systemNamed(opts.dialect);
  if (opts.pluginDir?.length && system.name !== 'claude') throw new UsageError('--plugin-dir is for --dialect claude');
  const fields = readInput(opts.input);
  const given = opts.cwd ?? (typeof fields.cwd === 'string' && fields.cwd ? fields.cwd : undefined);
  const r = await system.fire(event, fields, {
    cwd: resolveDir(given),
    cwdFlag: opts.cwd,
    sessionId: opts.sessionId,
    transcriptPath: opts.transcriptPath,
    config: opts.config,
    pluginDirs: opts.pluginDir,
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
  process.stdout.write(JSON.stringify({ output: r.output, runs: r.runs }, null, 2) + '\n');
}
