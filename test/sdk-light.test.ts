// hookline/sdk run as a real one-shot process: fd 0 and fd 1 read and written directly on pipes and
// files (no stdio streams), and the streams still used when they must be.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const HOOK = path.resolve('test/fixtures/hooks/sdk-light.mjs');
const EVENT = JSON.stringify({ hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'rm -rf /' } });

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `argv` with `stdin` (text written once the hook says it started, in two parts; or a file's fd). */
function run(argv: string[], stdin: string | number): Promise<Run> {
  const child = spawn(argv[0], argv.slice(1), { stdio: [typeof stdin === 'number' ? stdin : 'pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b) => (stdout += b));
  child.stderr.on('data', (b) => {
    stderr += b;
    if (typeof stdin === 'string' && stderr.startsWith('started\n') && child.stdin?.writable) {
      child.stdin.write(stdin.slice(0, 10));
      child.stdin.end(stdin.slice(10));
    }
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

test('one-shot on pipes: the event read from fd 0, the answer on fd 1, no stdio streams loaded', async () => {
  const r = await run([process.execPath, HOOK], EVENT);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { decision: 'deny', reason: 'no' });
  assert.match(r.stderr, /no net/);
});

test('one-shot with the event in a file on stdin', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-light-'));
  const file = path.join(dir, 'event.json');
  fs.writeFileSync(file, EVENT.replace('rm -rf /', 'ls'));
  const fd = fs.openSync(file, 'r');
  try {
    const r = await run([process.execPath, HOOK], fd);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { decision: 'allow' });
  } finally {
    fs.closeSync(fd);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('one-shot: input that is not JSON is a blocking error naming what went wrong', async () => {
  const r = await run([process.execPath, HOOK], 'not json at all');
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /hook input: not JSON/);
});

test('one-shot: a non-blocking stdin whose event comes later is read whole (through process.stdin)', async () => {
  const nonBlocking = 'import os, sys\nos.set_blocking(0, False)\nos.execv(sys.argv[1], sys.argv[1:])';
  const r = await run(['python3', '-c', nonBlocking, process.execPath, HOOK], EVENT);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { decision: 'deny', reason: 'no' });
});

test('one-shot: a timer of the hook pending while it reads keeps the streams (the loop is not blocked)', async () => {
  const r = await run([process.execPath, HOOK, 'timer'], EVENT);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { decision: 'deny', reason: 'no' });
  assert.match(r.stderr, /net loaded/);
});
