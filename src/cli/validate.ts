import { HookEngine } from '../engine.js';
import { formatProblem } from '../config/problems.js';
import { resolveDir } from './io.js';
import { dialectOf, rejectDialectOptions } from './dialect.js';

/** Prints every configuration problem; exit status 1 when any is an error. */
export function validate(opts: { cwd?: string; json?: boolean; dialect?: string; config?: string; model?: string }): number | Promise<number> {
  const dialect = dialectOf(opts.dialect);
  if (dialect === 'claude') return import('./claude.js').then((m) => m.validateClaudeCli(opts));
  if (dialect !== 'gemini') return import('./dialects.js').then((m) => m.validateDialect(dialect, opts));
  rejectDialectOptions(opts);
  const engine = new HookEngine({ cwd: resolveDir(opts.cwd), watchConfig: false });
  const problems = engine.problems;
  const errors = problems.filter((p) => p.severity === 'error').length;
  if (opts.json) process.stdout.write(JSON.stringify({ problems, files: engine.loaded.files.filter((f) => f.exists).map((f) => f.file) }, null, 2) + '\n');
  else {
    for (const p of problems) process.stdout.write(formatProblem(p) + '\n');
    const files = engine.loaded.files.filter((f) => f.exists).length;
    process.stdout.write(`${files} settings file(s), ${engine.hooks().length} hook(s), ${errors} error(s), ${problems.length - errors} warning(s)\n`);
  }
  return errors ? 1 : 0;
}
