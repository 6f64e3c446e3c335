// How streamed model text is cut into the chunks AfterModel hooks see: whole lines, whatever
// the provider's deltas were.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Coalescer, coalesce, MAX_HOLD } from '../../src/agent/coalesce.js';

/** Every way of cutting `text` into deltas at the given positions. */
function splitAt(text: string, cuts: number[]): string[] {
  const out: string[] = [];
  let from = 0;
  for (const c of [...cuts].sort((a, b) => a - b)) {
    out.push(text.slice(from, c));
    from = c;
  }
  out.push(text.slice(from));
  return out;
}

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('Coalescer', () => {
  test('a token split across deltas reaches the hooks whole', () => {
    assert.deepEqual(coalesce(['The key is sk-SE', 'CRET42 and nothing else.\n']), ['The key is sk-SECRET42 and nothing else.\n']);
    const c = new Coalescer();
    assert.deepEqual(c.push('The key is sk-SE'), [], 'held until the line is complete');
    assert.equal(c.pending, 'The key is sk-SE'.length);
    assert.deepEqual(c.push('CRET42\nNext'), ['The key is sk-SECRET42\n']);
    assert.deepEqual(c.flush(), ['Next']);
  });

  test('one chunk per line, however the deltas were cut', () => {
    const text = 'line one\nline two has sk-SECRET99 in it\n\nlast line without newline';
    const lines = ['line one\n', 'line two has sk-SECRET99 in it\n', '\n', 'last line without newline'];
    assert.deepEqual(coalesce([text]), lines);
    assert.deepEqual(coalesce([...text]), lines, 'one character per delta');
    const rnd = random(7);
    for (let i = 0; i < 200; i++) {
      const cuts = Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => Math.floor(rnd() * (text.length + 1)));
      assert.deepEqual(coalesce(splitAt(text, cuts)), lines, `cuts ${cuts}`);
    }
  });

  test('the end of the response releases what is held; nothing held gives no chunk', () => {
    const c = new Coalescer();
    assert.deepEqual(c.push('no newline'), []);
    assert.deepEqual(c.flush(), ['no newline']);
    assert.deepEqual(c.flush(), [], 'flushed once');
    assert.deepEqual(coalesce([]), []);
    assert.deepEqual(coalesce(['', '']), []);
    assert.deepEqual(coalesce(['ends with a newline\n']), ['ends with a newline\n']);
  });

  test('a line longer than the hold is released in whole words', () => {
    const words = 'alpha beta gamma delta epsilon zeta eta theta';
    const chunks = coalesce([...words], 12);
    assert.equal(chunks.join(''), words);
    for (const c of chunks) assert.ok(c.length <= 12, `${JSON.stringify(c)} is at most 12 characters`);
    for (const c of chunks.slice(0, -1)) assert.match(c, / $/, 'cut after a space: no word is split');
    // The same cuts whatever the deltas.
    assert.deepEqual(coalesce([words], 12), chunks);
  });

  test('a word longer than the hold is cut at the hold, never inside a surrogate pair', () => {
    assert.deepEqual(coalesce(['x'.repeat(25)], 10), ['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
    const emoji = '😀'.repeat(6); // 12 UTF-16 units
    const chunks = coalesce([emoji], 5);
    assert.equal(chunks.join(''), emoji);
    for (const c of chunks) assert.ok(!/[\ud800-\udbff]$/.test(c) && !/^[\udc00-\udfff]/.test(c), `${JSON.stringify(c)} keeps its pairs`);
  });

  test('a newline after a long line: the line is cut in words, then the newline ends a chunk', () => {
    assert.deepEqual(coalesce(['aaaa bbbb cccc\ndd\n'], 10), ['aaaa bbbb ', 'cccc\n', 'dd\n']);
  });

  test('the hold is documented and bounded', () => {
    assert.equal(MAX_HOLD, 4096);
    const c = new Coalescer();
    c.push('y'.repeat(MAX_HOLD * 3 + 1));
    assert.ok(c.pending <= MAX_HOLD);
    assert.throws(() => new Coalescer(1), RangeError);
  });
});
