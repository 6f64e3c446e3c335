// Where bash reads a value as a variable name it evaluates a subscript in it, and where it reads
// it as code it runs it: `a[$(touch MARKER)]` given as a SpatialAgent query (a tool input) must
// not run in `[[ -v $X ]]`, `printf -v`, `declare`, `read`, `unset`, `${!X}`, an array's keys,
// `eval` or `sh -c "…"`. Each form is first shown to run through a real bash when left to it.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ExpansionError } from '../../src/run/expand.js';
import { expandShell } from '../../src/dialects/spatialagent/variables.js';
import { tmpDir } from './util.js';

const NAME_FORMS: Record<string, string> = {
  condV: '[[ -v $V ]] || true',
  condVQuoted: '[[ -n x && -v "$V" ]] || true',
  testV: 'test -v "$V" || true',
  bracketV: '[ -v "$V" ] || true',
  printfV: 'printf -v "$V" %s x',
  nameref: 'declare -n r=$V; : "$r"',
  read: 'read "$V" <<< x || true',
  unset: 'a=(1); unset "$V"',
  compoundKey: 'a=([$V]=1)',
  indirect: 'echo "${!V}"',
  eval: 'eval ": $V"',
  shC: 'bash -c ": $V"',
};

const forms = (name: string) =>
  Object.entries(NAME_FORMS).map(([k, f]) => [k, f.replaceAll('$V', name).replaceAll('{!V}', `{!${name.slice(1)}}`)] as const);

describe('a value read as a name or as code is not substituted unless it is a plain word', () => {
  test('each form really runs the value when bash expands it itself (the test is meaningful)', () => {
    const dir = tmpDir();
    for (const [name, form] of forms('$V')) {
      // A marker named without a `/`: some builtins refuse a name with one before evaluating it.
      spawnSync('bash', ['-c', form], { cwd: dir, stdio: 'ignore', env: { ...process.env, V: `a[$(touch naive-${name})]` } });
      assert.ok(fs.existsSync(path.join(dir, `naive-${name}`)), `${name}: bash did not run it, so this form proves nothing`);
    }
  });

  test('SpatialAgent: a query used there stops the hook with a reason; nothing runs; a plain word still goes in', () => {
    const dir = tmpDir();
    for (const [name, form] of forms('$QUERY')) {
      const marker = path.join(dir, `sa-${name}`);
      assert.throws(
        () => expandShell(form, { QUERY: `a[$(touch ${marker})]` }),
        (e: unknown) =>
          e instanceof ExpansionError && /QUERY.* is used (where the shell reads it as|in a shell arithmetic context)/.test(e.message),
        name,
      );
      assert.equal(fs.existsSync(marker), false, name);
      if (name !== 'compoundKey') assert.ok(!expandShell(form, { QUERY: 'plain_word' }).includes('$QUERY'), name);
    }
  });

  test("no false alarm: a path with a space as data, a declaration’s value, sh -c '…' left to the inner shell", () => {
    const dir = tmpDir();
    const out = path.join(dir, 'out');
    const value = 'a b [$(touch x)] "quoted"';
    for (const form of [
      'echo "$QUERY"',
      'export MSG="$QUERY"; echo "$MSG"',
      'local_msg=$QUERY; echo "$local_msg"',
      'grep -v "$QUERY" /dev/null; echo "$QUERY"',
    ]) {
      const text = expandShell(`${form} > '${out}'`, { QUERY: value });
      spawnSync('bash', ['-c', text], { cwd: dir, stdio: 'ignore' });
      assert.equal(fs.readFileSync(out, 'utf8'), `${value}\n`, form);
    }
    const inner = expandShell(`bash -c 'echo "$QUERY" > ${out}'`, { QUERY: value });
    assert.ok(inner.includes('$QUERY'), 'left to the inner shell');
    spawnSync('bash', ['-c', inner], { cwd: dir, stdio: 'ignore', env: { ...process.env, QUERY: value } });
    assert.equal(fs.readFileSync(out, 'utf8'), `${value}\n`);
    assert.equal(fs.existsSync(path.join(dir, 'x')), false);
  });
});
