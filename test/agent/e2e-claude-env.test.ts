// End to end: Claude Code settings `env` blocks and `$CLAUDE_ENV_FILE` in `hookline agent`: the
// variables reach the hooks and the agent's later shell commands; an untrusted folder's own
// blocks change nothing.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { agentProject, sq, type AgentProject } from './e2e-util.js';

const YOLO = ['--approval-mode', 'yolo'];
const shell = (command: string) => ({ toolCalls: [{ name: 'run_shell_command', args: { command } }] });
const cc = (command: string, matcher?: string) => [{ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command }] }];

function claudeProject(settings: { project?: unknown; user?: unknown }, trusted = true): AgentProject {
  const p = agentProject({}, { trusted });
  const write = (file: string, v: unknown) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(v));
  };
  if (settings.project !== undefined) write(path.join(p.dir, '.claude', 'settings.json'), settings.project);
  if (settings.user !== undefined) write(path.join(p.home, '.claude', 'settings.json'), settings.user);
  return p;
}

const read = (p: AgentProject, name: string) => fs.readFileSync(path.join(p.dir, name), 'utf8').trim();

describe('Claude Code settings env in the agent', () => {
  test("the project's env block reaches its hooks and the agent's shell commands", async () => {
    const p = claudeProject({
      project: { env: { SAFETY_LEVEL: 'strict' }, hooks: { PreToolUse: cc('echo "$SAFETY_LEVEL" > hook-level.txt', 'Bash') } },
    });
    const r = await p.run({
      prompt: 'go',
      script: [shell('echo "$SAFETY_LEVEL" > shell-level.txt'), { text: 'ok' }],
      args: YOLO,
      env: { HOME: p.home },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(read(p, 'hook-level.txt'), 'strict');
    assert.equal(read(p, 'shell-level.txt'), 'strict');
  });

  test("in an untrusted folder the project's env block changes nothing; the user's applies", async () => {
    const p = claudeProject({ project: { env: { SAFETY_LEVEL: 'off' } }, user: { env: { SAFETY_LEVEL: 'strict', TEAM: 'core' } } }, false);
    const r = await p.run({
      prompt: 'go',
      script: [shell('echo "$SAFETY_LEVEL $TEAM" > shell-level.txt'), { text: 'ok' }],
      args: YOLO,
      env: { HOME: p.home },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(read(p, 'shell-level.txt'), 'strict core');
  });
});

describe('$CLAUDE_ENV_FILE in the agent', () => {
  test('what SessionStart hooks export reaches later shell commands; other events have no CLAUDE_ENV_FILE', async () => {
    const start = `echo 'export GREETING="hello world"' >> "$CLAUDE_ENV_FILE"; echo 'export PATH="$PATH:/opt/hook-tools/bin"' >> "$CLAUDE_ENV_FILE"`;
    const p = claudeProject({
      project: { hooks: { SessionStart: cc(start), PreToolUse: cc('echo "${CLAUDE_ENV_FILE:-none} $GREETING" > pre.txt', 'Bash') } },
    });
    const out = path.join(p.dir, 'shell.txt');
    const r = await p.run({
      prompt: 'go',
      script: [shell(`printf '%s|%s' "$GREETING" "$PATH" > ${sq(out)}`), { text: 'ok' }],
      args: YOLO,
      env: { HOME: p.home },
    });
    assert.equal(r.code, 0, r.stderr);
    const [greeting, pathVar] = fs.readFileSync(out, 'utf8').split('|');
    assert.equal(greeting, 'hello world');
    assert.ok(pathVar.endsWith(':/opt/hook-tools/bin'), pathVar);
    assert.ok(pathVar.split(':').length > 1);
    // Claude Code gives the file to SessionStart only; the exports are for shell commands, not hooks.
    assert.equal(read(p, 'pre.txt'), 'none');
  });
});
