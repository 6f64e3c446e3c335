// A reader that stops early (`hookline --help | head -1`) closes stdout: Hookline stops quietly,
// with no stack trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { CLI } from '../helpers.js';

test('a closed stdout pipe ends hookline quietly: no EPIPE stack trace', async () => {
  // The reading end is closed before the child starts, so its first write fails with EPIPE.
  const child = spawn(process.execPath, [CLI, 'completion', 'zsh'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  assert.doesNotMatch(stderr, /EPIPE|node:events|at /);
  assert.equal(stderr, '');
  assert.equal(code, 0);
});
