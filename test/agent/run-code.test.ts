import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCode } from '../../src/agent/tools/run-code.js';

const ctx = () => {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-code-'));
  return { cwd, signal: new AbortController().signal, env: { PATH: process.env.PATH! }, timeoutMs: 5000 };
};

test('run_code runs python, javascript and bash programs in the workspace', async () => {
  const c = ctx();
  const py = await runCode.run({ language: 'python', code: 'import os\nprint("py", os.getcwd())' }, c);
  assert.match(py.llmContent, new RegExp(`Output: py ${c.cwd}`));
  const js = await runCode.run({ language: 'javascript', code: 'console.log("js", 6 * 7)' }, c);
  assert.match(js.llmContent, /Output: js 42/);
  const sh = await runCode.run({ language: 'bash', code: 'echo sh; exit 3' }, c);
  assert.match(sh.llmContent, /Output: sh/);
  assert.match(sh.llmContent, /Exit Code: 3/);
});

test('code is never pasted into a shell command line', async () => {
  const c = ctx();
  const r = await runCode.run({ language: 'python', code: 'print("$(touch PWNED) `touch PWNED2`")' }, c);
  assert.match(r.llmContent, /\$\(touch PWNED\) `touch PWNED2`/);
  assert.deepEqual(fs.readdirSync(c.cwd), []);
});

test('empty code is refused', async () => {
  const r = await runCode.run({ language: 'bash', code: '  ' }, ctx());
  assert.equal(r.error?.type !== undefined, true);
});
