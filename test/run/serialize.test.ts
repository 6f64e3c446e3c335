import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
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

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

test('large inputs written at once to hooks that read, stop early or read slowly: each reads exactly its own text', async () => {
  // The buffers a large input is written from are used again once a write is done; a hook must
  // never see bytes of another's input, whichever ends first.
  const env = { PATH: process.env.PATH! };
  const values = [
    { tool_response: { llmContent: 'a'.repeat(6 << 20) } },
    { tool_response: { llmContent: 'b"\\\n😀'.repeat(1 << 20) } },
    { tool_response: { llmContent: 'c'.repeat(4 << 20), more: 'é'.repeat(1 << 20) } },
  ];
  const reading = values.map((v) => runCommand({ command: 'sha256sum | cut -c1-64', cwd: '/tmp', env, stdin: new JsonSlices(v) }));
  const slow = runCommand({
    command: 'head -c 100000 >/dev/null; sleep 0.3; sha256sum | cut -c1-64',
    cwd: '/tmp',
    env,
    stdin: new JsonSlices(values[0]),
  });
  const early = values.map((v) => runCommand({ command: 'head -c 1000 >/dev/null', cwd: '/tmp', env, stdin: new JsonSlices(v) }));
  const results = await Promise.all(reading);
  results.forEach((r, i) => assert.equal(r.stdout.trim(), sha(JSON.stringify(values[i])), `hook ${i}`));
  for (const r of await Promise.all(early)) assert.equal(r.exitCode, 0);
  const rest = Buffer.from(JSON.stringify(values[0])).subarray(100000);
  assert.equal((await slow).stdout.trim(), createHash('sha256').update(rest).digest('hex'), 'the slow reader');
  // And again, now that the buffers have been used: the same texts.
  const again = await Promise.all(
    values.map((v) => runCommand({ command: 'sha256sum | cut -c1-64', cwd: '/tmp', env, stdin: new JsonSlices(v) })),
  );
  again.forEach((r, i) => assert.equal(r.stdout.trim(), sha(JSON.stringify(values[i])), `again, hook ${i}`));
});

test('jsonDigest is the digest of the JSON text, small values and large alike', () => {
  const values: unknown[] = [
    { a: 1, b: [undefined, () => 1, 'x'], c: undefined, d: { date: new Date(0) }, e: '"\\\n\u2028😀' },
    [1, 'two', null],
    42,
    { big: 'é'.repeat(200_000), n: [1, 2] },
  ];
  for (const v of values) assert.equal(jsonDigest(v), `sha256:${sha(JSON.stringify(v))}`);
});

test("a lone high surrogate just before a slice boundary, a surrogate pair after it: the text is still JSON.stringify's", () => {
  for (const at of [1 << 14, 1 << 17, (1 << 17) + (1 << 14)]) {
    const value = { s: `${'a'.repeat(at - 1)}\uD800😀${'b'.repeat(2 << 20)}` };
    assert.equal(viaFile(value), JSON.stringify(value), `boundary at ${at}`);
    assert.equal(jsonDigest(value), `sha256:${sha(JSON.stringify(value))}`);
  }
});

test('toJSON is asked with its key and may leave the key out; boxed primitives are their values, as in JSON.stringify', () => {
  const big = 'x'.repeat(3 << 20);
  const value = {
    big,
    gone: { toJSON: () => undefined },
    keyed: { toJSON: (key: string) => `key ${key}` },
    list: [{ toJSON: (key: string) => key }, { toJSON: () => undefined }],
    boxed: [new String('hi'), new Number(5), new Boolean(false)],
  };
  assert.equal(viaFile(value), JSON.stringify(value));
});

test('a large input stops being written at the first failed write (the hook closed its end)', async () => {
  let writes = 0;
  const sink = {
    destroyed: false,
    write(_chunk: Buffer, done: (err?: Error | null) => void) {
      writes++;
      setImmediate(() => done(new Error('write EPIPE')));
      return false;
    },
    end() {},
  };
  new JsonSlices({ big: 'x'.repeat(64 << 20) }).writeTo(sink, (e) => assert.fail(e.message));
  await new Promise((r) => setTimeout(r, 100));
  assert.ok(writes <= 8, `${writes} writes after the first failed`);
});

test('a large input that cannot be written as JSON fails its run with one line; the hook never acts on part of it', async () => {
  const value = { tool_response: { llmContent: 'x'.repeat(3 << 20), n: 1n } };
  const r = await runCommand({
    command: `cat >/dev/null; echo '{"decision":"allow"}'`,
    cwd: '/tmp',
    env: { PATH: process.env.PATH! },
    stdin: new JsonSlices(value),
  });
  assert.equal(r.success, false);
  assert.match(String(r.error), /^cannot write the event as JSON: .*BigInt/);
  assert.equal(r.output, undefined);
});
