import { systemNamed } from '../dialects/registry.js';
import { resolveDir, UsageError } from './io.js';

/** Prints every configuration problem of one hook system; exit status 1 when any is an error. */
export async function validate(opts: { cwd?: string; json?: boolean; dialect?: string; config?: string; model?: string; pluginDir?: string[] }): Promise<number> {
  const system = await systemNamed(opts.dialect);
  if (opts.model !== undefined) throw new UsageError('--model is for `hookline fire --dialect spatialagent` (its prompt hooks)');
  if (opts.config !== undefined && system.name === 'gemini') throw new UsageError('--config is for --dialect mm, spatialagent or claude (Gemini settings are found in their usual places)');
  if (opts.pluginDir?.length && system.name !== 'claude') throw new UsageError('--plugin-dir is for --dialect claude');
  const v = system.validate({ cwd: resolveDir(opts.cwd), cwdFlag: opts.cwd, config: opts.config, pluginDirs: opts.pluginDir, env: process.env });
  process.stdout.write(opts.json ? JSON.stringify(v.json, null, 2) + '\n' : v.lines.map((l) => `${l}\n`).join(''));
  return v.errors ? 1 : 0;
}
