import { allSystems, systemNamed } from './registry.js';
import type { HookSystem } from './system.js';

export interface ValidateAllOptions {
  cwd: string;
  /** The folder as the user gave it, for messages. */
  cwdFlag?: string;
  /** One hook system; without, every one configured for the folder. */
  dialect?: string;
  config?: string;
  pluginDirs?: string[];
  env: NodeJS.ProcessEnv;
}

/**
 * Every configuration problem of one hook system, or of every system found for the folder (as
 * `hookline list` shows them): the lines `hookline validate` prints, what `--json` prints, and
 * the number of errors. The CLI and `hookline serve` answer with this.
 */
export async function validateSystems(opts: ValidateAllOptions): Promise<{ errors: number; lines: string[]; json: unknown }> {
  const systems: HookSystem[] =
    opts.dialect !== undefined
      ? [await systemNamed(opts.dialect)]
      : (await allSystems()).filter((s) => s.configured({ cwd: opts.cwd, env: opts.env }));
  const results = systems.map((s) => ({
    name: s.name,
    describe: s.describeConfig,
    v: s.validate({ cwd: opts.cwd, cwdFlag: opts.cwdFlag, config: opts.config, pluginDirs: opts.pluginDirs, env: opts.env }),
  }));
  const errors = results.reduce((n, r) => n + r.v.errors, 0);
  const json =
    opts.dialect !== undefined ? results[0].v.json : { errors, dialects: Object.fromEntries(results.map((r) => [r.name, r.v.json])) };
  const lines =
    results.length === 1 ? results[0].v.lines : results.flatMap((r) => [`${r.name} (${r.describe}):`, ...r.v.lines.map((l) => `  ${l}`)]);
  return { errors, lines, json };
}
