import { systemNamed } from '../dialects/registry.js';
import { validateSystems } from '../dialects/validate-all.js';
import { resolveDir, UsageError, print, printJson } from './io.js';

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
    throw new UsageError("--config: names one hook system's file — give --dialect claude, codex, copilot, mm, spatialagent or agy with it");
  const cwd = resolveDir(opts.cwd);
  const single = opts.dialect !== undefined ? await systemNamed(opts.dialect) : undefined;
  if (single && opts.config !== undefined && single.name === 'gemini')
    throw new UsageError(
      '--config names a file of another hook system — add --dialect claude|codex|copilot|mm|spatialagent|agy, or drop it (Gemini settings are found in their usual places)',
    );
  if (opts.pluginDir?.length && single?.name !== 'claude')
    throw new UsageError('--plugin-dir loads Claude Code plugins — add --dialect claude, or drop it');
  const { errors, lines, json } = await validateSystems({
    cwd,
    cwdFlag: opts.cwd,
    dialect: opts.dialect,
    config: opts.config,
    pluginDirs: opts.pluginDir,
    env: process.env,
  });
  if (opts.json) printJson(json);
  else for (const l of lines) print(l);
  return errors ? 1 : 0;
}
