// A path the system refuses (a file where a folder should be, no permission) is the
// environment's problem: one line naming it, exit 1, never "a bug in hookline".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeProject, runCli } from '../helpers.js';

test('hookline agent with a home that is a file: one line naming the path, no stack, no bug report', async () => {
  const p = makeProject();
  const home = path.join(path.dirname(p.dir), 'home-is-a-file');
  fs.writeFileSync(home, '');
  const script = path.join(path.dirname(p.dir), 'script.jsonl');
  fs.writeFileSync(script, `${JSON.stringify({ text: 'hi' })}\n`);
  const r = await runCli(['agent', '-p', 'hi', '--model', `scripted:${script}`], { cwd: p.dir, env: { ...p.env, GEMINI_CLI_HOME: home } });
  assert.equal(r.code, 1);
  assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`^hookline: ENOTDIR: .*${home.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  assert.doesNotMatch(r.stderr, /bug in hookline/);
});
