import fs from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { fdir } from 'fdir';
import { IgnoreRules, inGitRepo } from './ignore.js';
import { isBlockedName, isInside, realResolve, relPath } from './paths.js';

/** Folders no search descends into (Gemini CLI's glob excludes). */
export const ALWAYS_SKIPPED = ['node_modules', '.git', 'bower_components', '.svn', '.hg'];
/** Also skipped by search_file_content unless no_ignore is set (as Gemini CLI passes to ripgrep). */
export const BUILD_DIRS = ['.vscode', '.idea', 'dist', 'build', 'coverage', '__pycache__'];

export interface WalkEntry {
  /** Absolute path of the entry inside the workspace (a symlink stays a link path). */
  abs: string;
  /** Relative to the workspace root. */
  rel: string;
  /** Relative to where the walk started. */
  sub: string;
  size: number;
  mtimeMs: number;
}

export interface WalkOptions {
  /** Real workspace root. */
  root: string;
  /** Real folder to walk, inside root. */
  start: string;
  skipDirs?: string[];
  respectGitIgnore?: boolean;
  respectGeminiIgnore?: boolean;
  signal?: AbortSignal;
  /** Stop after visiting this many entries. */
  maxEntries?: number;
}

export interface WalkStats {
  ignored: number;
  truncated: boolean;
}

/** Rules of .geminiignore and the .gitignore files from the root down to `start`. */
export function ignoreRulesFor(root: string, start: string, git: boolean, gemini: boolean): IgnoreRules {
  let rules = IgnoreRules.empty();
  if (gemini) rules = rules.withFile(path.join(root, '.geminiignore'), '');
  if (git && inGitRepo(root)) {
    const parts = relPath(root, start) === '.' ? [] : relPath(root, start).split('/');
    for (let i = 0; i <= parts.length; i++) {
      const base = parts.slice(0, i).join('/');
      rules = rules.withFile(path.join(root, ...parts.slice(0, i), '.gitignore'), base);
    }
  }
  return rules;
}

/** Depth-first name order: a folder's files before its subfolders, each in name order. */
function walkOrder(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; ; i++) {
    if (x[i] === y[i]) continue;
    const xFile = i === x.length - 1;
    if (xFile !== (i === y.length - 1)) return xFile ? -1 : 1;
    return x[i] < y[i] ? -1 : 1;
  }
}

/**
 * Lists files under `start` depth-first in name order, never leaving the workspace:
 * symlinked folders are not followed and symlinked files count only when their
 * target is inside the workspace.
 */
export async function* walkFiles(opts: WalkOptions, stats: WalkStats): AsyncGenerator<WalkEntry> {
  const skip = new Set(opts.skipDirs ?? ALWAYS_SKIPPED);
  const git = opts.respectGitIgnore ?? true;
  const gemini = opts.respectGeminiIgnore ?? true;
  const useGit = git && inGitRepo(opts.root);
  const max = opts.maxEntries ?? 200_000;
  let visited = 0;
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  if (opts.signal?.aborted) return;
  const counted = (): boolean => {
    if (++visited <= max) return true;
    stats.truncated = true;
    stop.abort();
    return false;
  };
  // The rules in force inside each folder walked (absolute path, no trailing slash).
  const rulesIn = new Map<string, IgnoreRules>([[opts.start, ignoreRulesFor(opts.root, opts.start, git, gemini)]]);
  const crawl = new fdir()
    .withFullPaths()
    .withAbortSignal(stop.signal)
    .exclude((name, dirPath) => {
      if (!counted()) return true;
      const abs = dirPath.replace(/\/+$/, '');
      if (isBlockedName(name) || skip.has(name)) return true;
      const rel = relPath(opts.root, abs);
      const rules = rulesIn.get(path.dirname(abs))!;
      if (rules.ignored(rel, true)) {
        stats.ignored++;
        return true;
      }
      rulesIn.set(abs, useGit ? rules.withFile(path.join(abs, '.gitignore'), rel) : rules);
      return false;
    })
    .filter((abs) => {
      if (!counted()) return false;
      const name = path.basename(abs);
      if (isBlockedName(name)) return false;
      if (rulesIn.get(path.dirname(abs))!.ignored(relPath(opts.root, abs), false)) {
        stats.ignored++;
        return false;
      }
      return true;
    })
    .crawl(opts.start);
  let files: string[];
  try {
    files = await crawl.withPromise();
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }
  const entries = files.map((abs) => ({ abs, sub: relPath(opts.start, abs) })).sort((a, b) => walkOrder(a.sub, b.sub));
  for (const { abs, sub } of entries) {
    if (opts.signal?.aborted) return;
    let st: Stats;
    try {
      // fdir reports links (to files or folders) as files without following them
      if ((await fs.lstat(abs)).isSymbolicLink()) {
        const target = realResolve(abs);
        if (!isInside(opts.root, target) || relPath(opts.root, target).split('/').some(isBlockedName)) continue;
      }
      st = await fs.stat(abs);
    } catch {
      continue;
    }
    if (!st.isFile()) continue; // never follow linked folders: no loops, no double counting
    yield { abs, rel: relPath(opts.root, abs), sub, size: st.size, mtimeMs: st.mtimeMs };
  }
}
