// The agent's `/hooks disable` on a read-only settings file: one line naming the file, the
// session goes on, the file is unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { agentProject, hookEntry, respond } from './e2e-util.js';

test('/hooks disable on a read-only settings file is refused in one line and the session goes on', async () => {
  const p = agentProject({
    hooks: { BeforeAgent: [{ hooks: [hookEntry(respond(null, { decision: 'deny', reason: 'gate closed' }), { name: 'gate' })] }] },
  });
  const file = path.join(p.dir, '.gemini', 'settings.json');
  fs.chmodSync(file, 0o444);
  const before = fs.readFileSync(file, 'utf8');
  const r = await p.run({ input: '/hooks disable gate\nhello\n/quit\n', script: [{ text: 'unused' }] });
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, /^\s+at /m);
  assert.ok((r.stdout + r.stderr).includes(`${file} is read-only; not changed`), r.stdout + r.stderr);
  assert.equal(fs.readFileSync(file, 'utf8'), before);
  // Still on: the next prompt is blocked by it.
  assert.match(r.stderr, /Agent execution blocked: gate closed/);
  assert.equal(r.calls.length, 0);
});
