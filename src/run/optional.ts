/**
 * Packages only some commands need (a model provider, say) are optional peer dependencies: not
 * installed with Hookline, loaded when used. Missing, one is a one-line error naming it and the
 * command that installs it.
 */
import { createRequire } from 'node:module';

export class MissingPackage extends Error {}

/** Requires `name` from beside Hookline; `forWhat` says who needs it, `range` which versions fit. */
export function loadOptional<T>(name: string, forWhat: string, range: string): T {
  try {
    return createRequire(import.meta.url)(name) as T;
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code !== 'MODULE_NOT_FOUND' || !err.message.includes(`'${name}'`)) throw e;
    throw new MissingPackage(
      `${forWhat} needs the package ${name}, which is not installed — install it beside hookline: npm install ${name}@${range} (for a global hookline: npm install -g ${name}@${range})`,
    );
  }
}
