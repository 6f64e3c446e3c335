/**
 * Context files the agent puts in its system prompt, as Gemini CLI (GEMINI.md) and Claude Code
 * (CLAUDE.md) do, and AGENTS.md: the user's own (`~/.gemini/GEMINI.md`, `~/.claude/CLAUDE.md`),
 * then the project's, from its git root (or the folder itself) down to the folder:
 * `GEMINI.md`, `AGENTS.md`, `CLAUDE.md`, `.claude/CLAUDE.md`, and `CLAUDE.local.md`. A workspace
 * that is not trusted gives none: its files could steer the model.
 *
 * A file's `@path` imports (outside code) follow it, as both agents read them: relative to the
 * file, `~/` for the home, at most 5 deep; only from inside the importing file's own root (the
 * project, or the user's folders), so a project file cannot pull the user's files into the prompt.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { userGeminiDir } from '../config/paths.js';
import { claudeHome } from '../dialects/claude/plugins.js';
import { isInside } from './tools/paths.js';

export interface ContextFile {
  file: string;
  /** Claude Code's memory types: the user's own, the project's, the project's uncommitted local one. */
  scope: 'User' | 'Project' | 'Local';
  text: string;
  /** `include`: imported by `parent` with `@path`. */
  reason: 'session_start' | 'include';
  parent?: string;
}

/** Bigger files are skipped: they would crowd out the conversation. */
const MAX_BYTES = 256 * 1024;

const PROJECT_FILES: ReadonlyArray<[string, ContextFile['scope']]> = [
  ['GEMINI.md', 'Project'],
  ['AGENTS.md', 'Project'],
  ['CLAUDE.md', 'Project'],
  [path.join('.claude', 'CLAUDE.md'), 'Project'],
  ['CLAUDE.local.md', 'Local'],
];

/** The folders from the git root above `cwd` (or `cwd` alone) down to `cwd`. */
function projectDirs(cwd: string): string[] {
  const chain: string[] = [];
  for (let d = path.resolve(cwd); ; d = path.dirname(d)) {
    chain.unshift(d);
    if (fs.existsSync(path.join(d, '.git'))) return chain;
    if (path.dirname(d) === d) return [path.resolve(cwd)];
  }
}

function read(file: string): string | undefined {
  try {
    const st = fs.statSync(file);
    if (!st.isFile() || st.size > MAX_BYTES) return undefined;
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Where the user's own files are: Gemini CLI's folder (`~/.gemini`) and Claude Code's (`~/.claude`). */
export interface UserDirs {
  gemini: string;
  claude: string;
}

export function userDirs(env: NodeJS.ProcessEnv = process.env): UserDirs {
  return { gemini: userGeminiDir(env), claude: claudeHome(os.homedir(), env) };
}

/** The context files found for a session in `cwd`, in the order they are read; each real file once. */
export function findContextFiles(cwd: string, user: UserDirs, workspaceTrusted: boolean): ContextFile[] {
  // The user's own files may import from the user's home.
  const userRoots = [os.homedir(), user.gemini, user.claude];
  const candidates: Array<[string, ContextFile['scope'], string[]]> = [
    [path.join(user.gemini, 'GEMINI.md'), 'User', userRoots],
    [path.join(user.claude, 'CLAUDE.md'), 'User', userRoots],
  ];
  if (workspaceTrusted) {
    const dirs = projectDirs(cwd);
    for (const dir of dirs) for (const [name, scope] of PROJECT_FILES) candidates.push([path.join(dir, name), scope, [dirs[0]]]);
  }
  const seen = new Set<string>();
  const out: ContextFile[] = [];
  const add = (file: string, scope: ContextFile['scope'], roots: string[], parent: string | undefined, depth: number) => {
    const text = read(file);
    if (text === undefined) return;
    // A CLAUDE.md that links to AGENTS.md is one file.
    let real: string;
    try {
      real = fs.realpathSync(file);
    } catch {
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    out.push({ file, scope, text, reason: parent ? 'include' : 'session_start', ...(parent ? { parent } : {}) });
    if (depth >= MAX_IMPORT_DEPTH) return;
    for (const ref of imports(text)) {
      const target = resolveImport(ref, file);
      if (target && insideAny(target, roots)) add(target, scope, roots, file, depth + 1);
    }
  };
  for (const [file, scope, roots] of candidates) add(file, scope, roots, undefined, 0);
  return out;
}

const MAX_IMPORT_DEPTH = 5;

/** The `@path` references of a file's text, outside fenced code blocks and code spans. */
export function imports(text: string): string[] {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const marker = /^\s*(```|~~~)/.exec(line)?.[1];
    if (marker && (!fence || marker === fence)) {
      fence = fence ? undefined : marker;
      continue;
    }
    if (fence) continue;
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/(?:^|\s)@([^\s@`]+)/g)) out.push(m[1].replace(/[),.;:!?]+$/, ''));
  }
  return out;
}

/** An import's file: relative to the importing file, `~/` from the home; absolute as given. */
function resolveImport(ref: string, from: string): string | undefined {
  if (!ref) return undefined;
  if (ref.startsWith('~/')) return path.join(os.homedir(), ref.slice(2));
  return path.resolve(path.dirname(from), ref);
}

/** Within one of the roots, symbolic links followed. */
function insideAny(file: string, roots: string[]): boolean {
  let real: string;
  try {
    real = fs.realpathSync(file);
  } catch {
    return false;
  }
  return roots.some((r) => {
    let root: string;
    try {
      root = fs.realpathSync(r);
    } catch {
      return false;
    }
    return real !== root && isInside(root, real);
  });
}

/** The system prompt with each file's text after it, marked as Gemini CLI marks them. */
export function withContextFiles(system: string, files: readonly ContextFile[]): string {
  if (!files.length) return system;
  const blocks = files.map((f) => `--- Context from: ${f.file} ---\n${f.text.trim()}\n--- End of Context from: ${f.file} ---`);
  return [system, ...blocks].join('\n\n');
}
