import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { changedSnippet, unifiedDiff } from '../../src/agent/tools/diff.js';

// The expected texts are what Gemini CLI's Diff.createPatch(name, old, new, 'Current', 'Proposed',
// {context: 3, ignoreWhitespace: false}) gives, headers and the no-newline marker included.
describe('unifiedDiff', () => {
  test('a one-line edit: the exact patch text Gemini CLI sends as fileDiff', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const after = 'a\nb\nc\nd\nE\nf\ng\nh\n';
    assert.equal(
      unifiedDiff('x.txt', before, after, 'Current', 'Proposed'),
      'Index: x.txt\n' +
        '===================================================================\n' +
        '--- x.txt\tCurrent\n' +
        '+++ x.txt\tProposed\n' +
        '@@ -2,7 +2,7 @@\n' +
        ' b\n c\n d\n-e\n+E\n f\n g\n h\n',
    );
  });

  test('a new file without a final newline, and whitespace-only changes are shown', () => {
    assert.equal(
      unifiedDiff('out.txt', '', 'x', 'Current', 'Proposed'),
      'Index: out.txt\n===================================================================\n--- out.txt\tCurrent\n+++ out.txt\tProposed\n@@ -0,0 +1,1 @@\n+x\n\\ No newline at end of file\n',
    );
    assert.match(unifiedDiff('w.txt', 'a b\n', 'a  b\n'), /^-a b\n\+a {2}b$/m);
  });

  test('the default labels, and no hunk when nothing changed', () => {
    assert.equal(
      unifiedDiff('s.ts', 'x\n', 'x\n'),
      'Index: s.ts\n===================================================================\n--- s.ts\tOriginal\n+++ s.ts\tWritten\n',
    );
  });
});

describe('changedSnippet', () => {
  const lines = (n: number, change?: [number, string]) =>
    Array.from({ length: n }, (_, i) => (change && i + 1 === change[0] ? change[1] : String(i + 1))).join('\n') + '\n';

  test('the changed lines with context, "..." for the rest', () => {
    assert.equal(changedSnippet(lines(14), lines(14, [8, 'X']), 2), '...\n6\n7\nX\n9\n10\n...');
  });

  test('a new file is returned whole, and so is an unchanged one', () => {
    assert.equal(changedSnippet('', 'a\nb'), 'a\nb');
    assert.equal(changedSnippet('a\nb', 'a\nb'), 'a\nb');
  });

  test('a deletion shows the lines around where it was', () => {
    assert.equal(changedSnippet(lines(20), lines(20).replace('10\n', ''), 1), '...\n9\n11\n...');
  });
});
