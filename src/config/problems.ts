import { visible } from './display.js';

/** A configuration problem: where it is (file and JSON path) and what is wrong. */
export interface ConfigProblem {
  file: string;
  /** JSON path inside the file, e.g. `hooks.BeforeTool[0].hooks[1].command`; empty for the whole file. */
  path: string;
  message: string;
  /** Errors are mistakes to fix (`hookline validate` exits 1); most drop the piece they name, an invalid regex matcher is kept and compared exactly. Warnings keep everything. */
  severity: 'error' | 'warning';
}

export function formatProblem(p: ConfigProblem): string {
  const where = p.path ? `${p.file}: ${p.path}` : p.file;
  return visible(`${p.severity}: ${where}: ${p.message}`);
}

/** Renders a path from segments: `hooks`, `BeforeTool`, 0 -> `hooks.BeforeTool[0]`. */
export function jsonPath(segments: ReadonlyArray<string | number>): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(s)) out += out ? `.${s}` : s;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

/** Input the user gave that cannot be used (a flag, a file, an event name): one line, exit status 1. */
export class UsageError extends Error {}

/** A configuration its own agent refuses to start with (mm): the lines are printed as they are, exit status 1. */
export class ConfigRefusal extends Error {}
