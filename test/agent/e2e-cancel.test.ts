// Ctrl-C cancels the running turn: hooks and tools in flight stop, mm's postGeneration still runs,
// and `-p` exits 130. Ctrl-C is sent once the hook or tool has written its pid file, never on a
// timer; a hook or tool that was not stopped would go on to write `finished`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { CLI, alive, makeProject, trustDialectHooks, waitUntil } from '../helpers.js';

function runAndInterrupt(
  dir: string,
  env: NodeJS.ProcessEnv,
  script: unknown[],
  readyFile: string,
): Promise<{ code: number | null; stderr: string; interrupted: boolean }> {
  const file = path.join(dir, 'script.jsonl');
  fs.writeFileSync(file, script.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'agent', '-p', 'go', '--model', `scripted:${file}`, '--approval-mode', 'yolo'], {
      cwd: dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let closed = false;
    let interrupted = false;
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', () => {});
    child.on('close', (code) => {
      closed = true;
      resolve({ code, stderr, interrupted });
    });
    // Ready once the pid line is complete; an agent that ends first is reported as it is.
    const ready = () => fs.existsSync(readyFile) && fs.readFileSync(readyFile, 'utf8').endsWith('\n');
    void waitUntil(() => closed || ready(), 120_000).then(() => {
      if (closed) return;
      interrupted = true;
      child.kill('SIGINT');
    });
  });
}

const pidOf = (file: string) => Number(fs.readFileSync(file, 'utf8').trim());

test('Ctrl-C during a hanging hook ends the turn at once; the hook is gone; mm postGeneration still runs', async () => {
  const p = makeProject({
    project: {
      hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: 'echo $$ > hook.pid; sleep 30; touch finished', timeout: 60000 }] }] },
    },
  });
  fs.writeFileSync(path.join(p.dir, 'agent.yaml'), `hooks:\n  postGeneration:\n    - command: cat > post.json\n`);
  trustDialectHooks(p.dir, p.home);
  const r = await runAndInterrupt(
    p.dir,
    p.env,
    [{ toolCalls: [{ name: 'run_shell_command', args: { command: 'touch ran' } }] }, { text: 'never' }],
    path.join(p.dir, 'hook.pid'),
  );
  assert.equal(r.interrupted, true, `the agent ended before the hook started: ${r.stderr}`);
  assert.equal(r.code, 130, r.stderr);
  assert.match(r.stderr, /cancelled/);
  assert.equal(fs.existsSync(path.join(p.dir, 'finished')), false, 'the agent waited for the hook to finish');
  assert.equal(fs.existsSync(path.join(p.dir, 'ran')), false, 'the tool never ran');
  const pid = pidOf(path.join(p.dir, 'hook.pid'));
  assert.ok(await waitUntil(() => !alive(pid)), `the hook process ${pid} is still running`);
  const post = JSON.parse(fs.readFileSync(path.join(p.dir, 'post.json'), 'utf8'));
  assert.equal(post.event, 'postGeneration');
  assert.equal(post.error, 'cancelled');
});

test('Ctrl-C during a long tool stops the command', async () => {
  const p = makeProject({});
  const r = await runAndInterrupt(
    p.dir,
    p.env,
    [{ toolCalls: [{ name: 'run_shell_command', args: { command: 'echo $$ > tool.pid; sleep 30; touch finished' } }] }, { text: 'never' }],
    path.join(p.dir, 'tool.pid'),
  );
  assert.equal(r.interrupted, true, `the agent ended before the command started: ${r.stderr}`);
  assert.equal(r.code, 130, r.stderr);
  assert.equal(fs.existsSync(path.join(p.dir, 'finished')), false, 'the agent waited for the command to finish');
  const pid = pidOf(path.join(p.dir, 'tool.pid'));
  assert.ok(await waitUntil(() => !alive(pid)), `the command ${pid} is still running`);
});
