import fs from 'node:fs';
import path from 'node:path';
import { ErrorType, fail } from './common.js';
import type { ToolResult } from './types.js';
import { isInside } from '../../config/paths.js';

export { isInside };

/**
 * Resolves symlinks along `p` as far as it exists, following dangling links too,
 * so a link inside the workspace that points outside is seen for what it is.
 * The part that does not exist yet is appended as written.
 */
export function realResolve(p: string): string {
  let done = path.parse(p).root;
  let rest = p.slice(done.length).split(path.sep).filter(Boolean);
  let hops = 0;
  while (rest.length > 0) {
    const part = rest.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      done = path.dirname(done);
      continue;
    }
    const next = path.join(done, part);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(next);
    } catch {
      return path.join(next, ...rest);
    }
    if (st.isSymbolicLink()) {
      if (++hops > 40) throw new Error(`Too many levels of symbolic links: ${p}`);
      const target = path.resolve(done, fs.readlinkSync(next));
      done = path.parse(target).root;
      rest = [...target.slice(done.length).split(path.sep).filter(Boolean), ...rest];
      continue;
    }
    done = next;
  }
  return done;
}

/** Gemini CLI keeps tools out of these even inside the workspace (secrets and vendored trees). */
export function isBlockedName(name: string): boolean {
  let n = name.toLowerCase();
  let end = n.length;
  while (end > 0 && (n[end - 1] === ' ' || n[end - 1] === '.')) end--;
  n = n.slice(0, end);
  return n === '.git' || n === '.env' || n === 'node_modules' || (n.startsWith('gha-creds-') && n.endsWith('.json'));
}

/** Workspace-relative path with forward slashes, '.' for the root. */
export function relPath(root: string, p: string): string {
  const rel = path.relative(root, p);
  return rel === '' ? '.' : rel.split(path.sep).join('/');
}

export interface Resolved {
  /** Real absolute path (symlinks resolved): what the tool operates on. */
  path: string;
  /** Real workspace root. */
  root: string;
  /** `path` relative to the root, with forward slashes. */
  rel: string;
}

/** Real path of the workspace root. */
export function workspaceRoot(cwd: string): string {
  return realResolve(path.resolve(cwd));
}

/**
 * Resolves a tool's path argument against the workspace and refuses anything
 * that ends up outside it (`..`, absolute paths, symlinks) or in a blocked place.
 */
export function resolveInWorkspace(cwd: string, input: string): Resolved | ToolResult {
  const root = workspaceRoot(cwd);
  let given = input.replace(/\0/g, '');
  // Models often copy `@path` references from the prompt.
  if (given.startsWith('@') && given.length > 1 && !fs.existsSync(path.resolve(root, given))) given = given.slice(1);
  const attempted = path.resolve(root, given);
  let real: string;
  try {
    real = realResolve(attempted);
  } catch (err) {
    return fail(ErrorType.pathNotInWorkspace, `Failed to resolve path: ${(err as Error).message}`, 'Path resolution failed.');
  }
  const via = real === attempted ? '' : ` (which resolves to "${real}")`;
  if (!isInside(root, real)) {
    const msg = `Path not in workspace: Attempted path "${attempted}"${via} resolves outside the allowed workspace directory: ${root}`;
    return fail(ErrorType.pathNotInWorkspace, msg, 'Path not in workspace.');
  }
  const rel = relPath(root, real);
  if (rel !== '.' && rel.split('/').some(isBlockedName)) {
    const msg = `Path not in workspace: Attempted path "${attempted}"${via} is in a protected location (.git, .env, node_modules or gha-creds-*.json) that tools may not access.`;
    return fail(ErrorType.pathNotInWorkspace, msg, 'Path not in workspace.');
  }
  return { path: real, root, rel };
}

export function isFailure(r: Resolved | ToolResult): r is ToolResult {
  return 'llmContent' in r;
}
