// The real agents the suite runs, pinned: a new version is a one-line change here, then
// `npm run test:agents` lists what changed. Each is installed from npm into a cache folder the
// first time it is needed (HOOKLINE_AGENTS_CACHE, default ~/.cache/hookline/real-agents).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const CLAUDE_CODE_VERSION = '2.1.328';
export const GEMINI_CLI_VERSION = '0.61.0';
export const CODEX_VERSION = '0.169.0';
export const COPILOT_VERSION = '1.0.102';

export interface RealAgent {
  name: string;
  pkg: string;
  version: string;
  /** The program to start, relative to the install folder. */
  bin: string;
}

export const AGENTS = {
  claude: { name: 'Claude Code', pkg: '@anthropic-ai/claude-code', version: CLAUDE_CODE_VERSION, bin: 'node_modules/.bin/claude' },
  gemini: { name: 'Gemini CLI', pkg: '@google/gemini-cli', version: GEMINI_CLI_VERSION, bin: 'node_modules/.bin/gemini' },
  codex: { name: 'Codex CLI', pkg: '@openai/codex', version: CODEX_VERSION, bin: 'node_modules/.bin/codex' },
  copilot: { name: 'Copilot CLI', pkg: '@github/copilot', version: COPILOT_VERSION, bin: 'node_modules/.bin/copilot' },
} satisfies Record<string, RealAgent>;

export function cacheDir(): string {
  return (
    process.env.HOOKLINE_AGENTS_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'hookline', 'real-agents')
  );
}

/** The installed agent's program, installing it first when missing. Throws with npm's output when it cannot. */
export function agentBin(agent: RealAgent): string {
  const dir = path.join(cacheDir(), `${agent.pkg.replace(/[@/]/g, '_')}@${agent.version}`);
  const bin = path.join(dir, agent.bin);
  const done = path.join(dir, '.installed');
  if (fs.existsSync(done) && fs.existsSync(bin)) return bin;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), '{"private": true}\n');
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', `${agent.pkg}@${agent.version}`], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.status !== 0 || !fs.existsSync(bin)) throw new Error(`npm install ${agent.pkg}@${agent.version} failed:\n${r.stdout}\n${r.stderr}`);
  fs.writeFileSync(done, `${agent.version}\n`);
  return bin;
}

export interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * Runs a program in its own process group with closed stdin and ends the whole group when it
 * exits or after `timeoutMs` (agents start native children and leave hook processes behind).
 */
export function runGroup(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number; graceMs?: number },
): Promise<Exited> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const kill = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
    };
    const groupAlive = () => {
      try {
        process.kill(-child.pid!, 0);
        return true;
      } catch {
        return false;
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, opts.timeoutMs ?? 90_000);
    // An agent may leave hooks running when it exits (Claude Code's async and StopFailure hooks):
    // they get a moment to finish, as they would on a user's machine, then the group goes.
    let exited: Promise<void> = Promise.resolve();
    child.on('exit', () => {
      exited = (async () => {
        const until = Date.now() + (opts.graceMs ?? 3000);
        while (groupAlive() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
        kill();
      })();
    });
    child.on('close', async (code) => {
      clearTimeout(timer);
      await exited;
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}
