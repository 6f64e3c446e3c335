import fs from 'node:fs/promises';
import path from 'node:path';
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
  const stack: Array<{ dir: string; rules: IgnoreRules }> = [{ dir: opts.start, rules: ignoreRulesFor(opts.root, opts.start, git, gemini) }];
  while (stack.length > 0) {
    const { dir, rules } = stack.pop()!;
    let names: import('node:fs').Dirent[];
    try {
      names = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: Array<{ dir: string; rules: IgnoreRules }> = [];
    for (const d of names) {
      if (opts.signal?.aborted) return;
      if (++visited > max) {
        stats.truncated = true;
        return;
      }
      if (isBlockedName(d.name)) continue;
      const abs = path.join(dir, d.name);
      const rel = relPath(opts.root, abs);
      let isDir = d.isDirectory();
      let isFile = d.isFile();
      if (d.isSymbolicLink()) {
        let target: string;
        try {
          target = realResolve(abs);
        } catch {
          continue;
        }
        if (!isInside(opts.root, target) || relPath(opts.root, target).split('/').some(isBlockedName)) continue;
        try {
          const st = await fs.stat(target);
          isDir = false; // never follow linked folders: no loops, no double counting
          isFile = st.isFile();
        } catch {
          continue;
        }
      }
      if (isDir && skip.has(d.name)) continue;
      if (!isDir && !isFile) continue;
      if (rules.ignored(rel, isDir)) {
        stats.ignored++;
        continue;
      }
      if (isDir) {
        subdirs.push({ dir: abs, rules: useGit ? rules.withFile(path.join(abs, '.gitignore'), rel) : rules });
        continue;
      }
      let st;
      try {
        st = await fs.stat(abs);
      } catch {
        continue;
      }
      yield { abs, rel, sub: relPath(opts.start, abs), size: st.size, mtimeMs: st.mtimeMs };
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
  }
}
