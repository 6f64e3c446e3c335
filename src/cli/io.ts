import fs from 'node:fs';
import path from 'node:path';
import pc from 'picocolors';
import { parseJson } from '../config/jsonc.js';
import { FileTooLargeError, readCappedText, textNestsDeeper, tooDeep } from '../config/limits.js';
import { jsonText, Painted, terminalText, visibleLines } from '../config/display.js';

export { UsageError } from '../config/problems.js';

// A reader that stops early (`hookline trace | head -1`) closes the pipe: stop quietly, as other
// command-line tools do, once any hook still running is stopped.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  // Loaded here only: a command that starts no hook never loads the process layer.
  void import('../run/process.js').then((m) => m.drain()).finally(() => process.exit(process.exitCode ?? 0));
});
import { UsageError } from '../config/problems.js';

export function readInput(source: string | undefined): Record<string, unknown> {
  if (source === undefined) return {};
  const label = source === '-' ? 'input (stdin)' : `input file ${source}`;
  let text: string;
  try {
    text = readCappedText(source === '-' ? 0 : source);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (err instanceof FileTooLargeError) throw new UsageError(`${label} is ${err.message} — give one event's fields`);
    if (e.code === 'ENOENT')
      throw new UsageError(`${label} not found (${path.resolve(source)}) — check the path, or use --input - to read stdin`);
    if (e.code === 'EISDIR') throw new UsageError(`${label} is a folder — name a JSON file`);
    throw new UsageError(`cannot read ${label}: ${e.message}`);
  }
  if (!text.trim()) return {};
  if (textNestsDeeper(text)) throw new UsageError(`${label}: ${tooDeep('its JSON')}`);
  const parsed = parseJson(text);
  if (!parsed.ok) throw new UsageError(`${label}: ${parsed.message} — give the event's fields as one JSON object`);
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    throw new UsageError(
      `${label} is ${got} — give a JSON object with the event's fields, e.g. {"tool_name": "run_shell_command", "tool_input": {}}`,
    );
  }
  return value as Record<string, unknown>;
}

export function resolveDir(dir: string | undefined): string {
  const d = path.resolve(dir ?? process.cwd());
  let st: fs.Stats;
  try {
    st = fs.statSync(d);
  } catch {
    throw new UsageError(`${d}: no such folder — check the path`);
  }
  if (!st.isDirectory()) throw new UsageError(`${d}: not a folder — name the project folder`);
  return d;
}

/** Colour only on a terminal, never with NO_COLOR (https://no-color.org) or TERM=dumb; FORCE_COLOR forces it. */
export function colorsFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env) {
  const on = !env.NO_COLOR && (Boolean(env.FORCE_COLOR) || (Boolean(stream.isTTY) && env.TERM !== 'dumb'));
  return pc.createColors(on);
}

/**
 * One shape for every line Hookline prints on stderr: `hookline: <file or hook>: <what> — <fix>`.
 * The prefix is coloured on a terminal: yellow for a warning, red for an error.
 */
export function formatLine(
  line: string,
  kind: 'warning' | 'error',
  stream: { isTTY?: boolean } = process.stderr,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const c = colorsFor(stream, env);
  const prefix = kind === 'error' ? c.bold(c.red('hookline:')) : c.yellow('hookline:');
  return `${prefix} ${line}`;
}

/**
 * The one place a command's text reaches stdout: every character a terminal would hide or act on
 * is escaped (line breaks kept), whatever the text came from (a hook, a trace file, a model);
 * Hookline's own colours are passed as `paint`ed parts.
 */
export function print(...parts: Array<string | Painted>): void {
  process.stdout.write(`${terminalText(parts)}\n`);
}

/** JSON on stdout: what a program reads is unchanged, what a person sees hides nothing. */
export function printJson(value: unknown): void {
  process.stdout.write(`${jsonText(value, 2)}\n`);
}

/** Hookline's own coloured text (a mark, a prefix), for `print`. */
export const paint = (text: string) => new Painted(text);

export function warn(line: string): void {
  process.stderr.write(`${formatLine(visibleLines(line), 'warning')}\n`);
}

export function error(line: string): void {
  process.stderr.write(`${formatLine(visibleLines(line), 'error')}\n`);
}

export { processFields } from '../run/result.js';
