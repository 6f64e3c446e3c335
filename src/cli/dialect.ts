/** `--dialect`: which hook system's names, input and configuration `fire` and `validate` speak. */
import { UsageError } from './io.js';

export const DIALECTS = ['gemini', 'mm', 'spatialagent', 'claude'] as const;
export type Dialect = (typeof DIALECTS)[number];

export function dialectOf(name: string | undefined): Dialect {
  const d = name ?? 'gemini';
  if (!(DIALECTS as readonly string[]).includes(d)) throw new UsageError(`unknown dialect "${d}"; expected one of ${DIALECTS.join(', ')}`);
  return d as Dialect;
}

/** The options only the other dialects take. */
export function rejectDialectOptions(opts: { config?: string; model?: string }): void {
  if (opts.config !== undefined) throw new UsageError('--config is for --dialect mm, spatialagent or claude (Gemini settings are found in their usual places)');
  if (opts.model !== undefined) throw new UsageError('--model is for --dialect spatialagent (its prompt hooks)');
}
