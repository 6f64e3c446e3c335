import { allSystems, systemNamed } from '../dialects/registry.js';
import type { HookSystem } from '../dialects/system.js';
import { resolveDir, UsageError } from './io.js';

export interface ValidateOptions {
  cwd?: string;
  json?: boolean;
  dialect?: string;
  config?: string;
  model?: string;
  pluginDir?: string[];
}

/**
 * Prints every configuration problem; exit status 1 when any is an error. With `--dialect`, that
 * hook system's configuration; without, every system's configuration found for the folder, as
 * `hookline list` shows them.
 */
export async function validate(opts: ValidateOptions): Promise<number> {
  if (opts.model !== undefined)
    throw new UsageError('--model: only for `hookline fire --dialect spatialagent` (its prompt hooks) — drop it here');
  if (opts.dialect === undefined && opts.config !== undefined)
    throw new UsageError("--config: names one hook system's file — give --dialect mm, spatialagent or claude with it");
  const cwd = resolveDir(opts.cwd);
  const systems: HookSystem[] =
    opts.dialect !== undefined
      ? [await systemNamed(opts.dialect)]
      : (await allSystems()).filter((s) => s.configured({ cwd, env: process.env }));
  const single = systems[0];
  if (opts.dialect !== undefined && opts.config !== undefined && single.name === 'gemini')
    throw new UsageError(
      '--config names a file of another hook system — add --dialect claude|mm|spatialagent|agy, or drop it (Gemini settings are found in their usual places)',
    );
  if (opts.pluginDir?.length && (opts.dialect === undefined || single.name !== 'claude'))
    throw new UsageError('--plugin-dir loads Claude Code plugins — add --dialect claude, or drop it');
  const results = systems.map((s) => ({
    name: s.name,
    describe: s.describeConfig,
    v: s.validate({ cwd, cwdFlag: opts.cwd, config: opts.config, pluginDirs: opts.pluginDir, env: process.env }),
  }));
  const errors = results.reduce((n, r) => n + r.v.errors, 0);
  if (opts.json) {
    const json =
      opts.dialect !== undefined ? results[0].v.json : { errors, dialects: Object.fromEntries(results.map((r) => [r.name, r.v.json])) };
    process.stdout.write(JSON.stringify(json, null, 2) + '\n');
  } else if (results.length === 1) {
    process.stdout.write(results[0].v.lines.map((l) => `${l}\n`).join(''));
  } else {
    process.stdout.write(results.map((r) => [`${r.name} (${r.describe}):`, ...r.v.lines.map((l) => `  ${l}`)].join('\n') + '\n').join(''));
  }
  return errors ? 1 : 0;
}
