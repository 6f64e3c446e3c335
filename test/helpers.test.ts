// The helpers other tests lean on: alive() must call a zombie gone, or a leftover-process check
// could fail on a process that was killed but not yet reaped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import { alive, waitUntil } from './helpers.js';

const state = (pid: number) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat[stat.lastIndexOf(')') + 2];
};

test('alive(): a running process is alive; a zombie and a missing pid are not', {
  skip: !fs.existsSync('/proc/self/stat') && 'needs /proc',
}, async () => {
  // bash starts a child, then becomes `sleep`, which never reaps it: the child stays a zombie. The
  // child ends only once its parent is `sleep` (were it to end first, bash could reap it).
  const parent = spawn(
    'bash',
    ['-c', `sh -c 'while [ "$(cat /proc/$PPID/comm)" != sleep ]; do sleep 0.01; done' & echo $!; exec sleep 60`],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  try {
    const child = await new Promise<number>((resolve) => parent.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
    assert.ok(await waitUntil(() => state(child) === 'Z'), 'the child never became a zombie');
    assert.doesNotThrow(() => process.kill(child, 0), 'the zombie still has its pid');
    assert.equal(alive(child), false);
    assert.equal(alive(parent.pid!), true);
  } finally {
    parent.kill('SIGKILL');
  }
  const pid = parent.pid!;
  assert.ok(await waitUntil(() => !fs.existsSync(`/proc/${pid}`)), 'node reaps its own child');
  assert.equal(alive(pid), false);
  assert.throws(() => alive(Number('x')), /not a pid/);
});
