// Hookline installed inside the real agents: a throwaway home and project, `hookline install`
// run as a user would, then the real agent offline on the loopback model server. What the
// model was shown and which commands ran are read back; the relay's server (started by the
// first event, detached) is stopped at the end.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AGENTS, agentBin, runGroup, type Exited } from './agents.js';
import { startModelServer, type Recorded, type Turn } from './model-server.js';
import { copilotCache } from './copilot.js';
import { ROOT } from '../helpers.js';

export const CLI = path.join(ROOT, 'dist', 'bin', 'hookline.cjs');

export interface Box {
  base: string;
  home: string;
  project: string;
}

export function makeBox(): Box {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-inside-'));
  const box = { base, home: path.join(base, 'home'), project: path.join(base, 'project') };
  fs.mkdirSync(box.home, { recursive: true });
  fs.mkdirSync(box.project, { recursive: true });
  return box;
}

/** Only what a user's agent would have: no settings of the machine running the suite. */
export function boxEnv(box: Box): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const k of ['PATH', 'LANG', 'TERM', 'TMPDIR', 'SHELL']) if (process.env[k]) env[k] = process.env[k];
  return { ...env, HOME: box.home, USER: os.userInfo().username, HOOKLINE_TRACE: '0' };
}

export function write(file: string, text: string, mode?: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, mode === undefined ? undefined : { mode });
}

/** A guard script (bash) that refuses any command naming `word`, in the format given. */
export function guardScript(file: string, word: string, format: 'gemini' | 'claude'): string {
  const deny =
    format === 'gemini'
      ? `{"decision": "deny", "reason": "HK-guard refuses ${word}"}`
      : `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "HK-guard refuses ${word}"}}`;
  write(file, `#!/usr/bin/env bash\ninput=$(cat)\ncase "$input" in *${word}*) echo '${deny}' ;; esac\nexit 0\n`, 0o755);
  return file;
}

export function hookline(box: Box, args: string[], cwd = box.project): Promise<Exited> {
  return runGroup(process.execPath, [CLI, ...args], { cwd, env: boxEnv(box), timeoutMs: 60_000 });
}

export type Host = 'claude' | 'codex' | 'copilot' | 'gemini';

/** A Bash (Claude Code), exec_command (Codex), bash (Copilot CLI) or run_shell_command (Gemini CLI) call that leaves `ran-N` in the project. */
export function shellTurn(agent: Host, n: number): Turn {
  if (agent === 'claude') return { tools: [{ name: 'Bash', input: { command: `touch ran-${n}`, description: `step ${n}` } }] };
  if (agent === 'copilot') return { tools: [{ name: 'bash', input: { command: `touch ran-${n}`, description: `step ${n}` } }] };
  if (agent === 'codex') return { tools: [{ name: 'exec_command', input: { cmd: `touch ran-${n}` } }] };
  return { tools: [{ name: 'run_shell_command', input: { command: `touch ran-${n}` } }] };
}

/** Codex's user config.toml naming the loopback model server (what a case's install then adds to). */
export function codexProvider(box: Box, url: string): string {
  const file = path.join(box.home, '.codex', 'config.toml');
  const provider = [
    'model = "stub-model"',
    'model_provider = "stub"',
    '',
    '[model_providers.stub]',
    'name = "stub"',
    `base_url = ${JSON.stringify(`${url}/v1`)}`,
    'wire_api = "responses"',
    'env_key = "STUB_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
  ].join('\n');
  // Each run has its own server: the provider block is rewritten, the rest of the file kept.
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const rest = old.includes('[model_providers.stub]')
    ? old.slice(old.indexOf('stream_max_retries = 0\n') + 'stream_max_retries = 0\n'.length)
    : old;
  write(file, `${provider}${rest}`);
  return file;
}

export interface AgentRun {
  exited: Exited;
  requests: Recorded[];
  /** Everything of the main requests' contents, as text: what the model was shown. */
  shown: string;
}

/** One prompt through the real agent, on a model server playing `turns`; `args`: more of the agent's flags. */
export async function runAgent(agent: Host, box: Box, turns: Turn[], prompt = 'go', args: string[] = []): Promise<AgentRun> {
  const server = await startModelServer({ turns });
  try {
    const env = boxEnv(box);
    if (agent === 'codex') codexProvider(box, server.url);
    const exited =
      agent === 'copilot'
        ? await runGroup(agentBin(AGENTS.copilot), ['-p', prompt, '--no-auto-update', '--allow-all-tools', ...args], {
            cwd: box.project,
            timeoutMs: 150_000,
            env: {
              ...env,
              XDG_CACHE_HOME: copilotCache(),
              COPILOT_OFFLINE: 'true',
              COPILOT_AUTO_UPDATE: 'false',
              USE_TGREP: 'false',
              COPILOT_PROVIDER_BASE_URL: `${server.url}/v1`,
              COPILOT_PROVIDER_API_KEY: 'dummy',
              COPILOT_MODEL: 'gpt-4.1',
            },
          })
        : agent === 'codex'
          ? await runGroup(
              agentBin(AGENTS.codex),
              ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', prompt],
              { cwd: box.project, timeoutMs: 150_000, env: { ...env, CODEX_HOME: path.join(box.home, '.codex'), STUB_API_KEY: 'test' } },
            )
          : agent === 'claude'
            ? await runGroup(
                agentBin(AGENTS.claude),
                ['-p', prompt, '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions'],
                {
                  cwd: box.project,
                  timeoutMs: 150_000,
                  env: {
                    ...env,
                    ANTHROPIC_API_KEY: 'test',
                    ANTHROPIC_BASE_URL: server.url,
                    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
                    DISABLE_TELEMETRY: '1',
                    DISABLE_AUTOUPDATER: '1',
                    IS_SANDBOX: '1',
                  },
                },
              )
            : await runGroup(agentBin(AGENTS.gemini), ['-p', prompt, '-m', 'gemini-2.5-flash', '--output-format', 'json', '--yolo'], {
                cwd: box.project,
                timeoutMs: 150_000,
                env: {
                  ...env,
                  GEMINI_API_KEY: 'test',
                  GOOGLE_GEMINI_BASE_URL: server.url,
                  GEMINI_CLI_NO_RELAUNCH: 'true',
                  GEMINI_CLI_TRUST_WORKSPACE: 'true',
                },
              });
    const shown = server.requests
      .filter((r) => r.main)
      .map((r) => JSON.stringify(r.body.messages ?? r.body.contents ?? r.body.input ?? r.body))
      .join('\n');
    return { exited, requests: server.requests, shown };
  } finally {
    await server.close();
  }
}

/** Gemini CLI's user settings in the box: its API key sign-in, and what a case adds. */
export function geminiUserSettings(box: Box, extra: Record<string, unknown> = {}): string {
  const file = path.join(box.home, '.gemini', 'settings.json');
  write(file, `${JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, ...extra }, null, 2)}\n`);
  return file;
}

export function ran(box: Box, n: number): boolean {
  return fs.existsSync(path.join(box.project, `ran-${n}`));
}

/** Stops the relay servers started in this box (they outlive the agent on purpose) and removes it. */
export function closeBox(box: Box): void {
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmd.includes('serve') && cmd.includes(box.home)) process.kill(Number(pid), 'SIGKILL');
    } catch {}
  }
  fs.rmSync(box.base, { recursive: true, force: true });
}

/** The relay servers running for this box. */
export function servers(box: Box): number[] {
  const out: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmd.includes('\0serve\0') && cmd.includes(box.home)) out.push(Number(pid));
    } catch {}
  }
  return out;
}
