/**
 * Context files the agent puts in its system prompt, as Gemini CLI (GEMINI.md) and Claude Code
 * (CLAUDE.md) do, and AGENTS.md: the user's own (`~/.gemini/GEMINI.md`, `~/.claude/CLAUDE.md`),
 * then the project's, from its git root (or the folder itself) down to the folder:
 * `GEMINI.md`, `AGENTS.md`, `CLAUDE.md`, `.claude/CLAUDE.md`, and `CLAUDE.local.md`. A workspace
 * that is not trusted gives none: its files could steer the model.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { userGeminiDir } from '../config/paths.js';
import { claudeHome } from '../dialects/claude/plugins.js';

export interface ContextFile {
  file: string;
  /** Claude Code's memory types: the user's own, the project's, the project's uncommitted local one. */
  scope: 'User' | 'Project' | 'Local';
  text: string;
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
  const candidates: Array<[string, ContextFile['scope']]> = [
    [path.join(user.gemini, 'GEMINI.md'), 'User'],
    [path.join(user.claude, 'CLAUDE.md'), 'User'],
  ];
  if (workspaceTrusted)
    for (const dir of projectDirs(cwd)) for (const [name, scope] of PROJECT_FILES) candidates.push([path.join(dir, name), scope]);
  const seen = new Set<string>();
  const out: ContextFile[] = [];
  for (const [file, scope] of candidates) {
    const text = read(file);
    if (text === undefined) continue;
    // A CLAUDE.md that links to AGENTS.md is one file.
    let real: string;
    try {
      real = fs.realpathSync(file);
    } catch {
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    out.push({ file, scope, text });
  }
  return out;
}

/** The system prompt with each file's text after it, marked as Gemini CLI marks them. */
export function withContextFiles(system: string, files: readonly ContextFile[]): string {
  if (!files.length) return system;
  const blocks = files.map((f) => `--- Context from: ${f.file} ---\n${f.text.trim()}\n--- End of Context from: ${f.file} ---`);
  return [system, ...blocks].join('\n\n');
}
