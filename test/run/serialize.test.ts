import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { approxJsonSize, writeJson } from '../../src/run/serialize.js';
import { runHook as runCommand } from './util.js';
import { tmpFile } from '../helpers.js';

function viaFile(value: unknown): string {
  const file = tmpFile('out.json');
  const fd = fs.openSync(file, 'w');
  writeJson(fd, value);
  fs.closeSync(fd);
  return fs.readFileSync(file, 'utf8');
}

test('writeJson gives the same text as JSON.stringify for plain data', () => {
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

test('a hook gets a large input intact through the temp file, and the file is gone', async () => {
  const value = { hook_event_name: 'AfterTool', tool_response: { llmContent: 'é'.repeat(3 << 20) } };
  const r = await runCommand({
    command: 'wc -c; ls -l /proc/self/fd/0',
    cwd: '/tmp',
    env: { PATH: process.env.PATH! },
    stdin: { json: value },
  });
  const [bytes, link] = r.stdout.trim().split('\n');
  assert.equal(Number(bytes), Buffer.byteLength(JSON.stringify(value)));
  assert.match(link, /hookline-input-.* \(deleted\)/);
});
