import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { alive, hook } from '../helpers.js';
import { HookEngine } from '../../src/engine/index.js';
import type { Project } from '../helpers.js';
import { runCommand, type CommandRun } from '../../src/run/command.js';
import { decideRun } from '../../src/decide/run.js';
import type { RunResult } from '../../src/run/result.js';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Pids a fixture appended to `file`, one per line. */
export function readPids(file: string): number[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map(Number);
}

/** Pids still alive `withinMs` after the call (polls, as a SIGKILL takes a moment to land). */
/** Waits until `file` lists `n` pids (the fixture is then running). */
export async function pidsReady(file: string, n: number): Promise<number[]> {
  // A safety net for a fixture that never starts, not a measure of speed.
  const giveUp = Date.now() + 60_000;
  for (;;) {
    const pids = readPids(file);
    if (pids.length >= n) return pids;
    if (Date.now() > giveUp) throw new Error(`${file} never listed ${n} pids`);
    await sleep(20);
  }
}

export async function survivors(pids: number[], withinMs = 5000): Promise<number[]> {
  const end = Date.now() + withinMs;
  let left = pids.filter(alive);
  while (left.length && Date.now() < end) {
    await sleep(20);
    left = left.filter(alive);
  }
  return left;
}

/** Fresh empty folder. */
export function tmpDir(prefix = 'hookline-run-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A shell command running fixture `name` with the given (already shell-safe) argument text. */
export function fixture(name: string, args = ''): string {
  return `${hook(name)}${args ? ' ' + args : ''}`;
}

/** Single-quotes a string for bash. */
export function q(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** What run-capture.sh saw. */
export interface Captured {
  stdin: string;
  cwd: string;
  env: Record<string, string>;
  args: string[];
}

export function readCapture(dir: string): Captured {
  const nulList = (f: string) => {
    const t = fs.readFileSync(path.join(dir, f), 'utf8');
    return t === '' ? [] : t.replace(/\0$/, '').split('\0');
  };
  const env: Record<string, string> = {};
  for (const kv of nulList('env')) {
    const i = kv.indexOf('=');
    env[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return {
    stdin: fs.readFileSync(path.join(dir, 'stdin'), 'utf8'),
    cwd: fs.readFileSync(path.join(dir, 'cwd'), 'utf8').replace(/\n$/, ''),
    env,
    args: nulList('args'),
  };
}

/** An engine for a test project, reading only that project's settings. */
export function engineFor(
  p: Project,
  opts: { env?: NodeJS.ProcessEnv; sessionId?: string; watchConfig?: boolean; configCheckIntervalMs?: number } = {},
): HookEngine {
  return new HookEngine({
    cwd: p.dir,
    env: { ...p.env, ...opts.env },
    sessionId: opts.sessionId,
    watchConfig: opts.watchConfig ?? false,
    configCheckIntervalMs: opts.configCheckIntervalMs,
  });
}

/** Every file or folder under `root` whose name starts with `prefix`. */
export function findNamed(root: string, prefix: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.name.startsWith(prefix)) found.push(p);
      if (e.isDirectory()) walk(p);
    }
  };
  walk(root);
  return found;
}

/** A one-shot command hook run as the engine does it: the process, then src/decide's reading. */
export async function runHook(run: CommandRun): Promise<RunResult> {
  return decideRun(await runCommand(run));
}
