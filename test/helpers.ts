import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { claudeSystem } from '../src/dialects/claude/system.js';
import { geminiSystem } from '../src/dialects/gemini/system.js';
import { mmSystem } from '../src/dialects/mm/system.js';
import { spatialAgentSystem } from '../src/dialects/spatialagent/system.js';
import { agySystem } from '../src/dialects/agy/system.js';
import { copilotSystem } from '../src/dialects/copilot/system.js';
import { keysToWrite, trustWorkspaceHooks } from '../src/trust/dialects.js';
import { rememberReviewed } from '../src/trust/reviewed.js';

/** The workspace hooks of every hook system in a folder, as `hookline trust` finds them. */
function findWorkspaceHooks(dir: string, env: NodeJS.ProcessEnv) {
  return [geminiSystem, claudeSystem, mmSystem, spatialAgentSystem, agySystem, copilotSystem].flatMap((s) => s.workspaceHooks(dir, env));
}

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURES = path.join(ROOT, 'test', 'fixtures');
export const HOOKS = path.join(FIXTURES, 'hooks');
/** What `hookline` runs once installed: the bundle's launcher (package.json `bin`). */
export const CLI = path.join(ROOT, 'dist', 'bin', 'hookline.cjs');

export interface Project {
  /** The project (workspace) folder. */
  dir: string;
  /** GEMINI_CLI_HOME: holds .gemini/settings.json, trustedFolders.json, trusted_hooks.json. */
  home: string;
  /** An environment pointing Hookline at this project's home, with no system settings. */
  env: NodeJS.ProcessEnv;
}

export interface ProjectOptions {
  /** Project `.gemini/settings.json` content (object or raw text). */
  project?: unknown;
  user?: unknown;
  system?: unknown;
  /** Trust the project folder and its hooks (default true). */
  trusted?: boolean;
  /** Folder name, to test paths with spaces and quotes. */
  name?: string;
}

function writeSettings(file: string, content: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

/** A throwaway project with its own home, so tests never touch the real user's settings. */
export function makeProject(opts: ProjectOptions = {}): Project {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-test-'));
  const dir = path.join(base, opts.name ?? 'project');
  const home = path.join(base, 'home');
  fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
  const systemFile = path.join(base, 'system-settings.json');
  if (opts.project !== undefined) writeSettings(path.join(dir, '.gemini', 'settings.json'), opts.project);
  if (opts.user !== undefined) writeSettings(path.join(home, '.gemini', 'settings.json'), opts.user);
  if (opts.system !== undefined) writeSettings(systemFile, opts.system);
  const env: NodeJS.ProcessEnv = { ...process.env, GEMINI_CLI_HOME: home, GEMINI_CLI_SYSTEM_SETTINGS_PATH: systemFile };
  delete env.GEMINI_CLI_TRUST_WORKSPACE;
  delete env.GITHUB_SHA;
  if (opts.trusted !== false) trustProject(dir, home);
  return { dir, home, env };
}

/**
 * Marks the folder trusted and its workspace hooks fingerprinted with the library's own
 * functions, as `hookline trust` does: the Gemini hooks of `.gemini/settings.json` (new key
 * and `name:command` beside it) and the dialect hooks (agent.yaml, .spatialagent/, .claude/).
 */
export function trustProject(dir: string, home: string): void {
  const real = fs.realpathSync(dir);
  fs.writeFileSync(path.join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [real]: 'TRUST_FOLDER' }));
  const hooks = findWorkspaceHooks(dir, homeEnv(home));
  const keys = hooks.flatMap((h) => keysToWrite(h).write);
  fs.writeFileSync(path.join(home, '.gemini', 'trusted_hooks.json'), JSON.stringify({ [dir]: keys, [real]: keys }));
  rememberReviewed(dir, hooks, { GEMINI_CLI_HOME: home });
}

/** An environment whose home (Gemini's and Claude's) is `home`, with no system settings. */
function homeEnv(home: string): NodeJS.ProcessEnv {
  return { HOME: home, GEMINI_CLI_HOME: home, GEMINI_CLI_SYSTEM_SETTINGS_PATH: path.join(home, 'no-system-settings.json') };
}

/**
 * Fingerprints the workspace hooks now in a project folder, as `hookline trust` would: for tests
 * that write agent.yaml, .spatialagent/ or .claude/ after trusting the project.
 */
export function trustDialectHooks(dir: string, home: string): void {
  trustWorkspaceHooks(dir, findWorkspaceHooks(dir, homeEnv(home)), { GEMINI_CLI_HOME: home });
}

/** A command hook entry for settings. */
export function cmd(command: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'command', command, ...extra };
}

/** Path to a fixture hook script, quoted for the shell. */
export function hook(name: string): string {
  return `'${path.join(HOOKS, name)}'`;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  json: () => any;
}

/** Runs the built `hookline` command as a real process. */
export function runCli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, json: () => JSON.parse(stdout) }));
    child.stdin.end(opts.input ?? '');
  });
}

/**
 * True while a process with this pid exists and is not a zombie. In some containers pid 1 never
 * reaps orphans, so a killed process can linger as a zombie (state Z in /proc/<pid>/stat); it
 * runs nothing and counts as gone.
 */
export function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`not a pid: ${pid}`);
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' && fs.existsSync('/proc/self/stat')) return false;
    // No /proc (not Linux): existence is all we can see.
    try {
      process.kill(pid, 0);
      return true;
    } catch (k) {
      return (k as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
  // The state follows the command name, which is in parentheses and may itself hold ") ".
  return stat[stat.lastIndexOf(')') + 2] !== 'Z';
}

/**
 * Polls `cond` until it holds; false if it still does not after `withinMs`. For what happens on
 * its own schedule (a killed process disappearing, a file being written), never as a delay.
 */
export async function waitUntil(cond: () => boolean, withinMs = 10_000): Promise<boolean> {
  const end = Date.now() + withinMs;
  while (!cond()) {
    if (Date.now() >= end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

/** The first line of a file, once it has been written in full (a pid file, say). */
export async function readWhenWritten(file: string, withinMs = 10_000): Promise<string> {
  let line: string | undefined;
  const done = await waitUntil(() => {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (text.includes('\n')) line = text.slice(0, text.indexOf('\n'));
    return line !== undefined;
  }, withinMs);
  if (!done) throw new Error(`${file} was not written within ${withinMs} ms`);
  return line!;
}

export function tmpFile(name: string): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-')), name);
}
