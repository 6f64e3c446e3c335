// The record of reviewed hooks lives in ~/.gemini/hookline, which is also `hookline serve`'s
// default socket folder: creating it must leave it owner-only, or serve refuses to start there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rememberReviewed, reviewedPath } from '../../src/trust/reviewed.js';

test('recording a reviewed hook creates ~/.gemini/hookline owner-only', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-reviewed-'));
  const env = { GEMINI_CLI_HOME: home };
  rememberReviewed(home, [{ id: 'v2:gemini:x', event: 'BeforeTool', command: 'true', files: [] }], env);
  const file = reviewedPath(env);
  assert.ok(fs.existsSync(file));
  assert.equal(fs.statSync(path.dirname(file)).mode & 0o777, 0o700);
});
