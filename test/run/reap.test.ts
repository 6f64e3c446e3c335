import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { runHook as runCommand } from './util.js';
import { reapCounts } from '../../src/run/reap.js';
import { alive, tmpFile, waitUntil } from '../helpers.js';

// The run-id reaper on its own: without a cgroup per run, only the run id finds these.
process.env.HOOKLINE_NO_CGROUP = '1';

test("processes that left the hook's process group (setsid) are killed once the hook is over", async () => {
  const pids = tmpFile('pids');
  // The hook answers only once both daemons have written their pids.
  const command = `setsid sleep 300 & echo $! >> '${pids}'; (setsid bash -c 'sleep 301 & echo $! >> "${pids}"; wait' &); until [ "$(wc -l < '${pids}')" -ge 2 ]; do sleep 0.01; done; echo '{"decision":"allow"}'`;
  const r = await runCommand({ command, cwd: '/tmp', env: { PATH: process.env.PATH! }, stdin: '{}', timeoutMs: 60_000 });
  assert.equal(r.success, true, r.error);
  assert.equal(r.output?.decision, 'allow');
  const ids = fs.readFileSync(pids, 'utf8').trim().split('\n').map(Number);
  assert.equal(ids.length, 2);
  assert.ok(await waitUntil(() => !ids.some(alive)), `daemons survived the hook: ${ids.filter(alive).join(' ')}`);
});

test('without containment every run is scanned for by its run id, and its setsid daemon dies', async () => {
  const pids = tmpFile('pids');
  const before = reapCounts.requested;
  const command = `setsid sleep 302 & echo $! >> '${pids}'; echo '{"decision":"allow"}'`;
  const r = await runCommand({ command, cwd: '/tmp', env: { PATH: process.env.PATH! }, stdin: '{}', timeoutMs: 60_000 });
  assert.equal(r.output?.decision, 'allow');
  // Asked for as the run ends, a moment after its result.
  assert.ok(await waitUntil(() => reapCounts.requested > before), 'a scan was asked for');
  const ids = fs.readFileSync(pids, 'utf8').trim().split('\n').map(Number);
  assert.ok(await waitUntil(() => !ids.some(alive)), `daemon survived the hook: ${ids.filter(alive).join(' ')}`);
});
