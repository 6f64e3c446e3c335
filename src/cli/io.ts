import fs from 'node:fs';
import path from 'node:path';

/** A usage error: printed as one line on stderr, exit status 1. */
export class UsageError extends Error {}

export function readInput(source: string | undefined): Record<string, unknown> {
  if (source === undefined) return {};
  let text: string;
  try {
    text = source === '-' ? fs.readFileSync(0, 'utf8') : fs.readFileSync(source, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read input ${source === '-' ? 'from stdin' : `file ${source}`}: ${(err as Error).message}`);
  }
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`input ${source === '-' ? '(stdin)' : source} is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`input ${source === '-' ? '(stdin)' : source} must be a JSON object with the event's fields`);
  return value as Record<string, unknown>;
}

export function resolveDir(dir: string | undefined): string {
  const d = path.resolve(dir ?? process.cwd());
  let st: fs.Stats;
  try {
    st = fs.statSync(d);
  } catch {
    throw new UsageError(`no such folder: ${d}`);
  }
  if (!st.isDirectory()) throw new UsageError(`not a folder: ${d}`);
  return d;
}

export function warn(line: string): void {
  process.stderr.write(`hookline: ${line}\n`);
}
