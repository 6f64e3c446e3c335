// The server keeps what a client sent and bounds what it starts: an id beyond 2^53 comes back as
// it was written, and a batch of many events runs its hook processes a few at a time, in turn.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI, cmd, makeProject, type Project } from '../helpers.js';

const children: ChildProcess[] = [];
after(() => {
  for (const c of children) c.kill('SIGKILL');
});

async function serve(p: Project, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const socket = path.join(fs.mkdtempSync(path.join(path.dirname(p.dir), 'sock-')), 'h.sock');
  const child = spawn(process.execPath, [CLI, 'serve', '--socket', socket], {
    env: { ...p.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((r) => readline.createInterface({ input: child.stdout! }).once('line', () => r()));
  return socket;
}

/** Sends one line and returns the first answer line, as text. */
async function ask(socket: string, line: string): Promise<string> {
  const c = net.connect(socket);
  c.write(`${line}\n`);
  const answer = await new Promise<string>((r) => readline.createInterface({ input: c }).once('line', r));
  c.destroy();
  return answer;
}

test('numeric ids beyond 2^53 come back exactly as written, alone and in a batch', async () => {
  const p = makeProject();
  const socket = await serve(p);
  const big = '123456789012345678901234567890';
  const one = await ask(socket, `{"jsonrpc":"2.0","id":${big},"method":"reload"}`);
  assert.ok(one.includes(`"id":${big}`), one);
  const batch = await ask(socket, `[{"jsonrpc":"2.0","id":9007199254740993,"method":"reload"},{"jsonrpc":"2.0","id":7,"method":"reload"}]`);
  assert.ok(batch.includes('"id":9007199254740993'), batch);
  assert.ok(batch.includes('"id":7'), batch);
  const small = await ask(socket, `{"jsonrpc":"2.0","id":42,"method":"nope"}`);
  assert.equal(JSON.parse(small).id, 42);
});

test('a batch of events runs at most HOOKLINE_MAX_HOOK_PROCESSES hooks at once; none times out waiting', async () => {
  const log = path.join(makeProject().dir, 'overlap.log');
  const hook = cmd(`cat >/dev/null; echo start >> '${log}'; sleep 0.2; echo end >> '${log}'`, { timeout: 3000 });
  const p = makeProject({ user: { hooks: { BeforeTool: [{ hooks: [hook] }] } } });
  const socket = await serve(p, { HOOKLINE_MAX_HOOK_PROCESSES: '2' });
  const n = 8;
  const batch = Array.from({ length: n }, (_, i) => ({
    jsonrpc: '2.0',
    id: i,
    method: 'fire',
    params: { event: 'BeforeTool', cwd: p.dir, input: { tool_name: 'run_shell_command', tool_input: {} } },
  }));
  const answers = JSON.parse(await ask(socket, JSON.stringify(batch))) as Array<{
    result: { runs: Array<{ success: boolean; error: string | null }> };
  }>;
  assert.equal(answers.length, n);
  for (const a of answers)
    assert.deepEqual(
      a.result.runs.map((r) => [r.success, r.error]),
      [[true, null]],
    );
  let now = 0;
  let most = 0;
  for (const l of fs.readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
    now += l === 'start' ? 1 : -1;
    most = Math.max(most, now);
  }
  assert.equal(most, 2, 'two at a time, never more');
});
