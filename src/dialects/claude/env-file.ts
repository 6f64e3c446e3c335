/**
 * `$CLAUDE_ENV_FILE`: SessionStart hooks append `export NAME=value` lines to it, and Claude Code
 * sources it before each Bash command. Here bash sources it once after the hooks ran (the file
 * named as an argument, never as command text) and the variables it set or changed are handed
 * to the agent's shell commands.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { envFrom } from '../../run/process.js';

/** An empty `$CLAUDE_ENV_FILE` only the user can read, in `dir` or else in a new private folder. */
export function freshEnvFile(name: string, dir?: string): { dir: string; file: string } {
  const where = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-claude-env-'));
  const file = path.join(where, name);
  fs.writeFileSync(file, '', { mode: 0o600 });
  return { dir: where, file };
}

/** What sourcing `file` on top of the hooks' environment sets or changes; empty when the file is empty or missing. */
export async function sourcedEnv(
  file: string,
  hookEnv: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ env: Record<string, string>; error?: string }> {
  const base = envFrom(hookEnv);
  let size = 0;
  try {
    size = fs.statSync(file).size;
  } catch {
    return { env: {} };
  }
  if (!size) return { env: {} };
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', 'set -a; . "$1" >/dev/null || exit 1; env -0', 'bash', file], {
      cwd,
      env: base,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => {
      err += b.toString('utf8');
    });
    child.on('error', (e) => resolve({ env: {}, error: e.message }));
    child.on('close', (code) => {
      if (code !== 0) return resolve({ env: {}, error: `sourcing ${file} failed${err.trim() ? `: ${err.trim()}` : ` (exit ${code})`}` });
      const env: Record<string, string> = {};
      for (const entry of Buffer.concat(out).toString('utf8').split('\0')) {
        const eq = entry.indexOf('=');
        if (eq <= 0) continue;
        const name = entry.slice(0, eq);
        const value = entry.slice(eq + 1);
        // bash's own bookkeeping is not something a hook set.
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || name === '_' || name === 'SHLVL' || name === 'PWD' || name === 'OLDPWD') continue;
        if (base[name] !== value) env[name] = value;
      }
      resolve({ env });
    });
  });
}
