import { test } from 'node:test';
import assert from 'node:assert/strict';
import { approxJsonSize, JsonSlices, jsonDigest } from '../../src/run/serialize.js';
import { runHook as runCommand } from './util.js';

function viaFile(value: unknown): string {
  return Buffer.concat(new JsonSlices(value).all()).toString('utf8');
}

test('JsonSlices give the same text as JSON.stringify for plain data', () => {
  const values: unknown[] = [
    { a: 1, b: 'two', c: [1, 'x', null, true, { d: undefined, e: 1.5e-7 }], f: undefined, g: '<&>"\\\n\u2028' },
    [undefined, () => 1, 'z'],
    'plain',
    42,
    null,
    { nested: { deeper: { list: Array.from({ length: 50 }, (_, i) => ({ i, s: `v${i}` })) } } },
    { date: new Date(0) },
  ];
  for (const v of values) assert.equal(viaFile(v), JSON.stringify(v));
});

test('a large string is written in slices that parse back to the same string, surrogate pairs kept', () => {
  const slice = 1 << 20;
  // An emoji straddling each slice boundary, escapes and quotes throughout.
  const big = ('a"\\\n'.repeat(slice / 4 - 1) + 'bc😀').repeat(3);
  const value = { tool_response: { llmContent: big }, n: 1 };
  const text = viaFile(value);
  assert.equal(text, JSON.stringify(value));
  assert.deepEqual(JSON.parse(text), value);
});

test('approxJsonSize tells large from small and stops counting at the limit', () => {
  assert.ok(approxJsonSize({ a: 'x'.repeat(10) }) < 100);
  assert.ok(approxJsonSize({ a: ['x'.repeat(2_000_000)] }) > 2_000_000);
  assert.ok(approxJsonSize({ a: 'x'.repeat(5_000_000), b: 'y'.repeat(5_000_000) }, 1000) < 6_000_000);
});

test('a hook gets a large input intact through its stdin pipe, in slices; the digest is taken in the same pass', async () => {
  const value = { hook_event_name: 'AfterTool', tool_response: { llmContent: 'é'.repeat(3 << 20) } };
  const slices = new JsonSlices(value, true);
  const text = JSON.stringify(value);
  const r = await runCommand({
    command: 'wc -c; readlink /proc/self/fd/0 >&2',
    cwd: '/tmp',
    env: { PATH: process.env.PATH! },
    stdin: slices,
  });
  assert.equal(Number(r.stdout.trim()), Buffer.byteLength(text));
  const all = slices.all();
  assert.ok(all.length > 3 && all.every((c) => c.length <= 3 << 20), `${all.length} slices`);
  assert.equal(jsonDigest(value), jsonDigest(text));
  assert.match(r.stderr, /^(pipe|socket):/, 'a pipe, not a file');
});

test('a hook that exits without reading a large input: the run ends, the rest is not written', async () => {
  const value = { tool_response: { llmContent: 'x'.repeat(8 << 20) } };
  const r = await runCommand({ command: 'echo done', cwd: '/tmp', env: { PATH: process.env.PATH! }, stdin: new JsonSlices(value, true) });
  assert.equal(r.exitCode, 0);
  assert.equal(r.stdout.trim(), 'done');
  assert.equal(r.error, undefined);
  // Its digest (for the trace) is still the digest of the whole text.
  assert.equal(jsonDigest(value), jsonDigest(JSON.stringify(value)));
});
