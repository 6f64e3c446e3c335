import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { runHook as runCommand } from './util.js';
import { tmpFile } from '../helpers.js';
import { running } from './util.js';

// The run-id reaper on its own: without a cgroup per run, only the run id finds these.
process.env.HOOKLINE_NO_CGROUP = '1';

test('processes that left the hook\'s process group (setsid) are killed once the hook is over', async () => {
  const pids = tmpFile('pids');
  const command = `setsid sleep 300 & echo $! >> '${pids}'; (setsid bash -c 'sleep 301 & echo $! >> "${pids}"; wait' &); sleep 0.3; echo '{"decision":"allow"}'`;
  const r = await runCommand({ command, cwd: '/tmp', env: { PATH: process.env.PATH! }, stdin: '{}', timeoutMs: 5000 });
  assert.equal(r.success, true);
  assert.equal(r.output?.decision, 'allow');
  const ids = fs.readFileSync(pids, 'utf8').trim().split('\n').map(Number);
  assert.equal(ids.length, 2);
  const deadline = Date.now() + 2000;
  while (ids.some(running) && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
  assert.deepEqual(ids.filter(running), [], 'no daemon survives the hook');
});
