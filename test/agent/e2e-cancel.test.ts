// Ctrl-C cancels the running turn: hooks and tools in flight stop, mm's postGeneration still runs,
// and `-p` exits 130.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { CLI, alive, makeProject, trustDialectHooks } from '../helpers.js';

/** Runs a turn and sends Ctrl-C once `readyFile` (written by the hook or tool in flight) exists. */
function runAndInterrupt(dir: string, env: NodeJS.ProcessEnv, script: unknown[], readyFile: string): Promise<{ code: number | null; stderr: string; ms: number }> {
  const file = path.join(dir, 'script.jsonl');
  fs.writeFileSync(file, script.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [CLI, 'agent', '-p', 'go', '--model', `scripted:${file}`, '--approval-mode', 'yolo'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', () => {});
    const ready = setInterval(() => {
      if (!fs.existsSync(readyFile) || !fs.readFileSync(readyFile, 'utf8').trim()) return;
      clearInterval(ready);
      child.kill('SIGINT');
    }, 20);
    child.on('close', () => clearInterval(ready));
    child.on('close', (code) => resolve({ code, stderr, ms: performance.now() - t0 }));
  });
}

const pidOf = (file: string) => Number(fs.readFileSync(file, 'utf8').trim());

test('Ctrl-C during a hanging hook ends the turn at once; the hook is gone; mm postGeneration still runs', async () => {
  const p = makeProject({ project: { hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: 'echo $$ > hook.pid; sleep 30', timeout: 60000 }] }] } } });
  fs.writeFileSync(path.join(p.dir, 'agent.yaml'), `hooks:\n  postGeneration:\n    - command: cat > post.json\n`);
  trustDialectHooks(p.dir, p.home);
  const r = await runAndInterrupt(p.dir, p.env, [{ toolCalls: [{ name: 'run_shell_command', args: { command: 'touch ran' } }] }, { text: 'never' }], path.join(p.dir, 'hook.pid'));
  assert.equal(r.code, 130, r.stderr);
  assert.ok(r.ms < 6000, `took ${r.ms} ms`);
  assert.match(r.stderr, /cancelled/);
  assert.equal(fs.existsSync(path.join(p.dir, 'ran')), false, 'the tool never ran');
  assert.equal(alive(pidOf(path.join(p.dir, 'hook.pid'))), false, 'the hook process is gone');
  const post = JSON.parse(fs.readFileSync(path.join(p.dir, 'post.json'), 'utf8'));
  assert.equal(post.event, 'postGeneration');
  assert.equal(post.error, 'cancelled');
});

test('Ctrl-C during a long tool stops the command', async () => {
  const p = makeProject({});
  const r = await runAndInterrupt(p.dir, p.env, [{ toolCalls: [{ name: 'run_shell_command', args: { command: 'echo $$ > tool.pid; sleep 30' } }] }, { text: 'never' }], path.join(p.dir, 'tool.pid'));
  assert.equal(r.code, 130, r.stderr);
  assert.ok(r.ms < 6000, `took ${r.ms} ms`);
  await new Promise((res) => setTimeout(res, 300));
  assert.equal(alive(pidOf(path.join(p.dir, 'tool.pid'))), false, 'the command is gone');
});
